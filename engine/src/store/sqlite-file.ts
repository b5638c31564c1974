/**
 * A fresh graph.db laid out directly in the SQLite file format (https://www.sqlite.org/fileformat2.html), without
 * running SQLite. A full build writes every row once into an empty database: it needs none of what a database engine
 * does on the way (a transaction, page splits on each insert, an index build by sorting inside WebAssembly). Sorting
 * the keys and packing each b-tree bottom up, page by page, gives a valid file in a fraction of sql.js' time (figures
 * in bench/RESULTS.md, "Cold build", graph.db writer).
 *
 * sql.js stays the reference. It writes every incremental patch and reads every file, and the tests check that this
 * writer and sql.js give the same schema and the same rows, and that SQLite's `PRAGMA integrity_check` (which checks
 * page structure, key order and that every index matches its table) finds nothing. Rows that SQLite would not store
 * one to one (a repeated key, which `INSERT OR REPLACE` would resolve, a missing value, a number that is not a safe
 * integer) make encodeGraphFile return null, and the caller falls back to sql.js.
 *
 * Layout: 4096-byte pages, UTF-8, no free pages. Page 1 holds the 100-byte header and the schema table; then each
 * b-tree in schema order, leaves first and its root last; overflow pages are taken as their cells are made.
 */
import type { GraphRows, StoreMeta } from '../types.js';
import { writeFully } from './atomic-write.js';
import { DDL_STATEMENTS, META_KEYS } from './schema.js';

const PAGE_SIZE = 4096;
/** no bytes are reserved at the end of a page */
const USABLE = PAGE_SIZE;
/** the most payload a table leaf cell keeps on its page */
const TABLE_MAX_LOCAL = USABLE - 35;
/** the most payload an index cell (leaf or interior) keeps on its page */
const INDEX_MAX_LOCAL = Math.floor(((USABLE - 12) * 64) / 255) - 23;
/** the least payload a cell with overflow keeps on its page */
const MIN_LOCAL = Math.floor(((USABLE - 12) * 32) / 255) - 23;
/** the SQLite version this layout was checked against (sql.js 1.16's 3.54.1): written in the header like SQLite does */
const SQLITE_VERSION_NUMBER = 3054001;

const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
const LEAF_INDEX = 0x0a;
const INTERIOR_INDEX = 0x02;

/** A column value: text, an integer, or NULL. */
export type Value = string | number | null;

// ---------------------------------------------------------------- varints and records

function varintLength(v: number): number {
  if (v < 128) return 1;
  if (v < 16384) return 2;
  let n = 1;
  while (v >= 128) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** SQLite's varint (7 bits a byte, high bit set on every byte but the last) for 0 ≤ v < 2^53. */
function putVarint(buf: Buffer, at: number, v: number): number {
  if (v < 128) {
    buf[at] = v;
    return at + 1;
  }
  const n = varintLength(v);
  for (let i = n - 1; i >= 0; i--) {
    buf[at + i] = (v % 128) | (i === n - 1 ? 0 : 0x80);
    v = Math.floor(v / 128);
  }
  return at + n;
}

/** Serial type of an integer, the smallest SQLite would use (record format 4: 0 and 1 take no bytes). */
function integerType(v: number): number {
  if (v === 0) return 8;
  if (v === 1) return 9;
  if (v >= -128 && v <= 127) return 1;
  if (v >= -32768 && v <= 32767) return 2;
  if (v >= -8388608 && v <= 8388607) return 3;
  if (v >= -2147483648 && v <= 2147483647) return 4;
  if (v >= -140737488355328 && v <= 140737488355327) return 5;
  return 6;
}

const INTEGER_SIZE = [0, 1, 2, 3, 4, 6, 8, 0, 0, 0];

/** Big-endian 16- and 32-bit numbers written byte by byte: Buffer's writeUInt*BE check their arguments on every call. */
function put16(buf: Buffer, at: number, v: number): number {
  buf[at] = v >>> 8;
  buf[at + 1] = v & 0xff;
  return at + 2;
}

function put32(buf: Buffer, at: number, v: number): number {
  buf[at] = v >>> 24;
  buf[at + 1] = (v >>> 16) & 0xff;
  buf[at + 2] = (v >>> 8) & 0xff;
  buf[at + 3] = v & 0xff;
  return at + 4;
}

/** Below this length a string is measured and copied in JavaScript: cheaper than a call into Buffer's C++ for names. */
const SHORT_TEXT = 48;

/** Byte length of `s` in UTF-8. */
function utf8Length(s: string): number {
  if (s.length > SHORT_TEXT) return Buffer.byteLength(s, 'utf8');
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s, 'utf8');
  return s.length;
}

