/**
 * The b-tree layout of engine/src/store/sqlite-file.ts (records, overflow pages, table and index b-trees, the
 * schema page) in AssemblyScript, run as WebAssembly by engine/src/store/graph-file-wasm.ts. In a cold build the
 * JavaScript layout ran mostly unoptimized (~120 ms of a zod build's wall time, ~240 ms of its CPU); compiled
 * WebAssembly runs at full speed from the first row.
 *
 * Keep it in step with sqlite-file.ts: the same steps in the same order, so that both lay out the same bytes page for
 * page (the tests compare the two files byte by byte). Differences are only of representation: records come in as
 * value triples in memory, text as UTF-8 bytes already (the JavaScript side encodes it), cells as three parallel
 * arrays, and the dividers of an interior level are computed before packing (no closures here).
 *
 * Memory: everything lives in the stub runtime's heap, which reset() empties before each file. Built by
 * scripts/build-wasm.mjs.
 */

const PAGE_SIZE: i32 = 4096;
const USABLE: i32 = PAGE_SIZE;
const TABLE_MAX_LOCAL: i32 = USABLE - 35;
const INDEX_MAX_LOCAL: i32 = ((USABLE - 12) * 64) / 255 - 23;
const MIN_LOCAL: i32 = ((USABLE - 12) * 32) / 255 - 23;

const LEAF_TABLE: i32 = 0x0d;
const INTERIOR_TABLE: i32 = 0x05;
const LEAF_INDEX: i32 = 0x0a;
const INTERIOR_INDEX: i32 = 0x02;

/** A value triple (three i32): tag, then for an integer its low and high 32 bits, for text a pointer and a byte length. */
const TAG_NULL: i32 = 0;
const TAG_INTEGER: i32 = 1;
const TAG_TEXT: i32 = 2;

/** set when the file outgrew the pages reserved for it, or a unique index saw a repeated key */
let failed = false;

// ---------------------------------------------------------------- values

// @ts-ignore: decorator
@inline function valueAt(records: usize, columns: i32, row: i32, column: i32): usize {
  return records + <usize>((row * columns + column) * 12);
}

// ---------------------------------------------------------------- varints and records

function varintLength(v: i32): i32 {
  if (v < 128) return 1;
  if (v < 16384) return 2;
  let n = 1;
  while (v >= 128) {
    v = v >>> 7;
    n++;
  }
  return n;
}

function putVarint(at: usize, v: i32): usize {
  if (v < 128) {
    store<u8>(at, <u8>v);
    return at + 1;
  }
  const n = varintLength(v);
  for (let i = n - 1; i >= 0; i--) {
    store<u8>(at + <usize>i, <u8>((v & 0x7f) | (i == n - 1 ? 0 : 0x80)));
    v = v >>> 7;
  }
  return at + <usize>n;
}

/** The integer of a value triple. */
// @ts-ignore: decorator
@inline function integerAt(v: usize): i64 {
  return (<i64>load<i32>(v + 8) << 32) | <i64>load<u32>(v + 4);
}

function integerType(v: i64): i32 {
  if (v == 0) return 8;
  if (v == 1) return 9;
  if (v >= -128 && v <= 127) return 1;
  if (v >= -32768 && v <= 32767) return 2;
  if (v >= -8388608 && v <= 8388607) return 3;
  if (v >= -2147483648 && v <= 2147483647) return 4;
  if (v >= -140737488355328 && v <= 140737488355327) return 5;
  return 6;
}

function integerSize(type: i32): i32 {
  return type == 5 ? 6 : type == 6 ? 8 : type >= 1 && type <= 4 ? type : 0;
}

function put16(at: usize, v: i32): usize {
  store<u8>(at, <u8>(v >>> 8));
  store<u8>(at + 1, <u8>(v & 0xff));
  return at + 2;
}

function put32(at: usize, v: i32): usize {
  store<u8>(at, <u8>(v >>> 24));
  store<u8>(at + 1, <u8>((v >>> 16) & 0xff));
  store<u8>(at + 2, <u8>((v >>> 8) & 0xff));
  store<u8>(at + 3, <u8>(v & 0xff));
  return at + 4;
}

