/**
 * The warm state (engine/src/pipeline/warm-state.ts): updates in one long-lived process keep index.json's spans and
 * the resolver between calls. It must never give a stale answer: random sequences through it equal a rebuild, also
 * when another process rebuilds or updates the intel in between.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildIntel, intelPaths, updateIntel } from '../../../engine/src/index.js';
import { warmStateHits } from '../../../engine/src/pipeline/warm-state.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';
import { assertSameAsRebuild, runSequence } from '../../helpers/random-sequence.js';

const ENGINE = fileURLToPath(new URL('../../../engine/src/index.js', import.meta.url));

/** Runs `call` (an expression over `e`, the engine, and `root`) in a separate Node process. */
function inOtherProcess(root: string, call: string): void {
  const script = `const e = await import(${JSON.stringify(ENGINE)}); const root = ${JSON.stringify(root)}; await ${call};`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

function indexRecord(root: string, rel: string): { exports: Array<{ name: string }> } {
  return JSON.parse(readFileSync(intelPaths(root).index, 'utf8')).files[rel];
}

describe('warm state between updates in one process', () => {
  after(cleanupProjects);

  for (const seed of [21, 22, 23]) {
    it(`random sequence through the warm state equals a rebuild, seed ${seed}`, async () => {
      const before = warmStateHits();
      const { root, log } = await runSequence(seed, 30);
      // every update after the first found its state kept (a failed layout check or a full summary reads afresh)
      assert.ok(warmStateHits() - before >= 10, `warm path used ${warmStateHits() - before} times`);
      await assertSameAsRebuild(root, `seed ${seed}, ops:\n${log.join('\n')}`);
    });
  }

  it('another process rebuilding or updating in between is never hidden by the warm state', async () => {
    const { root, log } = await runSequence(31, 24, (step, dir) => {
      if (step > 0 && step % 6 === 0) inOtherProcess(dir, 'e.buildIntel(root, { cache: false })');
      if (step % 6 === 3) {
        writeFile(dir, 'other/fromOther.ts', `export const other${step} = ${step};\n`);
        inOtherProcess(dir, `e.updateIntel(root, ['other/fromOther.ts'])`);
      }
    });
    assert.deepEqual(indexRecord(root, 'other/fromOther.ts').exports.map((x) => x.name), ['other21']);
    await assertSameAsRebuild(root, `seed 31 with other processes, ops:\n${log.join('\n')}`);
  });

  it('an edit by another process between two warm updates is kept', async () => {
    const root = tempProject({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': "import { a } from './a.js';\nexport const b = a;\n" });
    await buildIntel(root);
    writeFile(root, 'src/a.ts', 'export const a = 2;\nexport const a2 = 2;\n');
    await updateIntel(root, ['src/a.ts']);
    writeFile(root, 'src/b.ts', "import { a } from './a.js';\nexport const b = a;\nexport const fromOther = 1;\n");
    inOtherProcess(root, `e.updateIntel(root, ['src/b.ts'])`);
    const hits = warmStateHits();
    writeFile(root, 'src/a.ts', 'export const a = 3;\nexport const a3 = 3;\n');
    await updateIntel(root, ['src/a.ts']);
    assert.equal(warmStateHits(), hits, 'index.json was replaced by another process: the kept state is not used');
    assert.deepEqual(indexRecord(root, 'src/b.ts').exports.map((x) => x.name), ['b', 'fromOther']);
    assert.deepEqual(indexRecord(root, 'src/a.ts').exports.map((x) => x.name), ['a', 'a3']);
  });

  it('a changed intel section of .planning/config.json drops the kept state', async () => {
    const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    writeFile(root, 'src/a.ts', 'export const a = 2;\n');
    await updateIntel(root, ['src/a.ts']);
    writeFileSync(path.join(root, '.planning', 'config.json'), JSON.stringify({ intel: { maxFileBytes: 10 } }));
    const hits = warmStateHits();
    writeFile(root, 'src/a.ts', 'export const a = 3;\n');
    await updateIntel(root, ['src/a.ts']);
    assert.equal(warmStateHits(), hits);
    assert.ok(JSON.parse(readFileSync(intelPaths(root).index, 'utf8')).files['src/a.ts'].skipped, 'the new maxFileBytes applies');
  });
});