/** Writes `s` (`bytes` long in UTF-8) at `at`; returns the offset after it. */
function writeText(out: Buffer, at: number, s: string, bytes: number): number {
  if (bytes === s.length && bytes <= SHORT_TEXT) {
    for (let i = 0; i < bytes; i++) out[at + i] = s.charCodeAt(i);
    return at + bytes;
  }
  return at + out.write(s, at, 'utf8');
}

/** Copies bytes [from, to) of `src` to `dst` at `at`, in JavaScript when that is cheaper (short runs); returns the offset after. */
function copyBytes(src: Buffer, from: number, to: number, dst: Buffer, at: number): number {
  if (to - from > SHORT_TEXT) return at + src.copy(dst, at, from, to);
  for (let i = from; i < to; i++) dst[at++] = src[i];
  return at;
}

/**
 * The payloads (records) of a database, written one after the other into one buffer. A payload is known by its
 * number; how much of it stays on the b-tree page and where its overflow pages start is settled when it is added.
 * (One Buffer per value or per cell cost more than the rest of the work together: ~40 % of the time in a profile.)
 */
class Payloads {
  bytes = Buffer.allocUnsafe(1 << 16);
  used = 0;
  readonly start: number[] = [];
  readonly size: number[] = [];
  readonly local: number[] = [];
  /** first overflow page, 0 when the payload fits on its page */
  readonly overflow: number[] = [];
  private readonly types: number[] = [];

  constructor(private readonly file: PageFile) {}

  /** Forgets every payload (a b-tree is written whole before the next starts: its payloads are not needed again). */
  reset(): void {
    this.used = 0;
    this.start.length = 0;
    this.size.length = 0;
    this.local.length = 0;
    this.overflow.length = 0;
  }

  /**
   * Copies payload `n` (its bytes on the page; its overflow pages are written already) into `to`; returns its number
   * there. Into itself: every other payload is forgotten and `n` becomes payload 0 (the first of a new leaf).
   */
  moveTo(to: Payloads, n: number): number {
    const [start, size, local, overflow] = [this.start[n], this.size[n], this.local[n], this.overflow[n]];
    if (to === this) this.reset(); // its bytes stay until the copy below moves them to the front
    to.reserve(local);
    this.bytes.copy(to.bytes, to.used, start, start + local);
    to.start.push(to.used);
    to.used += local;
    to.size.push(size);
    to.local.push(local);
    to.overflow.push(overflow);
    return to.start.length - 1;
  }

