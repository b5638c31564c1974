/**
 * Cross-process lock built on `mkdir` (atomic on every platform and file system we care about).
 *
 * The lock is a directory holding `owner.json` ({ pid, host, startedAt, token }). While the lock is held its
 * owner touches `owner.json` every `staleMs / 3`, so "older than staleMs" means "the owner stopped beating".
 * A lock is stale when its owner process is gone (same host, `kill(pid, 0)` → ESRCH) or when it has not been
 * refreshed for `staleMs`. Stale locks are broken under a short-lived `<lock>.breaking` guard directory:
 * the breaker re-reads the owner, renames the lock directory to a unique grave name (only one rename can
 * succeed) and removes the grave. The lock is not re-entrant: nesting `withLock` on the same path in one
 * process waits until the timeout.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidAlive } from '../process-alive.js';
import { holdReplacedFiles } from './atomic-write.js';

export interface LockOptions {
  /** give up after waiting this long (default 10 000 ms) */
  timeoutMs?: number;
  /** a lock not refreshed for this long is broken (default 30 000 ms) */
  staleMs?: number;
}

export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  /** unique per acquisition, so that a release never removes somebody else's lock */
  token: string;
}

export interface LockHandle {
  readonly path: string;
  readonly owner: LockOwner;
  release(): Promise<void>;
}

export class LockTimeoutError extends Error {
  readonly lockPath: string;
  readonly waitedMs: number;
  readonly holder: LockOwner | null;
  constructor(lockPath: string, waitedMs: number, holder: LockOwner | null) {
    const who = holder ? ` (held by pid ${holder.pid} on ${holder.host} since ${holder.startedAt})` : '';
    super(`timed out after ${waitedMs} ms waiting for the lock ${lockPath}${who}`);
    this.name = 'LockTimeoutError';
    this.lockPath = lockPath;
    this.waitedMs = waitedMs;
    this.holder = holder;
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_STALE_MS = 30_000;
const OWNER_FILE = 'owner.json';
/** a `.breaking` guard older than this was left by a breaker that died mid-way */
const BREAK_GUARD_STALE_MS = 5_000;

/** tokens of the locks this process holds right now: an owner.json with our pid but an unknown token is a leftover */
const heldTokens = new Set<string>();

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}


interface LockState {
  owner: LockOwner | null;
  /** last sign of life: max(mtime of the directory, mtime of owner.json) */
  touchedMs: number;
}

/** Current state of the lock directory; null when there is no lock. */
async function inspect(lockDir: string): Promise<LockState | null> {
  let dirMtime: number;
  try {
    dirMtime = (await fsp.stat(lockDir)).mtimeMs;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return null;
    throw err;
  }
  const ownerFile = path.join(lockDir, OWNER_FILE);
  let owner: LockOwner | null = null;
  let touchedMs = dirMtime;
  try {
    const [text, st] = await Promise.all([fsp.readFile(ownerFile, 'utf8'), fsp.stat(ownerFile)]);
    touchedMs = Math.max(touchedMs, st.mtimeMs);
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') {
      owner = {
        pid: parsed.pid,
        host: parsed.host,
        startedAt: String(parsed.startedAt ?? ''),
        token: String(parsed.token ?? ''),
      };
    }
  } catch {
    // not written yet (the owner is between mkdir and writeFile), half written, or being removed: judge by mtime
  }
  return { owner, touchedMs };
}

function isStale(state: LockState, staleMs: number): boolean {
  const { owner } = state;
  if (owner && owner.host === os.hostname()) {
    if (owner.pid === process.pid) {
      if (!heldTokens.has(owner.token)) return true; // left by an earlier process that had our pid
    } else if (!pidAlive(owner.pid)) {
      return true;
    }
  }
  return Date.now() - state.touchedMs > staleMs;
}

function sameOwner(a: LockOwner | null, b: LockOwner | null): boolean {
  if (!a || !b) return a === b;
  return a.pid === b.pid && a.host === b.host && a.token === b.token && a.startedAt === b.startedAt;
}

