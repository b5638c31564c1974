import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { TABLES } from '../../../engine/src/store/schema.js';
import {
  CorruptStoreError,
  FormatMismatchError,
  StoreError,
  loadSqlJs,
  openGraphDb,
  patchGraphDb,
  readGraphRows,
  sqlWasmPath,
  verifyGraphDb,
  writeGraphDb,
} from '../../../engine/src/store/sqlite.js';
import type { EdgeRow, GraphRows, StoreMeta } from '../../../engine/src/types.js';
import { STORE_FORMAT_VERSION, TOOL_VERSION } from '../../../engine/src/version.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-sqlite-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const dir = path.join(tmp, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  return path.join(dir, 'graph.db');
};
const meta: StoreMeta = { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt: '2025-01-02T03:04:05.000Z' };

function node(id: string, p: string, extra: object = {}) {
  return { id, path: p, kind: 'file' as const, body: JSON.stringify({ type: 'source', purpose: `the ${p} file`, exports: [], ...extra }) };
}
function edge(source: string, target: string, kind: EdgeRow['kind'] = 'import', line = 1): EdgeRow {
  return { source, target, kind, names: JSON.stringify(['a']), reexports: null, specifier: `./${target}`, line, exact: true };
}
const emptyRows = (): GraphRows => ({ nodes: [], edges: [], symbols: [], externals: [], unresolved: [] });

