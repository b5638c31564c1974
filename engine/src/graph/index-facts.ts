import { closeSync, openSync, readSync } from 'node:fs';
import type { FileRecord, RelPath, ResolvedImport } from '../types.js';
import { STORE_FORMAT_VERSION } from '../version.js';
import { type IndexHeader, readIndexDocument } from './index-document.js';
import { importCounts } from './records.js';

/**
 * What `intel status` needs of index.json: each file's size and mtime and a few counts. Read without decoding the
 * records (at 50,000 files index.json is 62 MB, and decoding it whole took seconds): the file is streamed through
 * one reused buffer, and of each record line only the fields it needs are read, by the layout serializeIndex writes.
 * A line of another layout is decoded whole, and a file of another layout is read by readIndexDocument, so the
 * figures are always those of the decoded records (factsOfRecords).
 */
export interface IndexFacts {
  header: IndexHeader;
  /** each record by its key in index.json: its own path (the same unless hand-edited), size and mtime */
  files: Map<RelPath, { path: RelPath; size: number; mtimeMs: number }>;
  /** imports that resolved to a project file, the file-to-file edges they make, unresolved imports (importCounts) */
  imports: number;
  edges: number;
  unresolved: number;
  /** records with a skip reason, and with a syntax error */
  skipped: number;
  syntaxErrors: number;
}

export type IndexFactsResult = { ok: true; facts: IndexFacts } | { ok: false; reason: 'missing' | 'corrupt' | 'format-mismatch'; detail: string };

type ImportFacts = ReturnType<typeof importCounts>;

/** What a record contributes, read from its line or its decoded form. */
interface RecordFacts extends ImportFacts {
  path: RelPath;
  size: number;
  mtimeMs: number;
  skipped: boolean;
  syntaxError: boolean;
}

function emptyFacts(header: IndexHeader): IndexFacts {
  return { header, files: new Map(), imports: 0, edges: 0, unresolved: 0, skipped: 0, syntaxErrors: 0 };
}

function add(facts: IndexFacts, key: RelPath, r: RecordFacts): void {
  facts.files.set(key, { path: r.path, size: r.size, mtimeMs: r.mtimeMs });
  facts.imports += r.imports;
  facts.edges += r.edges;
  facts.unresolved += r.unresolved;
  if (r.skipped) facts.skipped++;
  if (r.syntaxError) facts.syntaxErrors++;
}

const factsOf = (r: Pick<FileRecord, 'path' | 'size' | 'mtimeMs' | 'imports' | 'skipped' | 'syntaxError'>): RecordFacts => ({
  path: r.path,
  size: r.size,
  mtimeMs: r.mtimeMs,
  ...importCounts([r]),
  skipped: Boolean(r.skipped),
  syntaxError: Boolean(r.syntaxError),
});

/** The reference: the same facts from the decoded records, by their keys. */
export function factsOfRecords(header: IndexHeader, records: Iterable<[RelPath, FileRecord]>): IndexFacts {
  const facts = emptyFacts(header);
  for (const [key, r] of records) add(facts, key, factsOf(r));
  return facts;
}

// ---------------------------------------------------------------- the line layout (serializeIndex)

const bytes = (s: string) => Buffer.from(s, 'latin1');
const FILES_OPEN = bytes('"files":{');
const CLOSE = bytes('}}');
const RECORD_OPEN = bytes('{"path":');
const ID = bytes(',"id":');
const HASH = bytes(',"hash":');
const SIZE = bytes(',"size":');
const MTIME = bytes(',"mtimeMs":');
const IMPORTS = bytes(',"imports":');
const SYNTAX_ERROR = bytes(',"syntaxError":');
const SKIPPED = bytes(',"skipped":');
const NULL = bytes('null');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const CLOSE_BRACE = 0x7d;

const at = (buf: Buffer, i: number, what: Buffer): boolean => buf.compare(what, 0, what.length, i, i + what.length) === 0;

