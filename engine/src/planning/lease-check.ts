/**
 * For the PostToolUse hook: which active leases of OTHER sessions cover a file. Node built-ins only (the hook's
 * start-up is its budget): it reads `.planning/gsd-state.json` without the lock (the store replaces the file by
 * rename, so it is always whole) and matches the leases' precompiled patterns, never a glob library.
 *
 * "Another task": the hook knows its session (`session_id` of its input), not which task the session works on. A
 * lease is the session's own when its `session` or its `holder` equals that session id (the MCP lease tool records
 * the Claude Code session when it knows it, and `/gsd:execute-phase` passes `holder: ${CLAUDE_SESSION_ID}`);
 * every other active lease covering the file is reported.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export interface CoveringLease {
  id: string;
  taskId: string;
  holder: string;
  expiresAt: string;
}

interface StoredLease extends CoveringLease {
  patterns?: Array<{ source?: unknown; flags?: unknown }>;
  session?: string;
  returnedAt?: string;
}

/**
 * The text of the `leases` array when the file starts with it (the store writes `{"version":1,"leases":[…],…}`), so
 * a big key-value state or history costs the hook nothing; null otherwise (then the whole file is parsed).
 */
const LEASES_HEAD = /^\{"version":\d+,"leases":\[/;

export function leasesSlice(text: string): string | null {
  const head = LEASES_HEAD.exec(text);
  if (!head) return null;
  const start = head[0].length - 1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

const CHUNK = 64 * 1024;

/** Reads the state file only as far as its `leases` array (the store writes it first); the whole file otherwise. */
function readLeases(file: string): { text: string; slice: string | null } {
  const fd = openSync(file, 'r');
  try {
    const decoder = new StringDecoder('utf8');
    const buf = Buffer.allocUnsafe(CHUNK);
    let text = '';
    for (let pos = 0; ; ) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) return { text: text + decoder.end(), slice: null };
      pos += n;
      text += decoder.write(buf.subarray(0, n));
      if (text.length >= 32 && !LEASES_HEAD.test(text)) return { text: readFileSync(file, 'utf8'), slice: null };
      const slice = leasesSlice(text);
      if (slice !== null) return { text, slice };
    }
  } finally {
    closeSync(fd);
  }
}

/** Active leases of other sessions whose scope covers `file` (absolute, inside `root`). Never throws. */
export function leasesCovering(root: string, file: string, session: string | undefined, now: number = Date.now()): CoveringLease[] {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (!rel || rel.startsWith('../') || rel === '..' || path.isAbsolute(rel)) return [];
  let leases: StoredLease[];
  try {
    const { text, slice } = readLeases(path.join(root, '.planning', 'gsd-state.json'));
    const value = slice !== null ? (JSON.parse(slice) as unknown) : (JSON.parse(text) as { leases?: unknown } | null)?.leases;
    if (!Array.isArray(value)) return [];
    leases = value as StoredLease[];
  } catch {
    return []; // no state, or one the server will report and move aside
  }
  const out: CoveringLease[] = [];
  for (const l of leases) {
    if (!l || typeof l !== 'object' || l.returnedAt || !(Date.parse(l.expiresAt) > now)) continue;
    if (session && (l.session === session || l.holder === session)) continue;
    const covers = (l.patterns ?? []).some((p) => {
      try {
        return typeof p.source === 'string' && new RegExp(p.source, typeof p.flags === 'string' ? p.flags : '').test(rel);
      } catch {
        return false;
      }
    });
    if (covers) out.push({ id: String(l.id), taskId: String(l.taskId), holder: String(l.holder), expiresAt: String(l.expiresAt) });
  }
  return out;
}

/** The text the hook adds to the model's context, or null when no other lease covers the file. */
export function leaseNotice(root: string, file: string, session: string | undefined, now: number = Date.now()): string | null {
  const found = leasesCovering(root, file, session, now);
  if (!found.length) return null;
  const rel = path.relative(root, file).split(path.sep).join('/');
  const which = found
    .slice(0, 3)
    .map((l) => `task ${l.taskId} (lease ${l.id}, held by ${l.holder} until ${l.expiresAt})`)
    .join('; ');
  return (
    `GSD lease: ${rel} lies inside the active lease of another task: ${which}. ` +
    'Another session may be changing the same files: coordinate before editing further (mcp__gsd__lease list), or wait until the lease is returned or expires.'
  ).slice(0, 1_500);
}
