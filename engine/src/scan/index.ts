import fg from 'fast-glob';
import { BUILTIN_EXCLUDE } from '../config.js';
import type { IntelConfig, ScannedFile } from '../types.js';
import { createFileFilter } from './file-filter.js';

export { createFileFilter, type FileFilter } from './file-filter.js';

export interface ScanOptions {
  /** size and mtime of every file (an lstat each; default true); without them both are 0 */
  stats?: boolean;
}

/**
 * Lists the project's indexable files with size and mtime, sorted by path. Symbolic links are not followed
 * into folders (no loops); links to files are listed and checked by the loader, which refuses targets outside the root.
 */
export async function scanProject(root: string, config: IntelConfig, options: ScanOptions = {}): Promise<ScannedFile[]> {
  const accept = createFileFilter(root, config);
  const entries = await fg(config.include, {
    cwd: root,
    ignore: [...BUILTIN_EXCLUDE, ...config.exclude],
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    stats: options.stats !== false,
    objectMode: true,
    suppressErrors: true,
    unique: true,
  });
  const files: ScannedFile[] = [];
  for (const entry of entries) {
    if (!accept(entry.path)) continue;
    files.push({ path: entry.path, size: entry.stats?.size ?? 0, mtimeMs: entry.stats?.mtimeMs ?? 0 });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files;
}
