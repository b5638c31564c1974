import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { readFully } from '../store/atomic-write.js';
import { STORE_FORMAT_VERSION, TOOL_VERSION } from '../version.js';
import type { FileRecord, IndexDocument, RelPath } from '../types.js';
import { LazyRecords, RecordSource, type RawSpan } from './lazy-records.js';

/** index.json without its records: they stay in a LazyRecords map, parsed on demand. */
export interface IndexHeader {
  storeFormatVersion: number;
  toolVersion: string;
  builtAt: string;
  configFiles: Record<RelPath, number>;
}

export type IndexReadResult =
  | { ok: true; header: IndexHeader; records: LazyRecords }
  | { ok: false; reason: 'missing' | 'corrupt' | 'format-mismatch'; detail: string };

const FILES_OPEN = '"files":{\n';
const FILES_CLOSE = '\n}}\n';
/** what comes right before index.json's first record line, and what ends the file (the warm state checks both) */
export const OPEN_BYTES = Buffer.from(FILES_OPEN);
export const CLOSE_BYTES = Buffer.from(FILES_CLOSE);
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * The index of the `"` that closes the JSON string opening at `from`, or -1 before `to` (UTF-8 continuation bytes are
 * ≥ 0x80); `-2 - index` when the string holds an escape, so the caller knows to decode it with JSON.parse.
 */
export function endOfKey(bytes: Buffer, from: number, to: number): number {
  let escaped = false;
  for (let i = from + 1; i < to; i++) {
    const c = bytes[i];
    if (c === BACKSLASH) {
      escaped = true;
      i++;
    } else if (c === QUOTE) return escaped ? -2 - i : i;
  }
  return -1;
}

export const SIZE_KEY = Buffer.from(',"size":');
export const MTIME_KEY = Buffer.from(',"mtimeMs":');
/** Bytes read at a time while splitting index.json (a line longer than this grows the buffer). */
const BLOCK_BYTES = 1 << 20;

/** The end of the number written right after `key` at `at` of `bytes` (a comma before `to`), or -1. */
function numberEnd(bytes: Buffer, key: Buffer, at: number, to: number): number {
  if (at < 0 || at + key.length > to) return -1;
  const end = bytes.indexOf(COMMA, at + key.length);
  return end < 0 || end > to ? -1 : end;
}

/**
 * What the splitter hands on for each record line of index.json: the line's `"key":{record}` is `buf[from, to)`
 * (its comma left off), the record's JSON starts at `value`, and `offset` is the file offset of `buf[0]`. The bytes
 * are valid only during the call. Returns false when the record is not what serializeIndex writes: the file is then
 * read whole instead.
 */
export type RecordVisitor = (key: RelPath, buf: Buffer, from: number, value: number, to: number, offset: number) => boolean;

/**
 * The one reader of index.json's layout (readIndexDocument, readIndexFacts): a header object ending in
 * `"files":{`, then one `"path":{record}` per line in sorted order, a comma after all but the last, and `}}`. Read
 * a block at a time through one buffer that grows only for a longer line, never decoded whole and never held whole.
 * Returns the header (without visiting a record when it is of another format version), or null when the bytes do
 * not have that layout (hand-edited, pretty-printed) or a visitor said no, so the caller can parse the text whole.
 */
