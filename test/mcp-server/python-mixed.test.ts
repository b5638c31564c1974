/**
 * A repository with a Python backend, a Go service and a TS front end is one graph: the built MCP server over stdio
 * with the SDK's real Client answers blast radius, file context, hotspots, conventions and `route` for Python and Go
 * files as the engine does; entity pages and summary.md say each file's language and each language's conventions.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { blastRadius, dependencies, hotspots, intelStatus } from '../../engine/src/index.js';
import { graphViewData } from '../../engine/src/view/graph-data.js';
import { fixtureServer } from '../helpers/mcp.js';

type Answer = Record<string, any>;

describe('mcp server on a mixed Python + Go + TypeScript project', () => {
  const f = fixtureServer('mixed-py-ts');

  it('blast_radius of a Python module equals the engine, and reaches every importer', async () => {
    for (const node of f.reader.nodes.values()) {
      const engine = blastRadius(f.reader, node.path, { maxDepth: 10 });
      const out = await f.s.ok('blast_radius', { file: node.path, max_depth: 10 });
      assert.deepEqual(out.by_depth.map((l: Answer) => l.files), engine.byDepth.map((l) => l.files.map((f) => f.path)), node.path);
    }
    const out = await f.s.ok('blast_radius', { file: 'backend/src/shop/models.py', max_depth: 10 });
    const all = out.by_depth.flatMap((l: Answer) => l.files).sort();
    assert.deepEqual(all, ['backend/src/shop/__init__.py', 'backend/src/shop/api.py', 'backend/src/shop/pricing.py', 'backend/tests/test_pricing.py']);
    assert.deepEqual(out.tests.items, ['backend/tests/test_pricing.py']);
  });

  it('blast_radius of one class follows the package __init__.py re-export', async () => {
    const engine = blastRadius(f.reader, 'backend/src/shop/models.py', { symbol: 'Order', maxDepth: 3 });
    const out = await f.s.ok('blast_radius', { file: 'backend/src/shop/models.py', symbol: 'Order', max_depth: 3 });
    assert.deepEqual(out.by_depth.map((l: Answer) => l.files), engine.byDepth.map((l) => l.files.map((f) => f.path)));
    assert.ok(out.by_depth.flatMap((l: Answer) => l.files).includes('backend/src/shop/api.py'), 'api.py imports Order through shop/__init__.py');
  });

  it('file_context: language, purpose from the docstring, dependencies and dependents as the engine has them', async () => {
    for (const file of ['backend/src/shop/models.py', 'backend/src/shop/api.py', 'frontend/src/index.ts']) {
      const d = dependencies(f.reader, file);
      const fc = await f.s.ok('file_context', { file });
      assert.deepEqual(fc.dependents.items, d.dependents.map((x) => x.path));
      assert.deepEqual(fc.dependencies.items, d.dependencies.map((x) => x.path));
      assert.deepEqual(fc.inferred.items, []);
    }
    const models = await f.s.ok('file_context', { file: 'backend/src/shop/models.py' });
    assert.equal(models.language, 'python');
    assert.equal(models.purpose, 'Order and line item models.');
    assert.deepEqual(models.exports.items.map((e: Answer) => `${e.name}:${e.kind}`), ['LineItem:class', 'Order:class']);
    assert.equal((await f.s.ok('file_context', { file: 'frontend/src/index.ts' })).language, 'typescript');
    const api = await f.s.ok('file_context', { file: 'backend/src/shop/api.py' });
    assert.deepEqual(api.dependencies.items, ['backend/src/shop/__init__.py', 'backend/src/shop/pricing.py']);
  });

  it('hotspots rank Python modules with the TS ones, as the engine does', async () => {
    const engine = hotspots(f.reader, { limit: 5 });
    const out = await f.s.ok('hotspots', { limit: 5 });
    assert.deepEqual(out.hotspots.map((h: Answer) => [h.path, h.direct, h.transitive]), engine.hotspots.map((h) => [h.path, h.direct, h.transitive]));
    assert.equal(out.hotspots[0].path, 'backend/src/shop/models.py');
  });

  it('route finds where a Python class is defined, as a JS one is', async () => {
    const a = await f.s.ok<Answer>('route', { query: 'where is LineItem defined?' });
    assert.equal(a.family, 'definition');
    const locations = a.results.find((r: Answer) => r.id === 'answer').data.locations;
    assert.deepEqual(locations.find((l: Answer) => l.path === 'backend/src/shop/models.py'), { path: 'backend/src/shop/models.py', line: 6, detail: 'exported class declaration' });
  });

  it('route finds where a Go func is defined, with its file and line', async () => {
    const a = await f.s.ok<Answer>('route', { query: 'where is NewOrder defined?' });
    assert.equal(a.family, 'definition');
    const locations = a.results.find((r: Answer) => r.id === 'answer').data.locations;
    assert.deepEqual(locations.find((l: Answer) => l.path === 'service/orders/orders.go'), { path: 'service/orders/orders.go', line: 12, detail: 'exported function declaration' });
  });

  it('route finds a Go method by its bare name, declared as Type.Method', async () => {
    const a = await f.s.ok<Answer>('route', { query: 'where is Label defined?' });
    assert.equal(a.family, 'definition');
    const locations = a.results.find((r: Answer) => r.id === 'answer').data.locations;
    assert.deepEqual(locations[0], { path: 'service/orders/orders.go', line: 17, detail: 'exported function declaration' });
  });

  it('a Go package named build is indexed and reached; blast radius crosses the Go packages', async () => {
    const out = await f.s.ok('blast_radius', { file: 'service/build/version.go', max_depth: 10 });
    // the package's test file calls NewOrder without an import (a same-package edge)
    assert.deepEqual(out.by_depth.map((l: Answer) => l.files), [['service/orders/orders.go'], ['service/cmd/api/main.go', 'service/orders/orders_test.go']]);
    const fc = await f.s.ok('file_context', { file: 'service/orders/orders.go' });
    assert.equal(fc.language, 'go');
    assert.equal(fc.purpose, 'Package orders keeps the service\'s orders.');
    assert.match(fc.conventions.languages, /^Go 2 \(guide: snake_case\)$/);
  });

  it('codebase_patterns names the languages of each folder', async () => {
    const out = await f.s.ok('codebase_patterns', { query: '' });
    const area = (folder: string) => out.areas.items.find((a: Answer) => a.folder === folder);
    assert.match(area('backend/src/shop').languages, /^Python \d+ \(guide: snake_case\)$/);
    assert.equal(area('frontend/src').languages, 'TypeScript 2');
  });

  it('entity pages carry the language; summary.md gives each language its module system and test layout', () => {
    const intel = path.join(f.root, '.planning', 'intel');
    const languageOfPage = new Map<string, string>();
    for (const page of readdirSync(path.join(intel, 'entities'))) {
      const text = readFileSync(path.join(intel, 'entities', page), 'utf8');
      languageOfPage.set(/^path: (.*)$/m.exec(text)![1], /^language: (.*)$/m.exec(text)?.[1] ?? '');
    }
    assert.equal(languageOfPage.get('service/build/version.go'), 'go');
    assert.equal(languageOfPage.get('backend/src/shop/models.py'), 'python');
    assert.equal(languageOfPage.get('frontend/src/api.ts'), 'typescript');
    const summary = readFileSync(path.join(intel, 'summary.md'), 'utf8');
    assert.match(summary, /^- Module system: Python: packages and modules \(import\); Go: modules \(packages as folders\); TypeScript: ES modules \(100%\)$/m);
    assert.match(summary, /^- Tests: 2 files, .*pattern `test_\*\.py \(Python\), \*_test\.go \(Go\)`$/m);
  });

  it('the graph page data and intel status give each file its language', async () => {
    const data = graphViewData(f.reader, { project: 'mixed', tool: 'test' });
    const languageOf = new Map(data.files.map((file) => [file[0], data.languages[file[6] as number]]));
    assert.equal(languageOf.get('service/build/version.go'), 'go');
    assert.equal(languageOf.get('backend/src/shop/models.py'), 'python');
    assert.equal(languageOf.get('frontend/src/index.ts'), 'typescript');
    const status = await intelStatus(f.root);
    assert.deepEqual(status.languages, { python: 5, go: 4, typescript: 2 });
  });
});