  /** Adds a record of `values` (a header of serial types, then text as UTF-8, integers big-endian); returns its number. */
  add(values: readonly Value[], maxLocal: number): number {
    const types = this.types;
    types.length = 0;
    let typesLength = 0;
    let bodyLength = 0;
    for (const v of values) {
      let type: number;
      if (v === null) type = 0;
      else if (typeof v === 'number') {
        type = integerType(v);
        bodyLength += INTEGER_SIZE[type];
      } else {
        const length = utf8Length(v);
        type = 13 + 2 * length;
        bodyLength += length;
      }
      types.push(type);
      typesLength += varintLength(type);
    }
    // the header's own size is part of the header
    let headerLength = typesLength + 1;
    while (varintLength(headerLength) + typesLength !== headerLength) headerLength = varintLength(headerLength) + typesLength;
    const total = headerLength + bodyLength;
    this.reserve(total);
    const out = this.bytes;
    const start = this.used;
    let at = putVarint(out, start, headerLength);
    for (const type of types) at = putVarint(out, at, type);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null) continue;
      if (typeof v === 'number') {
        const size = INTEGER_SIZE[types[i]];
        if (size === 8) out.writeBigInt64BE(BigInt(v), at);
        else if (size > 0) out.writeIntBE(v, at, size);
        at += size;
      } else at = writeText(out, at, v, (types[i] - 13) / 2);
    }
    this.used = at;
    this.start.push(start);
    this.size.push(total);
    let local = total;
    if (total > maxLocal) {
      const k = MIN_LOCAL + ((total - MIN_LOCAL) % (USABLE - 4));
      local = k <= maxLocal ? k : MIN_LOCAL;
    }
    this.local.push(local);
    this.overflow.push(local < total ? this.writeOverflow(start + local, start + total) : 0);
    return this.start.length - 1;
  }

  /** The bytes [from, to) on a chain of overflow pages (a 4-byte next page, then content); returns the first page. */
  private writeOverflow(from: number, to: number): number {
    const first = this.file.take();
    let page = first;
    for (let at = from; at < to; at += USABLE - 4) {
      const end = Math.min(to, at + USABLE - 4);
      const next = end < to ? this.file.take() : 0;
      const bytes = this.file.page(page);
      bytes.writeUInt32BE(next, 0);
      this.bytes.copy(bytes, 4, at, end);
      page = next;
    }
    return first;
  }

  reserve(n: number): void {
    if (this.used + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + n));
    this.bytes.copy(bigger, 0, 0, this.used);
    this.bytes = bigger;
  }
}

// ---------------------------------------------------------------- pages

/** Where laid-out pages go, in order from page 2 on (a view: copy it to keep it); page 1 is handed back at the end. */
export type PageSink = (pages: Buffer) => void;

/** Pages held before they go to the sink: a window over the end of the file, so memory does not grow with it. */
const WINDOW_PAGES = 256;

/**
 * The database file being laid out: page n is bytes [(n-1)·PAGE_SIZE, n·PAGE_SIZE), zero-filled until written.
 * Pages are written right after they are taken (an overflow chain writes a page after taking the next), so all but
 * the last one are final: they go to the sink as the window fills. Page 1 (header and schema) is written last.
 */
class PageFile {
  private readonly first = Buffer.alloc(PAGE_SIZE);
  private readonly window = Buffer.alloc(WINDOW_PAGES * PAGE_SIZE);
  /** the page at the start of the window */
  private base = 2;
  count = 0;

  constructor(private readonly sink: PageSink) {}

  /** Reserves the next page; returns its number (from 1). */
  take(): number {
    this.count++;
    if (this.count - this.base >= WINDOW_PAGES) {
      // every page before the last one taken is final
      const final = this.count - 1 - this.base;
      this.sink(this.window.subarray(0, final * PAGE_SIZE));
      this.window.copy(this.window, 0, final * PAGE_SIZE, (final + 1) * PAGE_SIZE);
      this.window.fill(0, PAGE_SIZE);
      this.base += final;
    }
    return this.count;
  }

  /** The bytes of a page taken before and not handed to the sink yet. */
  page(n: number): Buffer {
    if (n === 1) return this.first;
    if (n < this.base) throw new Error(`sqlite-file: page ${n} was written already`); // a layout bug, never bad input
    return this.window.subarray((n - this.base) * PAGE_SIZE, (n - this.base + 1) * PAGE_SIZE);
  }

  /** Hands the pages left to the sink; returns page 1. */
  done(): Buffer {
    if (this.count >= this.base) this.sink(this.window.subarray(0, (this.count - this.base + 1) * PAGE_SIZE));
    this.base = this.count + 1;
    return this.first;
  }
}

/**
 * A cell of a b-tree page. Table leaf: payload + rowid. Table interior: child + rowid. Index leaf: payload.
 * Index interior: child + payload.
 */
interface Cell {
  /** left child page (interior pages), else 0 */
  left: number;
  /** the rowid (table pages), else -1 */
  key: number;
  /** the payload's number, else -1 (table interior) */
  payload: number;
}

