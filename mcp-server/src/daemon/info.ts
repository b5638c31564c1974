/**
 * How clients find and talk to the daemon without the MCP SDK (node built-ins only: `node:http`, not fetch, whose
 * undici costs a shim ~40 MB of RSS): the shim, `serve --status/--stop`, `doctor` and `install --shared` use it.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { claimFile, ensureHomeDir, isAlive, readToken, type GsdHome } from './home.js';

export const DAEMON_PATH = '/gsd/mcp';

export interface DaemonInfo {
  pid: number;
  port: number;
  url: string;
  /** where stdio shims connect (handshake.ts); absent when the daemon could not listen there */
  socket?: string;
  version: string;
  startedAt: string;
}

export interface DaemonHealth {
  ok: true;
  pid: number;
  version: string;
  port: number;
  uptimeSeconds: number;
  sessions: number;
  projects: string[];
  /** the projects whose journal it applies as edits come (their worker role; followers.ts) */
  following?: string[];
  requests: number;
  rssBytes: number;
  idleMinutes: number;
}

/** One request to the daemon's own routes with the token; resolves with the status and the body as text. */
function request(port: number, method: 'GET' | 'POST', route: string, token: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: route, headers: { authorization: `Bearer ${token}` }, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** daemon.json when its process is alive; null otherwise. */
export function readDaemonInfo(home: GsdHome): DaemonInfo | null {
  try {
    const info = JSON.parse(readFileSync(home.daemonJson, 'utf8')) as DaemonInfo;
    if (typeof info.port !== 'number' || typeof info.url !== 'string' || !isAlive(info.pid)) return null;
    return info;
  } catch {
    return null;
  }
}

export async function daemonHealth(home: GsdHome, info: DaemonInfo, timeoutMs = 2000): Promise<DaemonHealth | { ok: false; reason: string }> {
  let token: string;
  try {
    token = readToken(home);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  try {
    const res = await request(info.port, 'GET', '/gsd/health', token, timeoutMs);
    if (res.status !== 200) return { ok: false, reason: `health check answered HTTP ${res.status}` };
    return JSON.parse(res.body) as DaemonHealth;
  } catch (error) {
    return { ok: false, reason: `no answer on port ${info.port}: ${(error as Error).message}` };
  }
}

/** A running, healthy daemon, or null. */
export async function findDaemon(home: GsdHome): Promise<DaemonInfo | null> {
  const info = readDaemonInfo(home);
  if (!info) return null;
  const h = await daemonHealth(home, info);
  return h.ok ? info : null;
}

export interface EnsureOptions {
  /** the script that runs the daemon with `--daemon` (the runtime's mcp-server.js, or the CLI with `serve`) */
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The running daemon, started (detached, its output to its log file) when none answers. Concurrent callers start
 * at most one: a start lock (O_EXCL, stale after 10 s) and the daemon's own pid claim. Null when it could not be
 * started within `timeoutMs`; `reason` says why.
 */
export async function ensureDaemon(home: GsdHome, options: EnsureOptions): Promise<{ info: DaemonInfo; started: boolean } | { info: null; reason: string }> {
  const running = await findDaemon(home);
  if (running) return { info: running, started: false };
  ensureHomeDir(home);
  const timeoutMs = options.timeoutMs ?? 8000;
  const deadline = Date.now() + timeoutMs;
  let spawned = false;
  let exited: string | null = null;
  try {
    while (Date.now() < deadline) {
      const info = await findDaemon(home);
      if (info) return { info, started: spawned };
      if (!spawned && claimStartLock(home)) {
        spawned = true;
        try {
          const child = spawn(options.command, options.args, { detached: true, stdio: 'ignore', env: { ...(options.env ?? process.env), GSD_HOME: home.dir } });
          child.on('error', (e) => (exited = e.message));
          child.on('exit', (code) => (exited = `the daemon exited with code ${code} (see ${home.log})`));
          child.unref();
        } catch (error) {
          exited = (error as Error).message;
        }
      }
      if (exited) break;
      await sleep(50);
    }
  } finally {
    if (spawned) rmSync(home.startLock, { force: true });
  }
  const info = await findDaemon(home);
  if (info) return { info, started: spawned };
  return { info: null, reason: exited ?? `no daemon answered within ${timeoutMs / 1000} s (see ${home.log})` };
}

/** One starter at a time; a lock older than 10 s is from a starter that died. */
function claimStartLock(home: GsdHome): boolean {
  if (claimFile(home.startLock, `${process.pid}\n`)) return true;
  try {
    if (Date.now() - statSync(home.startLock).mtimeMs <= 10_000) return false;
    rmSync(home.startLock, { force: true });
  } catch {
    // vanished meanwhile
  }
  return claimFile(home.startLock, `${process.pid}\n`);
}

/** Stops the daemon (POST /gsd/shutdown, then SIGTERM); true when one was running. */
export async function stopDaemon(home: GsdHome, timeoutMs = 5000): Promise<boolean> {
  const info = readDaemonInfo(home);
  if (!info) return false;
  try {
    const token = readToken(home);
    await request(info.port, 'POST', '/gsd/shutdown', token, 2000);
  } catch {
    try {
      process.kill(info.pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
  const deadline = Date.now() + timeoutMs;
  while (isAlive(info.pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(info.pid)) process.kill(info.pid, 'SIGKILL');
  return true;
}
