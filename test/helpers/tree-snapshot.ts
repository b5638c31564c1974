import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file below `dir` (relative path → mode and bytes), to compare trees before and after. */
export function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(path.relative(dir, p), `${statSync(p).mode.toString(8)}:${readFileSync(p, 'base64')}`);
    }
  };
  walk(dir);
  return files;
}
