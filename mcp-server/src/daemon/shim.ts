/**
 * The stdio entry as a thin shim: it relays JSON-RPC between Claude Code (stdio, the SDK's StdioServerTransport)
 * and the shared daemon (the SDK's StreamableHTTPClientTransport), starting the daemon when none runs.
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
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { readToken, type GsdHome } from './home.js';
import { ensureDaemon, type EnsureOptions } from './info.js';

export interface ShimOptions {
  home: GsdHome;
  /** the folder the session is bound to (CLAUDE_PROJECT_DIR or the working folder), sent as X-GSD-Root */
  folder: string;
  /** how to start the daemon */
  daemon: EnsureOptions;
  /** a transport to an in-process server (fallback) */
  inProcess: () => Promise<Transport>;
  /** the client side; stdio by default */
  client?: Transport;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  log?: (line: string) => void;
}

interface Upstream {
  gen: number;
  kind: 'daemon' | 'in-process';
  transport: Transport;
}

interface Pending {
  msg: JSONRPCRequest;
  /** generation it was last sent on; -1 = not yet */
  gen: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Shim {
  /** resolves when the client side closed */
  closed: Promise<void>;
  /** the upstream in use: 'daemon', 'in-process' or null (not connected yet) */
  mode(): 'daemon' | 'in-process' | null;
}

export async function runShim(options: ShimOptions): Promise<Shim> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[gsd-mcp shim] ${line}\n`));
  const maxAttempts = options.maxAttempts ?? 7;
  const baseDelay = options.baseDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 4000;
  const client = options.client ?? new StdioServerTransport();
  const pending = new Map<RequestId, Pending>();
  /** server → client requests: id → generation they came from (a response to a dead generation is dropped) */
  const serverRequests = new Map<RequestId, number>();
  const readOnlyTools = new Set<string>();
  let init: JSONRPCRequest | null = null;
  let initDelivered = false;
  let initialized = false;
  let upstream: Upstream | null = null;
  let connecting: Promise<Upstream> | null = null;
  let gen = 0;
  let everConnected = false;
  let fallback = false;
  let closedResolve!: () => void;
  const closed = new Promise<void>((r) => (closedResolve = r));
  const reinit = new Map<RequestId, { resolve: (m: JSONRPCMessage) => void; reject: (e: Error) => void }>();

  const toClient = (m: JSONRPCMessage) => client.send(m).catch((e: Error) => log(`cannot write to the client: ${e.message}`));

  const fromUpstream = (up: Upstream, m: JSONRPCMessage) => {
    if (up.gen !== gen) return;
    if (isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m)) {
      const waiter = m.id !== undefined ? reinit.get(m.id) : undefined;
      if (waiter) {
        reinit.delete(m.id!);
        waiter.resolve(m);
        return;
      }
      const p = m.id !== undefined ? pending.get(m.id) : undefined;
      if (p) {
        pending.delete(m.id!);
        if (isJSONRPCResultResponse(m)) {
          if (p.msg.method === 'tools/list') {
            for (const t of (m.result as { tools?: { name: string; annotations?: { readOnlyHint?: boolean } }[] }).tools ?? []) {
              if (t.annotations?.readOnlyHint) readOnlyTools.add(t.name);
            }
          }
          if (p.msg === init && up.transport instanceof StreamableHTTPClientTransport) {
            const v = (m.result as { protocolVersion?: string }).protocolVersion;
            if (v) up.transport.setProtocolVersion(v);
          }
        }
      }
      void toClient(m);
      return;
    }
    if (isJSONRPCRequest(m)) serverRequests.set(m.id, up.gen);
    void toClient(m);
  };

  const openDaemon = async (): Promise<Upstream> => {
    const started = await ensureDaemon(options.home, options.daemon);
    if (!started.info) throw new Error(started.reason);
    const token = readToken(options.home);
    const g = ++gen;
    const transport = new StreamableHTTPClientTransport(new URL(started.info.url), {
      requestInit: {
        headers: {
          authorization: `Bearer ${token}`,
          'x-gsd-root': encodeURIComponent(options.folder),
          // the Claude Code session this shim serves, when its environment names it: the daemon records it as the
          // holder of this session's leases, as an in-process server would (planning.ts, holderOf)
          ...(process.env.CLAUDE_CODE_SESSION_ID ? { 'x-gsd-session': encodeURIComponent(process.env.CLAUDE_CODE_SESSION_ID) } : {}),
        },
      },
      reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 100, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1 },
    });
    const up: Upstream = { gen: g, kind: 'daemon', transport };
    transport.onmessage = (m) => fromUpstream(up, m);
    transport.onerror = (e) => {
      // the standalone event stream ended or broke: the daemon is gone or restarting
      if (/SSE stream disconnected|Maximum reconnection|fetch failed|ECONNREFUSED|terminated/i.test(e.message)) broken(g, e.message);
    };
    await transport.start();
    if (started.started) log(`started the shared gsd server (pid ${started.info.pid}, ${started.info.url})`);
    if (init && initDelivered) {
      // a new session on a new (or restarted) daemon: set it up as the client set up the first one
      const id = `gsd-shim-init-${g}`;
      const answer = new Promise<JSONRPCMessage>((resolve, reject) => {
        reinit.set(id, { resolve, reject });
        setTimeout(() => reject(new Error('no answer to the replayed initialize within 10 s')), 10_000).unref();
      });
      try {
        await transport.send({ ...init, id });
        const r = await answer;
        if (isJSONRPCErrorResponse(r)) throw new Error(`the daemon refused the replayed initialize: ${r.error.message}`);
        const v = (r as { result: { protocolVersion?: string } }).result.protocolVersion;
        if (v) transport.setProtocolVersion(v);
        if (initialized) await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      } catch (error) {
        reinit.delete(id);
        await transport.close().catch(() => undefined);
        throw error;
      }
    }
    return up;
  };

  const openInProcess = async (): Promise<Upstream> => {
    const transport = await options.inProcess();
    const up: Upstream = { gen: ++gen, kind: 'in-process', transport };
    transport.onmessage = (m) => fromUpstream(up, m);
    await transport.start();
    if (init && initDelivered) {
      const id = `gsd-shim-init-${up.gen}`;
      const answer = new Promise<JSONRPCMessage>((resolve, reject) => reinit.set(id, { resolve, reject }));
      await transport.send({ ...init, id });
      await answer;
      if (initialized) await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    return up;
  };

  const failPending = (message: string) => {
    for (const [id, p] of pending) {
      if (p.gen === -1) continue; // not sent yet: goes to the next upstream
      pending.delete(id);
      void toClient({ jsonrpc: '2.0', id, error: { code: -32603, message } });
    }
  };

  /**
   * Sends without waiting for the answer (a POST answered as JSON resolves with it): calls run side by side as the
   * client sent them. The daemon answering with a refusal (400, 413, 500…) fails that request only; a network error,
   * an unknown session (404: the daemon restarted) or a token it no longer takes (401) means reconnecting — the
   * request stays pending and is resent after the reconnect.
   */
  const dispatch = (up: Upstream, m: JSONRPCMessage, entry?: Pending): Promise<boolean> =>
    up.transport.send(m).then(
      () => true,
      (error: Error) => {
        const status = (error as { code?: unknown }).code;
        if (typeof status === 'number' && status >= 400 && status !== 404 && status !== 401) {
          if (entry && pending.delete(entry.msg.id)) void toClient({ jsonrpc: '2.0', id: entry.msg.id, error: { code: -32603, message: `gsd: ${error.message}` } });
        } else broken(up.gen, error.message);
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
        void toClient({ jsonrpc: '2.0', id, error: { code: -32603, message: `gsd: the shared server restarted during this ${name} call; it may or may not have been applied. Check, then call again.` } });
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
    old.transport.onerror = undefined;
    void old.transport.close().catch(() => undefined);
    for (const [id, w] of reinit) {
      reinit.delete(id);
      w.reject(new Error(reason));
    }
    const inFlight = [...pending.values()].some((p) => p.gen !== -1);
    log(`lost the shared server (${reason})${inFlight ? '; reconnecting' : ''}`);
    if (inFlight) void getUpstream().catch((e: Error) => log(`reconnect failed: ${e.message}`));
  }

  const send = async (m: JSONRPCMessage): Promise<void> => {
    // a client's answer to a server request goes to the connection that asked, or nowhere
    if (isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m)) {
      const g = m.id !== undefined ? serverRequests.get(m.id) : undefined;
      if (m.id !== undefined) serverRequests.delete(m.id);
      if (upstream && g === upstream.gen) await upstream.transport.send(m).catch((e: Error) => broken(g, e.message));
      return;
    }
    let entry: Pending | undefined;
    if (isJSONRPCRequest(m)) {
      if (isInitializeRequest(m)) init = m;
      else if (!initDelivered) {
        // before initialize (e.g. Claude Code's `server/discover` probe) there is no session to relay to: answer as
        // an uninitialized server does
        void toClient({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
        return;
      }
      entry = { msg: m, gen: -1 };
      pending.set(m.id, entry);
    } else if ((m as { method?: string }).method === 'notifications/initialized') initialized = true;
    const up = await getUpstream();
    if (entry) entry.gen = up.gen;
    const sent = dispatch(up, m, entry);
    if (entry?.msg === init || !entry) {
      // initialize and notifications in order, before what follows
      if ((await sent) && entry) initDelivered = true;
    }
  };

  // messages are relayed in order
  let chain = Promise.resolve();
  client.onmessage = (m: JSONRPCMessage) => {
    chain = chain.then(() => send(m)).catch((e: Error) => log(`relay failed: ${e.message}`));
  };
  client.onclose = () => {
    const up = upstream;
    upstream = null;
    gen++;
    const done = async () => {
      if (up?.transport instanceof StreamableHTTPClientTransport) await up.transport.terminateSession().catch(() => undefined);
      await up?.transport.close().catch(() => undefined);
      closedResolve();
    };
    void done();
  };
  await client.start();
  return { closed, mode: () => upstream?.kind ?? null };
}
