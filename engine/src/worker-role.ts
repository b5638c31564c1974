/**
 * The worker role of one project: the one process that applies the hooks' journal (`.planning/intel/worker.pid`).
 * The hooks' background worker takes it, and so does the shared MCP server for the projects its sessions work in
 * (pipeline/follow.ts). Hooks append to the journal first and look at the pid file second; the holder removes the
 * pid file first and looks at the journal second: either a hook sees no holder and starts a worker, or the holder
 * sees the new entry and goes on. Node built-ins only: the hook processes load this module.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import path from 'node:path';
import { pidAlive } from './process-alive.js';

export const WORKER_PID_NAME = 'worker.pid';
/** the holder touches its pid file this often while it lives */
export const HEARTBEAT_MS = 5_000;
/** a pid file not touched for this long belongs to a dead or hung holder (pid reuse cannot fool it) */
const STALE_MS = 60_000;
/** a pid file still empty after this long was left by a hook that died between claiming and spawning */
const CLAIM_GRACE_MS = 5_000;

export function workerPidPath(root: string): string {
  return path.join(root, '.planning', 'intel', WORKER_PID_NAME);
}

/** True when the pid file names a live holder (or a claim being made right now). */
export function workerAlive(root: string): boolean {
  const file = workerPidPath(root);
  let text: string;
  let age: number;
  try {
    text = readFileSync(file, 'utf8');
    age = Date.now() - statSync(file).mtimeMs;
  } catch {
    return false;
  }
  const pid = Number.parseInt(text, 10);
  if (!Number.isInteger(pid) || pid <= 0) return age < CLAIM_GRACE_MS;
  return age < STALE_MS && pidAlive(pid);
}

/**
 * Takes the pid file (O_EXCL, so one claimer wins); a stale one is removed first. Returns its fd, or null. Creates
 * `.planning/intel/` when missing unless `existingOnly` (the shared server never creates a project's intel folder).
 */
export function claimWorkerRole(root: string, existingOnly = false): number | null {
  const file = workerPidPath(root);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return openSync(file, 'wx');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        if (existingOnly) return null;
        mkdirSync(path.dirname(file), { recursive: true });
        continue;
      }
      if (code !== 'EEXIST') throw error;
      if (workerAlive(root)) return null;
      rmSync(file, { force: true });
    }
  }
  return null;
}

/** Takes the pid file for this process. False when another holder has it (or, with `existingOnly`, no intel folder). */
export function claimForSelf(root: string, existingOnly = false): boolean {
  let fd: number | null;
  try {
    fd = claimWorkerRole(root, existingOnly);
  } catch {
    return false; // an unwritable intel folder: whoever reads next catches up
  }
  if (fd === null) return false;
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** True when the pid file names this process (a holder that lost it, e.g. to a removed intel folder, stops waiting). */
export function ownsPidFile(root: string): boolean {
  try {
    return Number.parseInt(readFileSync(workerPidPath(root), 'utf8'), 10) === process.pid;
  } catch {
    return false;
  }
}

/** Keeps this process's pid file fresh while it holds the role. */
export function heartbeat(root: string): void {
  if (!ownsPidFile(root)) return;
  const now = new Date();
  try {
    utimesSync(workerPidPath(root), now, now);
  } catch {
    // removed meanwhile
  }
}

/** Removes the pid file if it is this process's. */
export function releasePidFile(root: string): void {
  if (ownsPidFile(root)) rmSync(workerPidPath(root), { force: true });
}
