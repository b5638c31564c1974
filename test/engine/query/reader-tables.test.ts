import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, intelPaths, openIntel, type IntelReader } from '../../../engine/src/index.js';
import { openGraphDb, type GraphDb } from '../../../engine/src/store/index.js';
import { repoRoot } from '../../helpers/paths.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';

const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const rows = (g: GraphDb, sql: string, params: unknown[]) => (g.db.exec(sql, params as never)[0]?.values ?? []) as unknown[][];

/**
 * The reader closes graph.db once loaded and answers from what it read: each answer must be what the SQL the
 * queries used to run gives on the same graph.db.
 */
describe('IntelReader: symbols, externals and unresolved imports without the database', () => {
  let root: string;
  let reader: IntelReader;
  let graph: GraphDb;
  before(async () => {
    root = tempProject({});
    for (const dir of ['engine/src', 'mcp-server/src']) cpSync(path.join(repoRoot, dir), path.join(root, dir), { recursive: true });
    // names and text that fold differently in SQL and JavaScript, and LIKE's wildcards
    writeFile(root, 'src/Ünïcode_Mix%.ts', "/** ÄBC Straße 100% done_ok */\nexport const ÄrgerLich = 1;\nexport function Foo_Bar() {}\nimport x from 'left-pad';\nimport y from './missing';\n");
    await buildIntel(root);
    reader = await openIntel(root);
    graph = await openGraphDb(intelPaths(root).graph);
  });
  after(() => {
    graph?.close();
    cleanupProjects();
  });

  const terms = ['reader', 'intel', 'ärger', 'äbc', 'straße', '100%', 'foo_bar', 'o_b', '_', '%', 'type', '"purpose"', 'zz-none', 'mix%'];

  it('finds the nodes a LIKE over path and body found', () => {
    for (const term of terms) {
      const sql = rows(graph, "SELECT id FROM nodes WHERE lower(path) LIKE ? ESCAPE '\\' OR lower(body) LIKE ? ESCAPE '\\'", [like(term), like(term)]).map(([id]) => id);
      assert.deepEqual(reader.nodesContaining(term).sort(), (sql as string[]).sort(), term);
    }
  });

  it('finds the symbols a LIKE over their names found, in the same order', () => {
    for (const term of terms) {
      const sql = rows(graph, "SELECT node_id, name FROM symbols WHERE lower(name) LIKE ? ESCAPE '\\'", [like(term)]).map(([id, name]) => ({ id, name }));
      assert.deepEqual(reader.symbolsContaining(term), sql, term);
    }
  });

  it('gives the symbols of a name, the externals and unresolved imports of every file, as SQL ordered them', () => {
    const names = rows(graph, 'SELECT DISTINCT name FROM symbols', []).map(([n]) => n as string);
    assert.ok(names.length > 300);
    for (const name of [...names, 'ÄrgerLich', 'noSuchName']) {
      const sql = rows(graph, 'SELECT node_id, kind, line, exported FROM symbols WHERE name = ? ORDER BY node_id, line', [name]);
      assert.deepEqual(reader.symbolsNamed(name).map((s) => [s.id, s.kind, s.line, s.exported ? 1 : 0]), sql, name);
    }
    let externals = 0;
    let unresolved = 0;
    for (const id of reader.nodes.keys()) {
      const ext = rows(graph, 'SELECT package, kind FROM externals WHERE node_id = ? ORDER BY package, kind', [id]);
      assert.deepEqual(reader.externalsOf(id).map((e) => [e.package, e.kind]), ext);
      const unres = rows(graph, 'SELECT specifier, kind, reason, line FROM unresolved WHERE node_id = ? ORDER BY line, specifier', [id]);
      assert.deepEqual(reader.unresolvedOf(id).map((u) => [u.specifier, u.kind, u.reason, u.line]), unres);
      externals += ext.length;
      unresolved += unres.length;
    }
    assert.ok(externals > 10 && unresolved > 0, `${externals} externals, ${unresolved} unresolved`);
  });
});
