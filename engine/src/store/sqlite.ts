/**
 * graph.db: a derived, queryable copy of the dependency graph (index.json is the source of truth).
 * sql.js keeps the whole database in memory; every write exports it and replaces the file atomically.
 */
import fs, { existsSync, promises as fsp } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Database, SqlJsStatic, Statement, SqlValue } from 'sql.js';
import type { EdgeRow, ExternalRow, GraphRows, ImportKind, NodeRow, StoreMeta, SymbolRow, UnresolvedRow } from '../types.js';
import { STORE_FORMAT_VERSION } from '../version.js';
import { stageCopy, stageFile, writeFully, type StagedFile } from './atomic-write.js';
import { FileBackedContents, UnexpectedAccessError } from './file-backed.js';
import { DDL_STATEMENTS, META_KEYS } from './schema.js';
import { writeGraphFile } from './sqlite-file.js';

const TABLE_DDL = DDL_STATEMENTS.filter((d) => !d.startsWith('CREATE INDEX')).map((d) => `${d};`).join('\n');
const INDEX_DDL = DDL_STATEMENTS.filter((d) => d.startsWith('CREATE INDEX')).map((d) => `${d};`).join('\n');

import { CorruptStoreError, FormatMismatchError, StoreError } from './errors.js';

export { StoreError, CorruptStoreError, FormatMismatchError } from './errors.js';

// ---------------------------------------------------------------- sql.js loading

let sqlJs: Promise<SqlJsStatic> | undefined;

/** Path of sql-wasm.wasm: $GSD_SQL_WASM (a .wasm file, or a folder holding sql-wasm.wasm) or the installed sql.js. */
export function sqlWasmPath(): string {
  const override = process.env.GSD_SQL_WASM;
  if (override) return override.endsWith('.wasm') ? override : path.join(override, 'sql-wasm.wasm');
  // a bundled install (gsdcc/ runtime folder) ships the wasm beside the bundle or one folder up
  for (const rel of ['./sql-wasm.wasm', '../sql-wasm.wasm']) {
    const candidate = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(candidate)) return candidate;
  }
  return createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');
}

/** The part of the WebAssembly API used here (this project's TypeScript libs do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => object;
}

/** sql.js, initialised once per process. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlJs) {
    sqlJs = (async () => {
      const binary = await fsp.readFile(sqlWasmPath());
      // compiled synchronously, which V8 does lazily (a function when it first runs): after the asynchronous
      // WebAssembly.instantiate that sql.js uses by default, the first turn of the event loop stalled ~100 ms here
      const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
      const config = {
        instantiateWasm(imports: object, done: (instance: object) => void): void {
          done(new wasm.Instance(new wasm.Module(binary), imports));
        },
      };
      // loaded here, not imported at the top: a full build writes graph.db without sql.js
      const { default: initSqlJs } = await import('sql.js');
      return initSqlJs(config as Parameters<typeof initSqlJs>[0]);
    })();
    sqlJs.catch(() => {
      sqlJs = undefined; // let a later call retry (e.g. after GSD_SQL_WASM was fixed)
    });
  }
  return sqlJs;
}

// ---------------------------------------------------------------- low-level helpers

const SQLITE_MAGIC = 'SQLite format 3\0';

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Cheap structural checks of the 100-byte header: catches garbage and truncated or extended files. */
function checkHeader(bytes: Uint8Array, size: number, file: string): void {
  if (size < 100 || bytes.length < 100) throw new CorruptStoreError(file, `file too short (${size} bytes)`);
  const magic = Buffer.from(bytes.buffer, bytes.byteOffset, 16).toString('latin1');
  if (magic !== SQLITE_MAGIC) throw new CorruptStoreError(file, 'not an SQLite database');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new CorruptStoreError(file, 'bad page size');
  const changeCounter = view.getUint32(24);
  const pageCount = view.getUint32(28);
  const validFor = view.getUint32(92);
  // the in-header size is trustworthy when the "version-valid-for" number matches the change counter
  if (pageCount > 0 && validFor === changeCounter && pageCount * pageSize !== size) {
    throw new CorruptStoreError(file, `size ${size} does not match ${pageCount} pages of ${pageSize} bytes`);
  }
  if (size % pageSize !== 0) throw new CorruptStoreError(file, 'size is not a multiple of the page size');
}

function isCorruptionMessage(message: string): boolean {
  return /malformed|not a database|corrupt|disk image|file is encrypted|no such table|SQLITE_CORRUPT|SQLITE_NOTADB/i.test(message);
}