// ---------------------------------------------------------------- the file's pages

let fileBase: usize = 0;
let filePages: i32 = 0;
let pageCount: i32 = 0;
/** where writes to pages past the reserved ones go (the file has failed then) */
let spare: usize = 0;

function take(): i32 {
  pageCount++;
  if (pageCount > filePages) failed = true;
  return pageCount;
}

function page(n: i32): usize {
  return n <= filePages ? fileBase + <usize>((n - 1) * PAGE_SIZE) : spare;
}

// ---------------------------------------------------------------- payloads

let payloadBytes: usize = 0;
let payloadUsed: i32 = 0;
let payloadCapacity: i32 = 0;
let pStart = new Array<i32>();
let pSize = new Array<i32>();
let pLocal = new Array<i32>();
let pOverflow = new Array<i32>();
let types = new Array<i32>();

/** Adds the record of row `row` (its `columns` value triples); returns its number. sqlite-file.ts's Payloads.add. */
function add(records: usize, columns: i32, row: i32, maxLocal: i32): i32 {
  types.length = 0;
  let typesLength = 0;
  let bodyLength = 0;
  for (let c = 0; c < columns; c++) {
    const v = valueAt(records, columns, row, c);
    const tag = load<i32>(v);
    let type = 0;
    if (tag == TAG_INTEGER) {
      type = integerType(integerAt(v));
      bodyLength += integerSize(type);
    } else if (tag == TAG_TEXT) {
      const length = load<i32>(v + 8);
      type = 13 + 2 * length;
      bodyLength += length;
    }
    types.push(type);
    typesLength += varintLength(type);
  }
  let headerLength = typesLength + 1;
  while (varintLength(headerLength) + typesLength != headerLength) headerLength = varintLength(headerLength) + typesLength;
  const total = headerLength + bodyLength;
  if (payloadUsed + total > payloadCapacity) {
    // a bigger buffer, as Payloads.reserve does (the old one stays behind in the heap until reset())
    const capacity = max(payloadCapacity * 2, payloadUsed + total);
    const bigger = heap.alloc(<usize>capacity);
    memory.copy(bigger, payloadBytes, <usize>payloadUsed);
    payloadBytes = bigger;
    payloadCapacity = capacity;
  }
  const start = payloadUsed;
  let at = putVarint(payloadBytes + <usize>start, headerLength);
  for (let c = 0; c < columns; c++) at = putVarint(at, types[c]);
  for (let c = 0; c < columns; c++) {
    const v = valueAt(records, columns, row, c);
    const tag = load<i32>(v);
    if (tag == TAG_INTEGER) {
      const size = integerSize(types[c]);
      let x = integerAt(v);
      for (let i = size - 1; i >= 0; i--) {
        store<u8>(at + <usize>i, <u8>(x & 0xff));
        x >>= 8;
      }
      at += <usize>size;
    } else if (tag == TAG_TEXT) {
      const length = load<i32>(v + 8);
      memory.copy(at, <usize>load<i32>(v + 4), <usize>length);
      at += <usize>length;
    }
  }
  payloadUsed = <i32>(at - payloadBytes);
  pStart.push(start);
  pSize.push(total);
  let local = total;
  if (total > maxLocal) {
    const k = MIN_LOCAL + ((total - MIN_LOCAL) % (USABLE - 4));
    local = k <= maxLocal ? k : MIN_LOCAL;
  }
  pLocal.push(local);
  pOverflow.push(local < total ? writeOverflow(start + local, start + total) : 0);
  return pStart.length - 1;
}

function writeOverflow(from: i32, to: i32): i32 {
  const first = take();
  let pg = first;
  for (let at = from; at < to; at += USABLE - 4) {
    const end = min(to, at + USABLE - 4);
    const next = end < to ? take() : 0;
    const bytes = page(pg);
    put32(bytes, next);
    memory.copy(bytes + 4, payloadBytes + <usize>at, <usize>(end - at));
    pg = next;
  }
  return first;
}

