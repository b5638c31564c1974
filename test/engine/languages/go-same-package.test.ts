import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { blastRadius, buildIntel, intelPaths, openIntel, updateIntel } from '../../../engine/src/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

/** A package whose files use each other's names without imports, its internal tests and an external test package. */
const PACKAGE = {
  'go.mod': 'module example.com/shop\n\ngo 1.19\n',
  'orders/version.go': 'package orders\n\n// Version of the orders package.\nconst Version = "1.0"\n\nvar (\n\tcount, total int\n\tlimit        = 10\n)\n\nfunc New() *Order { return &Order{ID: count} }\n',
  'orders/order.go': 'package orders\n\ntype (\n\tOrder struct{ ID int }\n\tkind  int\n)\n\nfunc (o *Order) Label() string { return Version }\n\nfunc Cap(limit int) int { return limit }\n',
  'orders/orders_test.go': 'package orders\n\nimport "testing"\n\nfunc TestNew(t *testing.T) {\n\tif New() == nil || Version == "" {\n\t\tt.Fatal(helper())\n\t}\n}\n',
  'orders/helper_test.go': 'package orders\n\nfunc helper() kind { return 0 }\n',
  'orders/ext_test.go': 'package orders_test\n\nimport (\n\t"testing"\n\n\t"example.com/shop/orders"\n)\n\nfunc TestExt(t *testing.T) { _ = orders.New(); other() }\n',
  'orders/other_test.go': 'package orders_test\n\nfunc other() {}\n',
  'billing/bill.go': 'package billing\n\nfunc Version() string { return "b" }\n',
  'billing/pay.go': 'package billing\n\nvar pay = func(Amount, func(a Amount) kind) {}\n',
  'billing/amount.go': 'package billing\n\ntype (\n\tAmount int\n\tkind   = int\n)\n',
};

const index = (root: string): IndexDocument => JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument;
/** file → its same-package targets: `path names` (`~` marks an inferred edge) */
const samePackage = (root: string, file: string): string[] =>
  index(root)
    .files[file].imports.filter((i) => i.kind === 'same-package' && i.resolved.kind === 'file')
    .map((i) => `${i.resolved.kind === 'file' ? i.resolved.path : ''} ${(i.targetNames ?? i.names).join(',')}${i.inferred ? ' ~' : ''}`)
    .sort();

