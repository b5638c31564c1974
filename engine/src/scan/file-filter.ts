import picomatch from 'picomatch';
import { BUILTIN_EXCLUDE } from '../config.js';
import type { IntelConfig, RelPath } from '../types.js';
import { GitignoreRules } from './gitignore.js';

export type FileFilter = (rel: RelPath) => boolean;

/**
 * The one predicate that decides whether a file belongs to the indexed set. The full scan applies it to what it
 * globs, and the incremental update applies it to a single file, so both always agree.
 */
export function createFileFilter(root: string, config: IntelConfig): FileFilter {
  const included = picomatch(config.include, { dot: true });
  const excluded = picomatch([...BUILTIN_EXCLUDE, ...config.exclude], { dot: true });
  const gitignore = new GitignoreRules(root);
  return (rel) => {
    if (!rel || rel.startsWith('../') || rel.startsWith('/')) return false;
    if (!included(rel) || excluded(rel)) return false;
    return !gitignore.ignores(rel);
  };
}
