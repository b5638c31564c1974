/**
 * The shims' socket (node built-ins only; the daemon and the shim both load it). A shim opens one connection per MCP
 * session and sends one JSON line, `{"gsd":"hello","token":…,"root":…,"session":…}` (the bearer token; the folder the
 * session is bound to, as X-GSD-Root; the Claude Code session, as x-gsd-session); the daemon answers one line,
 * `{"gsd":"ready","session":…}` or `{"gsd":"refused","reason":…}`, and from then on the connection carries
 * newline-delimited JSON-RPC both ways, as stdio does.
 */
import type { Socket } from 'node:net';

export interface Hello {
  gsd: 'hello';
  token: string;
  root?: string;
  session?: string;
}

export type HelloAnswer = { gsd: 'ready'; session: string } | { gsd: 'refused'; reason: string };

export const HANDSHAKE_MAX_BYTES = 64 * 1024;

/**
 * The first line of a connection, parsed as JSON; what follows it stays in the socket (unshifted, the socket
 * paused). Rejects when the line is longer than `maxBytes`, is not JSON, or does not come within `timeoutMs`.
 */
export function readFirstLine<T>(socket: Socket, timeoutMs: number, maxBytes = HANDSHAKE_MAX_BYTES): Promise<T> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      socket.pause();
    };
    const done = (error: Error | null, value?: T) => {
      stop();
      if (error) reject(error);
      else resolve(value as T);
    };
    const onData = (chunk: Buffer) => {
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) done(new Error(`the first line is over ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk.subarray(0, nl));
      const rest = chunk.subarray(nl + 1);
      stop();
      if (rest.length) socket.unshift(rest);
      try {
        done(null, JSON.parse(Buffer.concat(chunks).toString('utf8')) as T);
      } catch {
        done(new Error('the first line is not JSON'));
      }
    };
    const onClose = () => done(new Error('the connection closed before its first line'));
    const onError = (e: Error) => done(e);
    const timer = setTimeout(() => done(new Error(`no first line within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
  });
}
