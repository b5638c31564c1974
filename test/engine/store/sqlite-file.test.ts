/**
 * encodeGraphFile (the SQLite file laid out without SQLite) against sql.js, the reference: for the same rows both
 * files must hold the same schema and the same rows in every table and index order, and SQLite's own
 * `PRAGMA integrity_check` (page structure, key order, every index entry against its table row) must find nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Database, SqlValue } from 'sql.js';
import { encodeGraphFile } from '../../../engine/src/store/sqlite-file.js';
import { encodeGraphDbWithSqlJs, loadSqlJs, readGraphRows, writeGraphDb } from '../../../engine/src/store/sqlite.js';
import type { GraphRows, ImportKind, StoreMeta } from '../../../engine/src/types.js';
import { STORE_FORMAT_VERSION, TOOL_VERSION } from '../../../engine/src/version.js';
import { seededRandom as random } from '../../helpers/sources.js';

const meta: StoreMeta = { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt: '2026-11-22T10:00:00.000Z' };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-sqlite-file-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Every query whose answer must be the same in both files: each table in storage order, each index in its order. */
const QUERIES = [
  'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid',
  'SELECT rowid, * FROM nodes',
  'SELECT * FROM edges',
  'SELECT rowid, * FROM symbols',
  'SELECT rowid, * FROM externals',
  'SELECT rowid, * FROM unresolved',
  'SELECT rowid, * FROM meta',
  'SELECT id, rowid FROM nodes INDEXED BY sqlite_autoindex_nodes_1 WHERE id IS NOT NULL ORDER BY id',
  'SELECT path, rowid FROM nodes INDEXED BY sqlite_autoindex_nodes_2 WHERE path IS NOT NULL ORDER BY path',
  'SELECT node_id, rowid FROM symbols INDEXED BY symbols_node_id WHERE node_id IS NOT NULL ORDER BY node_id',
  'SELECT node_id, rowid FROM externals INDEXED BY externals_node_id WHERE node_id IS NOT NULL ORDER BY node_id',
  'SELECT node_id, rowid FROM unresolved INDEXED BY unresolved_node_id WHERE node_id IS NOT NULL ORDER BY node_id',
  'SELECT key, rowid FROM meta INDEXED BY sqlite_autoindex_meta_1 WHERE key IS NOT NULL ORDER BY key',
  // lookups through each index (the readers' queries)
  "SELECT count(*) FROM edges WHERE target >= 'm'",
  "SELECT count(*) FROM symbols WHERE name >= 'm'",
];

const all = (db: Database, sql: string): SqlValue[][] => db.exec(sql)[0]?.values ?? [];

async function assertSameAsSqlJs(rows: GraphRows): Promise<void> {
  const ours = encodeGraphFile(rows, meta);
  assert.ok(ours, 'encodeGraphFile declined rows it should lay out');
  const reference = await encodeGraphDbWithSqlJs(rows, meta);
  const SQL = await loadSqlJs();
  const a = new SQL.Database(ours);
  const b = new SQL.Database(reference);
  try {
    assert.deepEqual(all(a, 'PRAGMA integrity_check'), [['ok']]);
    for (const sql of QUERIES) assert.deepEqual(all(a, sql), all(b, sql), sql);
    // the header's page count matches the file, as checkHeader in sqlite.ts requires
    assert.equal(ours.readUInt32BE(28) * 4096, ours.length);
  } finally {
    a.close();
    b.close();
  }
}

/** Characters whose UTF-16 and UTF-8 orders differ, multi-byte ones, a lone surrogate (stored as U+FFFD). */
const AWKWARD = ['a', 'Z', '_', '/', '.', '-', 'é', 'ß', '中', '\uff01', '\ue000', '😀', '\ud800', '\ufffd', '\u0000', ' '];

function text(rnd: () => number, max: number, awkward: number): string {
  const n = Math.floor(rnd() * max);
  let s = '';
  for (let i = 0; i < n; i++) s += rnd() < awkward ? AWKWARD[Math.floor(rnd() * AWKWARD.length)] : String.fromCharCode(97 + Math.floor(rnd() * 26));
  return s;
}

const KINDS: ImportKind[] = ['import', 'require', 'dynamic-import', 'reexport', 'type-import', 'triple-slash'];

/** Random rows with sizes chosen to cross page, overflow and tree-depth boundaries. */
function randomRows(seed: number, size: { nodes: number; body: number; key: number; symbols: number; awkward: number }): GraphRows {
  const rnd = random(seed);
  const ids = new Set<string>();
  const nodes: GraphRows['nodes'] = [];
  while (nodes.length < size.nodes) {
    const id = `${text(rnd, size.key, size.awkward)}-${nodes.length}`;
    if (ids.has(id)) continue;
    ids.add(id);
    nodes.push({ id, path: `src/${text(rnd, size.key, size.awkward)}/${nodes.length}.ts`, kind: 'file', body: JSON.stringify({ purpose: text(rnd, size.body, size.awkward) }) });
  }
  const edges: GraphRows['edges'] = [];
  const seen = new Set<string>();
  for (let i = 0; i < nodes.length * 2; i++) {
    const s = nodes[Math.floor(rnd() * nodes.length)].id;
    const t = nodes[Math.floor(rnd() * nodes.length)].id;
    const kind = KINDS[Math.floor(rnd() * KINDS.length)];
    if (seen.has(`${s}\n${t}\n${kind}`)) continue;
    seen.add(`${s}\n${t}\n${kind}`);
    edges.push({ source: s, target: t, kind, names: JSON.stringify([text(rnd, 12, 0)]), reexports: rnd() < 0.2 ? '[]' : null, specifier: `./${text(rnd, 20, size.awkward)}`, line: Math.floor(rnd() * 5000), exact: rnd() < 0.8 });
  }
  const pick = () => nodes[Math.floor(rnd() * nodes.length)].id;
  const symbols = Array.from({ length: size.symbols }, () => ({ nodeId: pick(), name: text(rnd, 16, size.awkward), kind: 'function', line: Math.floor(rnd() * 1e6), exported: rnd() < 0.5 }));
  const externals = Array.from({ length: Math.floor(size.nodes / 3) }, () => ({ nodeId: pick(), package: text(rnd, 10, 0), specifier: 'pkg/sub', kind: 'import' as ImportKind, line: 1 }));
  const unresolved = Array.from({ length: Math.floor(size.nodes / 5) }, () => ({ nodeId: pick(), specifier: './gone', kind: 'require' as ImportKind, reason: 'not-found', line: 2 ** 40 }));
  return { nodes: nodes.length ? nodes : [], edges, symbols, externals, unresolved };
}

