/**
 * encodeGraphFile by the WebAssembly copy of its b-tree layout (engine/assembly/graph-file.ts).
 *
 * Why: a full build lays out graph.db once, in a short-lived process, so the JavaScript layout ran mostly
 * unoptimized: ~120 ms of a cold zod build's wall time and ~240 ms of its CPU (measured by leaving it out). The
 * WebAssembly layout runs at full speed from the first row; what stays in JavaScript is writing the rows' values into
 * its memory. sqlite-file.ts decides what goes into the file (layoutGraphFile) for both, and its JavaScript writer
 * stays the reference: the tests check that both give the same bytes, page for page, and sql.js reads every file.
 */
import { Buffer } from 'node:buffer';
import type { GraphRows, StoreMeta } from '../types.js';
import { instantiateWasm, type WasmMemory } from '../wasm.js';
import { GRAPH_FILE_WASM } from './generated/graph-file-wasm.js';
import { layoutGraphFile, ROWIDS, storableAsIs, type Column, type TreeWriter } from './sqlite-file.js';

interface GraphFileModule {
  memory: WasmMemory;
  reset(): void;
  alloc(size: number): number;
  begin(pages: number): number;
  table(records: number, rows: number, columns: number): number;
  index(records: number, rows: number, columns: number, keys: number, unique: number): number;
  schema(records: number, rows: number, columns: number): number;
  finish(): number;
}

/** Value tags of the module's value triples (engine/assembly/graph-file.ts). */
const TAG_NULL = 0;
const TAG_INTEGER = 1;
const TAG_TEXT = 2;
const PAGE_SIZE = 4096;
/** Below this length a string is written in JavaScript when it is ASCII: cheaper than a call into Buffer's C++. */
const SHORT_TEXT = 48;

/** The file needs more pages than were reserved for it. */
class NotForWasm extends Error {}

let module: GraphFileModule | null | undefined;

/** Writes `s` as UTF-8 at `at`; returns its byte length (`heap` has room for 3 bytes per UTF-16 unit). For text that is not all ASCII. */
function putText(heap: Buffer, at: number, s: string): number {
  const n = s.length;
  if (n <= SHORT_TEXT) {
    let k = 0;
    for (; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c >= 0x80) break;
      heap[at + k] = c;
    }
    if (k === n) return n;
  }
  return heap.write(s, at, 'utf8');
}

/** Pages to reserve for the file of `rows`: twice their text and values' worth (a table leaf can be half empty), and some. */
function pagesFor(rows: GraphRows): number {
  let chars = 0;
  let values = 0;
  for (const n of rows.nodes) chars += 2 * (n.id.length + n.path.length) + n.kind.length + n.body.length;
  values += 8 * rows.nodes.length;
  for (const e of rows.edges) chars += 2 * (e.source.length + e.target.length + e.kind.length) + e.names.length + (e.reexports?.length ?? 0) + e.specifier.length;
  values += 10 * rows.edges.length;
  for (const s of rows.symbols) chars += 2 * (s.nodeId.length + s.name.length) + s.kind.length;
  values += 9 * rows.symbols.length;
  for (const x of rows.externals) chars += 2 * (x.nodeId.length + x.package.length) + x.specifier.length + x.kind.length;
  values += 9 * rows.externals.length;
  for (const u of rows.unresolved) chars += 2 * u.nodeId.length + u.specifier.length + u.kind.length + u.reason.length;
  values += 7 * rows.unresolved.length;
  // text is ~1 byte a character in code; twice that leaves room for other scripts before the reserve runs out
  return Math.ceil((2 * (2 * chars + 12 * values)) / (PAGE_SIZE - 96)) + 64;
}

function wasmTreeWriter(m: GraphFileModule, pages: number): TreeWriter {
  m.reset();
  const fileBase = m.begin(pages);
  /**
   * Writes the records of `columns` into the module's memory as value triples, row by row (text after them); returns
   * where. Column by column: a text column's strings go in with one native write when they are ASCII.
   */
  const put = (columns: readonly Column[], rows: number): [at: number, rows: number, columns: number] => {
    const width = columns.length;
    let chars = 0;
    const joined: Array<string | null> = columns.map((column) => {
      if (column === ROWIDS) return null;
      const text = column.filter((v) => typeof v === 'string').join('');
      chars += text.length;
      return text;
    });
    const valueBytes = rows * width * 12;
    const at = m.alloc(valueBytes + 3 * chars + 16);
    // after alloc: the memory may have grown, which replaces its buffer
    const buffer = m.memory.buffer;
    const triples = new Int32Array(buffer, at, rows * width * 3);
    const heap = Buffer.from(buffer);
    let text = at + valueBytes;
    for (let c = 0; c < width; c++) {
      const column = columns[c];
      const stride = width * 3;
      if (column === ROWIDS) {
        for (let r = 0, k = c * 3; r < rows; r++, k += stride) {
          triples[k] = TAG_INTEGER;
          triples[k + 1] = r + 1;
          triples[k + 2] = 0;
        }
        continue;
      }
      const all = joined[c]!;
      // ASCII when the bytes written are as many as the characters: then a string's bytes are its characters
      const ascii = heap.write(all, text, 'utf8') === all.length;
      for (let r = 0, k = c * 3; r < rows; r++, k += stride) {
        const v = column[r];
        if (typeof v === 'string') {
          const length = ascii ? v.length : putText(heap, text, v);
          triples[k] = TAG_TEXT;
          triples[k + 1] = text;
          triples[k + 2] = length;
          text += length;
        } else if (typeof v === 'number') {
          // a safe integer (storableAsIs) as its low and high 32 bits, two's complement
          const high = Math.floor(v / 2 ** 32);
          triples[k] = TAG_INTEGER;
          triples[k + 1] = v - high * 2 ** 32;
          triples[k + 2] = high;
        } else triples[k] = TAG_NULL;
      }
    }
    return [at, rows, width];
  };
  return {
    table: (columns, rows) => m.table(...put(columns, rows)),
    index(columns, rows, keys, unique) {
      const root = m.index(...put(columns, rows), keys, unique ? 1 : 0);
      return root < 0 ? null : root;
    },
    schema(columns, rows) {
      if (m.schema(...put(columns, rows)) === 0) throw new Error('sqlite-file: the schema does not fit on page 1');
    },
    done() {
      const count = m.finish();
      if (count < 0) throw new NotForWasm();
      // a copy: the module's memory is reused by the next file
      return { bytes: Buffer.from(new Uint8Array(m.memory.buffer, fileBase, count * PAGE_SIZE)), pages: count };
    },
  };
}

/**
 * encodeGraphFile's result (the same bytes), laid out by the WebAssembly module; undefined when the module cannot be
 * used here or for these rows (then the JavaScript writer lays them out).
 */
export function encodeGraphFileWasm(rows: GraphRows, meta: StoreMeta): Buffer | null | undefined {
  if (!storableAsIs(rows)) return null;
  if (module === undefined) module = process.env.GSD_WASM_GRAPH === '0' ? null : instantiateWasm<GraphFileModule>(GRAPH_FILE_WASM);
  if (module === null) return undefined;
  try {
    return layoutGraphFile(rows, meta, wasmTreeWriter(module, pagesFor(rows)));
  } catch (error) {
    if (error instanceof NotForWasm) return undefined;
    throw error;
  }
}
