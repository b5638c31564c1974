/**
 * The shared GSD server: one process serving MCP over Streamable HTTP (the SDK's StreamableHTTPServerTransport,
 * stateful: one McpServer + transport per session, as the SDK's examples do) on 127.0.0.1 to every Claude Code
 * session and worktree of the user. node:http is all the HTTP it needs: three routes, the SDK transport does the
 * protocol, and a framework would only add start-up time and memory.
 *
 *   POST|GET|DELETE /gsd/mcp   MCP (bearer token; a new session on `initialize`)
 *   GET  /gsd/health           pid, version, sessions, projects, memory (bearer token)
 *   POST /gsd/shutdown         stop (bearer token)
 *
 * Every session gets its own ServerContext bound to its client's roots or to the folder the shim passes in the
 * `X-GSD-Root` header; all contexts share one ProjectPool, so a project's loaded intelligence exists once.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_VERSION } from '../../../engine/src/index.js';
import { ProjectPool, ServerContext } from '../context.js';
import { logError, setLogSink } from '../log.js';
import { appendRotated } from '../rotate.js';
import { redact } from '../security.js';
import { buildServer } from '../server.js';
import { checkHostAndOrigin, checkToken } from './guard.js';
import { claimFile, ensureHomeDir, ensureToken, isAlive, type GsdHome } from './home.js';
import { DAEMON_PATH, type DaemonInfo } from './info.js';
import { readDaemonSettings, type DaemonSettings } from './settings.js';

export interface DaemonOptions {
  home: GsdHome;
  settings?: Partial<DaemonSettings>;
  /** also write log lines to stderr (foreground `serve`) */
  echo?: boolean;
}

export interface RunningDaemon {
  port: number;
  info: DaemonInfo;
  /** resolves when the daemon has stopped */
  stopped: Promise<void>;
  stop(reason: string): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  ctx: ServerContext;
  root: string | null;
}

export class AlreadyRunningError extends Error {
  constructor(readonly pid: number) {
    super(`a gsd server is already running (pid ${pid})`);
  }
}

const MAX_BODY = 4 * 1024 * 1024;

function claimPid(home: GsdHome): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (claimFile(home.pidFile, `${process.pid}\n`)) return;
    let pid = 0;
    try {
      pid = Number(readFileSync(home.pidFile, 'utf8').trim());
    } catch {
      // vanished meanwhile
    }
    if (pid && pid !== process.pid && isAlive(pid)) throw new AlreadyRunningError(pid);
    rmSync(home.pidFile, { force: true }); // stale: its process is gone
  }
  throw new Error(`cannot claim ${home.pidFile}`);
}

function writeJsonAtomic(file: string, value: unknown): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
      else if (size > 16 * MAX_BODY) req.destroy(); // read the rest (so the client sees the 413) up to a point
    });
    req.on('end', () => (size > MAX_BODY ? reject(Object.assign(new Error('request body over 4 MB'), { status: 413 })) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code: status === 401 || status === 403 ? -32001 : -32600, message }, id: null }, headers);
}

/** The folder a shim passes (`X-GSD-Root`, URI-encoded): absolute or ignored. */
/** The lease holder of a new session: the `x-gsd-session` header (a shim's Claude Code session), else a fresh id. */
function sessionHolder(req: IncomingMessage): string {
  const raw = req.headers['x-gsd-session'];
  if (typeof raw === 'string' && raw) {
    try {
      const id = decodeURIComponent(raw);
      if (/^[\w.:@-]{1,200}$/.test(id)) return id;
    } catch {
      // not an id: a fresh one below
    }
  }
  return `mcp-session:${randomUUID()}`;
}

