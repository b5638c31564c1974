/**
 * A shim's MCP session with the daemon, in node built-ins only (the shim's hot path loads no SDK, no zod, no HTTP):
 * one connection to the daemon's socket, the handshake (handshake.ts), then newline-delimited JSON-RPC both ways —
 * the client's messages as they come, and everything the daemon sends (answers, its own requests such as
 * `roots/list`, notifications such as `list_changed` and progress) as it comes.
 */
import net from 'node:net';
import type { Readable } from 'node:stream';
import { readFirstLine, type Hello, type HelloAnswer } from './handshake.js';

export type Message = Record<string, unknown> & { jsonrpc: '2.0'; id?: string | number; method?: string };

/**
 * Newline-delimited JSON-RPC from a stream (the client's stdin, the daemon's socket): each line that is a JSON-RPC
 * message goes to `onmessage`; any other line to `onskip` (and is dropped).
 */
export function readMessages(stream: Readable, onmessage: (m: Message) => void, onskip: (line: string, why: string) => void = () => undefined): void {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      let m: unknown;
      try {
        m = JSON.parse(line);
      } catch {
        onskip(line, 'not JSON');
        continue;
      }
      if (m && typeof m === 'object' && !Array.isArray(m) && (m as Message).jsonrpc === '2.0') onmessage(m as Message);
      else onskip(line, 'not a JSON-RPC message');
    }
  });
}

/** The daemon refused the session (`refused`: a wrong token), or the connection failed or broke. */
export class LinkError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

export interface LinkOptions {
  socket: string;
  hello: Omit<Hello, 'gsd'>;
  /** every message the daemon sends */
  onmessage: (m: Message) => void;
  /** the connection ended without `close()`: the daemon is gone or restarting */
  onlost: (reason: string) => void;
  timeoutMs?: number;
}

export interface DaemonLink {
  /** the daemon's id of the session (its log names it) */
  session: string;
  /** writes one message; rejects when the connection is gone */
  send(m: Message): Promise<void>;
  close(): void;
}

/** Connects and shakes hands; rejects with a LinkError when the daemon is not there or refuses. */
export async function openLink(options: LinkOptions): Promise<DaemonLink> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const socket = net.connect(options.socket);
  socket.on('error', () => undefined); // reported through connect/handshake failures and 'close'
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no connection within ${timeoutMs} ms`)), timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    socket.write(`${JSON.stringify({ gsd: 'hello', ...options.hello } satisfies Hello)}\n`);
    const answer = await readFirstLine<HelloAnswer>(socket, timeoutMs);
    if (answer?.gsd === 'refused') throw new LinkError(`the shared server refused the session: ${answer.reason}`, true);
    if (answer?.gsd !== 'ready') throw new Error('the shared server answered the handshake with something else');
    let closed = false;
    readMessages(socket, options.onmessage);
    socket.once('close', () => {
      if (!closed) options.onlost('the connection closed');
    });
    socket.resume();
    return {
      session: answer.session,
      send: (m) =>
        new Promise((resolve, reject) => {
          if (socket.destroyed || !socket.writable) return reject(new LinkError('the connection is closed'));
          socket.write(`${JSON.stringify(m)}\n`, (error) => (error ? reject(new LinkError(error.message)) : resolve()));
        }),
      close: () => {
        closed = true;
        socket.destroy();
      },
    };
  } catch (error) {
    socket.destroy();
    throw error instanceof LinkError ? error : new LinkError((error as Error).message);
  }
}
