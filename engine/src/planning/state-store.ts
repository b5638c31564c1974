/**
 * The one store of the planning state: `.planning/gsd-state.json`.
 *
 * - Every change is a read-modify-write under a cross-process lock of its own (`.planning/.gsd-state.lock`, the
 *   engine's mkdir lock), so the MCP servers of several sessions never lose each other's updates and state changes
 *   never wait for an intel build (which holds the intel lock).
 * - The file is written to `.planning/gsd-state.json.tmp` (a fixed name: only the lock holder writes) and renamed
 *   over the old one, so a reader (the PostToolUse hook reads without the lock) sees a whole file. A failed write
 *   removes the temp file and reports; the old file stays as it was.
 * - A file that does not parse, or is not shaped like a state, is moved aside to `gsd-state.json.corrupt-<time>`
 *   and the answer's `notice` says so: never a silent reset. A file of a future version is refused and left alone.
 * - Saving prunes (see `prune`) and refuses a state bigger than MAX_STATE_BYTES.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { stampLaterThan } from '../store/atomic-write.js';
import { LockTimeoutError, withLock } from '../store/lock.js';
import { emptyState, isPlainObject, PlanningError, STATE_VERSION, type GsdState, type Lease, type SpawnItem } from './types.js';

export const STATE_FILE = 'gsd-state.json';
/** returned or expired leases kept besides every active one */
export const KEEP_CLOSED_LEASES = 50;
/** completed, failed or skipped queue items kept besides every pending one */
export const KEEP_CLOSED_ITEMS = 200;
/** history events kept (the most `agent history` returns) */
export const KEEP_HISTORY = 200;
export const KEEP_APPLIED = 100;
/** a state that would serialize bigger than this is refused (the hook parses the file on every edit) */
export const MAX_STATE_BYTES = 4 * 1024 * 1024;

/** The state file cannot be used or saved; the message names the file, the cause and that nothing changed. */
export class StateStoreError extends PlanningError {
  override name = 'StateStoreError';
}

/** The file was written by a newer get-shit-done-cc. It is left untouched. */
export class StateVersionError extends StateStoreError {
  override name = 'StateVersionError';
}

export function statePaths(root: string) {
  const planning = path.join(root, '.planning');
  const file = path.join(planning, STATE_FILE);
  return { planning, file, temp: `${file}.tmp`, lock: path.join(planning, '.gsd-state.lock') };
}

export interface StoreOptions {
  /** the clock (tests) */
  now?: () => number;
  /** how long an update waits for another process's update (default 10 s) */
  lockTimeoutMs?: number;
}

export interface ReadResult {
  state: GsdState;
  /** set when the file was corrupt and moved aside */
  notice?: string;
}

export interface UpdateResult<T> {
  result: T;
  notice?: string;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const code = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code ?? (e as Error)?.message ?? String(e);

function isLease(v: unknown): v is Lease {
  return (
    isPlainObject(v) &&
    typeof v.id === 'string' &&
    typeof v.taskId === 'string' &&
    isStringArray(v.scope) &&
    Array.isArray(v.patterns) &&
    v.patterns.every((p) => isPlainObject(p) && typeof p.source === 'string' && typeof p.flags === 'string') &&
    typeof v.holder === 'string' &&
    typeof v.issuedAt === 'string' &&
    typeof v.expiresAt === 'string'
  );
}

function isItem(v: unknown): v is SpawnItem {
  return isPlainObject(v) && typeof v.id === 'string' && typeof v.intent === 'string' && typeof v.agent === 'string' && typeof v.status === 'string';
}

/** Why `value` is not a state of this version, or null when it is one. Missing sections are filled in. */
function shapeProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'not a JSON object';
  if (value.version !== STATE_VERSION) return `version ${JSON.stringify(value.version)} is not ${STATE_VERSION}`;
  const base = emptyState() as unknown as Record<string, unknown>;
  for (const key of Object.keys(base)) {
    if (key === 'version') continue;
    if (value[key] === undefined) value[key] = base[key];
    else if (Array.isArray(base[key]) !== Array.isArray(value[key]) || !(isPlainObject(value[key]) || Array.isArray(value[key]))) return `"${key}" has the wrong type`;
  }
  if (!value.leases || !(value.leases as unknown[]).every(isLease)) return 'a lease is malformed';
  if (!(value.queue as unknown[]).every(isItem)) return 'a queue item is malformed';
  if (!Array.isArray((value.evolve as Record<string, unknown>).applied)) return '"evolve.applied" is not a list';
  for (const ids of Object.values(value.bindings as object)) if (!isStringArray(ids)) return 'a skill binding is malformed';
  return null;
}

