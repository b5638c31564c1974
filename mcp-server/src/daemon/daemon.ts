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
 * The stdio shims connect to a Unix socket (`daemon.sock` in the 0700 GSD folder; a named pipe on Windows) instead:
 * after a handshake line with the token (handshake.ts), each connection is one MCP session on the SDK's
 * StdioServerTransport over the socket — newline-delimited JSON-RPC as stdio, no HTTP per message, so a call through
 * a shim costs about what a direct stdio call costs (bench/shared-server.mjs).
 *
 * Every session gets its own ServerContext bound to its client's roots or to the folder the shim passes in the
 * `X-GSD-Root` header; all contexts share one ProjectPool, so a project's loaded intelligence exists once.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_VERSION } from '../../../engine/src/index.js';
import { ProjectPool, ServerContext } from '../context.js';
import { logError, setLogSink } from '../log.js';
import { appendRotated } from '../rotate.js';
import { redact } from '../security.js';
import { buildServer } from '../server.js';
import { JournalFollowers } from './followers.js';
import { checkHostAndOrigin, checkToken, tokenMatches } from './guard.js';
import { readFirstLine, type Hello, type HelloAnswer } from './handshake.js';
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
  /** called when the client's GET event stream starts: requests to the client (roots/list) reach it from then on */
  streamOpened: () => void;
}

