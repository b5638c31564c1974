/**
 * The shared server's side of install, uninstall and doctor (docs/shared-server.md): the GSD home (token, port,
 * daemon files), the `type: "http"` entry of `install --shared`, and the daemon's health for doctor. Node
 * built-ins only (through mcp-server/src/daemon/home.ts and info.ts), so the CLI's install path stays light.
 */
import { existsSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureToken, gsdHome, readToken, type GsdHome } from '../../../mcp-server/src/daemon/home.js';
import { DAEMON_PATH, daemonHealth, ensureDaemon, readDaemonInfo, stopDaemon } from '../../../mcp-server/src/daemon/info.js';
import { formatJson, isObject, readJson, writeFileAtomic, type JsonObject } from '../settings/json.js';

export { gsdHome, stopDaemon };

export interface SharedRecord {
  home: string;
  configCreated: boolean;
  /** keys of config.json's "server" section that install added */
  keysAdded: string[];
  tokenCreated: boolean;
}

export function httpEntry(port: number, token: string): { type: 'http'; url: string; headers: Record<string, string> } {
  return { type: 'http', url: `http://127.0.0.1:${port}${DAEMON_PATH}`, headers: { Authorization: `Bearer ${token}` } };
}

export function isOurHttpEntry(entry: unknown): boolean {
  if (!isObject(entry) || entry.type !== 'http' || typeof entry.url !== 'string') return false;
  return /^http:\/\/127\.0\.0\.1:\d+\/gsd\/mcp$/.test(entry.url);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Token and a fixed port for the `http` registration (config.json `server.port`, chosen once; `server.idleMinutes`
 * 0 unless the user set it: nobody would restart an http-only daemon that went idle). Returns what it added.
 */
export async function prepareShared(home: GsdHome = gsdHome()): Promise<{ port: number; token: string; record: SharedRecord }> {
  const tokenCreated = !existsSync(home.token);
  const token = ensureToken(home);
  const read = readJson(home.config);
  if (read.kind === 'invalid') throw new Error(`${home.config} line ${read.line} is not valid JSON (${read.reason})`);
  const value: JsonObject = read.kind === 'ok' ? read.value : {};
  const server: JsonObject = isObject(value.server) ? { ...value.server } : {};
  const keysAdded: string[] = [];
  if (typeof server.port !== 'number' || !(server.port > 0)) {
    server.port = readDaemonInfo(home)?.port ?? (await freePort());
    keysAdded.push('port');
  }
  if (server.idleMinutes === undefined) {
    server.idleMinutes = 0;
    keysAdded.push('idleMinutes');
  }
  if (keysAdded.length) writeFileAtomic(home.config, formatJson({ ...value, server }, read.kind === 'ok' ? read.indent : 2), 0o600);
  return { port: server.port as number, token, record: { home: home.dir, configCreated: read.kind === 'missing', keysAdded, tokenCreated } };
}

/** Starts the daemon from the installed runtime (used after `install --shared`). */
export async function startSharedDaemon(runtimeDir: string, node: string, home: GsdHome = gsdHome()) {
  return ensureDaemon(home, { command: node, args: [path.join(runtimeDir, 'mcp-server.js'), '--daemon'] });
}

/** Stops the daemon and removes the files it and install made in the GSD home; the user's own config stays. */
export async function removeShared(record: SharedRecord | undefined, home: GsdHome = gsdHome()): Promise<string[]> {
  const done: string[] = [];
  if (await stopDaemon(home)) done.push('stopped the shared gsd server');
  // the shims' socket too, when a killed daemon left it (a named pipe on Windows goes with its process)
  for (const f of [home.daemonJson, home.pidFile, home.startLock, home.token, ...(process.platform === 'win32' ? [] : [home.socket])]) {
    if (existsSync(f)) {
      rmSync(f, { force: true });
      done.push(`deleted ${f}`);
    }
  }
  if (existsSync(home.dir)) {
    for (const name of readdirSync(home.dir)) {
      if (/^server\.log(\.\d+)?$/.test(name)) {
        rmSync(path.join(home.dir, name), { force: true });
        done.push(`deleted ${path.join(home.dir, name)}`);
      }
    }
  }
  if (record?.keysAdded.length) {
    const read = readJson(home.config);
    if (read.kind === 'ok' && isObject(read.value.server)) {
      const server = { ...read.value.server };
      for (const k of record.keysAdded) delete server[k];
      const next: JsonObject = { ...read.value, server };
      if (!Object.keys(server).length) delete next.server;
      if (record.configCreated && !Object.keys(next).length) rmSync(home.config);
      else writeFileAtomic(home.config, formatJson(next, read.indent), 0o600);
      done.push(`removed server.${record.keysAdded.join(', server.')} from ${home.config}`);
    }
  }
  try {
    rmdirSync(home.dir); // only when empty
    done.push(`deleted ${home.dir}`);
  } catch {
    // the user's config.json or other files stay
  }
  return done;
}

/** What doctor says about the shared server for the registered entry. */
export async function sharedServerFindings(entry: JsonObject, home: GsdHome = gsdHome()): Promise<{ ok: boolean; what: string; fix?: string }[]> {
  const out: { ok: boolean; what: string; fix?: string }[] = [];
  const http = entry.type === 'http';
  const inProcess = isObject(entry.env) && entry.env.GSD_MCP_MODE === 'in-process';
  out.push({ ok: true, what: `mode: ${http ? `shared server over http (${String(entry.url)})` : inProcess ? 'stdio, in-process server' : 'stdio shim to the shared server (started on demand, in-process when it cannot start)'}` });
  if (inProcess) return out;
  const info = readDaemonInfo(home);
  if (!info) {
    out.push(http ? { ok: false, what: `the shared server is not running (${home.dir})`, fix: 'run: get-shit-done-cc serve --detach' } : { ok: true, what: 'shared server: not running (the next session starts it)' });
    return out;
  }
  const h = await daemonHealth(home, info);
  if (!h.ok) {
    out.push({ ok: false, what: `shared server pid ${info.pid} does not answer: ${h.reason}`, fix: 'run: get-shit-done-cc serve --stop (the next session starts a fresh one)' });
    return out;
  }
  out.push({ ok: true, what: `shared server healthy: pid ${h.pid}, version ${h.version}, ${h.sessions} session(s), ${h.projects.length} project(s) loaded, ${Math.round(h.rssBytes / 1e6)} MB` });
  if (http) {
    const port = Number(/:(\d+)\//.exec(String(entry.url))?.[1]);
    if (port !== info.port) out.push({ ok: false, what: `the registration points at port ${port}, the server listens on ${info.port}`, fix: 'run: get-shit-done-cc install --shared --yes' });
    let token = '';
    try {
      token = readToken(home);
    } catch (error) {
      out.push({ ok: false, what: (error as Error).message });
    }
    const headers = isObject(entry.headers) ? entry.headers : {};
    if (token && headers.Authorization !== `Bearer ${token}`) out.push({ ok: false, what: 'the registered token is not the server\'s token', fix: 'run: get-shit-done-cc install --shared --yes' });
  }
  return out;
}
