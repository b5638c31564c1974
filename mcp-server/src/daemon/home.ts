/**
 * The GSD server's folder (node built-ins only: the CLI, doctor and install load it without the SDK):
 * `$GSD_HOME`, else `$XDG_CONFIG_HOME/get-shit-done`, else `~/.config/get-shit-done`. Not the runtime folder inside
 * the Claude config folder: an install replaces that one while a daemon may be running from it.
 *
 *   token          the bearer token (mode 0600, folder 0700)
 *   daemon.json    pid, port and url of the running daemon (written once it listens, removed when it exits)
 *   daemon.pid     the single-instance claim (O_EXCL)
 *   daemon.sock    where stdio shims connect (a Unix socket in this 0700 folder; a named pipe on Windows)
 *   server.log     the daemon's log, rotated
 *   config.json    the user's policy (`mcp` section) and server settings (`server` section); optional
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface GsdHome {
  dir: string;
  token: string;
  daemonJson: string;
  pidFile: string;
  startLock: string;
  /** the shims' socket */
  socket: string;
  log: string;
  config: string;
}

export function gsdHome(env: NodeJS.ProcessEnv = process.env): GsdHome {
  const home = env.HOME || os.homedir();
  const dir = path.resolve(env.GSD_HOME || path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'get-shit-done'));
  return {
    dir,
    token: path.join(dir, 'token'),
    daemonJson: path.join(dir, 'daemon.json'),
    pidFile: path.join(dir, 'daemon.pid'),
    startLock: path.join(dir, 'daemon.start.lock'),
    socket: socketPath(dir),
    log: path.join(dir, 'server.log'),
    config: path.join(dir, 'config.json'),
  };
}

/**
 * The shims' socket: `daemon.sock` in the folder; a path too long for a Unix socket (~104 bytes) goes to the temp
 * folder under a name derived from the folder (the token handshake guards it there too); a named pipe on Windows.
 */
function socketPath(dir: string): string {
  const tag = createHash('sha1').update(dir).digest('hex').slice(0, 16);
  if (process.platform === 'win32') return `\\\\.\\pipe\\gsd-${tag}`;
  const inside = path.join(dir, 'daemon.sock');
  return Buffer.byteLength(inside) <= 100 ? inside : path.join(os.tmpdir(), `gsd-${tag}.sock`);
}

export function ensureHomeDir(h: GsdHome): void {
  mkdirSync(h.dir, { recursive: true, mode: 0o700 });
}

/** The bearer token, created (32 random bytes, hex, mode 0600) on first use. A token file others can read is refused. */
export function ensureToken(h: GsdHome): string {
  ensureHomeDir(h);
  try {
    return readToken(h);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(32).toString('hex');
  const tmp = `${h.token}.tmp-${process.pid}`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  try {
    // first writer wins: link fails when another process created the token meanwhile
    linkSync(tmp, h.token);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
  return readToken(h);
}

export function readToken(h: GsdHome): string {
  const st = statSync(h.token);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw Object.assign(new Error(`${h.token} is readable by other users (mode ${(st.mode & 0o777).toString(8)}); run: chmod 600 "${h.token}"`), { code: 'EPERM_TOKEN' });
  }
  const token = readFileSync(h.token, 'utf8').trim();
  if (!/^[0-9a-f]{32,}$/.test(token)) throw Object.assign(new Error(`${h.token} does not hold a token`), { code: 'EBADTOKEN' });
  return token;
}

/** Claims a file with O_EXCL; false when it exists. */
export function claimFile(file: string, content: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeFileSync(fd, content);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export { pidAlive as isAlive } from '../../../engine/src/process-alive.js';
