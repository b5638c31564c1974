import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, updateIntel } from '../../../engine/src/index.js';
import { moveIntelAside, snapshotIntel } from '../../helpers/intel-snapshot.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';
import { assertSameAsRebuild, runSequence } from '../../helpers/random-sequence.js';

describe('incremental updates give the same intel as a rebuild', () => {
  after(cleanupProjects);
  const seeds = process.env.GSD_SEEDS ? process.env.GSD_SEEDS.split(',').map(Number) : [1, 2, 3, 4, 5, 6];
  for (const seed of seeds) {
    it(`random edit/add/delete/rename sequence, seed ${seed}`, async () => {
      const { root, log } = await runSequence(seed, 30);
      await assertSameAsRebuild(root, `seed ${seed}, ops:\n${log.join('\n')}`);
    });
  }

  it('concurrent updates of many files lose nothing', async () => {
    const root = tempProject({ 'src/base.ts': 'export const base = 1;\n' });
    await buildIntel(root);
    const names = Array.from({ length: 20 }, (_, i) => `src/f${i}.ts`);
    for (const [i, n] of names.entries()) writeFile(root, n, `import { base } from './base.js';\nexport const v${i} = base;\n`);
    await Promise.all(names.map((n) => updateIntel(root, [n])));
    const incremental = await snapshotIntel(moveIntelAside(root, 'incremental'));
    assert.equal(Object.keys(incremental.index.files).length, 21);
    await buildIntel(root, { cache: false });
    const rebuilt = await snapshotIntel(intelPaths(root).dir);
    assert.deepEqual(incremental.graph, rebuilt.graph);
    assert.deepEqual(incremental.index, rebuilt.index);
  });
});
