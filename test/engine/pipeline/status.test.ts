import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, carryStatusFacts, intelPaths, intelStatus, refreshIntel, updateIntel, type IntelStatus } from '../../../engine/src/index.js';
import { currentIdentity, readFactsSidecar } from '../../../engine/src/graph/facts-sidecar.js';
import { readIndexFacts } from '../../../engine/src/graph/index-facts.js';
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
    assert.ok(readFactsSidecar(intelPaths(root).indexFacts, currentIdentity(intelPaths(root).index)!), 'for the index.json the build wrote');
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

describe('intel status: updates carry index-facts.bin along', () => {
  after(cleanupProjects);

  it('after every kind of update and refresh the sidecar is carried to the new index.json and equals a fresh split of it', async () => {
    const root = copyProject('shop');
    await buildIntel(root, { statusFacts: true });
    const paths = intelPaths(root);
    const check = async (what: string, carry = true) => {
      assert.equal(await carryStatusFacts(root), carry, `${what}: a carry was noted`);
      const identity = currentIdentity(paths.index)!;
      const followed = readFactsSidecar(paths.indexFacts, identity);
      assert.ok(followed, `${what}: the sidecar was carried to the new index.json`);
      const split = readIndexFacts(paths.index);
      assert.ok(split.ok);
      assert.deepEqual(followed, split.facts, what);
      assert.deepEqual(await intelStatus(root), await reference(root), what);
      await intelStatus(root); // reference() removed the sidecar: the status writes it again for the next step
    };
    const edit = async (what: string, files: Record<string, string | null>) => {
      for (const [rel, text] of Object.entries(files)) {
        if (text === null) rmSync(path.join(root, rel));
        else writeFile(root, rel, text);
      }
      await updateIntel(root, Object.keys(files));
      await check(what);
    };
    await check('the build', false);
    await edit('a body edit', { 'src/lib/strings.ts': 'export const upper = (s: string) => s.toUpperCase();\nexport const lower = (s: string) => s.toLowerCase();\n' });
    await edit('a new file with resolved and unresolved imports', { 'src/new/feature.ts': "import { upper } from '../lib/strings';\nimport { nope } from './missing';\nimport x from 'left-pad';\nexport const f = upper(nope + x);\n" });
    await edit('an import removed', { 'src/cart/cart.ts': 'export const empty = [];\n' });
    await edit('a syntax error', { 'src/broken.ts': 'export const = ;\n' });
    await edit('a delete that leaves imports unresolved', { 'src/lib/money.ts': null });
    await edit('the syntax error fixed, an add and a delete at once', { 'src/broken.ts': 'export const fixed = 1;\n', 'src/lib/money.ts': 'export const cents = (n: number) => n * 100;\n', 'src/new/feature.ts': null });
    writeFile(root, 'src/catalog/product.ts', 'export const product = 1;\n');
    writeFile(root, 'src/outside-claude.ts', "import { product } from './catalog/product';\nexport const p = product;\n");
    rmSync(path.join(root, 'src/legacy/report.cjs'));
    await refreshIntel(root);
    await check('a refresh of changes made outside');
    // a note carried after another writer replaced index.json names the update's index.json: status does not use it
    writeFile(root, 'src/late.ts', 'export const late = 1;\n');
    await updateIntel(root, ['src/late.ts']);
    await buildIntel(root);
    assert.equal(await carryStatusFacts(root), true);
    assert.equal(readFactsSidecar(paths.indexFacts, currentIdentity(paths.index)!), null);
    assert.deepEqual(await intelStatus(root), await reference(root));
    assert.equal(await carryStatusFacts(root), false, 'a note is carried once');
  });
});
