/**
 * The stdio entry as a thin shim: it relays newline-delimited JSON-RPC between Claude Code (stdin/stdout) and the
 * shared daemon (the daemon's socket, one connection per session, `link.ts`), starting the daemon when none runs.
 * The relay itself is node built-ins only: no MCP SDK, no zod, no fetch, and no HTTP per message (only the daemon's
 * health check when it connects), so a shim is a small process and its hop costs little; the SDK (and the whole
 * server) is loaded only for the in-process fallback.
 *
 * - No daemon can be started: the shim serves in-process (the full server over an in-memory pair), so a session
 *   never loses its tools.
 * - The daemon goes away (killed, restarted, idle exit): the next message, or at once when calls are in flight,
 *   reconnects with exponential backoff and jitter, starting a new daemon if needed, replays the client's
 *   `initialize` (and `notifications/initialized`) so the new session is set up as the first one was, and resends
 *   the requests that were in flight. A `tools/call` of a tool that writes is not resent (it may have been applied):
 *   it gets an error saying so. After `maxAttempts` the in-flight requests get a clear error and the shim serves
 *   in-process from then on.
 */
import type { Readable, Writable } from 'node:stream';
import { readToken, type GsdHome } from './home.js';
import { ensureDaemon, type EnsureOptions } from './info.js';
import { openLink, readMessages, type Message } from './link.js';

type RequestId = string | number;

/**
 * What the shim uses of the in-process server's transport (the SDK's Transport, structurally: the shim does not
 * import the SDK, not even its types, so that nothing of it reaches the relay).
 */
export interface InProcessTransport {
  start(): Promise<void>;
  send(message: never): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: never) => void;
}
type Request = Message & { id: RequestId; method: string };

export interface ShimOptions {
  home: GsdHome;
  /** the folder the session is bound to (CLAUDE_PROJECT_DIR or the working folder), sent as X-GSD-Root */
  folder: string;
  /** the Claude Code session this shim serves (CLAUDE_CODE_SESSION_ID), sent as x-gsd-session */
  session?: string;
  /** how to start the daemon */
  daemon: EnsureOptions;
  /** a transport to an in-process server (fallback; loads the SDK and the server) */
  inProcess: () => Promise<InProcessTransport>;
  /** the client side: newline-delimited JSON-RPC; stdin/stdout by default */
  input?: Readable;
  output?: Writable;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  log?: (line: string) => void;
}

interface Upstream {
  gen: number;
  kind: 'daemon' | 'in-process';
  /** resolves once the message was handed on; rejects when the connection is gone */
  send(m: Message): Promise<void>;
  /** ends the session upstream, then lets go of it */
  close(): Promise<void>;
}

interface Pending {
  msg: Request;
  /** generation it was last sent on; -1 = not yet */
  gen: number;
}

const isRequest = (m: Message): m is Request => typeof m.method === 'string' && m.id !== undefined && m.id !== null;
const isResponse = (m: Message): boolean => typeof m.method !== 'string' && ('result' in m || 'error' in m);
const resultOf = <T>(m: Message): T | undefined => ('result' in m ? (m.result as T) : undefined);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Shim {
  /** resolves when the client side closed and the upstream session was ended */
  closed: Promise<void>;
  /** the upstream in use: 'daemon', 'in-process' or null (not connected yet) */
  mode(): 'daemon' | 'in-process' | null;
  /** ends the relay as if the client had closed its side */
  close(): void;
}

