import { readFileSync } from 'node:fs';
import { STORE_FORMAT_VERSION, TOOL_VERSION } from '../version.js';
import type { FileRecord, IndexDocument, RelPath } from '../types.js';
import { LazyRecords } from './lazy-records.js';

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
const OPEN_BYTES = Buffer.from(FILES_OPEN);
const CLOSE_BYTES = Buffer.from(FILES_CLOSE);
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/** The index of the `"` that closes the JSON string opening at byte 0, or -1 (UTF-8 continuation bytes are ≥ 0x80). */
function endOfKey(line: Buffer): number {
  for (let i = 1; i < line.length; i++) {
    const c = line[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/**
 * Splits index.json as written by serializeIndex, without decoding it: a header object, then one `"path":{record}`
 * per line, each record kept as bytes until asked for. Returns null when the bytes do not have that layout
 * (hand-edited, pretty-printed), so the caller can parse the text whole.
 */
function splitLines(bytes: Buffer): { header: IndexHeader; records: LazyRecords } | null {
  const open = bytes.indexOf(OPEN_BYTES);
  const bodyEnd = bytes.length - CLOSE_BYTES.length;
  if (open < 0 || bodyEnd < open || !bytes.subarray(bodyEnd).equals(CLOSE_BYTES)) return null;
  const header = JSON.parse(`${bytes.subarray(0, open).toString('utf8')}"files":{}}`) as IndexHeader & { files?: unknown };
  delete header.files;
  const records = new LazyRecords();
  let start = open + OPEN_BYTES.length;
  if (start > bodyEnd) return { header, records };
  while (start <= bodyEnd) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end < 0 || end > bodyEnd) end = bodyEnd;
    const line = bytes.subarray(start, end);
    const keyEnd = endOfKey(line);
    if (line[0] !== QUOTE || keyEnd < 0 || line[keyEnd + 1] !== COLON) return null;
    const valueEnd = line[line.length - 1] === COMMA ? line.length - 1 : line.length;
    records.setRaw(JSON.parse(line.subarray(0, keyEnd + 1).toString('utf8')) as string, line.subarray(keyEnd + 2, valueEnd));
    start = end + 1;
  }
  return { header, records };
}

/** Reads index.json. A missing, unparsable or other-version file is reported as data, so the caller can rescan. */
export function readIndexDocument(file: string): IndexReadResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { ok: false, reason: 'missing', detail: (error as Error).message };
  }
  let header: IndexHeader;
  let records: LazyRecords;
  try {
    const split = splitLines(bytes);
    if (split) {
      ({ header, records } = split);
    } else {
      const doc = JSON.parse(bytes.toString('utf8')) as IndexDocument;
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
  return Buffer.concat([...indexChunks(records, configFiles, builtAt)]);
}

/** Bytes gathered before a chunk of index.json is handed on. */
const CHUNK_BYTES = 1 << 20;

/** serializeIndex's bytes in chunks of about a megabyte, so a large index is never whole in memory. */
export function* indexChunks(records: Map<RelPath, FileRecord>, configFiles: Record<RelPath, number>, builtAt: string): Generator<Buffer> {
  const header: IndexHeader = { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt, configFiles };
  const lazy = records instanceof LazyRecords ? records : null;
  let parts: Uint8Array[] = [Buffer.from(`${JSON.stringify(header).slice(0, -1)},${FILES_OPEN}`)];
  let size = 0;
  const separator = Buffer.from(',\n');
  const paths = [...records.keys()].sort();
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i];
    if (i > 0) parts.push(separator);
    const raw = lazy?.rawOf(p);
    const line = Buffer.from(`${JSON.stringify(p)}:${raw ? '' : JSON.stringify(records.get(p))}`);
    parts.push(line);
    size += line.length;
    if (raw) {
      parts.push(raw);
      size += raw.length;
    }
    if (size >= CHUNK_BYTES) {
      yield Buffer.concat(parts);
      parts = [];
      size = 0;
    }
  }
  parts.push(CLOSE_BYTES);
  yield Buffer.concat(parts);
}