describe('encodeGraphFile (graph.db without SQLite)', () => {
  it('writes an empty database that SQLite reads', async () => {
    await assertSameAsSqlJs({ nodes: [], edges: [], symbols: [], externals: [], unresolved: [] });
  });

  it('matches sql.js on small rows with awkward text', async () => {
    await assertSameAsSqlJs(randomRows(1, { nodes: 30, body: 200, key: 12, symbols: 50, awkward: 0.3 }));
  });

  it('matches sql.js when payloads overflow onto overflow pages (table and index cells)', async () => {
    // bodies up to 20 KB (several overflow pages), ids and paths up to ~3 KB (index cells spill past 1,002 bytes)
    await assertSameAsSqlJs(randomRows(2, { nodes: 60, body: 20000, key: 1500, symbols: 20, awkward: 0.1 }));
  });

  it('matches sql.js on trees several levels deep', async () => {
    // ~1 KB keys put 3 entries on a page, so 400 nodes make index trees 4+ levels deep;
    // 3 KB bodies put one row on a leaf, so the table tree gets interior levels of its own
    await assertSameAsSqlJs(randomRows(3, { nodes: 400, body: 3000, key: 600, symbols: 3000, awkward: 0.05 }));
  });

  it('matches sql.js when the last interior page of a table would hold a single child', async () => {
    // 2.5 KB bodies: one row per leaf. A table interior page takes 527 children with these rowids, so 528 rows
    // leave one child for a second page, which takes one over from the first (and the other counts go round it)
    for (const count of [527, 528, 529]) {
      const rows = randomRows(6, { nodes: count, body: 0, key: 8, symbols: 0, awkward: 0 });
      for (const n of rows.nodes) n.body = 'x'.repeat(2500);
      await assertSameAsSqlJs(rows);
    }
  });

  it('lays out integers of every size SQLite stores (1 to 8 bytes, negative ones too) the same way', async () => {
    const rows = randomRows(7, { nodes: 12, body: 50, key: 8, symbols: 0, awkward: 0 });
    const lines = [0, 1, 2, -1, 127, 128, -129, 32767, 32768, -40000, 8388607, 8388608, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 47 - 1, 2 ** 47, -(2 ** 47) - 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    rows.symbols = lines.map((line, k) => ({ nodeId: rows.nodes[k % rows.nodes.length].id, name: `s${k}`, kind: 'const', line, exported: k % 2 === 0 }));
    await assertSameAsSqlJs(rows);
  });

  it('matches sql.js on random shapes', async () => {
    for (let seed = 10; seed < 16; seed++) {
      const rnd = random(seed);
      await assertSameAsSqlJs(
        randomRows(seed, { nodes: 1 + Math.floor(rnd() * 300), body: Math.floor(rnd() * 6000), key: 1 + Math.floor(rnd() * 900), symbols: Math.floor(rnd() * 2000), awkward: rnd() * 0.3 }),
      );
    }
  });

  it('leaves rows that need SQLite to resolve them to sql.js', async () => {
    const rows = randomRows(4, { nodes: 5, body: 10, key: 5, symbols: 2, awkward: 0 });
    const duplicateEdge = { ...rows, edges: [...rows.edges, { ...rows.edges[0], line: 99 }] };
    const duplicatePath = { ...rows, nodes: [...rows.nodes, { ...rows.nodes[0], id: 'another-id' }] };
    const fractionalLine = { ...rows, symbols: [{ ...rows.symbols[0], line: 1.5 }] };
    for (const odd of [duplicateEdge, duplicatePath, fractionalLine]) assert.equal(encodeGraphFile(odd, meta), null);
    // writeGraphDb then writes what sql.js writes: INSERT OR REPLACE keeps the last duplicate edge
    const file = path.join(tmp, 'fallback.db');
    await writeGraphDb(file, duplicateEdge, meta);
    const back = await readGraphRows(file);
    assert.equal(back.edges.find((e) => e.source === rows.edges[0].source && e.target === rows.edges[0].target && e.kind === rows.edges[0].kind)?.line, 99);
  });

  it('is what writeGraphDb writes, and reads back through readGraphRows', async () => {
    const rows = randomRows(5, { nodes: 50, body: 500, key: 20, symbols: 100, awkward: 0 });
    const file = path.join(tmp, 'graph.db');
    await writeGraphDb(file, rows, meta);
    assert.deepEqual(readFileSync(file), encodeGraphFile(rows, meta));
    const back = await readGraphRows(file);
    assert.equal(back.nodes.length, 50);
    assert.equal(back.symbols.length, 100);
  });
});