export async function runShim(options: ShimOptions): Promise<Shim> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[gsd-mcp shim] ${line}\n`));
  const maxAttempts = options.maxAttempts ?? 7;
  const baseDelay = options.baseDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 4000;
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const pending = new Map<RequestId, Pending>();
  /** server → client requests: id → generation they came from (a response to a dead generation is dropped) */
  const serverRequests = new Map<RequestId, number>();
  const readOnlyTools = new Set<string>();
  let init: Request | null = null;
  let initDelivered = false;
  let initialized = false;
  let upstream: Upstream | null = null;
  let connecting: Promise<Upstream> | null = null;
  let gen = 0;
  let everConnected = false;
  let fallback = false;
  let ended = false;
  let closedResolve!: () => void;
  const closed = new Promise<void>((r) => (closedResolve = r));
  /** answers awaited by the shim itself (a replayed initialize) */
  const reinit = new Map<RequestId, { resolve: (m: Message) => void; reject: (e: Error) => void }>();

  output.on('error', (e: Error) => log(`cannot write to the client: ${e.message}`));
  /** called when the client's initialize got its answer (the relay holds what follows until then) */
  let initAnswered: (() => void) | null = null;
  const toClient = (m: Message) => {
    if (init && m.id === init.id && isResponse(m)) {
      if ('result' in m) initDelivered = true;
      initAnswered?.();
      initAnswered = null;
    }
    if (!ended) output.write(`${JSON.stringify(m)}\n`);
  };
  const errorTo = (id: RequestId, message: string) => toClient({ jsonrpc: '2.0', id, error: { code: -32603, message } });

  const fromUpstream = (up: Upstream, m: Message) => {
    if (up.gen !== gen) return;
    if (isResponse(m)) {
      const waiter = m.id !== undefined ? reinit.get(m.id) : undefined;
      if (waiter) {
        reinit.delete(m.id!);
        waiter.resolve(m);
        return;
      }
      const p = m.id !== undefined ? pending.get(m.id) : undefined;
      if (p) {
        pending.delete(m.id!);
        if (p.msg.method === 'tools/list') {
          for (const t of resultOf<{ tools?: { name: string; annotations?: { readOnlyHint?: boolean } }[] }>(m)?.tools ?? []) {
            if (t.annotations?.readOnlyHint) readOnlyTools.add(t.name);
          }
        }
      }
      toClient(m);
      return;
    }
    if (isRequest(m)) serverRequests.set(m.id, up.gen);
    toClient(m);
  };

  /** Sends the client's initialize again on a new upstream, waits for its answer and sends `initialized`. */
  const replayInit = async (up: Upstream) => {
    if (!init || !initDelivered) return;
    const id = `gsd-shim-init-${up.gen}`;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<Message>((resolve, reject) => {
      reinit.set(id, { resolve, reject });
      timer = setTimeout(() => reject(new Error('no answer to the replayed initialize within 10 s')), 10_000);
      timer.unref();
    });
    try {
      await up.send({ ...init, id });
      const r = await answer;
      if ('error' in r) throw new Error(`the upstream refused the replayed initialize: ${(r.error as { message?: string })?.message}`);
      if (initialized) await up.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    } finally {
      clearTimeout(timer);
      reinit.delete(id);
    }
  };

  const openDaemon = async (): Promise<Upstream> => {
    const started = await ensureDaemon(options.home, options.daemon);
    if (!started.info) throw new Error(started.reason);
    if (!started.info.socket) throw new Error(`the running gsd server (version ${started.info.version}) offers no socket for shims`);
    const g = ++gen;
    // the link reports messages through `up`, which exists before anything is sent
    let up!: Upstream;
    const link = await openLink({
      socket: started.info.socket,
      // the Claude Code session this shim serves, when its environment names it: the daemon records it as the holder
      // of this session's leases, as an in-process server would (planning.ts, holderOf)
      hello: { token: readToken(options.home), root: options.folder, ...(options.session ? { session: options.session } : {}) },
      onmessage: (m) => fromUpstream(up, m),
      onlost: (reason) => {
        // lost while setting the session up: the replayed initialize will not be answered
        if (g === gen && !upstream) for (const w of reinit.values()) w.reject(new Error(reason));
        broken(g, reason);
      },
    });
    up = {
      gen: g,
      kind: 'daemon',
      send: (m) => link.send(m),
      close: async () => link.close(),
    };
    if (started.started) log(`started the shared gsd server (pid ${started.info.pid})`);
    try {
      // a new session on a new (or restarted) daemon: set it up as the client set up the first one
      await replayInit(up);
    } catch (error) {
      link.close();
      throw error;
    }
    return up;
  };

  const openInProcess = async (): Promise<Upstream> => {
    const transport = await options.inProcess();
    const g = ++gen;
    const up: Upstream = {
      gen: g,
      kind: 'in-process',
      send: (m) => transport.send(m as never),
      close: () => transport.close(),
    };
    transport.onmessage = (m) => fromUpstream(up, m as Message);
    await transport.start();
    await replayInit(up);
    return up;
  };

  const failPending = (message: string) => {
    for (const [id, p] of pending) {
      if (p.gen === -1) continue; // not sent yet: goes to the next upstream
      pending.delete(id);
      errorTo(id, message);
    }
  };

  /**
   * Hands a message on without waiting for the answer: calls run side by side as the client sent them. A connection
   * that is gone means reconnecting — the request stays pending and is resent after the reconnect.
   */
  const dispatch = (up: Upstream, m: Message, entry?: Pending): Promise<boolean> =>
    up.send(m).then(
      () => true,
      (error: Error) => {
        if (up.kind === 'in-process' && entry && pending.delete(entry.msg.id)) errorTo(entry.msg.id, `gsd: ${error.message}`);
        else broken(up.gen, error.message);
        return false;
      },
    );

  /** Resends what was in flight on an older generation; a writing tools/call gets an error instead. */
  const replay = async (up: Upstream) => {
    for (const [id, p] of [...pending]) {
      if (p.gen === -1 || p.gen === up.gen) continue;
      const name = p.msg.method === 'tools/call' ? String((p.msg.params as { name?: unknown })?.name ?? '') : null;
      if (name !== null && !readOnlyTools.has(name)) {
        pending.delete(id);
        errorTo(id, `gsd: the shared server restarted during this ${name} call; it may or may not have been applied. Check, then call again.`);
        continue;
      }
      p.gen = up.gen;
      void dispatch(up, p.msg, p);
    }
  };

  const connect = async (): Promise<Upstream> => {
    if (fallback) return openInProcess();
    let lastError = '';
    const attempts = everConnected ? maxAttempts : 1; // the first start already waited for the daemon
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const delay = Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
        await sleep(delay / 2 + Math.random() * delay); // exponential backoff with jitter
      }
      try {
        const up = await openDaemon();
        everConnected = true;
        return up;
      } catch (error) {
        lastError = (error as Error).message;
        if (everConnected) log(`reconnect attempt ${attempt + 1}/${attempts} failed: ${lastError}`);
      }
    }
    fallback = true;
    if (everConnected) {
      const message = `gsd: the shared server did not come back after ${attempts} attempts (${lastError}); this call failed, the next ones are served in-process`;
      log(message);
      failPending(message);
    } else log(`cannot use the shared server (${lastError}); serving in-process`);
    return openInProcess();
  };

  const getUpstream = (): Promise<Upstream> => {
    if (upstream) return Promise.resolve(upstream);
    connecting ??= connect().then(
      async (up) => {
        upstream = up;
        connecting = null;
        await replay(up);
        return up;
      },
      (error) => {
        connecting = null;
        throw error;
      },
    );
    return connecting;
  };

  function broken(g: number, reason: string): void {
    if (g !== gen || !upstream || upstream.kind !== 'daemon') return;
    const old = upstream;
    upstream = null;
    gen++; // messages of the old connection are ignored from now on
    void old.close().catch(() => undefined);
    const inFlight = [...pending.values()].some((p) => p.gen !== -1);
    log(`lost the shared server (${reason})${inFlight ? '; reconnecting' : ''}`);
    if (inFlight) void getUpstream().catch((e: Error) => log(`reconnect failed: ${e.message}`));
  }

  const send = async (m: Message): Promise<void> => {
    // a client's answer to a server request goes to the connection that asked, or nowhere
    if (isResponse(m)) {
      const g = m.id !== undefined ? serverRequests.get(m.id) : undefined;
      if (m.id !== undefined) serverRequests.delete(m.id);
      if (upstream && g === upstream.gen) await upstream.send(m).catch((e: Error) => broken(g, e.message));
      return;
    }
    let entry: Pending | undefined;
    if (isRequest(m)) {
      if (m.method === 'initialize') init = m;
      else if (!initDelivered) {
        // before initialize (e.g. Claude Code's `server/discover` probe) there is no session to relay to: answer as
        // an uninitialized server does
        toClient({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
        return;
      }
      entry = { msg: m, gen: -1 };
      pending.set(m.id, entry);
    } else if (m.method === 'notifications/initialized') initialized = true;
    // initialize is answered before what follows is relayed (a new session must exist first)
    const answered = entry && entry.msg === init ? new Promise<void>((r) => (initAnswered = r)) : null;
    const up = await getUpstream();
    if (entry) entry.gen = up.gen;
    await dispatch(up, m, entry);
    await answered;
  };

  // messages are relayed in order
  let chain = Promise.resolve();
  const end = () => {
    if (ended) return;
    ended = true;
    const up = upstream;
    upstream = null;
    gen++;
    void (up ? up.close().catch(() => undefined) : Promise.resolve()).then(closedResolve);
  };
  readMessages(
    input,
    (m) => {
      chain = chain.then(() => send(m)).catch((e: Error) => log(`relay failed: ${e.message}`));
    },
    (line, why) => log(`skipped a line from the client that is ${why}: ${line.slice(0, 120)}`),
  );
  input.once('end', end);
  input.once('close', end);
  return { closed, mode: () => upstream?.kind ?? null, close: end };
}
