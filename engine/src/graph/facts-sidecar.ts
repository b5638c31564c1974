/**
 * `index-facts.bin`: what `intel status` read of index.json (IndexFacts: each record's key, size and mtime, and the
 * counts), kept beside it so that the next status reads a few megabytes instead of splitting 70 MB. Derived data:
 * it names the index.json it was read from by that file's identity (device, inode, size, mtime; every writer
 * replaces index.json by a rename, so a new index is a new inode) and is used only while index.json is that very
 * file. Safe to delete; a missing, torn, foreign or stale sidecar is ignored and written again by the next status.
 *
 * Layout: one JSON line (format, identity, header, counts, byte lengths), the keys joined by NUL (a path never holds
 * one) in UTF-8, then the sizes and mtimes as float64 in the machine's byte order (named in the JSON line).
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { tempPathFor } from '../store/atomic-write.js';
import type { RelPath } from '../types.js';
import { STORE_FORMAT_VERSION } from '../version.js';
import type { IndexFacts } from './index-facts.js';
import { fileIdentity } from './lazy-records.js';

const FORMAT = 1;
const SEPARATOR = '\u0000';

interface SidecarHead {
  format: number;
  /** the identity of the index.json it was read from (fileIdentity) */
  index: string;
  endianness: string;
  header: IndexFacts['header'];
  counts: Pick<IndexFacts, 'imports' | 'edges' | 'unresolved' | 'skipped' | 'syntaxErrors'>;
  files: number;
  keyBytes: number;
  /** records whose own path is not their key (a hand edit): [place in keys, path] */
  paths: Array<[number, RelPath]>;
}

/** The identity of the file now at `file`, or null. */
export function currentIdentity(file: string): string | null {
  try {
    const fd = openSync(file, 'r');
    try {
      return fileIdentity(fstatSync(fd));
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** True when the sidecar at `file` says it was read from the index.json of `identity` (its first line only). */
export function sidecarBelongsTo(file: string, identity: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(64 * 1024);
    const n = readSync(fd, head, 0, head.length, 0);
    const eol = head.subarray(0, n).indexOf(0x0a);
    if (eol < 0) return false;
    const parsed = JSON.parse(head.toString('utf8', 0, eol)) as Partial<SidecarHead>;
    return parsed.format === FORMAT && parsed.index === identity;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** The facts the sidecar holds for the index.json of `identity`, or null (missing, torn, another index, other format). */
export function readFactsSidecar(file: string, identity: string): IndexFacts | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  try {
    const eol = bytes.indexOf(0x0a);
    if (eol < 0) return null;
    const head = JSON.parse(bytes.toString('utf8', 0, eol)) as SidecarHead;
    if (head.format !== FORMAT || head.index !== identity || head.endianness !== os.endianness() || head.header?.storeFormatVersion !== STORE_FORMAT_VERSION) return null;
    const keysStart = eol + 1;
    const statsStart = keysStart + head.keyBytes;
    if (bytes.length !== statsStart + head.files * 16) return null;
    const keys = head.files === 0 ? [] : bytes.toString('utf8', keysStart, statsStart).split(SEPARATOR);
    if (keys.length !== head.files) return null;
    const stats = new Float64Array(bytes.buffer.slice(bytes.byteOffset + statsStart, bytes.byteOffset + bytes.length));
    return { header: head.header, keys, stats, paths: new Map(head.paths), ...head.counts };
  } catch {
    return null;
  }
}

/**
 * Writes the sidecar for the facts read from the index.json of `identity` (temp file and rename, so a reader sees a
 * whole one or none). Best effort: a folder that cannot be written, or keys that hold a NUL, leave no sidecar.
 */
export function writeFactsSidecar(file: string, identity: string, facts: IndexFacts): void {
  if (!Number.isFinite(facts.edges) || facts.keys.some((k) => k.includes(SEPARATOR))) return;
  const keyBytes = Buffer.from(facts.keys.join(SEPARATOR), 'utf8');
  const { header, imports, edges, unresolved, skipped, syntaxErrors } = facts;
  const head: SidecarHead = {
    format: FORMAT,
    index: identity,
    endianness: os.endianness(),
    header,
    counts: { imports, edges, unresolved, skipped, syntaxErrors },
    files: facts.keys.length,
    keyBytes: keyBytes.length,
    paths: [...facts.paths],
  };
  const stats = facts.stats.subarray(0, 2 * facts.keys.length);
  const tmp = tempPathFor(file);
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), keyBytes, new Uint8Array(stats.buffer, stats.byteOffset, stats.byteLength)]));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