/** Run `fn`, turning SQLite's corruption errors into CorruptStoreError. */
function guard<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof StoreError) throw err;
    const message = errMessage(err);
    if (isCorruptionMessage(message)) throw new CorruptStoreError(file, message, { cause: err });
    throw err;
  }
}

function tuneConnection(db: Database): void {
  // the database lives in sql.js' in-memory file system: a rollback journal on "disk" is pure overhead
  db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;');
}

function readMeta(db: Database, file: string): StoreMeta {
  const hasMeta = db.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
  if (hasMeta.length === 0) throw new FormatMismatchError(file, null, STORE_FORMAT_VERSION);
  const values = new Map<string, string>();
  for (const row of db.exec('SELECT key, value FROM meta')[0]?.values ?? []) values.set(String(row[0]), String(row[1]));
  const rawVersion = values.get(META_KEYS.storeFormatVersion);
  const version = rawVersion !== undefined && /^\d+$/.test(rawVersion) ? Number(rawVersion) : null;
  return {
    storeFormatVersion: version ?? -1,
    toolVersion: values.get(META_KEYS.toolVersion) ?? '',
    builtAt: values.get(META_KEYS.builtAt) ?? '',
  };
}

/** Open bytes as a database and check its format version; the caller closes it. */
function openBytes(SQL: SqlJsStatic, bytes: Uint8Array, file: string, expectedVersion: number, headerChecked = false): { db: Database; meta: StoreMeta } {
  if (!headerChecked) checkHeader(bytes, bytes.length, file);
  let db: Database;
  try {
    db = new SQL.Database(bytes);
  } catch (err) {
    throw new CorruptStoreError(file, errMessage(err), { cause: err });
  }
  try {
    const meta = guard(file, () => {
      tuneConnection(db);
      return readMeta(db, file);
    });
    if (meta.storeFormatVersion !== expectedVersion) {
      throw new FormatMismatchError(file, meta.storeFormatVersion < 0 ? null : meta.storeFormatVersion, expectedVersion);
    }
    return { db, meta };
  } catch (err) {
    db.close();
    throw err;
  }
}

function withStatements<T>(db: Database, sqls: string[], fn: (stmts: Statement[]) => T): T {
  const stmts: Statement[] = [];
  try {
    for (const sql of sqls) stmts.push(db.prepare(sql));
    return fn(stmts);
  } finally {
    for (const s of stmts) s.free();
  }
}

function transaction<T>(db: Database, fn: () => T): T {
  db.exec('BEGIN');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    try {
      db.exec('ROLLBACK');
    } catch {
      /* the original error matters */
    }
    throw err;
  }
}

/** Rows per multi-row INSERT: amortises sql.js' per-call overhead (about 2x faster than one row per call). */
const INSERT_BATCH = 64;

/**
 * Insert `items` with `INSERT … VALUES (…), (…), …` statements of up to INSERT_BATCH rows each. `columns` says which
 * columns are text ('t') and which are numbers ('n'). Text goes in as UTF-8 bytes read back as TEXT
 * (`CAST(? AS TEXT)`, the same stored value): sql.js encodes a string argument character by character in
 * JavaScript, Buffer.from does it natively (on zod's first build ~80 ms of string encoding, measured with --cpu-prof).
 */
function bulkInsert<T>(db: Database, head: string, columns: string, items: readonly T[], params: (item: T) => SqlValue[]): void {
  if (items.length === 0) return;
  const text = [...columns].map((c) => c === 't');
  const tuple = `(${text.map((t) => (t ? 'CAST(? AS TEXT)' : '?')).join(', ')})`;
  const statementFor = (n: number) => db.prepare(`${head} VALUES ${new Array(n).fill(tuple).join(', ')}`);
  const push = (values: SqlValue[], item: T): void => {
    const row = params(item);
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      values.push(text[c] && typeof v === 'string' ? Buffer.from(v) : v);
    }
  };
  const full = Math.floor(items.length / INSERT_BATCH);
  const rest = items.length % INSERT_BATCH;
  let i = 0;
  if (full > 0) {
    const stmt = statementFor(INSERT_BATCH);
    try {
      for (let b = 0; b < full; b++) {
        const values: SqlValue[] = [];
        for (const end = i + INSERT_BATCH; i < end; i++) push(values, items[i]);
        stmt.run(values);
      }
    } finally {
      stmt.free();
    }
  }
  if (rest > 0) {
    const stmt = statementFor(rest);
    try {
      const values: SqlValue[] = [];
      for (; i < items.length; i++) push(values, items[i]);
      stmt.run(values);
    } finally {
      stmt.free();
    }
  }
}

