import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { blastRadius, buildIntel, dependencies, dependentCounts, entryPoints, folderConventions, hotspots, importPath, intelPaths, openIntel, searchIntel, UnknownFileError, type IntelReader, entityId } from '../../../engine/src/index.js';
import { cleanupProjects, copyProject } from '../../helpers/project.js';

const byDepth = (r: ReturnType<typeof blastRadius>) => Object.fromEntries(r.byDepth.map((l) => [l.depth, l.files.map((f) => f.path)]));

describe('queries over the shop fixture', () => {
  let root: string;
  let reader: IntelReader;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
    reader = await openIntel(root);
  });
  after(() => {
    reader?.close();
    cleanupProjects();
  });

  it('blast radius of a file lists every dependent by depth', () => {
    const r = blastRadius(reader, 'src/lib/money.ts');
    assert.deepEqual(byDepth(r), {
      1: ['src/cart/cart.ts', 'src/lib/index.ts'],
      2: ['src/cart/checkout.ts', 'src/catalog/product.ts', 'test/cart.test.ts'],
      3: ['src/catalog/search.ts', 'src/index.ts'],
      4: ['src/lazy.ts'],
    });
    assert.equal(r.total, 8);
    assert.equal(r.truncated, false);
    const cart = r.byDepth[0].files.find((f) => f.path === 'src/cart/cart.ts')!;
    assert.deepEqual(cart.via, { path: 'src/lib/money.ts', kinds: ['import', 'type-import'] });
  });

  it('max depth cuts the radius and says so', () => {
    const r = blastRadius(reader, 'src/lib/money.ts', { maxDepth: 2 });
    assert.deepEqual(Object.keys(byDepth(r)), ['1', '2']);
    assert.equal(r.truncated, true);
  });

  it('a symbol counts only the files that really reach it, through re-export chains', () => {
    const price = blastRadius(reader, 'src/lib/money.ts', { symbol: 'formatPrice' });
    assert.deepEqual(byDepth(price), {
      1: ['src/cart/cart.ts', 'src/lib/index.ts'],
      2: ['src/cart/checkout.ts', 'test/cart.test.ts'],
      3: ['src/index.ts'],
    });
    const slug = blastRadius(reader, 'src/lib/strings.ts', { symbol: 'slugify' });
    assert.deepEqual(byDepth(slug), {
      1: ['src/lib/index.ts'],
      2: ['src/catalog/product.ts'],
      3: ['src/catalog/search.ts', 'src/index.ts'],
      4: ['src/lazy.ts'],
    });
    const cap = blastRadius(reader, 'src/lib/strings.ts', { symbol: 'capitalize' });
    assert.deepEqual(byDepth(cap), { 1: ['src/catalog/search.ts'], 2: ['src/lazy.ts'] });
  });

  it('a file is found by path, absolute path, ./ path or entity id', () => {
    const id = entityId('src/lib/money.ts');
    for (const q of ['src/lib/money.ts', `${root}/src/lib/money.ts`, './src/lib/money.ts', id]) {
      assert.equal(reader.lookup(q).path, 'src/lib/money.ts');
    }
    assert.throws(() => reader.lookup('src/nope.ts'), UnknownFileError);
  });

  it('dependencies lists project files, packages and unresolved imports', () => {
    const d = dependencies(reader, 'src/index.ts');
    assert.deepEqual(
      d.dependencies.map((x) => [x.path, x.kinds]),
      [
        ['src/cart/checkout.ts', ['reexport']],
        ['src/catalog/product.ts', ['reexport']],
      ],
    );
    assert.deepEqual(d.externals, [{ package: 'zod', kinds: ['import'] }]);
    assert.equal(d.unresolved.length, 1);
    assert.equal(d.unresolved[0].specifier, './does-not-exist.js');
    const legacy = dependencies(reader, 'src/legacy/format.cjs');
    assert.deepEqual(legacy.dependents.map((x) => [x.path, x.kinds, x.names]), [['src/legacy/report.cjs', ['require'], ['pad']]]);
  });

  it('tsconfig paths resolve (@lib/money → src/lib/money.ts)', () => {
    const d = dependencies(reader, 'src/cart/cart.ts');
    assert.deepEqual(d.dependencies.map((x) => x.path), ['src/lib/money.ts']);
    assert.deepEqual(d.dependencies[0].names, ['Currency', 'formatPrice']);
  });

  it('hotspots rank by transitive then direct dependents', () => {
    const h = hotspots(reader, { limit: 3 });
    assert.deepEqual(h.hotspots.map((x) => [x.path, x.direct, x.transitive]), [
      ['src/lib/money.ts', 2, 8],
      ['src/lib/strings.ts', 2, 6],
      ['src/lib/index.ts', 2, 5],
    ]);
    assert.equal(h.truncated, true);
  });

  it('entry points: files nothing imports that import something, the same list summary.md starts with', () => {
    const list = entryPoints(reader).map((n) => n.path);
    assert.ok(list.length > 0);
    for (const p of list) {
      const id = reader.byPath.get(p)!;
      assert.equal(reader.in.get(id)?.length ?? 0, 0, p);
      assert.ok((reader.out.get(id)?.length ?? 0) > 0, p);
    }
    const summary = readFileSync(intelPaths(root).summary, 'utf8');
    const section = summary.slice(summary.indexOf('## Entry points'));
    const shown = [...section.slice(0, section.indexOf('\n## ', 5) >>> 0).matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
    assert.ok(shown.length > 0, section);
    assert.deepEqual(shown, list.slice(0, shown.length));
  });

  it('folder conventions: role by name or by content, naming and export style of the files in it', () => {
    assert.deepEqual(folderConventions(reader, 'src/lib'), {
      folder: 'src/lib',
      role: 'shared utilities',
      files: 3,
      naming: 'unknown', // index, money, strings: one-word names say nothing about a convention
      exports: 'named exports (100%)',
      tests: 'tests live elsewhere',
      languages: 'TypeScript 3',
    });
    assert.equal(folderConventions(reader, 'src/cart').role, 'source');
    assert.equal(folderConventions(reader, 'test').role, 'tests');
    assert.equal(folderConventions(reader, 'test').tests, '1 test file(s) here');
    assert.equal(folderConventions(reader, 'src').role, 'source root');
    assert.equal(folderConventions(reader, 'nowhere').role, 'unknown');
  });

  it('dependent counts agree with the hotspot ranking', () => {
    for (const h of hotspots(reader, { limit: 500 }).hotspots) assert.deepEqual(dependentCounts(reader, h.id), { direct: h.direct, transitive: h.transitive });
    const leaf = [...reader.nodes.values()].find((n) => !(reader.in.get(n.id)?.length))!;
    assert.deepEqual(dependentCounts(reader, leaf.id), { direct: 0, transitive: 0 });
  });

  it('search ranks names above purposes and binds every parameter', () => {
    const r = searchIntel(reader, 'cart');
    assert.equal(r.results[0].path, 'src/cart/cart.ts');
    for (const nasty of ["'; DROP TABLE nodes; --", '%', '_', '100%_off', 'ünïcødé', '"quoted"', '\\']) {
      const res = searchIntel(reader, nasty);
      assert.ok(Array.isArray(res.results));
    }
    assert.equal(searchIntel(reader, '%').total, 0);
    assert.equal(searchIntel(reader, 'formatPrice').results[0].path, 'src/lib/money.ts');
  });

  it('import path finds the shortest chain', () => {
    const p = importPath(reader, 'src/lazy.ts', 'src/lib/strings.ts');
    assert.deepEqual(p.steps?.map((s) => s.path), ['src/lazy.ts', 'src/catalog/search.ts', 'src/lib/strings.ts']);
    assert.equal(importPath(reader, 'src/lib/strings.ts', 'src/lazy.ts').steps, null);
  });
});
