import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, refreshIntel, updateIntel } from '../../../engine/src/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { HOOKS, payload, runHookProcess, waitForWorkers } from '../../helpers/hooks.js';
import { cleanupProjects, copyProject, writeFile } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

const indexOf = (root: string) => JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument;
const targetsOf = (root: string, file: string, specifier: string) =>
  indexOf(root)
    .files[file].imports.filter((i) => i.specifier === specifier)
    .map((i) => (i.resolved.kind === 'file' ? i.resolved.path : i.resolved.kind));

describe('Python through incremental updates and the PostToolUse hook', () => {
  after(async () => {
    cleanupProjects();
  });

  it('a new submodule takes the edge its importers named: unchanged files are re-resolved', async () => {
    const root = copyProject('python-rules');
    await buildIntel(root);
    assert.deepEqual(targetsOf(root, 'app/main.py', 'alpha.plugins'), ['svc_src/src/alpha/plugins/__init__.py', 'svc_src/src/alpha/plugins/base.py']);
    writeFile(root, 'svc_src/src/alpha/plugins/nothing_here.py', 'X = 1\n');
    const report = await updateIntel(root, ['svc_src/src/alpha/plugins/nothing_here.py']);
    assert.ok(report.reresolved.includes('app/main.py'));
    // both names are submodules now: plugins/__init__.py is no longer what the statement names
    assert.deepEqual(targetsOf(root, 'app/main.py', 'alpha.plugins'), ['svc_src/src/alpha/plugins/base.py', 'svc_src/src/alpha/plugins/nothing_here.py']);
    rmSync(path.join(root, 'svc_src/src/alpha/plugins/nothing_here.py'));
    await updateIntel(root, ['svc_src/src/alpha/plugins/nothing_here.py']);
    assert.deepEqual(targetsOf(root, 'app/main.py', 'alpha.plugins'), ['svc_src/src/alpha/plugins/__init__.py', 'svc_src/src/alpha/plugins/base.py']);
    await assertSameAsRebuild(root, 'python-rules');
  });

  it('a packaging file that moves a source root re-resolves the project: named, and found by the catch-up', async () => {
    const root = copyProject('python-rules');
    await buildIntel(root);
    assert.deepEqual(targetsOf(root, 'app/main.py', 'eta'), ['svc_auto/src/eta/__init__.py']);
    assert.ok('svc_auto/pyproject.toml' in indexOf(root).configFiles, 'the packaging file is stamped');
    // the package moves out of src/ and the packaging file says so
    writeFile(root, 'svc_auto/pyproject.toml', '[project]\nname = "eta"\n\n[tool.setuptools]\npackage-dir = { "" = "python" }\n');
    writeFile(root, 'svc_auto/python/eta/__init__.py', 'ETA = 8\n');
    rmSync(path.join(root, 'svc_auto/src'), { recursive: true });
    await updateIntel(root, ['svc_auto/pyproject.toml', 'svc_auto/python/eta/__init__.py', 'svc_auto/src/eta/__init__.py']);
    assert.deepEqual(targetsOf(root, 'app/main.py', 'eta'), ['svc_auto/python/eta/__init__.py']);
    await assertSameAsRebuild(root, 'python-rules');

    // no hook told: the catch-up sees the packaging file changed
    writeFile(root, 'svc_auto/pyproject.toml', '[project]\nname = "eta"\n\n[tool.setuptools]\npackage-dir = { "" = "elsewhere" }\n');
    const stamp = indexOf(root).configFiles['svc_auto/pyproject.toml'];
    const later = new Date(stamp + 5000);
    const { utimesSync } = await import('node:fs');
    utimesSync(path.join(root, 'svc_auto/pyproject.toml'), later, later);
    await refreshIntel(root);
    assert.deepEqual(targetsOf(root, 'app/main.py', 'eta'), ['external']);
  });

  it('the PostToolUse hook, spawned on a .py edit, puts the new import into the graph', async () => {
    const root = copyProject('python-rules');
    await buildIntel(root);
    const file = path.join(root, 'app', 'settings.py');
    const original = readFileSync(file, 'utf8');
    const added = 'from alpha.util import helper\n';
    writeFileSync(file, `${added}${original}`);
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, original.split('\n')[0], `${added}${original.split('\n')[0]}`, original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    await waitForWorkers(root);
    assert.deepEqual(targetsOf(root, 'app/settings.py', 'alpha.util'), ['svc_src/src/alpha/util.py']);
    await assertSameAsRebuild(root, 'python-rules');
  });
});

describe('Python without its grammar', () => {
  after(cleanupProjects);

  it('a build whose grammar cannot be loaded still indexes every file and says why on each Python file', async () => {
    const { spawnSync } = await import('node:child_process');
    const { cliPath } = await import('../../helpers/paths.js');
    const root = copyProject('mixed-py-ts');
    const run = spawnSync(process.execPath, [cliPath, 'intel', 'build', root, '--json'], { encoding: 'utf8', env: { ...process.env, GSD_TREE_SITTER: path.join(root, 'no-such-folder') } });
    assert.equal(run.status, 0, run.stderr);
    const files = indexOf(root).files;
    const models = files['backend/src/shop/models.py'];
    assert.equal(models.language, 'python');
    assert.match(models.syntaxError?.message ?? '', /Python parser: tree-sitter grammar tree-sitter-python\.wasm is not loaded: .*no-such-folder/);
    assert.deepEqual(targetsOf(root, 'frontend/src/index.ts', './api.js'), ['frontend/src/api.ts'], 'the TS files are read as ever');
  });
});