function insertRows(db: Database, rows: GraphRows): void {
  bulkInsert(db, 'INSERT OR REPLACE INTO nodes (id, path, kind, body)', 'tttt', rows.nodes, (n) => [n.id, n.path, n.kind, n.body]);
  bulkInsert(
    db,
    'INSERT OR REPLACE INTO edges (source, target, kind, names, reexports, specifier, line, exact)',
    'ttttttnn',
    rows.edges,
    (e) => [e.source, e.target, e.kind, e.names, e.reexports ?? null, e.specifier, e.line, e.exact ? 1 : 0],
  );
  bulkInsert(db, 'INSERT INTO symbols (node_id, name, kind, line, exported)', 'tttnn', rows.symbols, (s) => [
    s.nodeId,
    s.name,
    s.kind,
    s.line,
    s.exported ? 1 : 0,
  ]);
  bulkInsert(db, 'INSERT INTO externals (node_id, package, specifier, kind, line)', 'ttttn', rows.externals, (x) => [
    x.nodeId,
    x.package,
    x.specifier,
    x.kind,
    x.line,
  ]);
  bulkInsert(db, 'INSERT INTO unresolved (node_id, specifier, kind, reason, line)', 'ttttn', rows.unresolved, (u) => [
    u.nodeId,
    u.specifier,
    u.kind,
    u.reason,
    u.line,
  ]);
}

function removeNodes(db: Database, ids: readonly string[]): void {
  if (ids.length === 0) return;
  withStatements(
    db,
    [
      'DELETE FROM nodes WHERE id = ?',
      'DELETE FROM edges WHERE source = ?', // outgoing only: edges pointing at the node belong to their importers
      'DELETE FROM symbols WHERE node_id = ?',
      'DELETE FROM externals WHERE node_id = ?',
      'DELETE FROM unresolved WHERE node_id = ?',
    ],
    (stmts) => {
      for (const id of new Set(ids)) for (const s of stmts) s.run([id]);
    },
  );
}

function writeMeta(db: Database, meta: StoreMeta): void {
  withStatements(db, ['INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'], ([stmt]) => {
    stmt.run([META_KEYS.storeFormatVersion, String(meta.storeFormatVersion)]);
    stmt.run([META_KEYS.toolVersion, meta.toolVersion]);
    stmt.run([META_KEYS.builtAt, meta.builtAt]);
  });
}

// ---------------------------------------------------------------- public API

export interface GraphDb {
  /** the sql.js database, in memory: changes are never written back */
  db: Database;
  meta: StoreMeta;
  file: string;
  close(): void;
}

export interface GraphPatch {
  /** nodes to drop with their outgoing edges, symbols, externals and unresolved imports (incoming edges stay) */
  removeNodeIds: string[];
  /** rows to insert afterwards (nodes and edges replace rows with the same key) */
  rows: GraphRows;
}

/**
 * A new database holding `rows` and `meta`, as sql.js writes it: the reference for encodeGraphFile (sqlite-file.ts),
 * and what writeGraphDb falls back to for rows that encodeGraphFile leaves to SQLite.
 */
export async function encodeGraphDbWithSqlJs(rows: GraphRows, meta: StoreMeta): Promise<Uint8Array> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  try {
    tuneConnection(db);
    // tables first, indexes after the bulk insert: building an index once is cheaper than maintaining it per row
    db.exec(TABLE_DDL);
    transaction(db, () => {
      insertRows(db, rows);
      writeMeta(db, meta);
    });
    db.exec(INDEX_DDL);
    return db.export();
  } finally {
    db.close();
  }
}

/**
 * A new database of `rows` and `meta`, staged beside `file` (commit() puts it in place). The file is laid out directly
 * and written a window of pages at a time (sqlite-file.ts: no SQLite, no sql.js to load, never whole in memory);
 * rows that need SQLite's own handling go through sql.js.
 */
export async function stageGraphDb(file: string, rows: GraphRows, meta: StoreMeta): Promise<StagedFile> {
  let laidOut = false;
  const staged = stageFile(file, (fd) => {
    laidOut = writeGraphFile(fd, rows, meta);
  });
  if (laidOut) return staged;
  staged.discard();
  const bytes = await encodeGraphDbWithSqlJs(rows, meta);
  return stageFile(file, (fd) => writeFully(fd, bytes));
}

/** Build the database from scratch and replace `file` atomically (not fsynced: graph.db is rebuilt from index.json). */
export async function writeGraphDb(file: string, rows: GraphRows, meta: StoreMeta): Promise<void> {
  (await stageGraphDb(file, rows, meta)).commit();
}

