import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { blastRadius, dependencies, intelPaths, intelStatus } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { builtFixture, resolvedOf } from '../../helpers/language-records.js';

const STORE = ['file:app/internal/store/store.go', 'file:app/internal/store/store_linux.go', 'file:app/internal/store/store_windows.go'];

describe('Go: packages are directories, resolved by the go command\'s rules through the real pipeline (fixture go-rules)', () => {
  const fixture = builtFixture('go-rules');

  it('every .go file is indexed as Go, of every OS and build tag; _test.go files are tests', () => {
    const go = Object.values(fixture.files).filter((f) => f.language === 'go').map((f) => f.path).sort();
    assert.equal(go.length, 14);
    assert.ok(go.includes('app/internal/store/store_windows.go'));
    assert.equal(fixture.files['app/internal/store/example_test.go'].type, 'test');
    assert.equal(fixture.files['app/internal/store/store.go'].type, 'source');
  });

  it('one import reaches every non-test file of the package directory (one entry per file)', () => {
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'example.com/app/internal/store'), STORE);
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'example.com/app/pkg/util'), ['file:app/pkg/util/doc.go', 'file:app/pkg/util/util.go']);
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'example.com/app/cmd/tool'), ['file:app/cmd/tool/tool.go'], 'a blank import is an edge too');
  });

  it('go.work: a module reaches the modules of its workspace by their module paths', () => {
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'example.com/lib/greet'), ['file:lib/greet/greet.go']);
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'example.com/lib'), ['file:lib/lib.go'], 'the module\'s root package');
    assert.deepEqual(resolvedOf(fixture.files['lib/greet/greet.go'], 'example.com/lib/internal/fmtx'), ['file:lib/internal/fmtx/fmtx.go']);
  });

  it('internal/: importable only from the tree rooted at its parent', () => {
    assert.deepEqual(resolvedOf(fixture.files['app/cmd/tool/tool.go'], 'example.com/app/internal/store'), STORE);
    assert.deepEqual(resolvedOf(fixture.files['lib/greet/greet.go'], 'example.com/app/internal/store'), ['unresolved:example.com/app/internal/store: an internal package, importable only from app/']);
  });

  it('vendor/: a module with a vendor folder resolves other modules into it; without one they are external', () => {
    assert.deepEqual(resolvedOf(fixture.files['vendored/cmd/tool/main.go'], 'github.com/pkg/errors'), ['file:vendored/vendor/github.com/pkg/errors/errors.go']);
    assert.deepEqual(resolvedOf(fixture.files['vendored/cmd/tool/main.go'], 'golang.org/x/text/language'), ['external:golang.org/x/text/language']);
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'github.com/pkg/errors'), ['external:github.com/pkg/errors']);
  });

  it('the standard library is builtin', () => {
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'net/http'), ['builtin:net/http']);
    assert.deepEqual(resolvedOf(fixture.files['app/main.go'], 'fmt'), ['builtin:fmt']);
  });

  it('an external test package (package x_test) reaches the package it tests; test files are never targets', () => {
    const ext = fixture.files['app/internal/store/example_test.go'];
    assert.deepEqual(resolvedOf(ext, 'example.com/app/internal/store'), STORE);
    assert.deepEqual(resolvedOf(ext, 'example.com/app/pkg/util'), ['file:app/pkg/util/doc.go', 'file:app/pkg/util/util.go']);
  });

  it('exports: capitalised top-level names with kind and line, methods as Type.Method; purpose from the package doc', () => {
    const store = fixture.files['app/internal/store/store.go'];
    assert.deepEqual(store.exports.map((e) => `${e.name}:${e.kind}:${e.line}`), ['Store:struct:7', 'Getter:interface:12', 'Version:const:16', 'Shared:variable:19', 'New:function:23', 'Store.Get:function:25']);
    assert.deepEqual(store.symbols.map((s) => s.name), ['store', 'Store', 'Getter', 'id', 'Version', 'build', 'Shared', 'local', 'New', 'Store.Get', 'Store.put', 'helper'], 'every name of a multi-name spec, never its commas (the package clause first, a namespace symbol)');
    assert.ok(store.symbols.some((s) => s.name === 'helper' && !s.exported));
    assert.ok(store.symbols.some((s) => s.name === 'Store.put' && !s.exported));
    assert.equal(store.docComment, 'Package store keeps the app\'s records in memory.');
    assert.equal(fixture.files['app/pkg/util/doc.go'].docComment, 'Package util joins strings\nfor the app.');
    assert.equal(fixture.files['app/internal/store/store_linux.go'].docComment, null, 'a build constraint is not a doc comment');
  });

  it('blast radius and dependencies through the engine: a package file\'s dependents across the workspace', () => {
    const r = blastRadius(fixture.reader, 'app/internal/store/store_windows.go');
    assert.deepEqual(Object.fromEntries(r.byDepth.map((l) => [l.depth, l.files.map((f) => f.path).sort()])), {
      1: ['app/cmd/tool/tool.go', 'app/internal/store/example_test.go', 'app/main.go'],
    });
    const fmtx = blastRadius(fixture.reader, 'lib/internal/fmtx/fmtx.go');
    assert.deepEqual(Object.fromEntries(fmtx.byDepth.map((l) => [l.depth, l.files.map((f) => f.path).sort()])), { 1: ['lib/greet/greet.go'], 2: ['app/main.go'] });
    const d = dependencies(fixture.reader, 'app/main.go');
    assert.deepEqual(d.dependencies.map((x) => x.path).sort(), ['app/cmd/tool/tool.go', ...STORE.map((s) => s.slice(5)), 'app/pkg/util/doc.go', 'app/pkg/util/util.go', 'lib/greet/greet.go', 'lib/lib.go']);
  });

  it('graph.db: nodes carry the language, edges are exact; go.mod and go.work are stamped', async () => {
    const rows = await readGraphRows(intelPaths(fixture.root).graph);
    const node = rows.nodes.find((n) => n.path === 'app/main.go')!;
    assert.equal(JSON.parse(node.body).language, 'go');
    const fromApp = rows.edges.filter((e) => e.source === node.id);
    assert.equal(fromApp.length, 8);
    assert.ok(fromApp.every((e) => e.exact));
    const index = JSON.parse(readFileSync(intelPaths(fixture.root).index, 'utf8')) as IndexDocument;
    assert.deepEqual(Object.keys(index.configFiles).filter((f) => /go\.(mod|work)$/.test(f)).sort(), ['app/go.mod', 'go.work', 'lib/go.mod', 'vendored/go.mod']);
    const status = await intelStatus(fixture.root);
    assert.deepEqual(status.languages, { go: 14 });
  });
});
