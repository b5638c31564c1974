import { closeSync, fstatSync, openSync } from 'node:fs';
import type { FileRecord, RelPath, ResolvedImport } from '../types.js';
import { STORE_FORMAT_VERSION } from '../version.js';
import { endOfKey, type IndexHeader, lineStats, MTIME_KEY as MTIME, readIndexDocument, SIZE_KEY as SIZE, splitIndex, statsOfLine } from './index-document.js';
import { fileIdentity } from './lazy-records.js';
import { importCounts } from './records.js';

/**
 * What `intel status` needs of index.json: each file's size and mtime and a few counts. Read without decoding the
 * records (at 50,000 files index.json is 70 MB, and decoding it whole took seconds): the file goes through the one
 * splitter of its layout (splitIndex, one reused buffer), and of each record line only the fields status needs are
 * found by byte search, by the layout serializeIndex writes; no string is made but the keys and the edge targets.
 * A line of another layout is decoded whole, and a file of another layout is read by readIndexDocument, so the
 * figures are always those of the decoded records (factsOfRecords).
 */
export interface IndexFacts {
  header: IndexHeader;
  /** the records' keys, sorted (index.json's order); their sizes and mtimes are `stats[2i]` and `stats[2i + 1]` */
  keys: RelPath[];
  stats: Float64Array;
  /** a record's own path where it is not its key (a hand edit), by its place in `keys` */
  paths: Map<number, RelPath>;
  /** imports that resolved to a project file, the file-to-file edges they make, unresolved imports (importCounts) */
  imports: number;
  edges: number;
  unresolved: number;
  /** records with a skip reason, and with a syntax error */
  skipped: number;
  syntaxErrors: number;
}

export type IndexFactsResult =
  | { ok: true; facts: IndexFacts; /** the identity (fileIdentity) of the file the facts were split from; null when it was decoded whole */ identity: string | null }
  | { ok: false; reason: 'missing' | 'corrupt' | 'format-mismatch'; detail: string };

type ImportFacts = ReturnType<typeof importCounts>;

/** What a record contributes, read from its line or its decoded form. */
interface RecordFacts extends ImportFacts {
  path: RelPath;
  size: number;
  mtimeMs: number;
  skipped: boolean;
  syntaxError: boolean;
}

/** Gathers the facts record by record, in flat arrays (a map of 50,000 small objects cost more than reading them). */
class Facts {
  keys: RelPath[] = [];
  stats = new Float64Array(2048);
  paths = new Map<number, RelPath>();
  imports = 0;
  edges = 0;
  unresolved = 0;
  skipped = 0;
  syntaxErrors = 0;

  add(key: RelPath, path: RelPath, size: number, mtimeMs: number, imports: number, edges: number, unresolved: number, skipped: boolean, syntaxError: boolean): void {
    const i = this.keys.length;
    if (2 * i + 2 > this.stats.length) {
      const bigger = new Float64Array(this.stats.length * 2);
      bigger.set(this.stats);
      this.stats = bigger;
    }
    this.keys.push(key);
    this.stats[2 * i] = size;
    this.stats[2 * i + 1] = mtimeMs;
    if (path !== key) this.paths.set(i, path);
    this.imports += imports;
    this.edges += edges;
    this.unresolved += unresolved;
    if (skipped) this.skipped++;
    if (syntaxError) this.syntaxErrors++;
  }

  addRecord(key: RelPath, r: RecordFacts): void {
    this.add(key, r.path, r.size, r.mtimeMs, r.imports, r.edges, r.unresolved, r.skipped, r.syntaxError);
  }

  done(header: IndexHeader): IndexFacts {
    const { keys, paths, imports, edges, unresolved, skipped, syntaxErrors } = this;
    return { header, keys, stats: this.stats.subarray(0, 2 * keys.length), paths, imports, edges, unresolved, skipped, syntaxErrors };
  }
}

const factsOf = (r: Pick<FileRecord, 'path' | 'size' | 'mtimeMs' | 'imports' | 'skipped' | 'syntaxError'>): RecordFacts => ({
  path: r.path,
  size: r.size,
  mtimeMs: r.mtimeMs,
  ...importCounts([r]),
  skipped: Boolean(r.skipped),
  syntaxError: Boolean(r.syntaxError),
});

/** The reference: the same facts from the decoded records, by their keys in sorted order. */
export function factsOfRecords(header: IndexHeader, records: Iterable<[RelPath, FileRecord]>): IndexFacts {
  const facts = new Facts();
  for (const [key, r] of [...records].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) facts.addRecord(key, factsOf(r));
  return facts.done(header);
}