function graveName(lockDir: string, what: string): string {
  return `${lockDir}.${what}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Break the lock if it is stale. Returns true when the caller should retry at once. */
async function breakIfStale(lockDir: string, seen: LockState, staleMs: number): Promise<boolean> {
  if (!isStale(seen, staleMs)) return false;
  const guard = `${lockDir}.breaking`;
  try {
    await fsp.mkdir(guard);
  } catch (err) {
    if (errCode(err) !== 'EEXIST') throw err;
    // another process is breaking it right now; clear a guard left by a breaker that died
    try {
      const st = await fsp.stat(guard);
      if (Date.now() - st.mtimeMs > BREAK_GUARD_STALE_MS) await fsp.rm(guard, { recursive: true, force: true });
    } catch {
      /* gone already */
    }
    return false;
  }
  try {
    const now = await inspect(lockDir);
    if (!now) return true; // released meanwhile
    if (!sameOwner(now.owner, seen.owner) || !isStale(now, staleMs)) return false;
    const grave = graveName(lockDir, 'stale');
    try {
      await fsp.rename(lockDir, grave);
    } catch (err) {
      if (errCode(err) === 'ENOENT') return true;
      throw err;
    }
    await fsp.rm(grave, { recursive: true, force: true });
    return true;
  } finally {
    await fsp.rm(guard, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function createLockDir(lockDir: string): Promise<boolean> {
  try {
    await fsp.mkdir(lockDir);
    return true;
  } catch (err) {
    const code = errCode(err);
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT') {
      await fsp.mkdir(path.dirname(lockDir), { recursive: true });
      return createLockDir(lockDir);
    }
    throw err;
  }
}

async function claim(lockDir: string, staleMs: number): Promise<LockHandle> {
  const owner: LockOwner = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  heldTokens.add(owner.token);
  const ownerFile = path.join(lockDir, OWNER_FILE);
  try {
    await fsp.writeFile(ownerFile, JSON.stringify(owner));
  } catch (err) {
    heldTokens.delete(owner.token);
    await fsp.rm(lockDir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  const beat = setInterval(() => {
    const t = new Date();
    fsp.utimes(ownerFile, t, t).catch(() => undefined);
  }, Math.max(50, Math.floor(staleMs / 3)));
  beat.unref();
  let released = false;
  return {
    path: lockDir,
    owner,
    async release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      try {
        const state = await inspect(lockDir);
        // our lock was broken (we stalled for longer than staleMs) and somebody else holds it, or is just taking
        // it (no owner.json yet): leave it alone
        if (state?.owner?.token !== owner.token) return;
        const grave = graveName(lockDir, 'released');
        try {
          await fsp.rename(lockDir, grave);
        } catch (err) {
          if (errCode(err) === 'ENOENT') return;
          throw err;
        }
        await fsp.rm(grave, { recursive: true, force: true });
      } finally {
        heldTokens.delete(owner.token);
      }
    },
  };
}

/** One attempt: the lock handle, or null when somebody else holds a live lock. Breaks a stale lock on the way. */
export async function tryLock(lockDir: string, opts: { staleMs?: number } = {}): Promise<LockHandle | null> {
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  for (let i = 0; i < 3; i++) {
    if (await createLockDir(lockDir)) return claim(lockDir, staleMs);
    const state = await inspect(lockDir);
    if (state && !(await breakIfStale(lockDir, state, staleMs))) return null;
  }
  return null;
}

/** Wait for the lock (jittered back-off from 5 to 50 ms), or throw {@link LockTimeoutError}. */
export async function acquireLock(lockDir: string, opts: LockOptions = {}): Promise<LockHandle> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const started = Date.now();
  let delay = 5;
  for (;;) {
    if (await createLockDir(lockDir)) return claim(lockDir, staleMs);
    const state = await inspect(lockDir);
    const freed = !state || (await breakIfStale(lockDir, state, staleMs));
    const waited = Date.now() - started;
    if (freed && waited < timeoutMs) continue; // free now: retry at once
    if (waited >= timeoutMs) throw new LockTimeoutError(lockDir, waited, state?.owner ?? null);
    await sleep(Math.min(timeoutMs - waited, delay * (0.5 + Math.random() * 0.5)));
    delay = Math.min(50, delay * 1.5);
  }
}

/** Run `fn` while holding the cross-process lock `lockDir`; the lock is always released afterwards. */
export async function withLock<T>(lockDir: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const handle = await acquireLock(lockDir, opts);
  // files replaced under the lock are freed once it is released (atomic-write.ts, holdReplacedFiles)
  holdReplacedFiles(1);
  let result: T;
  try {
    try {
      result = await fn();
    } catch (err) {
      await handle.release().catch(() => undefined); // keep the caller's error, not a release problem
      throw err;
    }
    await handle.release();
  } finally {
    holdReplacedFiles(-1);
  }
  return result;
}
