/**
 * The intel tools over the shop fixture, through the built server over stdio: blast_radius and dependents agree
 * exactly with the engine's graph, and a write the server could see is never answered from stale data.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { appendJournal, blastRadius, buildIntel, dependencies, hotspots, openIntel, type IntelReader } from '../../engine/src/index.js';
import { startServer, undescribedProperties, type Session } from '../helpers/mcp.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

const TOOLS = [
  'blast_radius',
  'codebase_patterns',
  'file_context',
  'guidance_load',
  'hotspots',
  'phase_relevant_files',
  'phase_status',
  'query_intel',
  'requirement_status',
  'route',
  'similar_past_work',
  'verify_artifact',
  'verify_behavior',
];
/** the planning tools write .planning/gsd-state.json */
const WRITING_TOOLS = ['agent', 'lease', 'skill', 'state', 'plan', 'evolve', 'graph_view'];
/** the planning-document tools that only read (docs/planning.md) */
const PLANNING_DOC_TOOLS = ['dash', 'discuss', 'validate', 'vitals'];

describe('mcp server: intel tools on the shop fixture', () => {
  let root: string;
  let s: Session;
  let reader: IntelReader;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
    reader = await openIntel(root);
    s = await startServer(root);
  });
  after(async () => {
    await s?.close();
    reader?.close();
    cleanupProjects();
  });

  it('lists every tool, named without a prefix, the planning ones and graph_view annotated as writing, every field but the generic ones described', () => {
    assert.deepEqual(s.tools.map((t) => t.name).sort(), [...TOOLS, ...PLANNING_DOC_TOOLS, ...WRITING_TOOLS].sort());
    for (const t of s.tools) {
      assert.deepEqual(
        { r: t.annotations?.readOnlyHint, o: t.annotations?.openWorldHint },
        { r: !WRITING_TOOLS.includes(t.name), o: false },
        t.name,
      );
      assert.ok(t.description && t.description.length < 2048, t.name);
      // output shapes are not published (tool-list.ts): the server enforces the full shape, tested in tool-list.test
      assert.equal(t.outputSchema, undefined, t.name);
      assert.deepEqual(undescribedProperties(t.inputSchema, t.name), [`${t.name}.root`, `${t.name}.max_tokens`]);
      assert.ok((t.inputSchema.properties as Record<string, unknown>).root, `${t.name} takes root`);
      assert.ok((t.inputSchema.properties as Record<string, unknown>).max_tokens, `${t.name} takes max_tokens`);
    }
  });

  it('tools/list of every tool stays within 4,000 tokens (characters / 4, as bench/mcp-tokens.mjs counts)', () => {
    const chars = JSON.stringify({ tools: s.tools }).length;
    // the budget agreed for every tool once all branches are merged: 4,000 tokens
    assert.ok(chars <= 16_000, `tools/list is ${chars} chars = ${Math.ceil(chars / 4)} tokens`);
  });

  it('blast_radius equals the engine for every file, at every depth', async () => {
    for (const node of reader.nodes.values()) {
      const engine = blastRadius(reader, node.path, { maxDepth: 10 });
      const out = await s.ok('blast_radius', { file: node.path, max_depth: 10 });
      assert.equal(out.total, engine.total, node.path);
      assert.deepEqual(
        out.by_depth.map((l: any) => [l.depth, l.total, l.files]),
        engine.byDepth.map((l) => [l.depth, l.files.length, l.files.map((f) => f.path)]),
        node.path,
      );
      assert.equal(out.beyond_max_depth, engine.truncated);
    }
  });

  it('blast_radius of one symbol follows re-export chains like the engine', async () => {
    for (const [file, symbol] of [
      ['src/lib/money.ts', 'formatPrice'],
      ['src/lib/strings.ts', 'slugify'],
      ['src/lib/strings.ts', 'capitalize'],
    ]) {
      const engine = blastRadius(reader, file, { symbol, maxDepth: 3 });
      const out = await s.ok('blast_radius', { file, symbol, max_depth: 3 });
      assert.deepEqual(out.by_depth.map((l: any) => l.files), engine.byDepth.map((l) => l.files.map((f) => f.path)), `${file}#${symbol}`);
    }
    assert.match(await s.fails('blast_radius', { file: 'src/lib/money.ts', symbol: 'nope' }), /does not export "nope".*formatPrice/s);
  });

  it('a known hotspot has tests, critical files, a risk and a change-type recommendation', async () => {
    const out = await s.ok('blast_radius', { file: 'src/lib/money.ts', change_type: 'deletion' });
    assert.deepEqual(out.tests.items, ['test/cart.test.ts']);
    assert.ok(out.critical.items.some((c: any) => c.path === 'src/index.ts' && c.why.includes('entry point')));
    assert.ok(['medium', 'high', 'critical'].includes(out.risk));
    assert.match(out.recommendation, /delete/i);
  });

  it('no dependents is said honestly: unknown for source, none for a test, never low', async () => {
    const lazy = await s.ok('blast_radius', { file: 'src/lazy.ts' });
    assert.equal(lazy.total, 0);
    assert.equal(lazy.risk, 'unknown');
    const t = await s.ok('blast_radius', { file: 'test/cart.test.ts' });
    assert.equal(t.risk, 'none');
  });

  it('hotspots and file_context agree with the engine', async () => {
    const engine = hotspots(reader, { limit: 5 });
    const out = await s.ok('hotspots', { limit: 5 });
    assert.deepEqual(out.hotspots.map((h: any) => [h.path, h.direct, h.transitive]), engine.hotspots.map((h) => [h.path, h.direct, h.transitive]));
    assert.equal(out.total, engine.total);
    for (const file of ['src/lib/money.ts', 'src/index.ts', 'src/legacy/format.cjs']) {
      const d = dependencies(reader, file);
      const fc = await s.ok('file_context', { file });
      assert.deepEqual(fc.dependents.items, d.dependents.map((x) => x.path));
      assert.deepEqual(fc.dependencies.items, d.dependencies.map((x) => x.path));
    }
    const idx = await s.ok('file_context', { file: 'src/index.ts' });
    assert.deepEqual(idx.packages.items, ['zod']);
    assert.equal(idx.unresolved.total, 1);
    const byId = await s.ok('file_context', { file: idx.id });
    assert.equal(byId.path, 'src/index.ts');
  });

  it('query_intel ranks files with purpose and dependent counts', async () => {
    const out = await s.ok('query_intel', { query: 'money', include_blast_radius: true });
    assert.equal(out.results[0].path, 'src/lib/money.ts');
    assert.deepEqual(out.results[0].dependents, { direct: 2, transitive: 8 });
    assert.ok(out.results[0].purpose);
    const tests = await s.ok('query_intel', { query: 'cart', type_filter: 'test' });
    assert.deepEqual(tests.results.map((r: any) => r.path), ['test/cart.test.ts']);
  });

  it('an unknown file is a clear error with suggestions', async () => {
    assert.match(await s.fails('blast_radius', { file: 'src/nope.ts' }), /no indexed file matches/);
    assert.match(await s.fails('file_context', { file: 'index.ts' }), /did you mean .*src\/index\.ts/);
    assert.equal((await s.ok('file_context', { file: 'money.ts' })).path, 'src/lib/money.ts');
    assert.match(await s.fails('blast_radius', { file: 'x', max_depth: 99 }), /max_depth|less than or equal/i);
  });

  it('answers from fresh data after the hooks journal a change and after a rebuild', async () => {
    writeFileSync(path.join(root, 'src/extra.ts'), "import { addTax } from './lib/money.js';\nexport const extra = addTax;\n");
    appendJournal(root, [{ path: 'src/extra.ts', at: Date.now(), source: 'test' }]);
    const out = await s.ok('blast_radius', { file: 'src/lib/money.ts' });
    assert.ok(out.by_depth[0].files.includes('src/extra.ts'), JSON.stringify(out.by_depth));
    writeFileSync(path.join(root, 'src/extra2.ts'), "import { extra } from './extra.js';\nexport const e2 = extra;\n");
    await buildIntel(root);
    const out2 = await s.ok('blast_radius', { file: 'src/extra.ts' });
    assert.deepEqual(out2.by_depth.map((l: any) => l.files), [['src/extra2.ts']]);
  });
});
