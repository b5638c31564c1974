import assert from 'node:assert/strict';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
    .map((i) => `${i.resolved.kind === 'file' ? i.resolved.path : i.resolved.kind}${i.inferred ? ' ~' : ''}`);

const db = (root: string, flags: string) =>
  JSON.stringify([{ directory: root, command: `cc ${flags} -c src/main.c`, file: 'src/main.c' }, { directory: root, command: `cc ${flags} -c src/util.c`, file: 'src/util.c' }]);

describe('C/C++ through incremental updates and the PostToolUse hook', () => {
  after(cleanupProjects);

  it('a header added that shadows another takes the includes at once, and gives them back when removed; equal to a rebuild', async () => {
    const root = copyProject('cpp-rules');
    await buildIntel(root);
    assert.deepEqual(targetsOf(root, 'src/main.c', '"lib/api.h"'), ['include/lib/api.h ~']);
    // the including file's own folder is searched first
    writeFile(root, 'src/lib/api.h', 'int local_api(void);\n');
    const report = await updateIntel(root, ['src/lib/api.h']);
    assert.ok(report.reresolved.includes('src/main.c'));
    assert.deepEqual(targetsOf(root, 'src/main.c', '"lib/api.h"'), ['src/lib/api.h']);
    await assertSameAsRebuild(root, 'cpp-rules');
    rmSync(path.join(root, 'src/lib/api.h'));
    await updateIntel(root, ['src/lib/api.h']);
    assert.deepEqual(targetsOf(root, 'src/main.c', '"lib/api.h"'), ['include/lib/api.h ~']);
    await assertSameAsRebuild(root, 'cpp-rules');
  });

  it('compile_commands.json written, changed and found by the catch-up re-resolves the project; equal to a rebuild', async () => {
    const root = copyProject('cpp-rules');
    await buildIntel(root);
    writeFile(root, 'compile_commands.json', db(root, '-Ishadow -Iinclude'));
    await updateIntel(root, ['compile_commands.json']);
    assert.deepEqual(targetsOf(root, 'src/main.c', '"lib/api.h"'), ['shadow/lib/api.h']);
    await assertSameAsRebuild(root, 'cpp-rules');
    writeFile(root, 'compile_commands.json', db(root, '-Iinclude'));
    await updateIntel(root, ['compile_commands.json']);
    assert.deepEqual(targetsOf(root, 'src/main.c', '"lib/api.h"'), ['include/lib/api.h']);
    await assertSameAsRebuild(root, 'cpp-rules');

    // no hook told: a database that appears in build/ (cmake -B build) is seen by the catch-up
    rmSync(path.join(root, 'compile_commands.json'));
    await updateIntel(root, ['compile_commands.json']);
    assert.deepEqual(targetsOf(root, 'src/main.c', '"lib/api.h"'), ['include/lib/api.h ~']);
    assert.ok('build/compile_commands.json' in indexOf(root).configFiles, 'where cmake writes one is watched');
    writeFile(root, 'build/compile_commands.json', db(root, '-Ishadow'));
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(root, 'build/compile_commands.json'), later, later);
    await refreshIntel(root);
    assert.deepEqual(targetsOf(root, 'src/main.c', '"lib/api.h"'), ['shadow/lib/api.h']);
  });

  it('the PostToolUse hook, spawned on a .c and a .h edit, puts the new includes into the graph', async () => {
    const root = copyProject('cpp-rules');
    await buildIntel(root);
    const file = path.join(root, 'src', 'util.c');
    const original = readFileSync(file, 'utf8');
    const first = original.split('\n')[0];
    writeFileSync(file, original.replace(first, `${first}\n#include "lib/config.h"`));
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, first, `${first}\n#include "lib/config.h"`, original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    await waitForWorkers(root);
    assert.deepEqual(targetsOf(root, 'src/util.c', '"lib/config.h"'), ['include/lib/config.h ~']);

    const header = path.join(root, 'src', 'util.h');
    const before = readFileSync(header, 'utf8');
    writeFileSync(header, before.replace('#define UTIL_H', '#define UTIL_H\n#include "win/port.h"'));
    const run2 = await runHookProcess(HOOKS.postToolUse, payload.edit(root, header, '#define UTIL_H', '#define UTIL_H\n#include "win/port.h"', before), { cwd: root });
    assert.equal(run2.code, 0, run2.stderr);
    await waitForWorkers(root);
    assert.deepEqual(targetsOf(root, 'src/util.h', '"win/port.h"'), ['src/win/port.h']);
    await assertSameAsRebuild(root, 'cpp-rules');
  });
});