// ---------------------------------------------------------------- cells and pages

/** A list of cells (sqlite-file.ts's Cell objects as three parallel arrays). */
class Cells {
  left: Array<i32> = new Array<i32>();
  key: Array<i32> = new Array<i32>();
  payload: Array<i32> = new Array<i32>();

  get length(): i32 {
    return this.left.length;
  }

  push(left: i32, key: i32, payload: i32): void {
    this.left.push(left);
    this.key.push(key);
    this.payload.push(payload);
  }

  pop(): void {
    this.left.pop();
    this.key.pop();
    this.payload.pop();
  }
}

function cellSize(left: i32, key: i32, payload: i32): i32 {
  let size = left != 0 ? 4 : 0;
  if (key >= 0) size += varintLength(key);
  if (payload >= 0) size += varintLength(pSize[payload]) + pLocal[payload] + (pOverflow[payload] != 0 ? 4 : 0);
  return max(4, size);
}

function layoutPage(n: i32, type: i32, cells: Cells, right: i32): void {
  const pg = page(n);
  const headerAt: usize = n == 1 ? 100 : 0;
  const interior = type == INTERIOR_TABLE || type == INTERIOR_INDEX;
  let pointer = pg + headerAt + (interior ? 12 : 8);
  let content = USABLE;
  for (let k = 0; k < cells.length; k++) {
    const left = cells.left[k];
    const key = cells.key[k];
    const payload = cells.payload[k];
    content -= cellSize(left, key, payload);
    let at = pg + <usize>content;
    if (left != 0) at = put32(at, left);
    if (payload >= 0) at = putVarint(at, pSize[payload]);
    if (key >= 0) at = putVarint(at, key);
    if (payload >= 0) {
      const local = pLocal[payload];
      memory.copy(at, payloadBytes + <usize>pStart[payload], <usize>local);
      at += <usize>local;
      if (pOverflow[payload] != 0) put32(at, pOverflow[payload]);
    }
    pointer = put16(pointer, content);
  }
  if (<i32>(pointer - pg) > content) failed = true; // a packing bug, never bad input
  store<u8>(pg + headerAt, <u8>type);
  put16(pg + headerAt + 3, cells.length);
  put16(pg + headerAt + 5, content);
  if (interior) put32(pg + headerAt + 8, right);
}

/** A page of an interior level being packed. */
class Pending {
  cells: Cells = new Cells();
  right: i32 = 0;
  maxKey: i32 = 0;
}

/** packInterior's results besides its pages: the cells that go up a level (index b-trees). */
let promoted = new Cells();

/**
 * sqlite-file.ts's packInterior, with the dividers given as cells: divider i sits between child i and child i + 1.
 */
function packInterior(childPages: Array<i32>, childMaxKeys: Array<i32>, dividers: Cells, table: bool): Array<Pending> {
  const pages = new Array<Pending>();
  promoted = new Cells();
  let current = new Pending();
  current.right = childPages[0];
  current.maxKey = childMaxKeys[0];
  let space = 12;
  for (let i = 1; i < childPages.length; i++) {
    const left = dividers.left[i - 1];
    const key = dividers.key[i - 1];
    const payload = dividers.payload[i - 1];
    const size = cellSize(left, key, payload) + 2;
    if (space + size > USABLE) {
      pages.push(current);
      promoted.push(left, key, payload);
      current = new Pending();
      current.right = childPages[i];
      current.maxKey = childMaxKeys[i];
      space = 12;
      continue;
    }
    current.cells.push(left, key, payload);
    space += size;
    current.right = childPages[i];
    current.maxKey = childMaxKeys[i];
  }
  pages.push(current);
  const last = pages[pages.length - 1];
  if (last.cells.length == 0 && pages.length > 1) {
    const before = pages[pages.length - 2];
    const m = before.cells.length - 1;
    const movedLeft = before.cells.left[m];
    const movedKey = before.cells.key[m];
    const movedPayload = before.cells.payload[m];
    before.cells.pop();
    if (table) {
      last.cells.push(before.right, before.maxKey, -1);
      before.maxKey = movedKey;
    } else {
      const p = promoted.length - 1;
      last.cells.push(before.right, -1, promoted.payload[p]);
      promoted.left[p] = movedLeft;
      promoted.key[p] = movedKey;
      promoted.payload[p] = movedPayload;
    }
    before.right = movedLeft;
  }
  return pages;
}

