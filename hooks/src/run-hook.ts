/**
 * The shared runner of every hook: reads stdin (bounded in size and time), parses it defensively, enforces a hard
 * deadline, logs problems to `.planning/intel/hook.log`, and applies the exit policy: always exit 0, print nothing
 * but one valid hook JSON object (or nothing at all). Nothing read from stdin ever reaches a shell.
 */
import { fstatSync, readFileSync, writeSync } from 'node:fs';
import { describeError, logNote } from './log.js';

/** stdin beyond this is read and dropped (a Write of a big file carries its content twice) */
export const STDIN_MAX_BYTES = 8 * 1024 * 1024;
/** hook output strings are capped at 10,000 characters by Claude Code; we stay well below */
export const OUTPUT_MAX_CHARS = 9_000;

export type HookInput = Record<string, unknown>;

export interface HookContext {
  /** the parsed stdin object, or null when stdin was empty, not JSON or not an object (see `problem`) */
  readonly input: HookInput | null;
  /** why `input` is null */
  readonly problem: string | null;
  /** the raw stdin text (the first STDIN_MAX_BYTES of it) */
  readonly raw: string;
  /** true when stdin was longer than STDIN_MAX_BYTES (then `input` is null and `raw` is a prefix) */
  readonly truncated: boolean;
  /** the project whose hook.log receives notes; set it as soon as it is known */
  root: string | null;
  /** writes a note to the project's hook.log (or stderr when no project is known) */
  note(message: string): void;
}

export interface HookSpec {
  /** `PostToolUse`, `SessionStart`: used in log lines */
  name: string;
  /** hard deadline for the whole run, stdin included */
  deadlineMs: number;
  /** the work; its result, if any, is printed as the hook's JSON output */
  run(ctx: HookContext): Promise<object | void> | object | void;
  /**
   * Called (synchronously) when the deadline fires before `run` finished, with whatever was parsed so far:
   * record the pending work so the next hook or reader completes it.
   */
  onDeadline?(ctx: HookContext | null): void;
  /** the project to log into when stdin could not be read at all (e.g. found from the session cwd) */
  fallbackRoot?(): string | null;
}

interface StdinResult {
  text: string;
  truncated: boolean;
}

/**
 * Reads stdin to its end, keeping at most `max` bytes. Through the stream API on purpose: a blocking fs.read of a
 * pipe that never closes would sit in libuv's thread pool, and process.exit() waits for that thread, so the deadline
 * could not end the process.
 */
function readStdin(max: number): Promise<StdinResult> {
  return new Promise((resolve) => {
    // fstat rather than tty.isatty or process.stdin: both would load node:net before we know we need it
    let kind: 'file' | 'stream' | 'none' = 'stream';
    try {
      const st = fstatSync(0);
      kind = st.isFile() ? 'file' : st.isCharacterDevice() ? 'none' : 'stream'; // a terminal or /dev/null: nothing to read
    } catch {
      kind = 'none';
    }
    if (kind !== 'stream') {
      let bytes: Buffer = Buffer.alloc(0);
      try {
        if (kind === 'file') bytes = readFileSync(0);
      } catch {
        // unreadable: treated as empty
      }
      resolve({ text: bytes.subarray(0, max).toString('utf8'), truncated: bytes.length > max });
      return;
    }
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      resolve({ text: Buffer.concat(chunks).toString('utf8'), truncated });
    };
    try {
      const stdin = process.stdin;
      stdin.on('data', (chunk: Buffer) => {
        const room = max - kept;
        if (room > 0) {
          chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
        }
        if (chunk.length > room) truncated = true;
      });
      stdin.on('end', done);
      stdin.on('close', done);
      stdin.on('error', done); // EOF-like errors (no stdin at all): take what we have
    } catch {
      done();
    }
  });
}

function parseInput(text: string, truncated: boolean): { input: HookInput | null; problem: string | null } {
  if (truncated) return { input: null, problem: `stdin longer than ${STDIN_MAX_BYTES} bytes` };
  if (!text.trim()) return { input: null, problem: 'empty stdin' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { input: null, problem: `stdin is not JSON (${(error as Error).message}): ${JSON.stringify(text.slice(0, 120))}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { input: null, problem: `stdin is not a JSON object: ${JSON.stringify(text.slice(0, 120))}` };
  }
  return { input: value as HookInput, problem: null };
}

/** The value of a top-level string field, or undefined. */
export function stringField(obj: unknown, key: string): string | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const v = (obj as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The first `"key": "…"` string of a JSON text that could not be parsed whole (a truncated one): lets a hook
 * still find `file_path` when stdin was too big to keep. `tool_input` precedes `tool_response` in Claude Code's
 * payloads, so the first match is the tool's argument.
 */
export function scanStringField(text: string, key: string): string | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(text);
  if (!m) return undefined;
  try {
    const v = JSON.parse(m[1]) as unknown;
    return typeof v === 'string' && v ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a hook under the rules above. Never returns: the process exits 0. */
export function runHook(spec: HookSpec): void {
  let finished = false;
  let ctx: HookContext | null = null;
  const who = `hook:${spec.name}`;
  const note = (message: string) => logNote(ctx?.root ?? safe(() => spec.fallbackRoot?.() ?? null, null), who, message);

  const finish = (output?: object | void) => {
    if (finished) return;
    finished = true;
    if (output && typeof output === 'object') {
      try {
        const text = JSON.stringify(output);
        if (text.length > OUTPUT_MAX_CHARS + 500) note(`output of ${text.length} characters dropped (over the cap)`);
        else writeSync(1, text);
      } catch (error) {
        note(`could not write the output: ${describeError(error)}`);
      }
    }
    process.exit(0);
  };

  const fail = (error: unknown) => {
    note(`internal error: ${describeError(error)}`);
    finish();
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);

  setTimeout(() => {
    if (finished) return;
    note(`deadline of ${spec.deadlineMs} ms reached${ctx ? '' : ' while reading stdin'}; pending work recorded for the next run`);
    try {
      spec.onDeadline?.(ctx);
    } catch (error) {
      note(`could not record pending work: ${describeError(error)}`);
    }
    finish();
  }, spec.deadlineMs).unref();

  readStdin(STDIN_MAX_BYTES)
    .then(async ({ text, truncated }) => {
      const { input, problem } = parseInput(text, truncated);
      ctx = { input, problem, raw: text, truncated, root: null, note };
      return spec.run(ctx);
    })
    .then(finish, fail);
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
