import { existsSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { BUILTIN_EXCLUDE, OUTPUT_FOLDERS } from '../config.js';
import { LANGUAGES, languageOf } from '../languages/registry.js';
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

const OUTPUT_NAMES = new Set(OUTPUT_FOLDERS);
/** true when some language may keep an output folder: the walk enters them only then */
const ANY_KEEPS_OUTPUT = LANGUAGES.some((l) => l.sourceInOutputFolder);

/**
 * Whether a file below `build`/`out` folders is source: every such folder on its path must be one its language's
 * tools compile (LanguageModule.sourceInOutputFolder); other files there are build output. Memoised per folder.
 */
function outputFolderRule(root: string): (rel: RelPath) => boolean {
  const memo = new Map<string, boolean>();
  const has = (rel: RelPath) => existsSync(path.join(root, rel));
  return (rel) => {
    const segments = rel.split('/');
    let language: ReturnType<typeof languageOf> | undefined;
    for (let i = 0; i < segments.length - 1; i++) {
      if (!OUTPUT_NAMES.has(segments[i])) continue;
      language ??= languageOf(rel);
      if (!language?.sourceInOutputFolder) return false;
      const folder = segments.slice(0, i + 1).join('/');
      const key = `${language.id}\0${folder}`;
      let kept = memo.get(key);
      if (kept === undefined) memo.set(key, (kept = language.sourceInOutputFolder(folder, has)));
      if (!kept) return false;
    }
    return true;
  };
}

export function createScanFilter(root: string, config: IntelConfig): ScanFilter {
  const included = globMatcher(config.include);
  const excluded = globMatcher([...BUILTIN_EXCLUDE, ...config.exclude]);
  const outputOk = outputFolderRule(root);
  const gitignore = new GitignoreRules(root);
  return {
    accept(rel) {
      if (!rel || rel.startsWith('../') || rel.startsWith('/')) return false;
      if (!included(rel) || excluded(rel) || !outputOk(rel)) return false;
      return !gitignore.ignores(rel);
    },
    bases: includeBases(config.include),
    enter: (rel) => !excluded(rel) && (ANY_KEEPS_OUTPUT || !OUTPUT_NAMES.has(rel.slice(rel.lastIndexOf('/') + 1))) && !gitignore.ignoresFolder(rel),
    listed: (rel, hasGitignore) => gitignore.listed(rel, hasGitignore),
  };
}
