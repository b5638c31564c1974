import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, intelPaths, intelStatus, refreshIntel, updateIntel, type IntelStatus } from '../../../engine/src/index.js';
import { cleanupProjects, copyProject, writeFile } from '../../helpers/project.js';

/** What status answers without its shortcuts: no sidecar, no summary-state.json (every record read). */
async function reference(root: string): Promise<IntelStatus> {
  const paths = intelPaths(root);
  const state = readFileSync(paths.summaryState);
  rmSync(paths.indexFacts, { force: true });
  rmSync(paths.summaryState);
  try {
    return await intelStatus(root);
  } finally {
    writeFileSync(paths.summaryState, state);
    rmSync(paths.indexFacts, { force: true });
  }
}

/** intelStatus twice (the first writes the sidecar, the second reads it), both equal to the reference. */
async function assertStatus(root: string): Promise<IntelStatus> {
  const expected = await reference(root);
  const first = await intelStatus(root);
  assert.deepEqual(first, expected);
  const sidecar = intelPaths(root).indexFacts;
  assert.ok(existsSync(sidecar), 'the first status leaves the sidecar');
  const written = statSync(sidecar);
  const again = await intelStatus(root);
  assert.deepEqual(again, expected);
  const after = statSync(sidecar);
  assert.deepEqual([after.ino, after.mtimeMs], [written.ino, written.mtimeMs], 'the second status reads the sidecar, it does not write it again');
  return again;
}

describe('intel status: the answer after every kind of change, with and without its sidecar', () => {
  let root: string;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
  });
  after(cleanupProjects);

  it('is fresh after a build, with the counts of every record, and writes index-facts.bin', async () => {
    const s = await assertStatus(root);
    assert.equal(s.state, 'fresh');
    assert.equal(s.files, 12);
    assert.ok((s.edges ?? 0) > 5 && (s.imports ?? 0) >= (s.edges ?? 0), JSON.stringify(s));
  });

  it('after a build reads the index-facts.bin the build left, and answers the same with ownsProcess (the CLI)', async () => {
    rmSync(intelPaths(root).indexFacts, { force: true });
    await buildIntel(root);
    assert.equal(existsSync(intelPaths(root).indexFacts), false, 'a small build leaves no sidecar (default: from 10,000 files)');
    await buildIntel(root, { statusFacts: true });
    const sidecar = statSync(intelPaths(root).indexFacts);
    assert.ok(sidecar.mtimeMs >= statSync(intelPaths(root).index).mtimeMs, 'written after index.json');
    const first = await intelStatus(root, { ownsProcess: true });
    const after = statSync(intelPaths(root).indexFacts);
    assert.deepEqual([after.ino, after.mtimeMs], [sidecar.ino, sidecar.mtimeMs], 'status read the sidecar the build wrote');
    assert.deepEqual(first, await reference(root));
    assert.equal(first.state, 'fresh');
  });

  it('sees edits, deletes, adds and config changes made since, while the sidecar still describes the index', async () => {
    appendFileSync(path.join(root, 'src/lazy.ts'), '// touched\n');
    rmSync(path.join(root, 'src/legacy/format.cjs'));
    writeFile(root, 'src/new-one.ts', 'export const n = 1;\n');
    writeFile(root, 'src/cart/package.json', '{"name":"cart","type":"module"}\n');
    const s = await assertStatus(root);
    assert.equal(s.state, 'stale');
    assert.deepEqual(s.pending, { added: ['src/new-one.ts'], changed: ['src/lazy.ts'], removed: ['src/legacy/format.cjs'], configChanged: true, otherVersion: false });
  });

  it('is right again after the index is rewritten (an update, a refresh): the old sidecar no longer applies', async () => {
    await updateIntel(root, ['src/lazy.ts']);
    let s = await assertStatus(root);
    assert.deepEqual(s.pending?.changed, []);
    assert.deepEqual(s.pending?.added, ['src/new-one.ts']);
    await refreshIntel(root);
    s = await assertStatus(root);
    assert.equal(s.state, 'fresh');
    assert.equal(s.files, 12);
  });

  it('ignores a corrupt, torn, foreign or stale sidecar and a stale summary-state.json, and answers the same', async () => {
    const paths = intelPaths(root);
    const expected = await reference(root);
    const check = async (what: string) => {
      const got = await intelStatus(root);
      assert.deepEqual(got, await reference(root), what);
    };
    writeFileSync(paths.indexFacts, 'garbage');
    await check('garbage');
    await intelStatus(root);
    const good = readFileSync(paths.indexFacts);
    writeFileSync(paths.indexFacts, good.subarray(0, good.length - 8));
    await check('torn');
    writeFileSync(paths.indexFacts, Buffer.concat([good, Buffer.from('x')]));
    await check('trailing bytes');
    // another project's sidecar, for an index with other files
    const other = copyProject('shop');
    writeFile(other, 'src/only-there.ts', 'export const o = 1;\n');
    await buildIntel(other);
    await intelStatus(other);
    copyFileSync(intelPaths(other).indexFacts, paths.indexFacts);
    await check('foreign');
    // the sidecar of this project's index before an update added a file
    await intelStatus(root);
    const before = readFileSync(paths.indexFacts);
    writeFile(root, 'src/later.ts', 'export const later = 1;\n');
    await updateIntel(root, ['src/later.ts']);
    writeFileSync(paths.indexFacts, before);
    const now = await intelStatus(root);
    assert.equal(now.files, (expected.files ?? 0) + 1, 'the sidecar of the index before the update is not used');
    assert.deepEqual(now, await reference(root));
    rmSync(path.join(root, 'src/later.ts'));
    await updateIntel(root, ['src/later.ts']);
    // summary-state.json of another index.json: the edges are counted from the records
    const state = JSON.parse(readFileSync(paths.summaryState, 'utf8'));
    writeFileSync(paths.summaryState, JSON.stringify({ ...state, view: { ...state.view, edgeCount: 999 }, builtAt: 'another' }));
    rmSync(paths.indexFacts, { force: true });
    await check('stale summary state');
    writeFileSync(paths.summaryState, JSON.stringify({ ...state, view: { ...state.view, edgeCount: 999, unresolvedCount: state.view.unresolvedCount + 1 } }));
    rmSync(paths.indexFacts, { force: true });
    await check('a summary state that disagrees with the index');
    writeFileSync(paths.summaryState, JSON.stringify(state));
  });

  it('without index.json says missing, and a sidecar alone answers nothing', async () => {
    const paths = intelPaths(root);
    await intelStatus(root);
    const index = readFileSync(paths.index);
    rmSync(paths.index);
    try {
      assert.equal((await intelStatus(root)).state, 'missing');
    } finally {
      writeFileSync(paths.index, index);
    }
  });
});
