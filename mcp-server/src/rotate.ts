/** Append-only log files with rotation (`file` → `file.1` → … → `file.<keep>`), for the audit log and the daemon log. */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export interface RotateOptions {
  maxBytes: number;
  /** rotated generations kept beside the live file */
  keep: number;
  mode?: number;
}

export function appendRotated(file: string, text: string, options: RotateOptions): void {
  mkdirSync(path.dirname(file), { recursive: true });
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // no file yet
  }
  if (size > 0 && size + Buffer.byteLength(text) > options.maxBytes) {
    const keep = Math.max(1, options.keep);
    rmSync(`${file}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) {
      try {
        renameSync(`${file}.${i}`, `${file}.${i + 1}`);
      } catch {
        // a generation that does not exist
      }
    }
    renameSync(file, `${file}.1`);
  }
  appendFileSync(file, text, { mode: options.mode ?? 0o600 });
}