/** One record an update replaced: its key, the record before (undefined: added) and after (undefined: removed). */
export type RecordChange = [key: RelPath, before: FileRecord | undefined, after: FileRecord | undefined];

/**
 * The facts of the index an update wrote, from the facts of the index it replaced and the records it changed: the
 * keys merged in their sorted order, the counts moved by each changed record's difference (factsOf, the reference's
 * own per-record figures). Exact when `old` are the facts of the very records the update started from.
 */
export function followFacts(old: IndexFacts, header: IndexHeader, changes: Iterable<RecordChange>): IndexFacts {
  const sorted = [...new Map([...changes].map((c) => [c[0], c])).values()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const counts = { imports: old.imports, edges: old.edges, unresolved: old.unresolved, skipped: old.skipped, syntaxErrors: old.syntaxErrors };
  const move = (r: FileRecord, sign: 1 | -1) => {
    const f = factsOf(r);
    counts.imports += sign * f.imports;
    counts.edges += sign * f.edges;
    counts.unresolved += sign * f.unresolved;
    if (f.skipped) counts.skipped += sign;
    if (f.syntaxError) counts.syntaxErrors += sign;
  };
  // records whose own path is not their key (hand edits), by key while the places move
  const own = new Map<RelPath, RelPath>();
  for (const [i, p] of old.paths) own.set(old.keys[i], p);
  const keys: RelPath[] = [];
  const stats = new Float64Array(2 * (old.keys.length + sorted.length));
  const push = (key: RelPath, size: number, mtimeMs: number) => {
    stats[2 * keys.length] = size;
    stats[2 * keys.length + 1] = mtimeMs;
    keys.push(key);
  };
  let i = 0;
  for (const [key, before, after] of sorted) {
    for (; i < old.keys.length && old.keys[i] < key; i++) push(old.keys[i], old.stats[2 * i], old.stats[2 * i + 1]);
    if (i < old.keys.length && old.keys[i] === key) i++;
    if (before) move(before, -1);
    own.delete(key);
    if (after) {
      move(after, 1);
      push(key, after.size, after.mtimeMs);
      if (after.path !== key) own.set(key, after.path);
    }
  }
  for (; i < old.keys.length; i++) push(old.keys[i], old.stats[2 * i], old.stats[2 * i + 1]);
  const paths = new Map<number, RelPath>();
  if (own.size) keys.forEach((k, place) => own.has(k) && paths.set(place, own.get(k)!));
  return { header, keys, stats: stats.subarray(0, 2 * keys.length), paths, ...counts };
}

// ---------------------------------------------------------------- a record line, as serializeIndex lays it out

const bytes = (s: string) => Buffer.from(s, 'latin1');
const RECORD_OPEN = bytes('{"path":');
const ID = bytes(',"id":');
const HASH = bytes(',"hash":');
const IMPORTS = bytes(',"imports":');
const SYNTAX_ERROR = bytes(',"syntaxError":');
const SKIPPED = bytes(',"skipped":');
const NULL = bytes('null');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** True when `what` is at `i` of `buf` (a loop: for these few bytes cheaper than a call into Buffer.compare). */
function at(buf: Buffer, i: number, what: Buffer): boolean {
  if (i < 0 || i + what.length > buf.length) return false;
  for (let k = 0; k < what.length; k++) if (buf[i + k] !== what[k]) return false;
  return true;
}

/** The index just past the JSON string opening at `i` (which must be a `"`), or -1. */
function skipString(buf: Buffer, i: number, end: number): number {
  if (buf[i] !== QUOTE) return -1;
  const close = endOfKey(buf, i, end);
  return close === -1 ? -1 : (close < -1 ? -2 - close : close) + 1;
}

/** The end of a JSON number starting at `i` (digits, sign, point, exponent). */
function skipNumber(buf: Buffer, i: number, end: number): number {
  let j = i;
  while (j < end) {
    const c = buf[j];
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) j++;
    else break;
  }
  return j;
}

/** True when the `n` bytes at `a` and at `b` of `buf` are the same. */
function sameBytes(buf: Buffer, a: number, b: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (buf[a + k] !== buf[b + k]) return false;
  return true;
}

const text = (buf: Buffer, from: number, to: number) => buf.toString('utf8', from, to);
/** True when buf[from, to), a short string, holds a backslash (an escape). */
function hasEscape(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] === BACKSLASH) return true;
  return false;
}
/** The JSON string in buf[from, to), quotes included. */
const decodeString = (buf: Buffer, from: number, to: number): string =>
  hasEscape(buf, from, to) ? (JSON.parse(text(buf, from, to)) as string) : text(buf, from + 1, to - 1);
