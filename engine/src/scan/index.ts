import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { IntelConfig, ScannedFile } from '../types.js';
import { createScanFilter } from './file-filter.js';

export { createFileFilter, createScanFilter, type FileFilter, type ScanFilter } from './file-filter.js';

export interface ScanOptions {
  /** size and mtime of every file (an lstat each; default true); without them both are 0 */
  stats?: boolean;
  /** called with each folder the walk lists (`''`: the root) and its entries */
  onListed?: (rel: string, entries: readonly Dirent[]) => void;
  /**
   * Only for a caller that owns its process (the CLI): stats each file by its bare name from inside its folder
   * (`process.chdir`, the working directory being the process's), so the kernel does not walk every file's full path
   * again: about a quarter less system time at 50,000 files (measured on the 50,000-file tree of bench/monorepo.mjs). The working directory
   * is restored before the scan returns. Never in a server or a worker, where other work may run between folders.
   */
  ownsProcess?: boolean;
}

/** The file's own lstat, or null when it went away or cannot be read since the folder was read. */
function statOf(file: string): Stats | null {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** Folders read between two turns of the event loop, so a server that scans stays responsive. */
const FOLDERS_PER_TURN = 64;

/**
 * Lists the project's indexable files with size and mtime, sorted by path: every regular file the file filter
 * accepts, walked from the include globs' bases. A folder the filter says no accepted file can be in is not entered.
 * Symbolic links are not followed and not listed, to files or folders, as fast-glob (`onlyFiles`,
 * `followSymbolicLinks: false`) did before (no loops, nothing outside the root); an unreadable folder is skipped.
 * Synchronous reads, one lstat per accepted file only: at 50,000 files 1.5 to 1.7 times less CPU than fast-glob
 * even without its stats (bench/scan-ab.mjs; ARCHITECTURE.md, "Dependencies and why").
 */
export async function scanProject(root: string, config: IntelConfig, options: ScanOptions = {}): Promise<ScannedFile[]> {
  const filter = createScanFilter(root, config);
  const stats = options.stats !== false;
  const files: ScannedFile[] = [];
  // children are clean relative paths: concatenating them to the resolved root is path.join without its normalising,
  // which cost more than the lstat's own JavaScript at 50,000 files
  const prefix = `${path.resolve(root).replace(/\/+$/, '')}/`;
  const folders = filter.bases.filter((b) => b === '' || filter.enter(b));
  const inside = stats && options.ownsProcess ? enterFolders(prefix) : null;
  let read = 0;
  try {
    while (folders.length) {
      const rel = folders.pop()!;
      let entries: Dirent[];
      try {
        entries = readdirSync(prefix + rel, { withFileTypes: true });
      } catch {
        continue; // gone, not a folder, or unreadable
      }
      filter.listed(rel, entries.some((e) => e.name === '.gitignore'));
      options.onListed?.(rel, entries);
      // the folder's files by bare name when the working directory could be moved into it, else by full path
      const byName = inside?.enter(rel) ?? false;
      for (const entry of entries) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (filter.enter(child)) folders.push(child);
        } else if (entry.isFile() && filter.accept(child)) {
          if (!stats) {
            files.push({ path: child, size: 0, mtimeMs: 0 });
            continue;
          }
          const st = statOf(byName ? entry.name : prefix + child);
          if (st?.isFile()) files.push({ path: child, size: st.size, mtimeMs: st.mtimeMs });
        }
      }
      if (++read % FOLDERS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    inside?.leave();
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files;
}

/**
 * Moves the working directory into the scanned folders, one at a time; `enter` says whether the process now stands in
 * the folder. `chdir(root/folder)` then `lstat(name)` resolves exactly as `lstat(root/folder/name)` would (a folder
 * swapped for a link meanwhile is followed by both, a last component never), without walking the folder's path again
 * for each of its files.
 */
function enterFolders(prefix: string): { enter(rel: string): boolean; leave(): void } | null {
  let home: string;
  try {
    home = process.cwd();
  } catch {
    return null; // the working directory is gone: there would be no way back
  }
  return {
    enter(rel) {
      try {
        process.chdir(prefix + rel);
        return true;
      } catch {
        return false; // gone since it was listed: its files are not found either way
      }
    },
    leave() {
      try {
        process.chdir(home);
      } catch {
        // the directory the process started in is gone: nothing to go back to
      }
    },
  };
}
