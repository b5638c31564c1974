/**
 * The hooks' error log: `.planning/intel/hook.log`, bounded (LOG_MAX_BYTES, then rotated once to `hook.log.1`).
 * Never throws: a hook that cannot log still exits 0.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

export const LOG_NAME = 'hook.log';
export const LOG_MAX_BYTES = 256 * 1024;
/** one line is clipped to this many characters, so a pathological input cannot blow the log up in one go */
const LINE_MAX = 2_000;

export function hookLogPath(root: string): string {
  return path.join(root, '.planning', 'intel', LOG_NAME);
}

/** Appends one line `<ISO time> <who>[<pid>] <message>` to the project's hook.log, rotating it when it is full. */
export function logNote(root: string | null, who: string, message: string): void {
  const line = `${new Date().toISOString()} ${who}[${process.pid}] ${message.replace(/\s*\n\s*/g, ' | ')}`.slice(0, LINE_MAX);
  if (!root) {
    // No project to log into: stderr reaches only Claude Code's debug log when the hook exits 0.
    try {
      process.stderr.write(`${line}\n`);
    } catch {
      // nothing left to try
    }
    return;
  }
  const file = hookLogPath(root);
  try {
    try {
      if (statSync(file).size >= LOG_MAX_BYTES) renameSync(file, `${file}.1`);
    } catch {
      mkdirSync(path.dirname(file), { recursive: true });
    }
    appendFileSync(file, `${line}\n`);
  } catch {
    // a read-only or vanished project: the note is dropped, the hook still succeeds
  }
}

/** A short printable description of an error. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}${error.stack ? ` @ ${error.stack.split('\n').slice(1, 3).map((s) => s.trim()).join(' ')}` : ''}`;
  return String(error);
}
