import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, updateIntel } from '../../../engine/src/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { HOOKS, payload, runHookProcess, waitForWorkers } from '../../helpers/hooks.js';
import { cleanupProjects, copyProject, tempProject, writeFile } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

const targetsOf = (root: string, file: string, specifier: string) =>
  (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files[file].imports
    .filter((i) => i.specifier === specifier)
    .map((i) => (i.resolved.kind === 'file' ? i.resolved.path : i.resolved.kind));

const CORE = 'crates/core-lib/src';

describe('Rust through incremental updates and the PostToolUse hook', () => {
  after(cleanupProjects);

  it('a module file added with its `mod` takes the edge, a removed one gives it back to the parent; each equal to a rebuild', async () => {
    const root = copyProject('rust-rules');
    await buildIntel(root);
    writeFile(root, `${CORE}/store/disk.rs`, 'pub struct Disk;\n');
    writeFile(root, `${CORE}/store/mod.rs`, `${readFileSync(path.join(root, CORE, 'store/mod.rs'), 'utf8')}pub mod disk;\n`);
    writeFile(root, 'app/src/cli.rs', `${readFileSync(path.join(root, 'app/src/cli.rs'), 'utf8')}use shop::store::disk::Disk;\n`);
    await updateIntel(root, [`${CORE}/store/disk.rs`, `${CORE}/store/mod.rs`, 'app/src/cli.rs']);
    assert.deepEqual(targetsOf(root, `${CORE}/store/mod.rs`, 'disk'), [`${CORE}/store/disk.rs`]);
    assert.deepEqual(targetsOf(root, 'app/src/cli.rs', 'shop::store::disk::Disk'), [`${CORE}/store/disk.rs`]);
    await assertSameAsRebuild(root, 'rust-rules');

    // an unchanged file's use path moves when the module file it named goes away
    rmSync(path.join(root, CORE, 'inline/deep.rs'));
    const report = await updateIntel(root, [`${CORE}/inline/deep.rs`]);
    assert.ok(report.reresolved.includes(`${CORE}/store/memory.rs`));
    assert.deepEqual(targetsOf(root, `${CORE}/store/memory.rs`, 'crate::inline::deep::Deep'), [`${CORE}/core.rs`]);
    assert.deepEqual(targetsOf(root, `${CORE}/core.rs`, 'inline::deep'), ['unresolved']);
    await assertSameAsRebuild(root, 'rust-rules');
    writeFile(root, `${CORE}/inline/deep.rs`, 'pub struct Deep;\n');
    await updateIntel(root, [`${CORE}/inline/deep.rs`]);
    assert.deepEqual(targetsOf(root, `${CORE}/store/memory.rs`, 'crate::inline::deep::Deep'), [`${CORE}/inline/deep.rs`]);
    await assertSameAsRebuild(root, 'rust-rules');
  });

  it('a Cargo.toml that drops a dependency re-resolves the project', async () => {
    const root = copyProject('rust-rules');
    await buildIntel(root);
    writeFile(root, 'app/Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nutil-x = { workspace = true }\n');
    await updateIntel(root, ['app/Cargo.toml']);
    assert.deepEqual(targetsOf(root, 'app/src/main.rs', 'shop::Order'), ['unresolved']);
    assert.deepEqual(targetsOf(root, 'app/src/main.rs', 'util_x::helpers::join'), ['crates/util-x/src/helpers.rs']);
    await assertSameAsRebuild(root, 'rust-rules');
  });

  it('the PostToolUse hook, spawned on a .rs edit, puts the new use into the graph', async () => {
    const root = copyProject('rust-rules');
    await buildIntel(root);
    const file = path.join(root, 'app', 'src', 'cli.rs');
    const original = readFileSync(file, 'utf8');
    const added = 'use shop::model::Status;\n';
    writeFileSync(file, `${added}${original}`);
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, original.split('\n')[0], `${added}${original.split('\n')[0]}`, original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    await waitForWorkers(root);
    assert.deepEqual(targetsOf(root, 'app/src/cli.rs', 'shop::model::Status'), [`${CORE}/model.rs`]);
    await assertSameAsRebuild(root, 'rust-rules');
  });

  it('a fresh worker reads the Cargo.toml files an edit needs, and knows a crate root another package\'s [lib] path puts outside its folder', async () => {
    const root = tempProject({
      'Cargo.toml': '[package]\nname = "top"\nversion = "0.1.0"\n',
      'src/main.rs': 'fn main() {}\n',
      'pkg/Cargo.toml': '[package]\nname = "pkg"\nversion = "0.1.0"\n\n[lib]\npath = "../shared/lib.rs"\n',
      'pkg/src/main.rs': 'fn main() {}\n',
      'shared/lib.rs': 'pub mod util;\n',
      'shared/util.rs': 'pub struct Util;\n',
    });
    await buildIntel(root);
    const file = path.join(root, 'shared', 'lib.rs');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `use super::Util;\n${original}`);
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, original, `use super::Util;\n${original}`, original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    await waitForWorkers(root);
    const edited = (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files['shared/lib.rs'];
    const imp = edited.imports.find((i) => i.specifier === 'super::Util');
    assert.match(imp?.resolved.kind === 'unresolved' ? imp.resolved.reason : '', /super:: of the crate root/, 'shared/lib.rs is pkg\'s lib root: no module above it');
    await assertSameAsRebuild(root, 'a crate root outside its package');
  });
});