export function splitIndex(fd: number, size: number, visit: RecordVisitor): IndexHeader | null {
  if (size < OPEN_BYTES.length + CLOSE_BYTES.length) return null;
  const tail = Buffer.alloc(CLOSE_BYTES.length);
  readFully(fd, tail, 0, tail.length, size - tail.length);
  if (!tail.equals(CLOSE_BYTES)) return null;
  const bodyEnd = size - CLOSE_BYTES.length;
  let buf = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, size));
  /** the file offset of buf[0], and how many bytes of buf hold the file */
  let bufStart = 0;
  let bufLen = readFully(fd, buf, 0, buf.length, 0);
  let view = buf.subarray(0, bufLen);
  /** keeps the bytes from file offset `from` and reads on after them, growing the buffer when they fill it */
  const refill = (from: number): boolean => {
    if (bufStart + bufLen >= size) return false;
    const keep = bufStart + bufLen - from;
    if (keep >= buf.length / 2) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, from - bufStart, bufLen);
      buf = bigger;
    } else {
      buf.copy(buf, 0, from - bufStart, bufLen);
    }
    bufStart = from;
    bufLen = keep + readFully(fd, buf, keep, buf.length - keep, from + keep);
    view = buf.subarray(0, bufLen);
    return true;
  };
  let open = view.indexOf(OPEN_BYTES);
  while (open < 0 && refill(bufStart)) open = view.indexOf(OPEN_BYTES);
  if (open < 0 || open + bufStart > bodyEnd) return null;
  const header = JSON.parse(`${view.toString('utf8', 0, open)}"files":{}}`) as IndexHeader & { files?: unknown };
  delete header.files;
  // another format: the caller reports it without the records
  if (header.storeFormatVersion !== STORE_FORMAT_VERSION) return header;
  let start = bufStart + open + OPEN_BYTES.length;
  // no records: `"files":{`, an empty line, `}}`
  if (start === bodyEnd) return header;
  let previous: RelPath | null = null;
  while (start <= bodyEnd) {
    const nl = view.indexOf(NEWLINE, start - bufStart);
    let end = nl < 0 ? -1 : bufStart + nl;
    if (end < 0) {
      if (refill(start)) continue;
      end = bodyEnd;
    }
    if (end > bodyEnd) end = bodyEnd;
    const from = start - bufStart;
    const to = end - bufStart;
    let keyEnd = endOfKey(view, from, to);
    const escaped = keyEnd < -1;
    if (escaped) keyEnd = -2 - keyEnd;
    if (view[from] !== QUOTE || keyEnd < 0 || view[keyEnd + 1] !== COLON) return null;
    let key: string;
    if (escaped) {
      key = JSON.parse(view.toString('utf8', from, keyEnd + 1)) as string;
      // written back as JSON.stringify writes it: a key spelled another way makes the caller parse the whole file
      if (!Buffer.from(JSON.stringify(key)).equals(view.subarray(from, keyEnd + 1))) return null;
    } else {
      key = view.toString('utf8', from + 1, keyEnd);
    }
    // a comma after every record but the last; records in serializeIndex's order (a record twice means a hand-made file)
    const comma = view[to - 1] === COMMA;
    if (comma === (end === bodyEnd) || (previous !== null && !(previous < key))) return null;
    previous = key;
    if (!visit(key, view, from, keyEnd + 2, comma ? to - 1 : to, bufStart)) return null;
    start = end + 1;
  }
  return header;
}

/** What statsOfLine read (one object, reused: no allocation per line). */
export const lineStats = { size: NaN, mtimeMs: NaN };

/**
 * size and mtimeMs where serializeIndex puts them, `,"size":N,"mtimeMs":M,` early in the record, into lineStats
 * (NaN when elsewhere); false when they are not there.
 */
export function statsOfLine(view: Buffer, value: number, to: number): boolean {
  const sizeAt = view.indexOf(SIZE_KEY, value);
  const sizeEnd = numberEnd(view, SIZE_KEY, sizeAt, to);
  const mtimeEnd = sizeEnd < 0 || view.indexOf(MTIME_KEY, sizeEnd) !== sizeEnd ? -1 : numberEnd(view, MTIME_KEY, sizeEnd, to);
  if (mtimeEnd < 0) {
    lineStats.size = lineStats.mtimeMs = NaN;
    return false;
  }
  lineStats.size = Number(view.toString('latin1', sizeAt + SIZE_KEY.length, sizeEnd));
  lineStats.mtimeMs = Number(view.toString('latin1', sizeEnd + MTIME_KEY.length, mtimeEnd));
  return true;
}

/**
 * index.json's records as spans of the file (LazyRecords), parsed only when asked for; null when the bytes do not
 * have serializeIndex's layout.
 */
function splitRecords(file: string, fd: number, stat: Stats, stats: boolean): { header: IndexHeader; records: LazyRecords } | null {
  const records = new LazyRecords();
  records.setSource(RecordSource.ofFile(file, stat));
  const header = splitIndex(fd, stat.size, (key, view, from, value, to, offset) => {
    if (stats) statsOfLine(view, value, to);
    return records.setRaw(key, offset + from, offset + value, offset + to, stats ? lineStats.size : NaN, stats ? lineStats.mtimeMs : NaN);
  });
  return header ? { header, records } : null;
}

