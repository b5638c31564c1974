// Reads OUR graph (.planning/intel/graph.db, SQLite via sql.js) into file-to-file edges.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { ROOT, OUR_CLI } from './common.mjs';

const require = createRequire(path.join(ROOT, 'package.json'));
let SQL = null;
async function sqljs() {
  if (!SQL) {
    const initSqlJs = require('sql.js');
    SQL = await initSqlJs();
  }
  return SQL;
}

export const graphDbPath = (dir) => path.join(dir, '.planning', 'intel', 'graph.db');

/** Our full-build command for `dir`. */
export function ourBuildCommand(dir) {
  return { cmd: process.execPath, args: [OUR_CLI, 'intel', 'build', dir], cwd: ROOT, display: `node ${path.relative(ROOT, OUR_CLI)} intel build ${path.relative(ROOT, dir)}` };
}

function rows(db, sql) {
  const res = db.exec(sql);
  if (!res.length) return [];
  return res[0].values;
}

/**
 * { files: Set<path>, edges: Map<key, {source, target, types:Set, specifiers:Set}>, stats } from graph.db.
 * Edge kinds and specifiers are read when the edges table has those columns.
 */
export async function edgesFromGraphDb(dbFile) {
  const S = await sqljs();
  const db = new S.Database(fs.readFileSync(dbFile));
  try {
    const files = new Set(rows(db, 'SELECT path FROM nodes').map((r) => r[0]));
    let list;
    let detailed = true;
    try {
      list = rows(db, 'SELECT s.path, t.path, e.kind, e.specifier FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target');
    } catch {
      detailed = false;
      list = rows(db, 'SELECT s.path, t.path FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target');
    }
    const edges = new Map();
    const byType = {};
    for (const [s, t, kind, spec] of list) {
      const k = `${s}\t${t}`;
      let e = edges.get(k);
      if (!e) edges.set(k, (e = { source: s, target: t, types: new Set(), specifiers: new Set() }));
      if (kind) {
        e.types.add(kind);
        byType[kind] = (byType[kind] ?? 0) + 1;
      }
      if (spec) e.specifiers.add(spec);
    }
    const count = (sql) => {
      try {
        return rows(db, sql)[0]?.[0] ?? null;
      } catch {
        return null;
      }
    };
    const stats = {
      nodes: files.size,
      edgeRows: list.length,
      uniquePairs: edges.size,
      byType,
      detailed,
      externals: count('SELECT COUNT(*) FROM externals'),
      unresolved: count('SELECT COUNT(*) FROM unresolved'),
    };
    let unresolvedSample = [];
    try {
      unresolvedSample = rows(db, 'SELECT n.path, u.specifier, u.kind, u.reason FROM unresolved u JOIN nodes n ON n.id = u.nodeId LIMIT 200');
    } catch {
      try {
        unresolvedSample = rows(db, 'SELECT n.path, u.specifier, u.kind, u.reason FROM unresolved u JOIN nodes n ON n.id = u.node_id LIMIT 200');
      } catch {}
    }
    return { files, edges, stats, unresolvedSample };
  } finally {
    db.close();
  }
}

/**
 * A cold `intel build --no-cache` of `tree` (its .planning/ removed first) and graph.db's rows as the engine reads
 * them, with each node's path by id: what the language benches compare with their language's own resolver.
 */
export async function coldBuildRows(tree) {
  fs.rmSync(path.join(tree, '.planning'), { recursive: true, force: true });
  const t0 = performance.now();
  execFileSync(process.execPath, [OUR_CLI, 'intel', 'build', tree, '--no-cache'], { stdio: 'ignore' });
  const buildMs = performance.now() - t0;
  const { readGraphRows } = await import(path.join(ROOT, 'dist', 'engine', 'src', 'store', 'index.js'));
  const rows = await readGraphRows(graphDbPath(tree));
  return { rows, pathOf: new Map(rows.nodes.map((n) => [n.id, n.path])), buildMs };
}
