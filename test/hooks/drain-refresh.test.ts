import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { appendJournal, buildIntel, drainJournal, hasPendingJournal, intelPaths, intelStatus } from '../../engine/src/index.js';
import { everywhere, nowhere, presence } from '../helpers/hooks.js';
import { moveIntelAside, snapshotIntel } from '../helpers/intel-snapshot.js';
import { cleanupProjects, tempProject, writeFile } from '../helpers/project.js';

const exportsOf = (root: string, rel: string): string => JSON.stringify(JSON.parse(readFileSync(intelPaths(root).index, 'utf8')).files[rel]);

describe('journal refresh requests (what SessionStart records)', () => {
  after(cleanupProjects);

  it('a refresh entry runs the stat-based catch-up: new, changed and deleted files', async () => {
    const root = tempProject({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 1;\n', 'c.ts': 'export const c = 1;\n' });
    await buildIntel(root);
    writeFile(root, 'd.ts', "import { a } from './a.js';\nexport const d = a;\n");
    writeFile(root, 'b.ts', 'export const b = 1;\nexport const b2 = 2;\n');
    rmSync(path.join(root, 'c.ts'));
    appendJournal(root, [{ refresh: true, at: Date.now(), source: 'SessionStart:startup' }]);
    const report = await drainJournal(root);
    assert.equal(report?.refreshed, true);
    assert.equal(report?.malformed, 0);
    assert.deepEqual(await presence(root, 'd.ts'), everywhere);
    assert.deepEqual(await presence(root, 'c.ts'), nowhere);
    assert.match(exportsOf(root, 'b.ts'), /b2/);
    assert.equal(hasPendingJournal(root), false);
  });

  it('paths recorded beside a refresh are re-parsed even when size and mtime did not move', async () => {
    const root = tempProject({ 'a.ts': 'export const aa = 1;\n' });
    await buildIntel(root);
    const file = path.join(root, 'a.ts');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, 'export const bb = 1;\n'); // same size
    utimesSync(file, atime, mtime); // same mtime: invisible to a stat-based scan
    appendJournal(root, [
      { refresh: true, at: Date.now() },
      { path: file, at: Date.now(), source: 'PostToolUse:Write' },
    ]);
    await drainJournal(root);
    assert.match(exportsOf(root, 'a.ts'), /bb/);
  });

  it('a tsconfig.json or package.json that appears outside Claude is noticed by the catch-up and equals a rebuild', async () => {
    const root = tempProject({
      'app/src/main.ts': "import { money } from '@lib/money';\nimport { util } from '#util';\nexport const m = money + util;\n",
      'app/src/lib/money.ts': 'export const money = 1;\n',
      'app/src/util.ts': 'export const util = 2;\n',
    });
    await buildIntel(root);
    const targets = () => {
      const rec = JSON.parse(readFileSync(intelPaths(root).index, 'utf8')).files['app/src/main.ts'];
      return rec.imports.map((i: any) => i.resolved.path ?? i.resolved.kind).sort();
    };
    assert.deepEqual(targets(), ['external', 'unresolved']);
    writeFile(root, 'app/tsconfig.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } }));
    writeFile(root, 'app/package.json', JSON.stringify({ name: 'app', imports: { '#util': './src/util.ts' } }));
    assert.equal((await intelStatus(root)).state, 'stale');
    appendJournal(root, [{ refresh: true, at: Date.now(), source: 'SessionStart:startup' }]);
    await drainJournal(root);
    assert.deepEqual(targets(), ['app/src/lib/money.ts', 'app/src/util.ts']);
    assert.equal((await intelStatus(root)).state, 'fresh');
    const incremental = await snapshotIntel(intelPaths(root).dir);
    moveIntelAside(root, 'incremental');
    await buildIntel(root);
    assert.deepEqual(incremental, await snapshotIntel(intelPaths(root).dir));
  });

  it('a refresh with no intel yet builds it', async () => {
    const root = tempProject({ 'a.ts': 'export const a = 1;\n', 'b.ts': "import { a } from './a.js';\nexport const b = a;\n" });
    appendJournal(root, [{ refresh: true, at: Date.now() }]);
    const report = await drainJournal(root);
    assert.equal(report?.update?.mode, 'rebuild');
    assert.deepEqual(await presence(root, 'b.ts'), everywhere);
  });
});
