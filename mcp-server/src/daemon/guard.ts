/**
 * Who may talk to the daemon: requests on loopback whose Host names a loopback address with our port and whose
 * Origin, when present, is a loopback page (DNS rebinding), with our bearer token (timing-safe comparison); on the
 * shims' socket, the same token in the handshake.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export type Refusal = { status: 401 | 403; message: string };

export function checkHostAndOrigin(req: IncomingMessage, port: number): Refusal | null {
  const host = req.headers.host ?? '';
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!m || !LOOPBACK_HOSTS.has(m[1].toLowerCase()) || (m[2] !== undefined && Number(m[2]) !== port)) {
    return { status: 403, message: `Host "${host}" is not this loopback server` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let hostname = '';
    try {
      hostname = new URL(origin).hostname.toLowerCase();
    } catch {
      // "null" or garbage
    }
    if (!LOOPBACK_HOSTS.has(hostname)) return { status: 403, message: `Origin "${origin}" is not allowed` };
  }
  return null;
}

export function checkToken(req: IncomingMessage, token: string): Refusal | null {
  const auth = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  if (!m) return { status: 401, message: 'missing bearer token' };
  return tokenMatches(m[1], token) ? null : { status: 401, message: 'wrong bearer token' };
}

/** Timing-safe comparison of a presented token with ours (HTTP bearer, a shim's socket handshake). */
export function tokenMatches(presented: string, token: string): boolean {
  const given = Buffer.from(presented);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