/** A table b-tree over payloads in rowid order (rowids from 1); returns its root page. */
function writeTable(payloads: Array<i32>): i32 {
  let levelPages = new Array<i32>();
  let levelKeys = new Array<i32>();
  let cells = new Cells();
  let used = 8;
  for (let i = 0; i < payloads.length; i++) {
    const size = cellSize(0, i + 1, payloads[i]) + 2;
    if (used + size > USABLE) {
      const pg = take();
      layoutPage(pg, LEAF_TABLE, cells, 0);
      levelPages.push(pg);
      levelKeys.push(cells.length > 0 ? cells.key[cells.length - 1] : 0);
      cells = new Cells();
      used = 8;
    }
    cells.push(0, i + 1, payloads[i]);
    used += size;
  }
  const last = take();
  layoutPage(last, LEAF_TABLE, cells, 0);
  levelPages.push(last);
  levelKeys.push(cells.length > 0 ? cells.key[cells.length - 1] : 0);
  while (levelPages.length > 1) {
    const dividers = new Cells();
    for (let i = 0; i < levelPages.length; i++) dividers.push(levelPages[i], levelKeys[i], -1);
    const pages = packInterior(levelPages, levelKeys, dividers, true);
    levelPages = new Array<i32>();
    levelKeys = new Array<i32>();
    for (let k = 0; k < pages.length; k++) {
      const pg = take();
      layoutPage(pg, INTERIOR_TABLE, pages[k].cells, pages[k].right);
      levelPages.push(pg);
      levelKeys.push(pages[k].maxKey);
    }
  }
  return levelPages[0];
}

/** An index b-tree over payloads in key order; returns its root page. */
function writeIndex(entries: Array<i32>): i32 {
  const leaves = new Array<Cells>();
  let dividers = new Array<i32>();
  let cells = new Cells();
  let used = 8;
  for (let i = 0; i < entries.length; i++) {
    const size = cellSize(0, -1, entries[i]) + 2;
    if (used + size <= USABLE) {
      cells.push(0, -1, entries[i]);
      used += size;
    } else if (i == entries.length - 1) {
      dividers.push(cells.payload[cells.length - 1]);
      cells.pop();
      leaves.push(cells);
      cells = new Cells();
      cells.push(0, -1, entries[i]);
      used = 8 + size;
    } else {
      leaves.push(cells);
      dividers.push(entries[i]);
      cells = new Cells();
      used = 8;
    }
  }
  leaves.push(cells);
  let levelPages = new Array<i32>();
  const levelKeys = new Array<i32>();
  for (let k = 0; k < leaves.length; k++) {
    const pg = take();
    layoutPage(pg, LEAF_INDEX, leaves[k], 0);
    levelPages.push(pg);
    levelKeys.push(0);
  }
  while (levelPages.length > 1) {
    const below = new Cells();
    for (let i = 0; i < levelPages.length - 1; i++) below.push(levelPages[i], -1, dividers[i]);
    const pages = packInterior(levelPages, levelKeys, below, false);
    dividers = promoted.payload.slice(0);
    levelPages = new Array<i32>();
    levelKeys.length = 0;
    for (let k = 0; k < pages.length; k++) {
      const pg = take();
      layoutPage(pg, INTERIOR_INDEX, pages[k].cells, pages[k].right);
      levelPages.push(pg);
      levelKeys.push(0);
    }
  }
  return levelPages[0];
}

// ---------------------------------------------------------------- key order

let sortRecords: usize = 0;
let sortColumns: i32 = 0;
let sortKeys: i32 = 0;

