import picomatch from 'picomatch';
import { BUILTIN_EXCLUDE } from '../config.js';
import type { IntelConfig, RelPath } from '../types.js';
import { GitignoreRules } from './gitignore.js';
import { globMatcher } from './glob.js';

export type FileFilter = (rel: RelPath) => boolean;

/** What the full scan walks: the folders to start from, and whether to enter a folder on the way. */
export interface ScanFilter {
  accept: FileFilter;
  /** root-relative folders the include globs start in (`''`: the root); none nested in another */
  bases: string[];
  /**
   * False for a folder no accepted file can be in, or that an exclusion names: a folder an exclude glob matches
   * (as the glob walker this replaced pruned them, `src/legacy` as well as `src/legacy/**`) or a .gitignore ignores.
   */
  enter: (rel: string) => boolean;
  /** Tells the filter a folder was listed, and whether it holds a .gitignore (no read needed to know it has none). */
  listed: (rel: string, hasGitignore: boolean) => void;
}

/**
 * The one predicate that decides whether a file belongs to the indexed set. The full scan applies it to what it
 * walks, and the incremental update applies it to a single file, so both always agree.
 */
export function createFileFilter(root: string, config: IntelConfig): FileFilter {
  return createScanFilter(root, config).accept;
}

/** The folders the include globs can match in: their static bases (`src` of `src/**\/*.ts`), or the root. */
function includeBases(include: readonly string[]): string[] {
  const bases: string[] = [];
  for (const glob of include) {
    const s = picomatch.scan(glob);
    const base = s.base.replace(/^\.\/+/, '').replace(/\/+$/, '');
    if (s.negated || !s.isGlob || base === '' || base.includes('\\') || base === '.' || base.startsWith('../') || base.startsWith('/')) return [''];
    bases.push(base);
  }
  const sorted = [...new Set(bases)].sort();
  return sorted.filter((b) => !sorted.some((other) => other !== b && b.startsWith(`${other}/`)));
}

export function createScanFilter(root: string, config: IntelConfig): ScanFilter {
  const included = globMatcher(config.include);
  const excluded = globMatcher([...BUILTIN_EXCLUDE, ...config.exclude]);
  const gitignore = new GitignoreRules(root);
  return {
    accept(rel) {
      if (!rel || rel.startsWith('../') || rel.startsWith('/')) return false;
      if (!included(rel) || excluded(rel)) return false;
      return !gitignore.ignores(rel);
    },
    bases: includeBases(config.include),
    enter: (rel) => !excluded(rel) && !gitignore.ignoresFolder(rel),
    listed: (rel, hasGitignore) => gitignore.listed(rel, hasGitignore),
  };
}