/** Reads index.json. A missing, unparsable or other-version file is reported as data, so the caller can rescan. */
export function readIndexDocument(file: string, options: { /** read each record's size and mtime off its line (LazyRecords.statOf), for a caller comparing them with the disk */ stats?: boolean } = {}): IndexReadResult {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return { ok: false, reason: 'missing', detail: (error as Error).message };
  }
  let header: IndexHeader;
  let records: LazyRecords;
  try {
    const split = splitRecords(file, fd, fstatSync(fd), options.stats ?? false);
    if (split) {
      ({ header, records } = split);
    } else {
      const doc = JSON.parse(readFileSync(fd, 'utf8')) as IndexDocument;
      if (!doc || typeof doc !== 'object' || typeof doc.files !== 'object' || doc.files === null) {
        return { ok: false, reason: 'corrupt', detail: `${file}: no "files" object` };
      }
      const { files, ...rest } = doc;
      header = rest;
      records = new LazyRecords();
      for (const [p, r] of Object.entries(files)) records.set(p, r);
    }
  } catch (error) {
    return { ok: false, reason: 'corrupt', detail: `${file}: ${(error as Error).message}` };
  } finally {
    closeSync(fd);
  }
  if (header.storeFormatVersion !== STORE_FORMAT_VERSION) {
    return { ok: false, reason: 'format-mismatch', detail: `${file}: format ${header.storeFormatVersion}, expected ${STORE_FORMAT_VERSION}` };
  }
  return { ok: true, header: { ...header, configFiles: header.configFiles ?? {} }, records };
}

/**
 * index.json bytes: valid JSON, records sorted by path, one per line. Records a LazyRecords map never parsed are
 * written back from the bytes they were read from, never decoded or re-encoded.
 */
export function serializeIndex(records: Map<RelPath, FileRecord>, configFiles: Record<RelPath, number>, builtAt: string): Buffer {
  const parts: Buffer[] = [];
  for (const chunk of indexChunks(records, configFiles, builtAt)) parts.push(Buffer.from(chunk)); // chunks may share a buffer
  return Buffer.concat(parts);
}

/** The header index.json is written with. */
export function indexHeader(configFiles: Record<RelPath, number>, builtAt: string): IndexHeader {
  return { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt, configFiles };
}

/** Bytes gathered before a chunk of index.json is handed on. */
const CHUNK_BYTES = 1 << 20;

/**
 * serializeIndex's bytes in chunks of about a megabyte, so a large index is never whole in memory. Runs of untouched
 * records that were next to each other in the index read (LazyRecords) are copied from it a block at a time, through
 * one buffer: a chunk is only valid until the next one is asked for.
 */
export function* indexChunks(records: Map<RelPath, FileRecord>, configFiles: Record<RelPath, number>, builtAt: string): Generator<Buffer> {
  const header = indexHeader(configFiles, builtAt);
  const lazy = records instanceof LazyRecords ? records : null;
  const reader = lazy?.rawSource()?.open();
  try {
    let parts: Uint8Array[] = [Buffer.from(`${JSON.stringify(header).slice(0, -1)},${FILES_OPEN}`)];
    let size = 0;
    const separator = Buffer.from(',\n');
    const copyBuffer = reader ? Buffer.allocUnsafe(CHUNK_BYTES) : null;
    const ordered: Iterator<[RelPath, RawSpan | null]> = lazy ? lazy.ordered() : ([...records.keys()].sort().map((p) => [p, null]) as Array<[RelPath, null]>)[Symbol.iterator]();
    let item = ordered.next();
    for (let first = true; !item.done; first = false) {
      const [p, span] = item.value;
      item = ordered.next();
      if (!first) parts.push(separator);
      if (!span || !reader) {
        const line = Buffer.from(`${JSON.stringify(p)}:${JSON.stringify(records.get(p))}`);
        parts.push(line);
        size += line.length;
        if (size >= CHUNK_BYTES) {
          yield Buffer.concat(parts);
          parts = [];
          size = 0;
        }
        continue;
      }
      // the longest run of untouched records that were consecutive lines (`,\n` between them) in the index read
      const start = span.start;
      let end = span.end;
      while (!item.done && item.value[1] && item.value[1].start === end + 2) {
        end = item.value[1].end;
        item = ordered.next();
      }
      yield Buffer.concat(parts);
      parts = [];
      size = 0;
      for (let at = start; at < end; at += CHUNK_BYTES) yield reader.read(at, Math.min(end, at + CHUNK_BYTES), copyBuffer!);
    }
    parts.push(CLOSE_BYTES);
    yield Buffer.concat(parts);
  } finally {
    reader?.close();
  }
}