/** A shim's session on the socket: requests not answered yet keep the daemon from idling out. */
interface SocketSession {
  socket: Socket;
  server: McpServer;
  ctx: ServerContext;
  open: number;
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

/** A header's URI-encoded value, decoded; undefined when absent or not decodable. */
function header(req: IncomingMessage, name: string): string | undefined {
  const raw = req.headers[name];
  if (typeof raw !== 'string' || !raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The lease holder of a new session: the Claude Code session a shim names (x-gsd-session), else a fresh id. */
function sessionHolder(id: unknown): string {
  return typeof id === 'string' && /^[\w.:@-]{1,200}$/.test(id) ? id : `mcp-session:${randomUUID()}`;
}

/** The folder a shim passes (X-GSD-Root): absolute or ignored. */
function boundFolder(p: unknown): string | null {
  return typeof p === 'string' && path.isAbsolute(p) && !p.includes('\0') ? path.resolve(p) : null;
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
  const followers = new JournalFollowers(log, log);
  const sessions = new Map<string, Session>();
  const socketSessions = new Set<SocketSession>();
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
    sessions: sessions.size + socketSessions.size,
    projects: pool.roots(),
    following: followers.roots,
    requests,
    rssBytes: process.memoryUsage().rss,
    idleMinutes: settings.idleMs / 60_000,
  });

  /** A session's context and server, bound to `folder` (else to its client's roots). */
  const sessionServer = (folder: string | null, holder: unknown, over: 'http' | 'socket') => {
    // Each session holds its own leases: the Claude Code session the shim names, else an id of this MCP session
    // (never the daemon's pid, which every session would share and a restart would change).
    // Over http a request to the client travels on the session's GET event stream, and one sent before the client
    // opened it is dropped (the SDK keeps no event store here): roots/list waits for the stream.
    let streamOpened = () => {};
    const reachable = over === 'http' ? new Promise<void>((resolve) => (streamOpened = resolve)) : undefined;
    const ctx = new ServerContext({
      pool,
      bound: folder ? [folder] : [],
      cwd: folder ?? home.dir,
      env: { CLAUDE_CODE_SESSION_ID: sessionHolder(holder) },
      ...(over === 'http' ? { rootsWaitMs: 2000, clientReachable: reachable } : {}),
    });
    // the session's project: its edits are applied here, warm, while the session lasts (followers.ts)
    const detach = folder ? followers.attach(folder) : () => undefined;
    return { ctx, mcp: buildServer(ctx), streamOpened, detach };
  };

  const newSession = (req: IncomingMessage): StreamableHTTPServerTransport => {
    const folder = boundFolder(header(req, 'x-gsd-root'));
    const { ctx, mcp, streamOpened, detach } = sessionServer(folder, header(req, 'x-gsd-session'), 'http');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // answers as plain JSON (no event stream per call); requests to the client (roots/list) go over the
      // session's GET event stream
      enableJsonResponse: true,
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server: mcp, ctx, root: folder, streamOpened });
        log(`session ${sid.slice(0, 8)} opened${folder ? ` for ${folder}` : ''} (${sessions.size} open)`);
      },
      onsessionclosed: (sid) => {
        log(`session ${sid.slice(0, 8)} closed by its client`);
      },
    });
    transport.onclose = () => {
      const sid = transport.sessionId;
      if (sid && sessions.delete(sid)) ctx.close();
      detach();
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
      if (req.method === 'GET') {
        // the transport registers the stream before it answers: once the answer's head is out, requests reach the client
        const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
        res.writeHead = ((...a: unknown[]) => {
          const r = writeHead(...a);
          if (res.statusCode === 200) s.streamOpened();
          return r;
        }) as typeof res.writeHead;
      }
      return s.transport.handleRequest(req, res);
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
  };

  /** A shim's connection: the handshake, then one MCP session over the socket until it closes. */
  const acceptShim = async (socket: Socket): Promise<void> => {
    socket.on('error', () => undefined); // a shim that goes away resets its connection: the close below cleans up
    let hello: Hello;
    try {
      hello = await readFirstLine<Hello>(socket, 10_000);
    } catch (error) {
      log(`refused a shim connection: ${(error as Error).message}`);
      return void socket.destroy();
    }
    const answer = (a: HelloAnswer) => socket.write(`${JSON.stringify(a)}\n`);
    if (hello?.gsd !== 'hello' || typeof hello.token !== 'string' || !tokenMatches(hello.token, token)) {
      log(`refused a shim connection: ${hello?.gsd !== 'hello' ? 'no handshake' : 'wrong token'}`);
      answer({ gsd: 'refused', reason: 'wrong token' });
      return void socket.end();
    }
    requests++;
    lastActivity = Date.now();
    const folder = boundFolder(hello.root);
    const { ctx, mcp, detach } = sessionServer(folder, hello.session, 'socket');
    const id = randomUUID();
    const session: SocketSession = { socket, server: mcp, ctx, open: 0 };
    const transport = new StdioServerTransport(socket, socket);
    // count what is asked and answered (Protocol.connect keeps this onmessage and calls it first)
    transport.onmessage = (m: JSONRPCMessage) => {
      lastActivity = Date.now();
      if ('method' in m && 'id' in m) {
        requests++;
        session.open++;
      }
    };
    const send = transport.send.bind(transport);
    transport.send = (m: JSONRPCMessage) => {
      lastActivity = Date.now();
      if (!('method' in m) && 'id' in m) session.open = Math.max(0, session.open - 1);
      return send(m);
    };
    transport.onerror = (error) => log(`shim session ${id.slice(0, 8)}: ${error.message}`);
    socketSessions.add(session);
    socket.once('close', () => {
      detach();
      if (!socketSessions.delete(session)) return;
      lastActivity = Date.now();
      void mcp.close().catch(() => undefined);
      ctx.close();
      log(`session ${id.slice(0, 8)} (shim) closed (${sessions.size + socketSessions.size} open)`);
    });
    await mcp.connect(transport);
    answer({ gsd: 'ready', session: id });
    socket.resume();
    log(`session ${id.slice(0, 8)} (shim) opened${folder ? ` for ${folder}` : ''} (${sessions.size + socketSessions.size} open)`);
  };
  const shimServer = net.createServer((socket) => {
    acceptShim(socket).catch((error: unknown) => {
      logError('a shim connection failed', error);
      socket.destroy();
    });
  });

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
  // the shims' socket; without it (an unusable path) shims serve in-process and http clients are unaffected
  let socket: string | undefined = home.socket;
  try {
    if (process.platform !== 'win32') rmSync(socket, { force: true }); // a dead daemon's: we hold the pid claim
    await new Promise<void>((resolve, reject) => {
      shimServer.once('error', reject);
      shimServer.listen(socket, () => {
        shimServer.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    log(`cannot listen on ${socket} (${(error as Error).message}); stdio shims will serve in-process`);
    socket = undefined;
  }
  const info: DaemonInfo = { pid: process.pid, port, url: `http://127.0.0.1:${port}${DAEMON_PATH}`, ...(socket ? { socket } : {}), version: TOOL_VERSION, startedAt: new Date(started).toISOString() };
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
    // busy: an HTTP request in flight, or a request a shim's session has not answered yet (a long tool call)
    const busy = inflight > 0 || [...socketSessions].some((s) => s.open > 0);
    if (settings.idleMs && !busy && Date.now() - lastActivity >= settings.idleMs) void stop(`idle for ${Math.round(settings.idleMs / 1000)} s`);
  }, tickMs);

  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(timer);
      log(`stopping: ${reason}`);
      server.close();
      shimServer.close();
      for (const s of [...sessions.values(), ...socketSessions]) {
        await s.server.close().catch(() => undefined);
        s.ctx.close();
      }
      sessions.clear();
      for (const s of socketSessions) s.socket.destroy();
      socketSessions.clear();
      // the followed projects' journals applied and their worker roles released
      await followers.close();
      pool.close();
      server.closeAllConnections();
      // the socket file too, unless a newer daemon took over (and listens on the same path)
      const files = [home.daemonJson, home.pidFile];
      try {
        if (socket && process.platform !== 'win32' && (JSON.parse(readFileSync(home.daemonJson, 'utf8')) as DaemonInfo).pid === process.pid) rmSync(socket, { force: true });
      } catch {
        // daemon.json gone: leave the path to whoever comes next (it removes a stale one before listening)
      }
      for (const file of files) {
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