/** Keeps every active lease and pending item, and the most recent closed ones up to the caps. */
export function prune(state: GsdState, now: number): void {
  const active = (l: Lease) => !l.returnedAt && Date.parse(l.expiresAt) > now;
  const closedAt = (l: Lease) => Date.parse(l.returnedAt ?? l.expiresAt);
  const closedLeases = state.leases.filter((l) => !active(l)).sort((a, b) => closedAt(b) - closedAt(a));
  const keepLeases = new Set(closedLeases.slice(0, KEEP_CLOSED_LEASES));
  state.leases = state.leases.filter((l) => active(l) || keepLeases.has(l));
  const closedItems = state.queue.filter((i) => i.status !== 'pending').sort((a, b) => Date.parse(b.closedAt ?? '') - Date.parse(a.closedAt ?? '') || 0);
  const keepItems = new Set(closedItems.slice(0, KEEP_CLOSED_ITEMS));
  state.queue = state.queue.filter((i) => i.status === 'pending' || keepItems.has(i));
  if (state.history.length > KEEP_HISTORY) state.history = state.history.slice(-KEEP_HISTORY);
  if (state.evolve.applied.length > KEEP_APPLIED) state.evolve.applied = state.evolve.applied.slice(-KEEP_APPLIED);
}

/**
 * The file's text: `version` and `leases` first, so the PostToolUse hook reads the leases without parsing the rest
 * (lease-check.ts), then every other section.
 */
