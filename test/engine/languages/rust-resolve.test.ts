import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { blastRadius, buildIntel, intelPaths, intelStatus } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';
import { builtFixture, resolvedOf } from '../../helpers/language-records.js';

const CORE = 'crates/core-lib/src';

describe('Rust: crates from Cargo.toml, the module tree and use paths through the real pipeline (fixture rust-rules)', () => {
  const fixture = builtFixture('rust-rules');

  it('mod x; → x.rs beside a crate root ([lib] path) or a mod.rs, x/mod.rs, f/x.rs inside a non-mod-rs f.rs', () => {
    const core = fixture.files[`${CORE}/core.rs`];
    assert.deepEqual(resolvedOf(core, 'model'), [`file:${CORE}/model.rs`]);
    assert.deepEqual(resolvedOf(core, 'store'), [`file:${CORE}/store/mod.rs`]);
    assert.deepEqual(resolvedOf(fixture.files[`${CORE}/store/mod.rs`], 'memory'), [`file:${CORE}/store/memory.rs`]);
    assert.deepEqual(resolvedOf(fixture.files[`${CORE}/model.rs`], 'money'), [`file:${CORE}/model/money.rs`], 'model.rs is not a mod.rs: its children are in model/');
  });

  it('inline mod blocks are folders on the way; #[path] is relative to the file\'s folder', () => {
    const core = fixture.files[`${CORE}/core.rs`];
    assert.deepEqual(resolvedOf(core, 'inline::deep'), [`file:${CORE}/inline/deep.rs`]);
    assert.deepEqual(resolvedOf(core, 'platform=platform/linux_impl.rs'), [`file:${CORE}/platform/linux_impl.rs`]);
    const child = fixture.files[`${CORE}/platform/linux_impl.rs`].imports.find((i) => i.specifier === 'sys')!;
    assert.deepEqual(child.resolved, { kind: 'file', path: `${CORE}/platform/sys.rs` }, 'a #[path] file is a mod.rs to rustc: its child sits beside it');
    assert.equal(child.inferred, undefined, 'a non-mod-rs file whose child is not under its own folder compiles only as a #[path] file');
    assert.deepEqual(resolvedOf(fixture.files[`${CORE}/platform/linux_impl.rs`], 'shim::again=../sys.rs'), [`file:${CORE}/platform/sys.rs`], 'its inline modules\' #[path] too: relative to its folder and the inline modules\'');
  });

  it('use declarations in an item-level macro\'s tokens (cfg_if! branches, every cfg) are read as written; not with a metavariable', () => {
    const core = fixture.files[`${CORE}/core.rs`];
    assert.deepEqual(resolvedOf(core, 'self::model::Status'), [`file:${CORE}/model.rs`]);
    assert.equal(core.imports.find((i) => i.specifier === 'self::model::Status')?.kind, 'reexport');
    assert.deepEqual(resolvedOf(core, 'crate::store::memory'), [`file:${CORE}/store/memory.rs`]);
    assert.deepEqual(resolvedOf(core, 'crate::store'), [`file:${CORE}/store/mod.rs`], '`self as stores` in a group');
    assert.deepEqual(resolvedOf(core, 'self::inline::deep::*'), [`file:${CORE}/inline/deep.rs`], 'the else branch too');
    assert.ok(!core.imports.some((i) => i.specifier.includes('$') || i.specifier.includes('Thing')), 'what `$base` stands for is the macro\'s');
  });

  it('crate roots of every target: bins in src/bin/<name>/main.rs, integration tests with their own modules', () => {
    assert.deepEqual(resolvedOf(fixture.files['app/src/bin/tool/main.rs'], 'opts'), ['file:app/src/bin/tool/opts.rs']);
    assert.deepEqual(resolvedOf(fixture.files['crates/core-lib/tests/orders.rs'], 'common'), ['file:crates/core-lib/tests/common/mod.rs']);
    assert.deepEqual(resolvedOf(fixture.files['crates/core-lib/tests/orders.rs'], 'core_lib::Order'), [`file:${CORE}/core.rs`], 'a test target names its own lib by name');
  });

  it('use crate:: / self:: / super:: go to the file of the module the path names, or of its parent when the last name is an item', () => {
    const model = fixture.files[`${CORE}/model.rs`];
    assert.deepEqual(resolvedOf(model, 'crate::store::Store'), [`file:${CORE}/store/mod.rs`]);
    assert.deepEqual(resolvedOf(model, 'self::money::Cents'), [`file:${CORE}/model/money.rs`]);
    assert.deepEqual(resolvedOf(model, 'self::*'), [`file:${CORE}/model.rs`], '`use super::*` in an inline tests module is the file itself');
    assert.deepEqual(resolvedOf(model, 'super::store'), [`file:${CORE}/store/mod.rs`], '`super::super::store` from inside the inline module');
    const money = fixture.files[`${CORE}/model/money.rs`];
    assert.deepEqual(resolvedOf(money, 'super::Order'), [`file:${CORE}/model.rs`]);
    assert.deepEqual(resolvedOf(money, 'super::super::VERSION'), [`file:${CORE}/core.rs`]);
    assert.deepEqual(resolvedOf(fixture.files[`${CORE}/store/memory.rs`], 'crate::inline::deep::Deep'), [`file:${CORE}/inline/deep.rs`], 'through an inline module to its file');
    assert.equal(money.imports.find((i) => i.specifier === 'super::Order')?.names[0], 'Order');
    assert.deepEqual(resolvedOf(fixture.files[`${CORE}/store/memory.rs`], 'crate::model::Status'), [`file:${CORE}/model.rs`], 'a use inside a method\'s body');
  });

  it('other crates by the name code uses: a `package =` rename, a workspace dependency with `-` → `_`; groups; names bound by use', () => {
    const main = fixture.files['app/src/main.rs'];
    assert.deepEqual(resolvedOf(main, 'shop::Order'), [`file:${CORE}/core.rs`]);
    assert.deepEqual(resolvedOf(main, 'shop::store::memory'), [`file:${CORE}/store/memory.rs`], '`use shop::{store::memory, Order}`');
    assert.deepEqual(resolvedOf(main, 'util_x::helpers::join'), ['file:crates/util-x/src/helpers.rs']);
    assert.deepEqual(resolvedOf(main, 'shop::store::Store'), [`file:${CORE}/store/mod.rs`], '`use store::Store` after `use shop::store` in a function');
    assert.deepEqual(resolvedOf(fixture.files['app/src/cli.rs'], 'self::args::Args'), ['file:app/src/cli.rs'], 'a name declared in the same module (edition 2018+)');
  });

  it('edition 2015: a plain path starts at the crate root', () => {
    assert.deepEqual(resolvedOf(fixture.files['crates/util-x/src/helpers.rs'], 'text::upper'), ['file:crates/util-x/src/text.rs']);
    const inner = fixture.files['crates/util-x/src/helpers.rs'].imports.find((i) => i.specifier === 'lib::inner')!;
    assert.deepEqual([inner.resolved, inner.targetNames], [{ kind: 'file', path: 'crates/util-x/src/lib.rs' }, ['lib']], 'an inline module `lib` of src/lib.rs, not the root as its own child');
  });

  it('the sysroot is builtin, crates.io dependencies and extern crates are external, an unknown crate is unresolved with the reason', () => {
    const core = fixture.files[`${CORE}/core.rs`];
    assert.deepEqual(resolvedOf(core, 'std::collections::HashMap'), ['builtin:std']);
    assert.deepEqual(resolvedOf(core, 'serde::Serialize'), ['external:serde']);
    assert.deepEqual(resolvedOf(fixture.files['app/src/main.rs'], 'anyhow::Result'), ['external:anyhow']);
    assert.deepEqual(resolvedOf(fixture.files['crates/util-x/src/lib.rs'], '::regex'), ['external:regex'], '`extern crate regex as re;` names a crate');
    assert.deepEqual(resolvedOf(fixture.files['app/src/cli.rs'], 'nowhere::Thing2'), ['unresolved:nowhere: not a module of this crate nor a dependency in app/Cargo.toml']);
  });

  it('without a Cargo.toml the nearest main.rs/lib.rs is the root and the edges are inferred', () => {
    const entry = fixture.files['standalone/main.rs'].imports.find((i) => i.specifier === 'x')!;
    assert.deepEqual(entry.resolved, { kind: 'file', path: 'standalone/x.rs' });
    assert.equal(entry.inferred, true);
  });

  it('exports: pub items with kind and line, #[macro_export] macros, pub use names; purpose from //! or ///', () => {
    const model = fixture.files[`${CORE}/model.rs`];
    assert.deepEqual(model.exports.map((e) => `${e.name}:${e.kind}:${e.line}`), ['Order:struct:2', 'Status:enum:3', 'Priced:trait:4', 'Id:type:5', 'COUNT:variable:6', 'Item:struct:7']);
    assert.ok(model.symbols.some((s) => s.name === 'private' && !s.exported));
    assert.equal(model.docComment, 'An order and what it holds.');
    const core = fixture.files[`${CORE}/core.rs`];
    assert.deepEqual(core.exports.map((e) => `${e.name}:${e.kind}`), ['model:module', 'store:module', 'LineItem:reexport', 'Order:reexport', 'order:macro', 'VERSION:const', 'OsStatus:reexport']);
    assert.ok(core.symbols.some((s) => s.name === 'internal' && !s.exported), 'pub(crate) is not an export');
    assert.equal(core.docComment, 'Core types shared by the app.');
    assert.equal(core.language, 'rust');
  });

  it('file types: tests/ are tests, build.rs is build configuration', () => {
    assert.equal(fixture.files['crates/core-lib/tests/orders.rs'].type, 'test');
    assert.equal(fixture.files['crates/core-lib/tests/common/mod.rs'].type, 'test');
    assert.equal(fixture.files['crates/core-lib/build.rs'].type, 'config');
    assert.equal(fixture.files[`${CORE}/model.rs`].type, 'source');
  });

  it('pub use is followed like a JS barrel: a symbol\'s blast radius goes through the re-export, under its new name', () => {
    const item = blastRadius(fixture.reader, `${CORE}/model.rs`, { symbol: 'Item' });
    const hit = item.byDepth.flatMap((l) => l.files.map((f) => f.path));
    assert.ok(hit.includes(`${CORE}/core.rs`));
    assert.ok(hit.includes('app/src/main.rs'), 'main.rs uses shop::LineItem, core.rs re-exports model::Item as LineItem');
    const priced = blastRadius(fixture.reader, `${CORE}/model.rs`, { symbol: 'Priced' });
    assert.ok(!priced.byDepth.flatMap((l) => l.files.map((f) => f.path)).includes('app/src/main.rs'), 'nothing uses Priced');
    const store = blastRadius(fixture.reader, `${CORE}/store/mod.rs`, { symbol: 'Store' });
    assert.ok(store.byDepth.flatMap((l) => l.files.map((f) => f.path)).includes('app/src/main.rs'));
  });

  it('graph.db: nodes carry the language, Cargo edges are exact; every Cargo.toml is stamped; intel status counts Rust', async () => {
    const rows = await readGraphRows(intelPaths(fixture.root).graph);
    const node = rows.nodes.find((n) => n.path === 'app/src/main.rs')!;
    assert.equal(JSON.parse(node.body).language, 'rust');
    const fromMain = rows.edges.filter((e) => e.source === node.id);
    assert.ok(fromMain.length >= 4 && fromMain.every((e) => e.exact));
    const standalone = rows.nodes.find((n) => n.path === 'standalone/main.rs')!;
    assert.ok(rows.edges.filter((e) => e.source === standalone.id).every((e) => !e.exact));
    const index = JSON.parse(readFileSync(intelPaths(fixture.root).index, 'utf8')) as IndexDocument;
    assert.deepEqual(Object.keys(index.configFiles).filter((f) => f.endsWith('Cargo.toml')).sort(), ['Cargo.toml', 'app/Cargo.toml', 'crates/core-lib/Cargo.toml', 'crates/util-x/Cargo.toml']);
    const status = await intelStatus(fixture.root);
    assert.equal(status.languages?.rust, 20);
  });
});

describe('Rust: bad input', () => {
  after(cleanupProjects);

  it('a syntax error keeps the file\'s facts and says where; a malformed Cargo.toml still bounds its package', async () => {
    const root = tempProject({
      'Cargo.toml': '[package\nname = "broken"\n',
      'src/lib.rs': 'pub mod a;\npub fn f( {\n',
      'src/a.rs': 'pub struct A;\n',
    });
    await buildIntel(root);
    const files = (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files;
    assert.match(files['src/lib.rs'].syntaxError?.message ?? '', /syntax error/);
    assert.deepEqual(resolvedOf(files['src/lib.rs'], 'a'), ['file:src/a.rs']);
  });
});