describe('Go: names of the same package', () => {
  after(cleanupProjects);

  it('binds the names a file uses to the files of its package declaring them; tests see the package, not the other way round', async () => {
    const root = tempProject(PACKAGE);
    await buildIntel(root);
    assert.deepEqual(samePackage(root, 'orders/orders_test.go'), ['orders/helper_test.go helper', 'orders/version.go New,Version']);
    assert.deepEqual(samePackage(root, 'orders/helper_test.go'), ['orders/order.go kind']);
    // the receiver's type, a constant; `limit` is also a parameter there: the edge is inferred
    assert.deepEqual(samePackage(root, 'orders/order.go'), ['orders/version.go Version', 'orders/version.go limit ~']);
    assert.deepEqual(samePackage(root, 'orders/version.go'), ['orders/order.go Order']);
    // the external test package is a package of its own: its files, and the package through its import
    assert.deepEqual(samePackage(root, 'orders/ext_test.go'), ['orders/other_test.go other']);
    assert.deepEqual(samePackage(root, 'billing/bill.go'), []);
    // an unnamed parameter's type is a use; a named one's name is a local
    assert.deepEqual(samePackage(root, 'billing/pay.go'), ['billing/amount.go Amount,kind']);

    const reader = await openIntel(root);
    try {
      const r = blastRadius(reader, 'orders/version.go', { maxDepth: 1 });
      assert.deepEqual(r.byDepth.find((l) => l.depth === 1)?.files.map((f) => f.path).sort(), ['orders/ext_test.go', 'orders/order.go', 'orders/orders_test.go']);
      const helper = blastRadius(reader, 'orders/helper_test.go', { maxDepth: 1 });
      assert.deepEqual(helper.byDepth.flatMap((l) => l.files.map((f) => f.path)), ['orders/orders_test.go']);
    } finally {
      reader.close();
    }
  });

  it('a declaration moved to another file of the package, a new file declaring a used name, and its removal: equal to a rebuild', async () => {
    const root = tempProject(PACKAGE);
    await buildIntel(root);
    writeFile(root, 'orders/version.go', 'package orders\n\n// Version of the orders package.\nconst Version = "1.0"\n\nvar (\n\tcount, total int\n\tlimit        = 10\n)\n');
    writeFile(root, 'orders/order.go', `${PACKAGE['orders/order.go']}\nfunc New() *Order { return &Order{ID: count} }\n`);
    await updateIntel(root, ['orders/version.go', 'orders/order.go']);
    assert.deepEqual(samePackage(root, 'orders/orders_test.go'), ['orders/helper_test.go helper', 'orders/order.go New', 'orders/version.go Version']);
    await assertSameAsRebuild(root, 'a declaration moved');

    // one file edited: the declaration moves back; the test file's edges follow without the test file being edited
    writeFile(root, 'orders/order.go', PACKAGE['orders/order.go']);
    await updateIntel(root, ['orders/order.go']);
    assert.deepEqual(samePackage(root, 'orders/orders_test.go'), ['orders/helper_test.go helper', 'orders/version.go Version']);
    await assertSameAsRebuild(root, 'a declaration removed');
    writeFile(root, 'orders/version.go', PACKAGE['orders/version.go']);
    await updateIntel(root, ['orders/version.go']);
    assert.deepEqual(samePackage(root, 'orders/orders_test.go'), ['orders/helper_test.go helper', 'orders/version.go New,Version']);
    await assertSameAsRebuild(root, 'moved back');

    writeFile(root, 'orders/orders_test.go', PACKAGE['orders/orders_test.go'].replace('t.Fatal(helper())', 't.Fatal(helper(), Total())'));
    await updateIntel(root, ['orders/orders_test.go']);
    writeFile(root, 'orders/total.go', 'package orders\n\n// Total of every order.\nfunc Total() int { return total }\n');
    await updateIntel(root, ['orders/total.go']);
    assert.deepEqual(samePackage(root, 'orders/orders_test.go'), ['orders/helper_test.go helper', 'orders/total.go Total', 'orders/version.go New,Version']);
    assert.deepEqual(samePackage(root, 'orders/total.go'), ['orders/version.go total']);
    await assertSameAsRebuild(root, 'a new file declaring a used name');

    rmSync(path.join(root, 'orders/total.go'));
    await updateIntel(root, ['orders/total.go']);
    assert.deepEqual(samePackage(root, 'orders/orders_test.go'), ['orders/helper_test.go helper', 'orders/version.go New,Version']);
    await assertSameAsRebuild(root, 'the file removed');
  });

  it('a package clause edited moves the file out of its package for the files using its names; a file too large to parse is reached inferred', async () => {
    const root = tempProject({
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'p/a.go': 'package p\n\nimport "strings"\n\nfunc A() string { return strings.Repeat(B(), Size) }\n',
      'p/b.go': 'package p\n\nfunc B() string { return "b" }\n',
      'p/tables.go': `package p\n\n// generated\nconst Size = 2\n\nvar table = [...]int{${'1, '.repeat(400)}}\n`,
      '.planning/config.json': JSON.stringify({ intel: { maxFileBytes: 1000 } }),
    });
    await buildIntel(root);
    assert.equal(index(root).files['p/tables.go'].skipped, 'too-large');
    // Size is declared by no parsed file: the unparsed file of the package may declare it (not `strings`, an import)
    assert.deepEqual(samePackage(root, 'p/a.go'), ['p/b.go B', 'p/tables.go Size ~']);
    writeFile(root, 'p/b.go', 'package q\n\nfunc B() string { return "b" }\n');
    await updateIntel(root, ['p/b.go']);
    assert.deepEqual(samePackage(root, 'p/a.go'), ['p/tables.go B,Size ~'], 'a.go, not edited, no longer reaches b.go');
    await assertSameAsRebuild(root, 'a package clause edited');
    writeFile(root, 'p/b.go', 'package p\n\nfunc B() string { return "b" }\n');
    await updateIntel(root, ['p/b.go']);
    assert.deepEqual(samePackage(root, 'p/a.go'), ['p/b.go B', 'p/tables.go Size ~']);
    await assertSameAsRebuild(root, 'the package clause back');
  });
});
