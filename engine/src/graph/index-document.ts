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

/** The end of the JSON string that starts at `start` (a `"`), or -1. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++; // backslash: skip the escaped character
    else if (c === 34) return i;
  }
  return -1;
}

/**
 * Splits index.json as written by serializeIndex: a header object, then one `"path":{record}` per line. Returns null
 * when the text does not have that layout (hand-edited, pretty-printed), so the caller can parse it whole.
 */
function splitLines(text: string): { header: IndexHeader; records: LazyRecords } | null {
  const open = text.indexOf(FILES_OPEN);
  if (open < 0 || !text.endsWith(FILES_CLOSE)) return null;
  const header = JSON.parse(`${text.slice(0, open)}"files":{}}`) as IndexHeader & { files?: unknown };
  delete header.files;
  const records = new LazyRecords();
  const body = text.slice(open + FILES_OPEN.length, text.length - FILES_CLOSE.length);
  if (!body) return { header, records };
  for (const line of body.split('\n')) {
    const keyEnd = endOfString(line, 0);
    if (line.charCodeAt(0) !== 34 || keyEnd < 0 || line.charCodeAt(keyEnd + 1) !== 58) return null;
    const json = line.endsWith(',') ? line.slice(keyEnd + 2, -1) : line.slice(keyEnd + 2);
    records.setRaw(JSON.parse(line.slice(0, keyEnd + 1)) as string, json);
  }
  return { header, records };
}

/** Reads index.json. A missing, unparsable or other-version file is reported as data, so the caller can rescan. */
export function readIndexDocument(file: string): IndexReadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, reason: 'missing', detail: (error as Error).message };
  }
  let header: IndexHeader;
  let records: LazyRecords;
  try {
    const split = splitLines(text);
    if (split) {
      ({ header, records } = split);
    } else {
      const doc = JSON.parse(text) as IndexDocument;
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
 * index.json text: valid JSON, records sorted by path, one per line. Records a LazyRecords map never parsed are
 * written back from their original text, byte for byte.
 */
export function serializeIndex(records: Map<RelPath, FileRecord>, configFiles: Record<RelPath, number>, builtAt: string): string {
  const header: IndexHeader = { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt, configFiles };
  const head = JSON.stringify(header);
  const lazy = records instanceof LazyRecords ? records : null;
  const lines = [...records.keys()].sort().map((p) => `${JSON.stringify(p)}:${lazy?.rawOf(p) ?? JSON.stringify(records.get(p))}`);
  return `${head.slice(0, -1)},${FILES_OPEN}${lines.join(',\n')}${FILES_CLOSE}`;
}

/** The whole document, parsed (for tools and tests that want plain JSON). */
export function toIndexDocument(header: IndexHeader, records: Map<RelPath, FileRecord>): IndexDocument {
  const files: Record<RelPath, FileRecord> = {};
  for (const p of [...records.keys()].sort()) files[p] = records.get(p)!;
  return { ...header, files };
}