const isNull = (buf: Buffer, from: number, to: number) => to - from === NULL.length && at(buf, from, NULL);
/** The truthiness of a JSON value, as the decoded record's field would have it. */
const truthy = (buf: Buffer, from: number, to: number) => !isNull(buf, from, to) && Boolean(JSON.parse(text(buf, from, to)));

/**
 * The facts of one record value `{…}` in buf[from, to), read by serializeIndex's field order:
 * `{"path":…,"id":…,"hash":…,"size":N,"mtimeMs":N,…,"imports":[…],"syntaxError":…,"skipped":…}`, with nothing
 * decoded but the path (and not even that when it is spelled as the line's key). A `"` after a `,` or `{` is
 * always JSON syntax (one inside a string is escaped) and no nested object has these keys, so the first
 * `,"imports":` is the record's. Null when the value has another layout.
 */
function readRecordLine(line: Buffer, from: number, to: number, key: RelPath, keyFrom: number, keyTo: number): RecordFacts | null {
  // the line alone (its key and value), so that no byte search runs past it
  const buf = line.subarray(keyFrom - 1, to);
  from -= keyFrom - 1;
  to -= keyFrom - 1;
  keyTo -= keyFrom - 1;
  keyFrom = 1;
  if (!at(buf, from, RECORD_OPEN) || buf[to - 1] !== CLOSE_BRACE) return null;
  const pathStart = from + RECORD_OPEN.length;
  let i = skipString(buf, pathStart, to);
  if (i < 0 || !at(buf, i, ID)) return null;
  const pathEnd = i;
  i = skipString(buf, i + ID.length, to);
  if (i < 0 || !at(buf, i, HASH)) return null;
  i += HASH.length;
  i = at(buf, i, NULL) ? i + NULL.length : skipString(buf, i, to);
  if (i < 0 || !at(buf, i, SIZE)) return null;
  const sizeStart = i + SIZE.length;
  const sizeEnd = skipNumber(buf, sizeStart, to);
  if (sizeEnd === sizeStart || !at(buf, sizeEnd, MTIME)) return null;
  const mtimeStart = sizeEnd + MTIME.length;
  const mtimeEnd = skipNumber(buf, mtimeStart, to);
  if (mtimeEnd === mtimeStart || buf[mtimeEnd] !== COMMA) return null;
  const imports = buf.indexOf(IMPORTS, mtimeEnd);
  if (imports < 0 || imports >= to) return null;
  const syntaxError = buf.indexOf(SYNTAX_ERROR, imports);
  if (syntaxError < 0 || syntaxError >= to) return null;
  const skipped = buf.indexOf(SKIPPED, syntaxError);
  if (skipped < 0 || skipped >= to) return null;
  // the record's own path: the key's string unless hand-edited to name another file
  const samePath = pathEnd - pathStart - 2 === keyTo - keyFrom && sameBytes(buf, keyFrom, pathStart + 1, keyTo - keyFrom);
  const path = samePath ? key : decodeString(buf, pathStart, pathEnd);
  const listStart = imports + IMPORTS.length;
  let counts = hasEscape(buf, pathStart, pathEnd) ? null : countImports(buf, listStart, syntaxError, pathStart + 1, pathEnd - 1);
  if (counts === null) {
    const list = JSON.parse(text(buf, listStart, syntaxError)) as unknown;
    if (!Array.isArray(list)) return null;
    counts = importCounts([{ path, imports: list as ResolvedImport[] }]);
  }
  return {
    path,
    size: Number(buf.toString('latin1', sizeStart, sizeEnd)),
    mtimeMs: Number(buf.toString('latin1', mtimeStart, mtimeEnd)),
    ...counts,
    syntaxError: truthy(buf, syntaxError + SYNTAX_ERROR.length, skipped),
    skipped: truthy(buf, skipped + SKIPPED.length, to - 1),
  };
}

const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
/** keys of an import object that count, and the strings they are compared with */
const KIND_KEY = bytes('kind');
const RESOLVED_KEY = bytes('resolved');
const PATH_KEY = bytes('path');
const FILE_VALUE = bytes('file');
const UNRESOLVED_VALUE = bytes('unresolved');
const enum Key {
  Other,
  Kind,
  Resolved,
  Path,
}
/** The string buf[from, to) is `what`. */
const is = (buf: Buffer, from: number, to: number, what: Buffer) => to - from === what.length && at(buf, from, what);
const edgeKeys = new Set<string>();