function cellSize(c: Cell, p: Payloads): number {
  let size = c.left ? 4 : 0;
  if (c.key >= 0) size += varintLength(c.key);
  if (c.payload >= 0) {
    const n = c.payload;
    size += varintLength(p.size[n]) + p.local[n] + (p.overflow[n] ? 4 : 0);
  }
  return Math.max(4, size); // SQLite never makes a cell smaller than 4 bytes
}

/** Writes one b-tree page: header (after the file header on page 1), cell pointers, the cells packed at the end. */
function layoutPage(file: PageFile, n: number, type: number, cells: readonly Cell[], right: number, p: Payloads): void {
  const page = file.page(n);
  const headerAt = n === 1 ? 100 : 0;
  const interior = type === INTERIOR_TABLE || type === INTERIOR_INDEX;
  let pointer = headerAt + (interior ? 12 : 8);
  let content = USABLE;
  for (const cell of cells) {
    content -= cellSize(cell, p);
    let at = content;
    if (cell.left) at = put32(page, at, cell.left);
    if (cell.payload >= 0) at = putVarint(page, at, p.size[cell.payload]);
    if (cell.key >= 0) at = putVarint(page, at, cell.key);
    if (cell.payload >= 0) {
      const start = p.start[cell.payload];
      at = copyBytes(p.bytes, start, start + p.local[cell.payload], page, at);
      if (p.overflow[cell.payload]) put32(page, at, p.overflow[cell.payload]);
    }
    pointer = put16(page, pointer, content);
  }
  if (pointer > content) throw new Error('sqlite-file: page overflow'); // a packing bug, never bad input
  page[headerAt] = type;
  put16(page, headerAt + 3, cells.length);
  put16(page, headerAt + 5, content);
  if (interior) put32(page, headerAt + 8, right);
}

interface PendingPage {
  cells: Cell[];
  /** right-most child (interior pages) */
  right: number;
  /** the largest rowid below (table pages) */
  maxKey: number;
}

/**
 * Packs children into interior pages: every child of a page but its last becomes a cell, the last is the page's
 * right-most pointer. `divider(i)` is the cell between child i and child i + 1 (its left child is child i). When a
 * page is full, the next divider goes up a level instead (`promoted`, used by index b-trees; a table's parent level
 * takes the largest rowids). A last page left with no cell takes the previous page's last child over, so that no
 * interior page is empty.
 */
function packInterior(
  children: ReadonlyArray<{ page: number; maxKey: number }>,
  divider: (i: number) => Cell,
  p: Payloads,
  table: boolean,
): { pages: PendingPage[]; promoted: Cell[] } {
  const pages: PendingPage[] = [];
  const promoted: Cell[] = [];
  let current: PendingPage = { cells: [], right: children[0].page, maxKey: children[0].maxKey };
  let space = 12;
  for (let i = 1; i < children.length; i++) {
    const cell = divider(i - 1);
    const size = cellSize(cell, p) + 2;
    if (space + size > USABLE) {
      pages.push(current);
      promoted.push(cell);
      current = { cells: [], right: children[i].page, maxKey: children[i].maxKey };
      space = 12;
      continue;
    }
    current.cells.push(cell);
    space += size;
    current.right = children[i].page;
    current.maxKey = children[i].maxKey;
  }
  pages.push(current);
  const last = pages[pages.length - 1];
  if (last.cells.length === 0 && pages.length > 1) {
    const before = pages[pages.length - 2];
    const moved = before.cells.pop()!;
    if (table) {
      last.cells.push({ left: before.right, key: before.maxKey, payload: -1 });
      before.maxKey = moved.key;
    } else {
      last.cells.push({ left: before.right, key: -1, payload: promoted[promoted.length - 1].payload });
      promoted[promoted.length - 1] = moved;
    }
    before.right = moved.left;
  }
  return { pages, promoted };
}

/** The values of row `r` of `columns` into `row` (reused from record to record). */
function rowOf(columns: readonly Column[], r: number, row: Value[]): Value[] {
  for (let c = 0; c < columns.length; c++) {
    const column = columns[c];
    row[c] = column === ROWIDS ? r + 1 : column(r);
  }
  return row;
}