/** Two values of one column in SQLite's order (NULL, integers, then text by BINARY collation: UTF-8 bytes). */
function compareValues(a: usize, b: usize): i32 {
  const ta = load<i32>(a);
  const tb = load<i32>(b);
  if (ta != tb) return ta < tb ? -1 : 1;
  if (ta == TAG_INTEGER) {
    const x = integerAt(a);
    const y = integerAt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (ta == TAG_TEXT) {
    const la = load<i32>(a + 8);
    const lb = load<i32>(b + 8);
    const c = memory.compare(<usize>load<i32>(a + 4), <usize>load<i32>(b + 4), <usize>min(la, lb));
    if (c != 0) return c;
    return la - lb;
  }
  return 0;
}

/** Rows by their first sortKeys columns, then by row number. */
function compareRows(a: i32, b: i32): i32 {
  for (let c = 0; c < sortKeys; c++) {
    const d = compareValues(valueAt(sortRecords, sortColumns, a, c), valueAt(sortRecords, sortColumns, b, c));
    if (d != 0) return d;
  }
  return a - b;
}

// ---------------------------------------------------------------- what the JavaScript side calls

/** Empties the heap for a new file. */
export function reset(): void {
  heap.reset();
  failed = false;
  pageCount = 0;
  payloadUsed = 0;
  pStart = new Array<i32>();
  pSize = new Array<i32>();
  pLocal = new Array<i32>();
  pOverflow = new Array<i32>();
  types = new Array<i32>();
  promoted = new Cells();
}

/** Room for `size` bytes in the heap (for the records and the text the JavaScript side writes). */
export function alloc(size: i32): usize {
  return heap.alloc(<usize>size);
}

/** Reserves `pages` zeroed pages for the file and takes page 1 (written last, by schema()). */
export function begin(pages: i32): usize {
  filePages = pages;
  fileBase = heap.alloc(<usize>(pages * PAGE_SIZE));
  memory.fill(fileBase, 0, <usize>(pages * PAGE_SIZE));
  spare = heap.alloc(<usize>PAGE_SIZE);
  payloadCapacity = 1 << 20;
  payloadBytes = heap.alloc(<usize>payloadCapacity);
  take();
  return fileBase;
}

/** A rowid table of the `rows` records at `records` (rowids from 1, in order); returns its root page. */
export function table(records: usize, rows: i32, columns: i32): i32 {
  const payloads = new Array<i32>();
  for (let r = 0; r < rows; r++) payloads.push(add(records, columns, r, TABLE_MAX_LOCAL));
  return writeTable(payloads);
}

/**
 * An index b-tree of the `rows` records at `records`, in the order of their first `keys` columns, then of their
 * position; returns its root page, or -1 when `unique` and two records have the same key (SQLite would keep one).
 */
export function index(records: usize, rows: i32, columns: i32, keys: i32, unique: bool): i32 {
  const order = new Array<i32>(rows);
  for (let r = 0; r < rows; r++) order[r] = r;
  sortRecords = records;
  sortColumns = columns;
  sortKeys = keys;
  order.sort(compareRows);
  if (unique) {
    for (let k = 1; k < rows; k++) {
      let same = true;
      for (let c = 0; c < keys && same; c++) same = compareValues(valueAt(records, columns, order[k - 1], c), valueAt(records, columns, order[k], c)) == 0;
      if (same) return -1;
    }
  }
  const entries = new Array<i32>();
  for (let k = 0; k < rows; k++) entries.push(add(records, columns, order[k], INDEX_MAX_LOCAL));
  return writeIndex(entries);
}

/** Page 1's schema table: the `rows` schema records at `records` (rowids from 1). False when it does not fit. */
export function schema(records: usize, rows: i32, columns: i32): bool {
  const cells = new Cells();
  let space = 100 + 8;
  for (let r = 0; r < rows; r++) {
    const payload = add(records, columns, r, TABLE_MAX_LOCAL);
    cells.push(0, r + 1, payload);
    space += cellSize(0, r + 1, payload) + 2;
  }
  if (space > USABLE) return false;
  layoutPage(1, LEAF_TABLE, cells, 0);
  return true;
}

/** The number of pages laid out, or -1 when the file failed (see `failed`). */
export function finish(): i32 {
  return failed ? -1 : pageCount;
}