export function serializeState(state: GsdState): string {
  const { version, leases, ...rest } = state;
  return `${JSON.stringify({ version, leases, ...rest })}\n`;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

export class StateStore {
  readonly paths: ReturnType<typeof statePaths>;
  private readonly now: () => number;
  private readonly lockTimeoutMs: number;

  constructor(readonly root: string, options: StoreOptions = {}) {
    this.paths = statePaths(root);
    this.now = options.now ?? Date.now;
    this.lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
  }

  private rel(p: string): string {
    return path.relative(this.root, p).split(path.sep).join('/');
  }

  /** The state as saved (an empty one when there is no file). A corrupt file is moved aside under the lock. */
  async read(): Promise<ReadResult> {
    const first = await this.load(false);
    if (!first.corrupt) return { state: first.state };
    return this.locked(async () => this.load(true));
  }

  /**
   * Runs `fn` on the current state under the lock and saves what it leaves (pruned). When `fn` throws, nothing is
   * saved and the error propagates. When the state did not change, nothing is written.
   */
  async update<T>(fn: (state: GsdState) => T): Promise<UpdateResult<T>> {
    return this.locked(async () => {
      const { state, notice, text } = await this.load(true);
      const result = fn(state);
      prune(state, this.now());
      const next = serializeState(state);
      if (next !== (text ?? serializeState(emptyState()))) {
        const bytes = Buffer.byteLength(next);
        if (bytes > MAX_STATE_BYTES) {
          throw new StateStoreError(
            `the change would make ${this.rel(this.paths.file)} ${Math.round(bytes / 1024)} KB, over the ${MAX_STATE_BYTES / 1024 / 1024} MB cap; nothing was changed`,
            'Delete big state values (state delete) or return finished leases.',
          );
        }
        await this.write(next);
      }
      return notice ? { result, notice } : { result };
    });
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await withLock(this.paths.lock, fn, { timeoutMs: this.lockTimeoutMs });
    } catch (error) {
      if (error instanceof PlanningError) throw error;
      if (error instanceof LockTimeoutError) {
        throw new StateStoreError(`${this.rel(this.paths.file)} is busy: ${error.message}; nothing was changed`, 'Retry in a moment.');
      }
      const c = (error as NodeJS.ErrnoException)?.code;
      if (c && (c === 'EACCES' || c === 'EPERM' || c === 'EROFS' || c === 'ENOSPC' || c === 'ENOTDIR')) {
        throw new StateStoreError(
          `cannot lock ${this.rel(this.paths.planning)}/ for the planning state (${c}: ${(error as Error).message}); nothing was changed`,
          'Make .planning/ writable for this user.',
        );
      }
      throw error;
    }
  }

  /**
   * Reads and checks the file. With `moveAside` a corrupt file is renamed out of the way (the caller holds the lock)
   * and the returned notice says where it went; without, `corrupt` is set and the state is empty.
   */
  private async load(moveAside: boolean): Promise<{ state: GsdState; text: string | null; corrupt?: boolean; notice?: string }> {
    const { file } = this.paths;
    let text: string;
    let problem: string;
    try {
      text = await fsp.readFile(file, 'utf8');
      let value: unknown;
      try {
        value = JSON.parse(text);
        if (isPlainObject(value) && typeof value.version === 'number' && value.version > STATE_VERSION) {
          throw new StateVersionError(
            `${this.rel(file)} was written by a newer get-shit-done-cc (state version ${value.version}; this one reads ${STATE_VERSION}); it was left untouched and nothing was changed`,
            'Upgrade get-shit-done-cc (npx get-shit-done-cc@latest install) in every session of this project.',
          );
        }
        const shape = shapeProblem(value);
        if (shape === null) return { state: value as GsdState, text };
        problem = shape;
      } catch (error) {
        if (error instanceof PlanningError) throw error;
        problem = `not valid JSON: ${(error as Error).message}`;
      }
    } catch (error) {
      if (error instanceof PlanningError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: emptyState(), text: null };
      problem = `unreadable: ${code(error)}`;
    }
    if (!moveAside) return { state: emptyState(), text: null, corrupt: true };
    const aside = `${file}.corrupt-${stamp(this.now())}`;
    try {
      await fsp.rename(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.load(false); // moved meanwhile (a lock breaker)
      throw new StateStoreError(
        `${this.rel(file)} is corrupt (${problem}) and could not be moved aside (${code(error)}); nothing was changed`,
        `Move or delete ${this.rel(file)} by hand.`,
      );
    }
    return {
      state: emptyState(),
      text: null,
      notice: `${this.rel(file)} was corrupt (${problem.slice(0, 200)}); it was moved aside to ${this.rel(aside)} and the planning state starts empty. Copy what you need from that file.`,
    };
  }

  private async write(text: string): Promise<void> {
    const { file, temp } = this.paths;
    let handle: fsp.FileHandle | undefined;
    try {
      handle = await fsp.open(temp, 'w', 0o644);
      await handle.writeFile(text);
      await handle.sync();
      await handle.close();
      handle = undefined;
      stampLaterThan(temp, file); // caches name a version by inode, size and mtime
      await fsp.rename(temp, file);
    } catch (error) {
      if (handle) await handle.close().catch(() => undefined);
      await fsp.rm(temp, { force: true }).catch(() => undefined); // a directory in the way is not ours to remove
      throw new StateStoreError(
        `could not save ${this.rel(file)} (${code(error)}: ${(error as Error).message}); nothing was changed`,
        'Make .planning/ writable for this user (and free some disk space).',
      );
    }
  }
}