/**
 * A b-tree of the records of `columns`: a rowid table (`order` null: rowids from 1, in order) or an index of them
 * taken in `order` (key order); returns its root page. Leaves are laid out as they fill and their payloads forgotten:
 * memory holds one leaf's records, a page number per leaf and the entries that go up to an index's interior pages
 * (one a leaf, in `kept`). Each index entry is stored once: the entries between two children of an interior page live
 * in that page, as in any B-tree. A table's interior cells carry the largest rowid of their left child.
 */
function writeTree(file: PageFile, p: Payloads, kept: Payloads, columns: readonly Column[], rows: number, order: Uint32Array | null): number {
  let level: Array<{ page: number; maxKey: number }> = [];
  /** dividers[i] sits between child i and child i + 1 (an index's, payloads in `kept`) */
  let dividers: number[] = [];
  let cells: Cell[] = [];
  let used = 8;
  const closeLeaf = () => {
    const page = file.take();
    layoutPage(file, page, order ? LEAF_INDEX : LEAF_TABLE, cells, 0, p);
    level.push({ page, maxKey: cells.length ? cells[cells.length - 1].key : 0 });
    cells = [];
    used = 8;
  };
  p.reset();
  kept.reset();
  const row: Value[] = new Array(columns.length);
  for (let i = 0; i < rows; i++) {
    const r = order ? order[i] : i;
    const cell: Cell = { left: 0, key: order ? -1 : r + 1, payload: p.add(rowOf(columns, r, row), order ? INDEX_MAX_LOCAL : TABLE_MAX_LOCAL) };
    const size = cellSize(cell, p) + 2;
    if (used + size > USABLE) {
      // a full leaf: a table's next leaf starts with the row. An index entry goes up, between the leaf and the next;
      // but the last one, with none after it to fill another leaf, starts one and the full leaf's last entry goes up
      const last = i === rows - 1;
      if (order) dividers.push(p.moveTo(kept, last ? cells.pop()!.payload : cell.payload));
      closeLeaf();
      if (order && !last) {
        p.reset();
        continue;
      }
      cell.payload = p.moveTo(p, cell.payload);
    }
    cells.push(cell);
    used += size;
  }
  closeLeaf();
  while (level.length > 1) {
    const children = level;
    const below = dividers;
    const divider = (i: number): Cell => (order ? { left: children[i].page, key: -1, payload: below[i] } : { left: children[i].page, key: children[i].maxKey, payload: -1 });
    const { pages, promoted } = packInterior(children, divider, kept, !order);
    dividers = promoted.map((c) => c.payload);
    level = pages.map((pg) => {
      const page = file.take();
      layoutPage(file, page, order ? INTERIOR_INDEX : INTERIOR_TABLE, pg.cells, pg.right, kept);
      return { page, maxKey: pg.maxKey };
    });
  }
  return level[0].page;
}

// ---------------------------------------------------------------- key order

/** Characters from here on sort differently in UTF-16 (JavaScript's `<`) and in UTF-8 bytes (SQLite's BINARY). */
const NOT_BMP_ORDERED = /[\ud800-\uffff]/;

/** `a` and `b` in SQLite's BINARY collation: their UTF-8 bytes compared (lone surrogates encode as U+FFFD). */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A comparison of one key column's values (text only, or integers only) that agrees with SQLite's order. */
function columnOrder(column: (r: number) => Value, rows: number): (a: Value, b: Value) => number {
  for (let r = 0; r < rows; r++) {
    const v = column(r);
    if (typeof v === 'string' && NOT_BMP_ORDERED.test(v)) return compareUtf8 as (a: Value, b: Value) => number;
  }
  return (a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0);
}

// ---------------------------------------------------------------- the database

/** The column of row numbers (1, 2, …): what an index on a rowid table ends with. */
export const ROWIDS = Symbol('rowids');

/**
 * The values of one column of a b-tree's records: row r's value (read off the caller's rows, so that no array of
 * a column is made); ROWIDS for the row numbers.
 */