/**
 * importCounts of the import list `[…]` in buf[from, to), for the record whose path is buf[sourceFrom, sourceTo),
 * in one pass over its bytes: strings are skipped, the nesting is followed, and of each import object (depth 1) only
 * its `kind` and its `resolved` object's `kind` and `path` are looked at, whatever the order of their keys (a `"`
 * followed by `:` ends a key). Null when the list is not an array of objects of that shape, or a kind or a target
 * path holds an escape: the caller decodes it then.
 */
function countImports(buf: Buffer, from: number, to: number, sourceFrom: number, sourceTo: number): ImportFacts | null {
  if (buf[from] !== OPEN_BRACKET || buf[to - 1] !== CLOSE_BRACKET) return null;
  const counts = { imports: 0, edges: 0, unresolved: 0 };
  edgeKeys.clear();
  let firstEdge: string | null = null;
  let depth = 0;
  let inResolved = false;
  let key = Key.Other;
  /** the current import's kind, its resolution's kind (file, unresolved, other) and target path, as byte ranges */
  let kindFrom = -1;
  let kindTo = -1;
  let resolution = 0;
  let pathFrom = -1;
  let pathTo = -1;
  for (let i = from + 1; i < to - 1; i++) {
    const c = buf[i];
    if (c === QUOTE) {
      let escaped = false;
      let j = i + 1;
      for (; j < to; j++) {
        const d = buf[j];
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          escaped = true;
          j++;
        }
      }
      if (j >= to) return null;
      if (buf[j + 1] === COLON) {
        // a key: the ones that count are an import's kind and resolved, and its resolution's kind and path
        key = Key.Other;
        if (depth === 1) key = is(buf, i + 1, j, KIND_KEY) ? Key.Kind : is(buf, i + 1, j, RESOLVED_KEY) ? Key.Resolved : Key.Other;
        else if (depth === 2 && inResolved) key = is(buf, i + 1, j, KIND_KEY) ? Key.Kind : is(buf, i + 1, j, PATH_KEY) ? Key.Path : Key.Other;
        i = j + 1;
        continue;
      }
      if (key === Key.Kind && depth === 1) {
        if (escaped) return null;
        kindFrom = i + 1;
        kindTo = j;
      } else if (key === Key.Kind && inResolved) {
        resolution = is(buf, i + 1, j, FILE_VALUE) ? 1 : is(buf, i + 1, j, UNRESOLVED_VALUE) ? 2 : 3;
      } else if (key === Key.Path && inResolved) {
        if (escaped) return null;
        pathFrom = i + 1;
        pathTo = j;
      }
      key = Key.Other;
      i = j;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth === 1 && c !== OPEN_BRACE) return null;
      if (depth === 2 && key === Key.Resolved) {
        if (c !== OPEN_BRACE) return null;
        inResolved = true;
      }
      key = Key.Other;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 2) inResolved = false;
      else if (depth === 1) {
        // the end of one import: counted as importCounts counts it
        if (kindFrom < 0 || resolution === 0 || (resolution === 1 && pathFrom < 0)) return null;
        if (resolution === 1) {
          counts.imports++;
          // edgeKey (records.ts): one edge per target and kind, none to the file itself; strings without escapes are
          // equal exactly when their bytes are
          const self = pathTo - pathFrom === sourceTo - sourceFrom && sameBytes(buf, pathFrom, sourceFrom, pathTo - pathFrom);
          if (!self) {
            const edge = `${buf.toString('latin1', pathFrom, pathTo)}\u0000${buf.toString('latin1', kindFrom, kindTo)}`;
            if (firstEdge === null) firstEdge = edge;
            else if (edge !== firstEdge) {
              if (edgeKeys.size === 0) edgeKeys.add(firstEdge);
              edgeKeys.add(edge);
            }
          }
        } else if (resolution === 2) counts.unresolved++;
        kindFrom = kindTo = pathFrom = pathTo = -1;
        resolution = 0;
      }
      depth--;
      if (depth < 0) return null;
    }
  }
  if (depth !== 0) return null;
  counts.edges = edgeKeys.size || (firstEdge === null ? 0 : 1);
  return counts;
}

// ---------------------------------------------------------------- the quick pass (no edges)

const RESOLUTION = bytes(',"resolved":{');
const FILE_KIND = bytes('"kind":"file"');
const UNRESOLVED_KIND = bytes('"kind":"unresolved"');
const CLEAN_TAIL = bytes(',"syntaxError":null,"skipped":null}');

