import { readFileSync } from 'node:fs';
import { STORE_FORMAT_VERSION, TOOL_VERSION } from '../version.js';
import type { FileRecord, IndexDocument, RelPath } from '../types.js';

export type IndexReadResult =
  | { ok: true; doc: IndexDocument }
  | { ok: false; reason: 'missing' | 'corrupt' | 'format-mismatch'; detail: string };

/** Reads index.json. A missing, unparsable or other-version file is reported as data, so the caller can rescan. */
export function readIndexDocument(file: string): IndexReadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, reason: 'missing', detail: (error as Error).message };
  }
  let doc: IndexDocument;
  try {
    doc = JSON.parse(text) as IndexDocument;
  } catch (error) {
    return { ok: false, reason: 'corrupt', detail: `${file}: ${(error as Error).message}` };
  }
  if (!doc || typeof doc !== 'object' || typeof doc.files !== 'object' || doc.files === null) {
    return { ok: false, reason: 'corrupt', detail: `${file}: no "files" object` };
  }
  if (doc.storeFormatVersion !== STORE_FORMAT_VERSION) {
    return { ok: false, reason: 'format-mismatch', detail: `${file}: format ${doc.storeFormatVersion}, expected ${STORE_FORMAT_VERSION}` };
  }
  return { ok: true, doc };
}

export function newIndexDocument(files: Map<RelPath, FileRecord>, configFiles: Record<RelPath, number>, builtAt: string): IndexDocument {
  const sorted: Record<RelPath, FileRecord> = {};
  for (const p of [...files.keys()].sort()) sorted[p] = files.get(p)!;
  return { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt, configFiles, files: sorted };
}

export function serializeIndex(doc: IndexDocument): string {
  return JSON.stringify(doc);
}