export type Column = ((r: number) => Value) | typeof ROWIDS;

/**
 * What lays out a new database's b-trees, page after page (treeWriter below). layoutGraphFile decides what goes
 * in, in which order.
 * Records come as columns (`rows` values each): cheaper to hand over than an array per row.
 */
export interface TreeWriter {
  /** A rowid table of the records (rowids from 1, in order); returns its root page. */
  table(columns: readonly Column[], rows: number): number;
  /**
   * An index b-tree of the records in the order of their first `keys` values, then of their position (every key
   * column holds text only or integers only); returns its root page, or null when `unique` and two records share
   * a key (INSERT OR REPLACE would keep one: the rows need SQLite).
   */
  index(columns: readonly Column[], rows: number, keys: number, unique: boolean): number | null;
  /** Lays out page 1's schema table (rowids from 1); throws when it does not fit on the page. */
  schema(columns: readonly Column[], rows: number): void;
  /** Page 1 (its header still to write; every other page went to the sink) and the page count. */
  done(): { first: Buffer; pages: number };
}

/** The writer of TreeWriter: pages from 2 on go to `sink` as they are laid out. */
export function treeWriter(sink: PageSink): TreeWriter {
  const file = new PageFile(sink);
  file.take(); // page 1: the header and the schema, written last
  const p = new Payloads(file);
  const kept = new Payloads(file);
  return {
    table: (columns, rows) => writeTree(file, p, kept, columns, rows, null),
    index(columns, rows, keys, unique) {
      // key columns compared where they are (no array per row); ROWIDS is the row's own number
      const keyColumns = columns.slice(0, keys);
      const orders = keyColumns.map((c) => (c === ROWIDS ? null : columnOrder(c, rows)));
      /** 0 when rows a and b share a key */
      const keyOrder = (a: number, b: number): number => {
        for (let c = 0; c < keys; c++) {
          const column = keyColumns[c];
          if (column === ROWIDS) return a - b;
          const d = orders[c]!(column(a), column(b));
          if (d !== 0) return d;
        }
        return 0;
      };
      const order = new Uint32Array(rows);
      for (let i = 0; i < rows; i++) order[i] = i;
      order.sort((a, b) => keyOrder(a, b) || a - b);
      for (let k = 1; unique && k < rows; k++) if (keyOrder(order[k - 1], order[k]) === 0) return null;
      return writeTree(file, p, kept, columns, rows, order);
    },
    schema(columns, rows) {
      p.reset();
      const cells: Cell[] = Array.from({ length: rows }, (_, r) => ({ left: 0, key: r + 1, payload: p.add(rowOf(columns, r, []), TABLE_MAX_LOCAL) }));
      if (cells.reduce((n, c) => n + cellSize(c, p) + 2, 100 + 8) > USABLE) throw new Error('sqlite-file: the schema does not fit on page 1');
      layoutPage(file, 1, LEAF_TABLE, cells, 0, p);
    },
    done: () => ({ first: file.done(), pages: file.count }),
  };
}

interface SchemaEntry {
  type: 'table' | 'index';
  name: string;
  table: string;
  root: number;
  sql: string | null;
}

const statement = (prefix: string): string => {
  const found = DDL_STATEMENTS.find((s) => s.startsWith(prefix));
  if (!found) throw new Error(`sqlite-file: schema.ts has no "${prefix}" statement`);
  return found;
};

const isText = (v: unknown): v is string => typeof v === 'string';