/**
 * How many resolutions of `kind` the record line has: each `"kind":"<kind>"` must be the first key of a resolution
 * (`,"resolved":{` before it), else -1 (another layout).
 */
function resolutions(line: Buffer, kind: Buffer): number {
  let n = 0;
  for (let i = line.indexOf(kind); i >= 0; i = line.indexOf(kind, i + kind.length)) {
    if (!at(line, i - RESOLUTION.length, RESOLUTION)) return -1;
    n++;
  }
  return n;
}

/**
 * The facts of a record line but its edges, by a few byte searches: the record's path spelled as its key, size and
 * mtime where serializeIndex puts them, no syntax error and no skip reason (its usual end), and its file and
 * unresolved resolutions counted by their kind. A `"` after `,` `{` or `:` is JSON syntax, so these keys cannot be
 * inside a string; resolutions are the only objects with a "kind" of "file" or "unresolved". False when the line is
 * not so (a skipped or broken file, another layout): the caller reads it fully then. It relies on serializeIndex's
 * spelling (JSON.stringify puts no space between tokens): a hand edit that adds spaces inside a resolution of an
 * otherwise usual line is not noticed, and that line's counts may be off until the next write of it.
 */
function quickLine(facts: Facts, buf: Buffer, from: number, value: number, to: number, key: RelPath): boolean {
  const line = buf.subarray(from, to);
  const v = value - from;
  const keyLength = v - 1;
  if (!at(line, v, RECORD_OPEN) || line.compare(line, 0, keyLength, v + RECORD_OPEN.length, v + RECORD_OPEN.length + keyLength) !== 0) return false;
  if (!at(line, v + RECORD_OPEN.length + keyLength, ID) || line.compare(CLEAN_TAIL, 0, CLEAN_TAIL.length, line.length - CLEAN_TAIL.length) !== 0) return false;
  if (!statsOfLine(line, v, line.length)) return false;
  const { size, mtimeMs } = lineStats;
  const imports = resolutions(line, FILE_KIND);
  const unresolved = imports < 0 ? -1 : resolutions(line, UNRESOLVED_KIND);
  if (unresolved < 0) return false;
  facts.add(key, key, size, mtimeMs, imports, NaN, unresolved, false, false);
  return true;
}

/**
 * Reads the facts of index.json through the one splitter of its layout (splitIndex). A missing, unparsable or
 * other-version file is reported as data, like readIndexDocument; a line of another layout is decoded, and a file
 * of another layout (hand-edited, pretty-printed) is read by readIndexDocument, so the figures are always those of
 * the decoded records (factsOfRecords). With `edges: false`, each usual line is read by a few byte searches and the
 * edges are left out (NaN): what status needs when summary-state.json knows them.
 */
export function readIndexFacts(file: string, options: { edges?: boolean } = {}): IndexFactsResult {
  const edges = options.edges !== false;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return { ok: false, reason: 'missing', detail: (error as Error).message };
  }
  let facts: IndexFacts | null = null;
  let identity: string | null = null;
  try {
    const sums = new Facts();
    const stat = fstatSync(fd);
    identity = fileIdentity(stat);
    const header = splitIndex(fd, stat.size, (key, buf, from, value, to) => {
      if (!edges && quickLine(sums, buf, from, value, to, key)) return true;
      // another field order or a hand edit: the record decoded (one that does not decode makes the index corrupt)
      sums.addRecord(key, readRecordLine(buf, value, to, key, from + 1, value - 2) ?? factsOf(JSON.parse(text(buf, value, to)) as FileRecord));
      return true;
    });
    if (header) facts = sums.done(header);
  } catch {
    // a record that does not decode: read as a whole below, which says what is wrong
  } finally {
    closeSync(fd);
  }
  if (facts === null) {
    identity = null;
    const read = readIndexDocument(file);
    if (!read.ok) return read;
    try {
      facts = factsOfRecords(read.header, read.records.entries());
    } catch (decodeError) {
      return { ok: false, reason: 'corrupt', detail: `${file}: ${(decodeError as Error).message}` };
    }
  }
  if (facts.header.storeFormatVersion !== STORE_FORMAT_VERSION) {
    return { ok: false, reason: 'format-mismatch', detail: `${file}: format ${facts.header.storeFormatVersion}, expected ${STORE_FORMAT_VERSION}` };
  }
  if (!edges) facts.edges = NaN;
  facts.header.configFiles ??= {};
  return { ok: true, facts, identity };
}
