import assert from 'node:assert/strict';
import { chmodSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, openIntel, updateIntel, dependencies, readIntelConfig, ConfigError } from '../../../engine/src/index.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';

const index = (root: string) => JSON.parse(readFileSync(intelPaths(root).index, 'utf8'));

describe('bad input never crashes a build nor loses the rest of the index', () => {
  after(cleanupProjects);

  it('a file that stops parsing keeps its last good facts and is marked', async () => {
    const root = tempProject({
      'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'src/b.ts': 'export const b = 1;\n',
    });
    await buildIntel(root);
    writeFile(root, 'src/a.ts', "import { b } from './b.js';\nexport const a = b +;\n}}}\n");
    await updateIntel(root, ['src/a.ts']);
    const rec = index(root).files['src/a.ts'];
    assert.ok(rec.syntaxError, 'marked');
    assert.deepEqual(rec.exports.map((e: { name: string }) => e.name), ['a']);
    assert.equal(rec.imports[0].resolved.path, 'src/b.ts');
    const reader = await openIntel(root);
    assert.deepEqual(dependencies(reader, 'src/b.ts').dependents.map((d) => d.path), ['src/a.ts']);
    reader.close();
    assert.equal(rec.syntaxError.kept, true);
    // still broken after the next edit: the same good facts
    writeFile(root, 'src/a.ts', "import { b } from './b.js';\nexport const a = b +;\n}}}\nexport const c = 2;\n");
    await updateIntel(root, ['src/a.ts']);
    assert.deepEqual(index(root).files['src/a.ts'].exports.map((e: { name: string }) => e.name), ['a']);
    assert.equal(index(root).files['src/a.ts'].syntaxError.kept, true);
    // mended: the new text's facts, no mark
    writeFile(root, 'src/a.ts', 'export const a = 1;\nexport const c = 2;\n');
    await updateIntel(root, ['src/a.ts']);
    assert.deepEqual(index(root).files['src/a.ts'].exports.map((e: { name: string }) => e.name), ['a', 'c']);
    assert.equal(index(root).files['src/a.ts'].syntaxError, null);
  });

  it("a file that never parsed cleanly takes each edit's facts, as a build does", async () => {
    // a Rust file whose macro tree-sitter reads as an error: its facts are what the parser reads around it
    const root = tempProject({
      'Cargo.toml': '[package]\nname = "p"\nversion = "0.1.0"\n',
      'src/lib.rs': 'pub mod tokens;\npub mod util;\n',
      'src/util.rs': 'pub fn helper() {}\n',
      'src/tokens.rs': 'macro_rules! m { ($x:tt) => {}; }\nm!{ $ }\n$ $ $\npub fn token() {}\n',
    });
    await buildIntel(root);
    const before = index(root).files['src/tokens.rs'];
    assert.ok(before.syntaxError && !before.syntaxError.kept, JSON.stringify(before.syntaxError));
    writeFile(root, 'src/tokens.rs', 'use crate::util::helper;\nmacro_rules! m { ($x:tt) => {}; }\nm!{ $ }\n$ $ $\npub fn token() { helper() }\n');
    await updateIntel(root, ['src/tokens.rs']);
    const updated = index(root).files['src/tokens.rs'];
    assert.ok(updated.syntaxError, 'still marked');
    assert.deepEqual(updated.imports.map((i: { specifier: string }) => i.specifier), ['crate::util::helper']);
    await buildIntel(root, { cache: false });
    const rebuilt = index(root).files['src/tokens.rs'];
    assert.deepEqual({ ...updated, mtimeMs: 0 }, { ...rebuilt, mtimeMs: 0 });
  });

  it('binary, oversized and non-UTF-8 files are listed as skipped, the rest is indexed', async () => {
    const root = tempProject({
      'src/ok.ts': "import './big.js';\nexport const ok = 1;\n",
      '.planning/config.json': JSON.stringify({ intel: { maxFileBytes: 1000 } }),
    });
    writeFile(root, 'src/big.js', `// ${'x'.repeat(5000)}\n`);
    writeFile(root, 'src/binary.js', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    writeFile(root, 'src/latin1.js', Buffer.from([0x2f, 0x2f, 0x20, 0xe9, 0xe8, 0x0a]));
    const report = await buildIntel(root);
    assert.equal(report.files, 4);
    const files = index(root).files;
    assert.equal(files['src/big.js'].skipped, 'too-large');
    assert.equal(files['src/binary.js'].skipped, 'binary');
    assert.equal(files['src/latin1.js'].skipped, 'non-utf8');
    assert.equal(files['src/ok.ts'].imports[0].resolved.path, 'src/big.js', 'a skipped file is still a node that edges reach');
  });

  it('symlink loops, links out of the root and unreadable files do not break a build', async () => {
    const outside = tempProject({ 'secret.ts': 'export const secret = 1;\n' }, { planning: false });
    const root = tempProject({ 'src/a.ts': 'export const a = 1;\n', 'src/locked.ts': 'export const l = 1;\n' });
    symlinkSync(path.join(root, 'src'), path.join(root, 'src', 'loop'));
    symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src', 'escape.ts'));
    if (os.userInfo().uid !== 0) chmodSync(path.join(root, 'src', 'locked.ts'), 0o000);
    const report = await buildIntel(root);
    const files = index(root).files;
    assert.ok(files['src/a.ts']);
    assert.ok(!Object.keys(files).some((p) => p.startsWith('src/loop/')), 'the loop is not followed');
    if (files['src/escape.ts']) assert.ok(files['src/escape.ts'].skipped, 'a link out of the root is never read');
    assert.ok(report.files >= 2);
  });

  it('an edit made through a symlink updates the file it points to, and never indexes the link (as a rebuild)', async () => {
    const root = tempProject({ 'src/real.ts': 'export const r = 1;\n', 'src/user.ts': "import { r } from './real.js';\nexport const u = r;\n" });
    symlinkSync(path.join(root, 'src', 'real.ts'), path.join(root, 'src', 'link.ts'));
    await buildIntel(root);
    assert.ok(!index(root).files['src/link.ts'], 'a full scan does not list links');
    // Claude Code writes through the link: the hook journals the link's path
    writeFileSync(path.join(root, 'src', 'link.ts'), 'export const r = 1;\nexport const added = 2;\n');
    await updateIntel(root, ['src/link.ts']);
    const files = index(root).files;
    assert.ok(!files['src/link.ts'], 'the link is not indexed by an update either');
    assert.deepEqual(files['src/real.ts'].exports.map((e: { name: string }) => e.name), ['r', 'added'], 'its target is re-read');
    const incremental = readFileSync(intelPaths(root).index, 'utf8').replace(/"builtAt":"[^"]*"/g, '');
    await buildIntel(root);
    assert.equal(incremental, readFileSync(intelPaths(root).index, 'utf8').replace(/"builtAt":"[^"]*"/g, ''), 'equal to a rebuild');
  });

  it('a corrupt graph.db is rebuilt from index.json, on update and on open', async () => {
    const root = tempProject({ 'a.ts': "import './b.js';\n", 'b.ts': 'export {};\n' });
    await buildIntel(root);
    writeFileSync(intelPaths(root).graph, 'this is not sqlite at all, just garbage bytes '.repeat(10));
    const reader = await openIntel(root);
    assert.deepEqual(dependencies(reader, 'b.ts').dependents.map((d) => d.path), ['a.ts']);
    reader.close();
    writeFileSync(intelPaths(root).graph, Buffer.alloc(4096, 7));
    writeFile(root, 'c.ts', "import './b.js';\n");
    await updateIntel(root, ['c.ts']);
    const again = await openIntel(root);
    assert.deepEqual(dependencies(again, 'b.ts').dependents.map((d) => d.path), ['a.ts', 'c.ts']);
    again.close();
  });

  it('a corrupt index.json means a rescan, not a crash', async () => {
    const root = tempProject({ 'a.ts': "import './b.js';\n", 'b.ts': 'export {};\n' });
    await buildIntel(root);
    const text = readFileSync(intelPaths(root).index, 'utf8');
    writeFileSync(intelPaths(root).index, text.replace('"a.ts":{', '"a.ts":{{{'));
    writeFile(root, 'c.ts', "import './a.js';\n");
    const report = await updateIntel(root, ['c.ts']);
    assert.equal(report.mode, 'rebuild');
    assert.equal(index(root).files['c.ts'].imports[0].resolved.path, 'a.ts');
    writeFileSync(intelPaths(root).index, '{ not json');
    const second = await updateIntel(root, ['a.ts']);
    assert.equal(second.mode, 'rebuild');
    assert.equal(Object.keys(index(root).files).length, 3);
  });

  it('paths outside the root are ignored, deleted folders are pruned', async () => {
    const root = tempProject({ 'lib/x.ts': 'export const x = 1;\n', 'lib/y.ts': "import { x } from './x.js';\n", 'main.ts': "import './lib/y.js';\n" });
    await buildIntel(root);
    const r = await updateIntel(root, ['/etc/passwd', '../../outside.ts']);
    assert.deepEqual(r.ignored, ['/etc/passwd', '../../outside.ts']);
    const { rmSync } = await import('node:fs');
    rmSync(path.join(root, 'lib'), { recursive: true });
    const removed = await updateIntel(root, ['lib']);
    assert.deepEqual(removed.removed, ['lib/x.ts', 'lib/y.ts']);
    const files = index(root).files;
    assert.deepEqual(Object.keys(files), ['main.ts']);
    assert.equal(files['main.ts'].imports[0].resolved.kind, 'unresolved');
  });

  it('a broken .planning/config.json is a clear error naming the file', () => {
    const root = tempProject({ '.planning/config.json': '{ "intel": { "include": "src" } }' });
    assert.throws(() => readIntelConfig(root), (e: Error) => e instanceof ConfigError && e.message.includes('config.json') && e.message.includes('intel.include'));
    mkdirSync(path.join(root, 'x'), { recursive: true });
    writeFileSync(path.join(root, '.planning', 'config.json'), '{ nope');
    assert.throws(() => readIntelConfig(root), /not valid JSON/);
  });

  it('intel.workerIdleSeconds: seconds from 0 to 3600, anything else named in the error', () => {
    const root = tempProject({});
    const config = (value: unknown) => writeFileSync(path.join(root, '.planning', 'config.json'), JSON.stringify({ intel: { workerIdleSeconds: value } }));
    for (const ok of [0, 2.5, 120, 3600]) {
      config(ok);
      assert.equal(readIntelConfig(root).workerIdleSeconds, ok);
    }
    for (const bad of [-1, 3601, '120', null]) {
      config(bad);
      assert.throws(() => readIntelConfig(root), (e: Error) => e instanceof ConfigError && e.message.includes('intel.workerIdleSeconds'), String(bad));
    }
  });
});