/** Rows SQLite would store one to one: text columns hold strings, integer columns safe integers, node keys are unique. */
export function storableAsIs(rows: GraphRows): boolean {
  const ids = new Set<string>();
  const paths = new Set<string>();
  for (const n of rows.nodes) {
    if (!isText(n.id) || !isText(n.path) || !isText(n.kind) || !isText(n.body) || ids.has(n.id) || paths.has(n.path)) return false;
    ids.add(n.id);
    paths.add(n.path);
  }
  for (const e of rows.edges) {
    if (!isText(e.source) || !isText(e.target) || !isText(e.kind) || !isText(e.names) || !isText(e.specifier)) return false;
    if (e.reexports !== null && !isText(e.reexports)) return false;
    if (!Number.isSafeInteger(e.line) || typeof e.exact !== 'boolean') return false;
  }
  for (const s of rows.symbols) {
    if (!isText(s.nodeId) || !isText(s.name) || !isText(s.kind) || typeof s.exported !== 'boolean' || !Number.isSafeInteger(s.line)) return false;
  }
  for (const x of rows.externals) {
    if (!isText(x.nodeId) || !isText(x.package) || !isText(x.specifier) || !isText(x.kind) || !Number.isSafeInteger(x.line)) return false;
  }
  for (const u of rows.unresolved) {
    if (!isText(u.nodeId) || !isText(u.specifier) || !isText(u.kind) || !isText(u.reason) || !Number.isSafeInteger(u.line)) return false;
  }
  return true;
}

/**
 * The bytes of a new graph.db holding `rows` and `meta`: the same database sql.js writes (see the module comment),
 * or null when the rows need SQLite's own handling.
 */
export function encodeGraphFile(rows: GraphRows, meta: StoreMeta): Buffer | null {
  if (!storableAsIs(rows)) return null;
  const chunks: Buffer[] = [];
  const first = layoutGraphFile(rows, meta, (pages) => chunks.push(Buffer.from(pages)));
  return first && Buffer.concat([first, ...chunks]);
}

/**
 * encodeGraphFile into the open file `fd` (empty, or the caller truncates it), a window of pages at a time, so a
 * large project's graph.db is never whole in memory. Returns false, having written only part, when the rows need
 * SQLite. A failing write (ENOSPC) throws.
 */
export function writeGraphFile(fd: number, rows: GraphRows, meta: StoreMeta): boolean {
  if (!storableAsIs(rows)) return false;
  let position = PAGE_SIZE;
  const first = layoutGraphFile(rows, meta, (pages) => {
    writeFully(fd, pages, position);
    position += pages.length;
  });
  if (first === null) return false;
  writeFully(fd, first, 0);
  return true;
}

/**
 * Lays out the database of `rows` (storableAsIs): every table and index of schema.ts, in schema order (as sql.js
 * creates them: tables first, indexes after the rows), pages from 2 on into `sink`; returns page 1, header written.
 * Null when the rows need SQLite.
 */
