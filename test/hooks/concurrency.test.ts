import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths } from '../../engine/src/index.js';
import { HOOKS, everywhere, hookLog, payload, presence, runHookProcess, waitForWorkers } from '../helpers/hooks.js';
import { moveIntelAside, snapshotIntel } from '../helpers/intel-snapshot.js';
import { cleanupProjects, copyProject, writeFile } from '../helpers/project.js';

const N = 50;

describe('concurrency: hooks started all at once', () => {
  after(cleanupProjects);

  it(`${N} PostToolUse hooks on ${N} different files (and a SessionStart among them): every file in every artefact, graph equals a rebuild`, async () => {
    const root = copyProject('shop');
    await buildIntel(root);
    const files: string[] = [];
    for (let i = 0; i < N; i++) {
      // a chain of imports into the existing graph, so edges between the new files matter too
      const rel = `src/gen/g${i}.ts`;
      const body =
        i === 0 ? "import { addTax } from '../lib/money.js';\nexport const g0 = addTax(1);\n" : `import { g${i - 1} } from './g${i - 1}.js';\nexport const g${i} = g${i - 1} + 1;\n`;
      writeFile(root, rel, body);
      files.push(rel);
    }
    const runs = await Promise.all([
      ...files.map((rel) => runHookProcess(HOOKS.postToolUse, payload.write(root, path.join(root, rel), '', 'create'), { cwd: root })),
      runHookProcess(HOOKS.sessionStart, payload.sessionStart(root, 'startup'), { cwd: root }),
    ]);
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    for (const r of runs.slice(0, N)) assert.equal(r.stdout, '');
    await waitForWorkers(root);
    // 51 Node processes starting at once on a loaded 2-core machine can take longer than a hook's 3 s deadline to
    // read stdin; the hook then records a refresh instead (its documented fallback), which must lose nothing either.
    // Any other line in the log is a problem.
    const problems = hookLog(root)
      .split('\n')
      .filter((line) => line && !/deadline of \d+ ms reached( while reading stdin)?; pending work recorded for the next run$/.test(line));
    assert.deepEqual(problems, [], 'no hook or worker reported a problem');
    for (const rel of files) assert.deepEqual(await presence(root, rel), everywhere, rel);
    assert.deepEqual(
      readdirSync(intelPaths(root).dir).filter((n) => n.startsWith('journal') || n === 'worker.pid' || n === '.lock'),
      [],
      'no journal, pid file or lock left behind',
    );

    const incremental = await snapshotIntel(intelPaths(root).dir);
    const aside = moveIntelAside(root, 'incremental');
    await buildIntel(root, { cache: false });
    const rebuilt = await snapshotIntel(intelPaths(root).dir);
    assert.deepEqual(incremental.index, rebuilt.index);
    assert.deepEqual(incremental.graph, rebuilt.graph);
    assert.deepEqual(incremental.entities, rebuilt.entities);
    assert.equal(incremental.summary, rebuilt.summary);
    assert.ok(aside);
  });
});