/**
 * Apply an incremental change: drop `removeNodeIds` (and what hangs off them, except incoming edges), insert
 * `rows`, stamp `meta`. A missing file is written from `rows` alone. Throws CorruptStoreError for an
 * unreadable file and FormatMismatchError for another format version: the caller rebuilds from index.json.
 * Not safe against concurrent writers on its own: call it under the intel lock.
 *
 * The file is copied (in the kernel, no bytes through this process) to a temp file beside it, SQLite patches that
 * copy page by page (file-backed.ts: only the pages the patch visits are read), and the copy is renamed over
 * graph.db. A reader sees the old file or the patched one, never a half-patched one; a process killed on the way
 * leaves graph.db as it was and a temp file the next write removes. On a 100 MB graph.db this costs the copy
 * (~40 ms of CPU) instead of reading, exporting and writing the whole database through sql.js (~2 s).
 */
export async function patchGraphDb(file: string, patch: GraphPatch, meta: StoreMeta): Promise<void> {
  const SQL = await loadSqlJs();
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
    await writeGraphDb(file, patch.rows, meta);
    return;
  }
  // not fsynced: graph.db is derived from index.json, and a power cut can only leave an older, whole copy
  patchedCopy(SQL, file, size, patch, meta).commit();
}

/** A kernel copy of graph.db with `patch` applied, staged beside it; graph.db is left as it was on a failure. */
function patchedCopy(SQL: SqlJsStatic, file: string, size: number, patch: GraphPatch, meta: StoreMeta): StagedFile {
  const staged = stageCopy(file);
  try {
    const fd = fs.openSync(staged.path, 'r+');
    try {
      patchFile(SQL, fd, size, file, patch, meta);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    staged.discard();
    // the caller rebuilds graph.db from index.json
    if (err instanceof UnexpectedAccessError) throw new CorruptStoreError(file, `the patch could not be applied page by page: ${err.message}`, { cause: err });
    throw err;
  }
  return staged;
}

/**
 * Applies `patch` (an edit's rows) to a copy of graph.db as patchGraphDb would, then discards the copy: graph.db is
 * not touched. For a process that waits for edits (the hooks' worker): its first real patch otherwise pays for V8
 * compiling sql.js's WebAssembly functions (lazily, as each first runs) and for graph.db's pages not being in the
 * page cache yet (the first kernel copy of a 100 MB file cost ~100 ms of CPU more than the next ones here).
 */
export async function warmPatchPath(file: string, patch: GraphPatch, meta: StoreMeta): Promise<void> {
  patchedCopy(await loadSqlJs(), file, fs.statSync(file).size, patch, meta).discard();
}

/** The 100-byte header of an open database file, and its size. */
function headerOf(fd: number, size: number): Uint8Array {
  const header = Buffer.alloc(Math.min(100, size));
  fs.readSync(fd, header, 0, header.length, 0);
  return header;
}

/** Patches the database in `fd` (a private copy) in place through SQLite, reading only the pages it visits. */
function patchFile(SQL: SqlJsStatic, fd: number, size: number, file: string, patch: GraphPatch, meta: StoreMeta): void {
  const before = headerOf(fd, size);
  checkHeader(before, size, file);
  const contents = new FileBackedContents(fd, size);
  // sql.js copies the bytes it is given into its in-memory file system; this object is that copy, backed by the file
  const { db } = openBytes(SQL, contents as unknown as Uint8Array, file, meta.storeFormatVersion, true);
  try {
    // every page SQLite evicts is read again through a system call: keep up to 64 MB of the pages a large patch visits
    db.exec('PRAGMA cache_size = -65536');
    guard(file, () => {
      transaction(db, () => {
        removeNodes(db, patch.removeNodeIds);
        insertRows(db, patch.rows);
        writeMeta(db, meta);
      });
    });
    if (process.env.GSD_PERF) process.stderr.write(`[gsd perf] graph.db patch: ${contents.reads} page reads, ${contents.written} bytes written\n`);
    const pages = Number(all(db, 'PRAGMA page_count')[0][0]);
    const pageSize = Number(all(db, 'PRAGMA page_size')[0][0]);
    const after = headerOf(fd, pages * pageSize);
    const counter = (h: Uint8Array) => new DataView(h.buffer, h.byteOffset, h.byteLength).getUint32(24);
    // every write went to the file: SQLite's own view of the size matches the file's, and its commit stamped page 1
    if (fs.fstatSync(fd).size !== pages * pageSize || counter(after) !== ((counter(before) + 1) >>> 0)) {
      throw new UnexpectedAccessError(`graph.db patch did not reach the file (${pages} pages, change counter ${counter(before)} -> ${counter(after)})`);
    }
  } finally {
    try {
      db.close();
    } catch {
      /* the copy is discarded either way; the error that stopped the patch is what matters */
    }
  }
}

/**
 * Open graph.db for reading. Throws CorruptStoreError / FormatMismatchError (and the fs error of a missing file).
 *
 * SQLite reads the file page by page through a descriptor (file-backed.ts), as a patch does, instead of sql.js
 * holding a copy of the whole file: WebAssembly memory never shrinks, so a 112 MB graph.db loaded whole stayed in
 * the MCP server's RSS after the database was closed. Writers never change graph.db in place (they rename a new file
 * over it), so the descriptor keeps reading the file as it was when it was opened until close().
 */
export async function openGraphDb(file: string): Promise<GraphDb> {
  const SQL = await loadSqlJs();
  const fd = fs.openSync(file, 'r');
  let opened: { db: Database; meta: StoreMeta };
  try {
    const size = fs.fstatSync(fd).size;
    checkHeader(headerOf(fd, size), size, file);
    opened = openBytes(SQL, new FileBackedContents(fd, size) as unknown as Uint8Array, file, STORE_FORMAT_VERSION, true);
  } catch (err) {
    fs.closeSync(fd);
    if (err instanceof UnexpectedAccessError) throw new CorruptStoreError(file, err.message, { cause: err });
    throw err;
  }
  const { db, meta } = opened;
  let closed = false;
  return {
    db,
    meta,
    file,
    close() {
      if (closed) return;
      closed = true;
      try {
        db.close();
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}

/**
 * Full structural check (`PRAGMA quick_check`, a few ms per 1,000 files): throws CorruptStoreError when a page
 * is damaged. patchGraphDb does not run it: it only notices damage in the pages it touches.
 */
export async function verifyGraphDb(file: string): Promise<void> {
  const g = await openGraphDb(file);
  try {
    const result = guard(file, () => all(g.db, 'PRAGMA quick_check').map((r) => String(r[0])));
    if (result.length !== 1 || result[0] !== 'ok') throw new CorruptStoreError(file, result.slice(0, 3).join('; '));
  } finally {
    g.close();
  }
}

function all(db: Database, sql: string): SqlValue[][] {
  return db.exec(sql)[0]?.values ?? [];
}

/** Every row of graph.db in a deterministic order (nodes by id, edges by source/target/kind, the rest by all columns). */
export async function readGraphRows(file: string): Promise<GraphRows> {
  const g = await openGraphDb(file);
  try {
    return guard(file, () => {
      const nodes: NodeRow[] = all(g.db, 'SELECT id, path, kind, body FROM nodes ORDER BY id').map((r) => ({
        id: String(r[0]),
        path: String(r[1]),
        kind: String(r[2]) as NodeRow['kind'],
        body: String(r[3]),
      }));
      const edges: EdgeRow[] = all(
        g.db,
        'SELECT source, target, kind, names, reexports, specifier, line, exact FROM edges ORDER BY source, target, kind',
      ).map((r) => ({
        source: String(r[0]),
        target: String(r[1]),
        kind: String(r[2]) as ImportKind,
        names: r[3] === null ? '[]' : String(r[3]),
        reexports: r[4] === null ? null : String(r[4]),
        specifier: String(r[5]),
        line: Number(r[6]),
        exact: Number(r[7]) === 1,
      }));
      const symbols: SymbolRow[] = all(
        g.db,
        'SELECT node_id, name, kind, line, exported FROM symbols ORDER BY node_id, line, name, kind, exported',
      ).map((r) => ({
        nodeId: String(r[0]),
        name: String(r[1]),
        kind: String(r[2]),
        line: Number(r[3]),
        exported: Number(r[4]) !== 0,
      }));
      const externals: ExternalRow[] = all(
        g.db,
        'SELECT node_id, package, specifier, kind, line FROM externals ORDER BY node_id, line, package, specifier, kind',
      ).map((r) => ({
        nodeId: String(r[0]),
        package: String(r[1]),
        specifier: String(r[2]),
        kind: String(r[3]) as ImportKind,
        line: Number(r[4]),
      }));
      const unresolved: UnresolvedRow[] = all(
        g.db,
        'SELECT node_id, specifier, kind, reason, line FROM unresolved ORDER BY node_id, line, specifier, kind, reason',
      ).map((r) => ({
        nodeId: String(r[0]),
        specifier: String(r[1]),
        kind: String(r[2]) as ImportKind,
        reason: String(r[3]),
        line: Number(r[4]),
      }));
      return { nodes, edges, symbols, externals, unresolved };
    });
  } finally {
    g.close();
  }
}