export function layoutGraphFile(rows: GraphRows, meta: StoreMeta, sink: PageSink): Buffer | null {
  const writer = treeWriter(sink);
  const { nodes, edges, symbols, externals, unresolved } = rows;
  const schema: SchemaEntry[] = [];
  const table = (name: string, root: number) => schema.push({ type: 'table', name, table: name, root, sql: statement(`CREATE TABLE ${name} (`) });
  const autoIndex = (on: string, n: number, root: number) => schema.push({ type: 'index', name: `sqlite_autoindex_${on}_${n}`, table: on, root, sql: null });
  /** an index on a rowid table: entries (column, rowid) in BINARY order */
  const rowidIndex = (column: (r: number) => Value, rows: number) => writer.index([column, ROWIDS], rows, 2, false)!;
  const of = <T,>(items: readonly T[], pick: (item: T) => Value) => (r: number): Value => pick(items[r]);

  // nodes: PRIMARY KEY id and UNIQUE path are automatic indexes
  const nodeIds = of(nodes, (n) => n.id);
  const nodePaths = of(nodes, (n) => n.path);
  table('nodes', writer.table([nodeIds, nodePaths, of(nodes, (n) => n.kind), of(nodes, (n) => n.body)], nodes.length));
  autoIndex('nodes', 1, rowidIndex(nodeIds, nodes.length));
  autoIndex('nodes', 2, rowidIndex(nodePaths, nodes.length));

  // edges: WITHOUT ROWID, so the table is an index b-tree keyed on (source, target, kind) that holds every column
  const sources = of(edges, (e) => e.source);
  const edgeKinds = of(edges, (e) => e.kind);
  const edgeColumns = [sources, of(edges, (e) => e.target), edgeKinds, of(edges, (e) => e.names), of(edges, (e) => e.reexports), of(edges, (e) => e.specifier), of(edges, (e) => e.line), of(edges, (e) => (e.exact ? 1 : 0))];
  const edgesRoot = writer.index(edgeColumns, edges.length, 3, true);
  if (edgesRoot === null) return null; // INSERT OR REPLACE keeps the last
  table('edges', edgesRoot);

  const symbolNodes = of(symbols, (s) => s.nodeId);
  table('symbols', writer.table([symbolNodes, of(symbols, (s) => s.name), of(symbols, (s) => s.kind), of(symbols, (s) => s.line), of(symbols, (s) => (s.exported ? 1 : 0))], symbols.length));
  const externalNodes = of(externals, (x) => x.nodeId);
  table('externals', writer.table([externalNodes, of(externals, (x) => x.package), of(externals, (x) => x.specifier), of(externals, (x) => x.kind), of(externals, (x) => x.line)], externals.length));
  const unresolvedNodes = of(unresolved, (u) => u.nodeId);
  table('unresolved', writer.table([unresolvedNodes, of(unresolved, (u) => u.specifier), of(unresolved, (u) => u.kind), of(unresolved, (u) => u.reason), of(unresolved, (u) => u.line)], unresolved.length));
  const metaKeys = [META_KEYS.storeFormatVersion, META_KEYS.toolVersion, META_KEYS.builtAt];
  const metaValues = [String(meta.storeFormatVersion), meta.toolVersion, meta.builtAt];
  table('meta', writer.table([of(metaKeys, (k) => k), of(metaValues, (v) => v)], metaKeys.length));
  autoIndex('meta', 1, rowidIndex(of(metaKeys, (k) => k), metaKeys.length));

  // then the explicit indexes, in schema order
  const index = (name: string, on: string, root: number) => schema.push({ type: 'index', name, table: on, root, sql: statement(`CREATE INDEX ${name} ON`) });
  index('symbols_node_id', 'symbols', rowidIndex(symbolNodes, symbols.length));
  index('externals_node_id', 'externals', rowidIndex(externalNodes, externals.length));
  index('unresolved_node_id', 'unresolved', rowidIndex(unresolvedNodes, unresolved.length));
  const laidOut = new Set(schema.map((s) => s.sql));
  const missing = DDL_STATEMENTS.filter((s) => !laidOut.has(s));
  if (missing.length > 0) throw new Error(`sqlite-file: schema.ts statements not laid out here: ${missing.map((s) => s.split('\n')[0]).join('; ')}`);

  // page 1: the schema table (one leaf: it is small and fixed), then the file header in front of it
  writer.schema([of(schema, (s) => s.type), of(schema, (s) => s.name), of(schema, (s) => s.table), of(schema, (s) => s.root), of(schema, (s) => s.sql)], schema.length);
  const { first, pages } = writer.done();
  writeFileHeader(first, pages);
  return first;
}

function writeFileHeader(page: Buffer, pageCount: number): void {
  // byte by byte (put16/put32): Buffer's writeUInt*BE showed ~7 ms on their first call in cold builds' profiles.
  // The fields left zero, as page 1 was allocated: reserved bytes per page, first freelist trunk page, free pages,
  // default page cache size, auto-vacuum, user version, incremental vacuum, application id.
  const magic = 'SQLite format 3\0';
  for (let i = 0; i < magic.length; i++) page[i] = magic.charCodeAt(i);
  put16(page, 16, PAGE_SIZE);
  page[18] = 1; // file format write version: rollback journal
  page[19] = 1; // read version
  page[21] = 64; // max embedded payload fraction
  page[22] = 32; // min embedded payload fraction
  page[23] = 32; // leaf payload fraction
  put32(page, 24, 1); // file change counter
  put32(page, 28, pageCount);
  put32(page, 40, 1); // schema cookie
  put32(page, 44, 4); // schema format
  put32(page, 56, 1); // UTF-8
  put32(page, 92, 1); // version-valid-for: the change counter above
  put32(page, 96, SQLITE_VERSION_NUMBER);
}
