import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** The nearest folder at or above `start` (a file or a folder) that holds a `.planning/` folder, or null. */
export function findProjectRoot(start: string): string | null {
  let dir = path.resolve(start);
  try {
    if (!statSync(dir).isDirectory()) dir = path.dirname(dir);
  } catch {
    dir = path.dirname(dir);
  }
  for (;;) {
    if (existsSync(path.join(dir, '.planning'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