/** The index just past the JSON string opening at `i` (which must be a `"`), or -1. */
function skipString(buf: Buffer, i: number, end: number): number {
  if (buf[i] !== QUOTE) return -1;
  for (let j = i + 1; j < end; j++) {
    const c = buf[j];
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
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

const text = (buf: Buffer, from: number, to: number) => buf.toString('utf8', from, to);
/** The JSON string in buf[from, to), quotes included. */
function decodeString(buf: Buffer, from: number, to: number): string {
  for (let i = from + 1; i < to - 1; i++) if (buf[i] === BACKSLASH) return JSON.parse(text(buf, from, to)) as string;
  return text(buf, from + 1, to - 1);
}
const isNull = (buf: Buffer, from: number, to: number) => to - from === NULL.length && at(buf, from, NULL);
/** The truthiness of a JSON value, as the decoded record's field would have it. */
const truthy = (buf: Buffer, from: number, to: number) => !isNull(buf, from, to) && Boolean(JSON.parse(text(buf, from, to)));

/**
 * The facts of one record value `{…}` in buf[from, to), read by serializeIndex's field order:
 * `{"path":…,"id":…,"hash":…,"size":N,"mtimeMs":N,…,"imports":[…],"syntaxError":…,"skipped":…}`. Keys with their
 * quotes cannot occur inside a JSON string (its quotes are escaped) and no nested object has these keys, so the
 * first `,"imports":` is the record's. Null when the value has another layout.
 */
function readRecordLine(buf: Buffer, from: number, to: number): RecordFacts | null {
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
  const path = decodeString(buf, pathStart, pathEnd);
  const rawPath = buf.toString('latin1', pathStart + 1, pathEnd - 1);
  let counts = rawPath.includes('\\') ? null : countImports(buf.toString('latin1', imports + IMPORTS.length, syntaxError), rawPath);
  if (counts === null) {
    const list = JSON.parse(text(buf, imports + IMPORTS.length, syntaxError)) as unknown;
    if (!Array.isArray(list)) return null;
    counts = importCounts([{ path, imports: list as ResolvedImport[] }]);
  }
  return {
    path,
    size: Number(text(buf, sizeStart, sizeEnd)),
    mtimeMs: Number(text(buf, mtimeStart, mtimeEnd)),
    ...counts,
    syntaxError: truthy(buf, syntaxError + SYNTAX_ERROR.length, skipped),
    skipped: truthy(buf, skipped + SKIPPED.length, to - 1),
  };
}

/**
 * One import object as serializeIndex writes it (ResolvedImport's field order), matched in a list without
 * backslashes, where every `"` delimits a string: the import's kind, the resolution's kind, its one other key and value.
 */
const IMPORT_OBJECT =
  /\{"specifier":"[^"]*","kind":"([^"]*)","names":\[(?:"[^"]*"(?:,"[^"]*")*)?\],"line":\d+,(?:"reexports":\[(?:\{"imported":"[^"]*","exported":"[^"]*"\}(?:,\{"imported":"[^"]*","exported":"[^"]*"\})*)?\],)?"resolved":\{"kind":"([^"]*)"(?:,"([a-z]+)":"([^"]*)")?\}\}/y;

/**
 * importCounts of a record's imports from their JSON text (latin1, so equal strings are equal bytes) without
 * decoding it, or null when the text has escapes or another layout (the caller decodes it then).
 */
function countImports(list: string, source: string): ImportFacts | null {
  if (list === '[]') return { imports: 0, edges: 0, unresolved: 0 };
  if (list[0] !== '[' || list.includes('\\')) return null;
  const counts = { imports: 0, edges: 0, unresolved: 0 };
  const edges = new Set<string>();
  for (let pos = 1; ; pos++) {
    IMPORT_OBJECT.lastIndex = pos;
    const m = IMPORT_OBJECT.exec(list);
    if (m === null) return null;
    const [, kind, resolved, key, value] = m;
    if (resolved === 'file') {
      if (key !== 'path') return null;
      counts.imports++;
      // edgeKey (records.ts): one edge per target and kind, none to the file itself
      if (value !== source) edges.add(`${value}\u0000${kind}`);
    } else if (resolved === 'unresolved') counts.unresolved++;
    pos = IMPORT_OBJECT.lastIndex;
    if (list[pos] === ']' && pos === list.length - 1) break;
    if (list[pos] !== ',') return null;
  }
  counts.edges = edges.size;
  return counts;
}

/** Thrown inside the streaming reader when the file is not laid out as serializeIndex writes it. */
class OtherLayout extends Error {}

/** Calls `line` for each `\n`-terminated line of a file, read through one buffer that grows only for a longer line. */
function forEachLine(file: string, line: (buf: Buffer, from: number, to: number) => void): void {
  const fd = openSync(file, 'r');
  try {
    let buf = Buffer.allocUnsafe(1 << 20);
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const n = readSync(fd, buf, filled, buf.length - filled, null);
      if (n === 0) {
        if (filled > 0) throw new OtherLayout('no newline at the end');
        return;
      }
      filled += n;
      let start = 0;
      for (let end = buf.indexOf(NEWLINE, start); end >= 0 && end < filled; end = buf.indexOf(NEWLINE, start)) {
        line(buf, start, end);
        start = end + 1;
      }
      buf.copy(buf, 0, start, filled);
      filled -= start;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Streams index.json as serializeIndex writes it: a header line ending in `"files":{`, one `"path":{record}` per
 * line (a comma after all but the last) and `}}`. Throws OtherLayout on anything else.
 */
function streamFacts(file: string): IndexFacts {
  let facts: IndexFacts | null = null;
  let closed = false;
  let comma = true;
  forEachLine(file, (buf, from, to) => {
    if (closed) throw new OtherLayout('text after the end');
    if (facts === null) {
      if (to - from < FILES_OPEN.length || !at(buf, to - FILES_OPEN.length, FILES_OPEN)) throw new OtherLayout('no header line');
      const header = JSON.parse(`${text(buf, from, to)}}}`) as IndexHeader & { files?: unknown };
      delete header.files;
      // another version: readIndexDocument reports it without reading the records
      if (header.storeFormatVersion !== STORE_FORMAT_VERSION) throw new OtherLayout('another format');
      facts = emptyFacts(header);
      return;
    }
    if (to - from === CLOSE.length && at(buf, from, CLOSE)) {
      if (comma && facts.files.size > 0) throw new OtherLayout('a comma before the end');
      closed = true;
      return;
    }
    if (!comma) throw new OtherLayout('no comma between records');
    comma = buf[to - 1] === COMMA;
    const valueEnd = comma ? to - 1 : to;
    const keyEnd = skipString(buf, from, valueEnd);
    if (keyEnd < 0 || buf[keyEnd] !== COLON) throw new OtherLayout('a line that is not "path":{record}');
    const key = decodeString(buf, from, keyEnd);
    if (facts.files.has(key)) throw new OtherLayout(`${key} twice`);
    // another field order or a hand edit: the record decoded (one that does not decode makes the index corrupt)
    const record = readRecordLine(buf, keyEnd + 1, valueEnd) ?? factsOf(JSON.parse(text(buf, keyEnd + 1, valueEnd)) as FileRecord);
    add(facts, key, record);
  });
  if (!closed || facts === null) throw new OtherLayout('no end');
  return facts;
}

/**
 * Reads the facts of index.json. A missing, unparsable or other-version file is reported as data, like
 * readIndexDocument; a file of another layout (hand-edited, pretty-printed) is decoded whole.
 */
export function readIndexFacts(file: string): IndexFactsResult {
  let facts: IndexFacts;
  try {
    facts = streamFacts(file);
  } catch (error) {
    // unreadable: as readIndexDocument reports it
    if (typeof (error as NodeJS.ErrnoException).code === 'string') return { ok: false, reason: 'missing', detail: (error as Error).message };
    const read = readIndexDocument(file);
    if (!read.ok) return read;
    try {
      return { ok: true, facts: factsOfRecords(read.header, read.records.entries()) };
    } catch (decodeError) {
      return { ok: false, reason: 'corrupt', detail: `${file}: ${(decodeError as Error).message}` };
    }
  }
  facts.header.configFiles ??= {};
  return { ok: true, facts };
}