function boundFolder(req: IncomingMessage): string | null {
  const raw = req.headers['x-gsd-root'];
  if (typeof raw !== 'string' || !raw) return null;
  try {
    const p = decodeURIComponent(raw);
    return path.isAbsolute(p) && !p.includes('\0') ? path.resolve(p) : null;
  } catch {
    return null;
  }
}

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const { home } = options;
  const settings: DaemonSettings = { ...readDaemonSettings(), ...options.settings };
  ensureHomeDir(home);
  const log = (line: string) => {
    const text = `${new Date().toISOString()} [${process.pid}] ${JSON.stringify(redact(line)).slice(1, -1)}\n`;
    try {
      appendRotated(home.log, text, settings.log);
    } catch {
      // a full disk must not stop the server
    }
    if (options.echo) process.stderr.write(text);
  };
  setLogSink(log);
  const token = ensureToken(home);
  claimPid(home);

  const pool = new ProjectPool(Number.MAX_SAFE_INTEGER);
  const sessions = new Map<string, Session>();
  const started = Date.now();
  let lastActivity = Date.now();
  let inflight = 0;
  let requests = 0;
  let stopping: Promise<void> | null = null;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));

  const server = http.createServer();
  server.keepAliveTimeout = 60_000;
  let port = settings.port;

  const health = () => ({
    ok: true,
    pid: process.pid,
    version: TOOL_VERSION,
    port,
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
    sessions: sessions.size,
    projects: pool.roots(),
    requests,
    rssBytes: process.memoryUsage().rss,
    idleMinutes: settings.idleMs / 60_000,
  });

  const newSession = (req: IncomingMessage): StreamableHTTPServerTransport => {
    const folder = boundFolder(req);
    // Each session holds its own leases: the Claude Code session the shim names, else an id of this MCP session
    // (never the daemon's pid, which every session would share and a restart would change).
    const ctx = new ServerContext({ pool, bound: folder ? [folder] : [], cwd: folder ?? home.dir, env: { CLAUDE_CODE_SESSION_ID: sessionHolder(req) } });
    const mcp = buildServer(ctx);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // answers as plain JSON (no event stream per call: measured faster through the shim); requests to the
      // client (roots/list) go over the session's GET event stream
      enableJsonResponse: true,
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server: mcp, ctx, root: folder });
        log(`session ${sid.slice(0, 8)} opened${folder ? ` for ${folder}` : ''} (${sessions.size} open)`);
      },
      onsessionclosed: (sid) => {
        log(`session ${sid.slice(0, 8)} closed by its client`);
      },
    });
    transport.onclose = () => {
      const sid = transport.sessionId;
      if (sid && sessions.delete(sid)) ctx.close();
    };
    transport.onerror = (error) => log(`session transport error: ${error.message}`);
    // connect() only wires callbacks; it cannot fail for a fresh transport
    void mcp.connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = checkHostAndOrigin(req, port) ?? checkToken(req, token);
    if (refusal) {
      log(`refused ${req.method} ${req.url} from ${req.socket.remoteAddress}: ${refusal.message}`);
      return rpcError(res, refusal.status, refusal.message, refusal.status === 401 ? { 'www-authenticate': 'Bearer realm="gsd"' } : {});
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/gsd/health' && req.method === 'GET') return sendJson(res, 200, health());
    if (url.pathname === '/gsd/shutdown' && req.method === 'POST') {
      sendJson(res, 200, { ok: true, pid: process.pid });
      setImmediate(() => void stop('stopped on request (serve --stop)'));
      return;
    }
    if (url.pathname !== DAEMON_PATH) return sendJson(res, 404, { error: `no route ${url.pathname}` });
    const sid = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch (error) {
        const status = (error as { status?: number }).status ?? 400;
        return sendJson(res, status, { jsonrpc: '2.0', error: { code: -32700, message: status === 413 ? 'request body over 4 MB' : 'parse error: the body is not JSON' }, id: null });
      }
      if (typeof sid === 'string') {
        const s = sessions.get(sid);
        if (!s) return rpcError(res, 404, 'unknown or expired session; initialize again');
        return s.transport.handleRequest(req, res, body);
      }
      if (!isInitializeRequest(body)) return rpcError(res, 400, 'no session: send initialize first (without mcp-session-id)');
      return newSession(req).handleRequest(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      const s = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (!s) return rpcError(res, typeof sid === 'string' ? 404 : 400, typeof sid === 'string' ? 'unknown or expired session; initialize again' : 'missing mcp-session-id');
      return s.transport.handleRequest(req, res);
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    lastActivity = Date.now();
    // a GET is the session's event stream: open for as long as the session lives, so it does not keep the daemon busy
    const counts = req.method !== 'GET';
    if (counts) inflight++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (counts) inflight--;
      lastActivity = Date.now();
    };
    res.on('close', finish);
    res.on('finish', finish);
    handle(req, res).catch((error: unknown) => {
      // one failing request never takes the daemon down
      logError(`${req.method} ${req.url} failed`, error);
      if (!res.headersSent) rpcError(res, 500, `internal error: ${(error as Error)?.message ?? String(error)}`);
      else res.end();
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(settings.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    rmSync(home.pidFile, { force: true });
    throw error;
  }
  port = (server.address() as { port: number }).port;
  const info: DaemonInfo = { pid: process.pid, port, url: `http://127.0.0.1:${port}${DAEMON_PATH}`, version: TOOL_VERSION, startedAt: new Date(started).toISOString() };
  writeJsonAtomic(home.daemonJson, info);
  log(`listening on ${info.url} (idle exit ${settings.idleMs ? `${settings.idleMs / 60_000} min` : 'off'}, projects freed after ${settings.projectIdleMs / 60_000} min)`);

  const tickMs = Math.max(50, Math.min(30_000, settings.idleMs ? settings.idleMs / 4 : 30_000, settings.projectIdleMs / 4));
  const timer = setInterval(() => {
    // daemon.json gone or naming another process: uninstalled, its home removed, or a newer daemon took over
    let mine = false;
    try {
      mine = (JSON.parse(readFileSync(home.daemonJson, 'utf8')) as DaemonInfo).pid === process.pid;
    } catch {
      // gone
    }
    if (!mine) return void stop(`${home.daemonJson} is gone or names another process`);
    for (const root of pool.sweep(settings.projectIdleMs)) log(`freed ${root} (no call for ${Math.round(settings.projectIdleMs / 1000)} s)`);
    if (settings.idleMs && inflight === 0 && Date.now() - lastActivity >= settings.idleMs) void stop(`idle for ${Math.round(settings.idleMs / 1000)} s`);
  }, tickMs);

  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(timer);
      log(`stopping: ${reason}`);
      server.close();
      for (const s of sessions.values()) {
        await s.server.close().catch(() => undefined);
        s.ctx.close();
      }
      sessions.clear();
      pool.close();
      server.closeAllConnections();
      for (const file of [home.daemonJson, home.pidFile]) {
        try {
          // only our own: a newer daemon may have taken over
          const text = readFileSync(file, 'utf8');
          if (text.includes(String(process.pid))) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      }
      setLogSink(null);
      resolveStopped();
    })();
    return stopping;
  };

  return { port, info, stopped, stop };
}