/** the rows sorted the way readGraphRows returns them */
function sorted(rows: GraphRows): GraphRows {
  const by = <T>(...keys: (keyof T)[]) => (a: T, b: T) => {
    for (const k of keys) {
      const x = a[k] as unknown as string | number | boolean;
      const y = b[k] as unknown as string | number | boolean;
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
  return {
    nodes: [...rows.nodes].sort(by('id')),
    edges: [...rows.edges].sort(by('source', 'target', 'kind')),
    symbols: [...rows.symbols].sort(by('nodeId', 'line', 'name', 'kind', 'exported')),
    externals: [...rows.externals].sort(by('nodeId', 'line', 'package', 'specifier', 'kind')),
    unresolved: [...rows.unresolved].sort(by('nodeId', 'line', 'specifier', 'kind', 'reason')),
  };
}

// three files: a → b → c, a → c, with awkward values everywhere
function sample(): GraphRows {
  const tricky = `it's "quoted"; 100% _done_ — ünïcödé 日本語 🚀 \\ back\nslash`;
  return {
    nodes: [node('b', 'src/b.ts', { purpose: tricky }), node('a', "src/it's a;b%_.ts"), node('c', 'src/日本/c.ts')],
    edges: [
      edge('a', 'b', 'import', 3),
      { ...edge('a', 'b', 'type-import', 4), names: '["T%_;\\"x\\""]' },
      { ...edge('b', 'c', 'reexport', 1), reexports: JSON.stringify([{ imported: 'x', exported: 'y' }]) },
      edge('a', 'c', 'dynamic-import', 9),
    ],
    symbols: [
      { nodeId: 'a', name: 'main', kind: 'function', line: 2, exported: true },
      { nodeId: 'a', name: 'hélper_%', kind: 'const', line: 1, exported: false },
      { nodeId: 'b', name: "it's", kind: 'class', line: 5, exported: true },
    ],
    externals: [
      { nodeId: 'a', package: 'react', specifier: 'react', kind: 'import', line: 1 },
      { nodeId: 'b', package: '@scope/pkg', specifier: '@scope/pkg/sub;x', kind: 'require', line: 2 },
    ],
    unresolved: [{ nodeId: 'c', specifier: "./missing'%_", kind: 'import', reason: 'file not found; "really"', line: 7 }],
  };
}

describe('graph.db', () => {
  it('round-trips rows, including quotes, unicode, % _ ; and newlines', async () => {
    const file = fresh();
    const rows = sample();
    await writeGraphDb(file, rows, meta);
    assert.deepEqual(await readGraphRows(file), sorted(rows));
    assert.deepEqual(readdirSync(path.dirname(file)), ['graph.db'], 'no temp file left');
  });

  it('stores meta and honours the public schema', async () => {
    const file = fresh();
    await writeGraphDb(file, sample(), meta);
    const g = await openGraphDb(file);
    try {
      assert.deepEqual(g.meta, meta);
      const tables = g.db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0].values.map((r) => r[0]);
      assert.deepEqual(tables, Object.values(TABLES).sort());
      const columns = (t: string) => g.db.exec(`PRAGMA table_info(${t})`)[0].values.map((r) => `${r[1]} ${r[2]}${r[3] ? ' NOT NULL' : ''}${r[5] ? ` pk${r[5]}` : ''}`);
      assert.deepEqual(columns('nodes'), ['id TEXT pk1', 'path TEXT NOT NULL', 'kind TEXT NOT NULL', 'body TEXT NOT NULL']);
      assert.deepEqual(columns('edges'), [
        'source TEXT NOT NULL pk1',
        'target TEXT NOT NULL pk2',
        'kind TEXT NOT NULL pk3',
        'names TEXT',
        'reexports TEXT',
        'specifier TEXT NOT NULL',
        'line INTEGER NOT NULL',
        'exact INTEGER NOT NULL',
      ]);
      assert.deepEqual(columns('symbols'), ['node_id TEXT NOT NULL', 'name TEXT NOT NULL', 'kind TEXT NOT NULL', 'line INTEGER NOT NULL', 'exported INTEGER NOT NULL']);
      assert.deepEqual(columns('meta'), ['key TEXT pk1', 'value TEXT NOT NULL']);
      const indexed = g.db.exec("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")[0].values.map((r) => String(r[1]));
      // the indexes the incremental patch deletes by; a plain SQL consumer's lookups below scan the table where none is
      for (const want of ['symbols (node_id)', 'externals (node_id)', 'unresolved (node_id)']) {
        assert.ok(indexed.some((s) => s.includes(`ON ${want}`)), `index on ${want}`);
      }
      // a plain SQL consumer: who imports c?
      const importers = g.db.exec("SELECT n.path FROM edges e JOIN nodes n ON n.id = e.source WHERE e.target = 'c' ORDER BY n.path")[0].values.flat();
      assert.deepEqual(importers, ['src/b.ts', "src/it's a;b%_.ts"]);
      const exported = g.db.exec('SELECT exported FROM symbols WHERE name = ?', ['main'])[0].values[0][0];
      assert.equal(exported, 1);
    } finally {
      g.close();
    }
    await verifyGraphDb(file);
  });

  it('patch drops a node with its outgoing edges, symbols, externals, unresolved but keeps incoming edges', async () => {
    const file = fresh();
    await writeGraphDb(file, sample(), meta);
    await patchGraphDb(file, { removeNodeIds: ['b'], rows: emptyRows() }, { ...meta, builtAt: 'later' });
    const got = await readGraphRows(file);
    assert.deepEqual(got.nodes.map((x) => x.id), ['a', 'c']);
    assert.deepEqual(
      got.edges.map((e) => `${e.source}>${e.target}:${e.kind}`),
      ['a>b:import', 'a>b:type-import', 'a>c:dynamic-import'],
      'b → c is gone, a → b stays',
    );
    assert.deepEqual(got.symbols.map((s) => s.nodeId), ['a', 'a']);
    assert.deepEqual(got.externals.map((s) => s.nodeId), ['a']);
    assert.deepEqual(got.unresolved.map((s) => s.nodeId), ['c']);
    assert.equal((await openGraphDb(file)).meta.builtAt, 'later');
  });

  it('an incremental patch gives the same rows as a rebuild', async () => {
    const file = fresh();
    const base = sample();
    await writeGraphDb(file, base, meta);
    // b.ts changed: it now imports a, exports a different symbol, and a new file d.ts appeared
    const changedB: GraphRows = {
      nodes: [node('b', 'src/b.ts', { purpose: 'changed' }), node('d', 'src/d.ts')],
      edges: [edge('b', 'a', 'import', 1), edge('d', 'b', 'require', 2)],
      symbols: [{ nodeId: 'b', name: 'Other', kind: 'interface', line: 1, exported: true }],
      externals: [],
      unresolved: [{ nodeId: 'd', specifier: 'x', kind: 'require', reason: 'unknown', line: 3 }],
    };
    await patchGraphDb(file, { removeNodeIds: ['b', 'd'], rows: changedB }, meta);
    const keep = <T extends { nodeId: string }>(list: T[]) => list.filter((r) => r.nodeId !== 'b');
    const expected: GraphRows = {
      nodes: [...base.nodes.filter((x) => x.id !== 'b'), ...changedB.nodes],
      edges: [...base.edges.filter((e) => e.source !== 'b'), ...changedB.edges],
      symbols: [...keep(base.symbols), ...changedB.symbols],
      externals: [...keep(base.externals), ...changedB.externals],
      unresolved: [...keep(base.unresolved), ...changedB.unresolved],
    };
    const rebuilt = fresh();
    await writeGraphDb(rebuilt, expected, meta);
    assert.deepEqual(await readGraphRows(file), await readGraphRows(rebuilt));
    assert.deepEqual(await readGraphRows(file), sorted(expected));
  });

  it('patch replaces nodes and edges with the same key', async () => {
    const file = fresh();
    await writeGraphDb(file, sample(), meta);
    const rows = emptyRows();
    rows.nodes.push(node('a', "src/it's a;b%_.ts", { purpose: 'replaced' }));
    rows.edges.push({ ...edge('a', 'b', 'import', 42), names: '["z"]' });
    await patchGraphDb(file, { removeNodeIds: [], rows }, meta);
    const got = await readGraphRows(file);
    assert.equal(JSON.parse(got.nodes.find((x) => x.id === 'a')!.body).purpose, 'replaced');
    const e = got.edges.find((x) => x.source === 'a' && x.target === 'b' && x.kind === 'import')!;
    assert.equal(e.line, 42);
    assert.equal(e.names, '["z"]');
    assert.equal(got.edges.length, sample().edges.length);
  });

  it('patches a copy page by page: a large graph.db gives the rows of a rebuild, and keeps its mode', async () => {
    const file = fresh();
    const big = emptyRows();
    for (let i = 0; i < 3000; i++) {
      big.nodes.push(node(`n${i}`, `src/dir${i % 17}/file-${i}.ts`, { purpose: 'x'.repeat(i % 300) }));
      if (i > 0) big.edges.push(edge(`n${i}`, `n${(i * 7) % i}`));
      big.symbols.push({ nodeId: `n${i}`, name: `s${i}`, kind: 'function', line: i, exported: i % 2 === 0 });
    }
    await writeGraphDb(file, big, meta);
    chmodSync(file, 0o640);
    const changed = emptyRows();
    const removed = ['n5', 'n1500', 'n2999'];
    changed.nodes.push(node('n5', 'src/dir5/file-5.ts', { purpose: 'changed' }), node('new', 'src/new.ts'));
    changed.edges.push(edge('new', 'n5'), edge('n5', 'n4'));
    await patchGraphDb(file, { removeNodeIds: removed, rows: changed }, { ...meta, builtAt: 'later' });
    const expected = emptyRows();
    expected.nodes = [...big.nodes.filter((x) => !removed.includes(x.id)), ...changed.nodes];
    expected.edges = [...big.edges.filter((e) => !removed.includes(e.source)), ...changed.edges];
    expected.symbols = big.symbols.filter((x) => !removed.includes(x.nodeId));
    const rebuilt = fresh();
    await writeGraphDb(rebuilt, expected, meta);
    assert.deepEqual(await readGraphRows(file), await readGraphRows(rebuilt));
    assert.equal(statSync(file).mode & 0o777, 0o640);
    assert.equal((await openGraphDb(file)).meta.builtAt, 'later');
    await verifyGraphDb(file);
    assert.deepEqual(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp')), []);
  });

  it('a patch that fails on a damaged page leaves graph.db as it was and no temp file', async () => {
    const file = fresh();
    await writeGraphDb(file, sample(), meta);
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const damaged = Buffer.from(bytes);
    damaged.fill(0xff, pageSize); // every page but the first (schema and header) is garbage
    writeFileSync(file, damaged);
    await assert.rejects(patchGraphDb(file, { removeNodeIds: ['a'], rows: emptyRows() }, meta), CorruptStoreError);
    assert.deepEqual(readFileSync(file), damaged);
    assert.deepEqual(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp')), []);
  });

  it('patch on a missing file writes the given rows', async () => {
    const file = fresh();
    await patchGraphDb(file, { removeNodeIds: ['nothing'], rows: sample() }, meta);
    assert.deepEqual(await readGraphRows(file), sorted(sample()));
  });

  it('writes an empty graph', async () => {
    const file = fresh();
    await writeGraphDb(file, emptyRows(), meta);
    assert.deepEqual(await readGraphRows(file), emptyRows());
  });

  describe('damaged files', () => {
    const cases: Array<[string, (file: string) => void]> = [
      ['garbage', (f) => writeFileSync(f, 'this is not a database at all, just some text\n'.repeat(200))],
      ['an empty file', (f) => writeFileSync(f, '')],
      ['a truncated database', (f) => writeFileSync(f, readFileSync(f).subarray(0, Math.floor(readFileSync(f).length / 2)))],
      ['a database with trailing junk', (f) => writeFileSync(f, Buffer.concat([readFileSync(f), Buffer.from('junk')]))],
      ['a scribbled-over header', (f) => {
        const b = readFileSync(f);
        b.fill(0x41, 0, 16);
        writeFileSync(f, b);
      }],
    ];
    for (const [name, damage] of cases) {
      it(`${name} → CorruptStoreError from open, read and patch, file left as it was`, async () => {
        const file = fresh();
        await writeGraphDb(file, sample(), meta);
        damage(file);
        const before = readFileSync(file);
        for (const op of [() => openGraphDb(file), () => readGraphRows(file), () => patchGraphDb(file, { removeNodeIds: ['a'], rows: emptyRows() }, meta)]) {
          await assert.rejects(op(), (err: unknown) => {
            assert.ok(err instanceof CorruptStoreError, String(err));
            assert.ok(err instanceof StoreError);
            assert.ok(err.message.includes(file), 'message names the file');
            assert.equal(err.file, file);
            return true;
          });
        }
        assert.deepEqual(readFileSync(file), before);
      });
    }

    it('damaged pages → CorruptStoreError from verifyGraphDb', async () => {
      const file = fresh();
      const rows = sample();
      for (let i = 0; i < 300; i++) rows.nodes.push(node(`n${i}`, `src/n${i}.ts`, { purpose: 'x'.repeat(200) }));
      await writeGraphDb(file, rows, meta);
      const b = readFileSync(file);
      const pageSize = b.readUInt16BE(16);
      b.fill(0xff, pageSize * 3, pageSize * 5); // wipe two pages in the middle
      writeFileSync(file, b);
      await assert.rejects(async () => {
        await verifyGraphDb(file);
        await readGraphRows(file);
      }, CorruptStoreError);
    });
  });

  describe('format versions', () => {
    it('another format version → FormatMismatchError from open and patch', async () => {
      const file = fresh();
      await writeGraphDb(file, sample(), { ...meta, storeFormatVersion: STORE_FORMAT_VERSION + 1 });
      const before = readFileSync(file);
      for (const op of [() => openGraphDb(file), () => patchGraphDb(file, { removeNodeIds: [], rows: emptyRows() }, meta)]) {
        await assert.rejects(op(), (err: unknown) => {
          assert.ok(err instanceof FormatMismatchError, String(err));
          assert.ok(err instanceof StoreError);
          assert.equal(err.found, STORE_FORMAT_VERSION + 1);
          assert.equal(err.expected, STORE_FORMAT_VERSION);
          assert.ok(err.message.includes(file));
          return true;
        });
      }
      assert.deepEqual(readFileSync(file), before);
    });

    it('an SQLite file that is not ours → FormatMismatchError', async () => {
      const file = fresh();
      const SQL = await loadSqlJs();
      const db = new SQL.Database();
      db.exec('CREATE TABLE other (x TEXT); INSERT INTO other VALUES (1);');
      writeFileSync(file, db.export());
      db.close();
      await assert.rejects(openGraphDb(file), (err: unknown) => err instanceof FormatMismatchError && err.found === null);
    });
  });

  it('GSD_SQL_WASM overrides the wasm location (file or folder)', () => {
    const saved = process.env.GSD_SQL_WASM;
    try {
      delete process.env.GSD_SQL_WASM;
      assert.match(sqlWasmPath(), /sql-wasm\.wasm$/);
      process.env.GSD_SQL_WASM = path.join('opt', 'x', 'custom.wasm');
      assert.equal(sqlWasmPath(), path.join('opt', 'x', 'custom.wasm'));
      process.env.GSD_SQL_WASM = path.join('opt', 'x');
      assert.equal(sqlWasmPath(), path.join('opt', 'x', 'sql-wasm.wasm'));
    } finally {
      if (saved === undefined) delete process.env.GSD_SQL_WASM;
      else process.env.GSD_SQL_WASM = saved;
    }
  });
});
