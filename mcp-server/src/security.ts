/** Path arguments stay inside the project root, never leave it through a symlink, and never name a secret. */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { AccessDeniedError, ToolInputError } from './result.js';

const SECRET_BASENAME = [
  /^\.env($|\.)/i,
  /\.(pem|key|p12|pfx|jks|keystore|kdbx|gpg|asc|ppk|crt|cer|der)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /^\.(npmrc|netrc|pgpass|pypirc|git-credentials|htpasswd)$/i,
  /^(credentials|secrets?)(\.[a-z]+)?$/i,
  /^mcp-audit\.jsonl/i,
];
const SECRET_DIR = /(^|\/)(\.ssh|\.aws|\.gnupg|\.docker|\.kube)(\/|$)/i;

/** True for files whose content must never be returned (env files, keys, credentials). */
export function isSecretPath(relPath: string): boolean {
  const p = relPath.replace(/\\/g, '/');
  const base = p.slice(p.lastIndexOf('/') + 1);
  return SECRET_DIR.test(p) || SECRET_BASENAME.some((re) => re.test(base));
}

export interface InsidePath {
  abs: string;
  /** root-relative, `/` separators */
  rel: string;
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function isInside(root: string, abs: string): string | null {
  const rel = path.relative(root, abs);
  if (rel === '' || rel === '.') return '';
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel;
}

/**
 * Resolves a user-supplied path against the root. Refuses NUL bytes, paths outside the root (traversal or absolute),
 * symlinks whose target leaves the root, and secret files.
 */
export function resolveInside(root: string, input: string, what = 'path'): InsidePath {
  if (typeof input !== 'string' || !input.trim()) throw new ToolInputError(`${what} is empty`, 'Pass a path relative to the project root.');
  if (input.includes('\0')) throw new ToolInputError(`${what} contains a NUL byte`);
  const abs = path.resolve(root, input.trim());
  const rel = isInside(root, abs);
  if (rel === null) throw new AccessDeniedError(`${what} "${input}" is outside the project root ${root}`, 'Only files inside the project can be read.');
  const realRoot = realOrNull(root) ?? root;
  // the deepest existing ancestor decides where a (possibly not yet existing) path really lives
  let probe = abs;
  let real = realOrNull(probe);
  while (real === null && probe !== root && probe !== path.dirname(probe)) {
    probe = path.dirname(probe);
    real = realOrNull(probe);
  }
  if (real !== null && isInside(realRoot, real) === null) {
    throw new AccessDeniedError(`${what} "${input}" is a symlink that leaves the project root`, 'Only files inside the project can be read.');
  }
  const relPosix = rel.split(path.sep).join('/');
  if (isSecretPath(relPosix) || (real && isSecretPath(path.relative(realRoot, real)))) {
    throw new ToolInputError(`${what} "${input}" is a secrets file (.env, key, credentials); it is never read`);
  }
  return { abs, rel: relPosix };
}

const SECRET_KEY = /(pass(word)?|secret|token|api[-_]?key|auth|credential|private[-_]?key|cookie|session|bearer)/i;
const SECRET_VALUE = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*/g,
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g,
  // Authorization header values, `key=value` / `key: value` pairs with a secret-looking key, URL credentials
  /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b[\w.-]*(pass(word|wd)?|secret|token|api[-_]?key|access[-_]?key|auth|credential|private[-_]?key)[\w.-]*\s*[=:]\s*["']?[^\s"',;&]{4,}/gi,
  /\/\/[^\s/:@]+:[^\s/@]+@/g,
  // long hex or base64-looking values (tokens, keys): 32+ hex digits, or 40+ characters mixing letters and digits
  /\b[0-9a-f]{32,}\b/gi,
  /\b(?=[A-Za-z0-9+_-]*\d)(?=[A-Za-z0-9+_-]*[A-Za-z])[A-Za-z0-9+_-]{40,}={0,2}/g,
];

/** Redacts secret-looking keys and values from a JSON-able value (for the audit log). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[deep]';
  if (typeof value === 'string') {
    let s = value;
    for (const re of SECRET_VALUE) s = s.replace(re, '[redacted]');
    return s.length > 300 ? `${s.slice(0, 300)}…` : s;
  }
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}
