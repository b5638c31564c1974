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

describe('Go through incremental updates', () => {
  after(cleanupProjects);

  it('a file added to a package is reached by its importers at once, and removed again; equal to a rebuild', async () => {
    const root = copyProject('go-rules');
    await buildIntel(root);
    assert.deepEqual(targetsOf(root, 'app/main.go', 'example.com/app/pkg/util'), ['app/pkg/util/doc.go', 'app/pkg/util/util.go']);
    writeFile(root, 'app/pkg/util/split.go', 'package util\n\nimport "strings"\n\nfunc Split(s string) []string { return strings.Split(s, "/") }\n');
    const report = await updateIntel(root, ['app/pkg/util/split.go']);
    assert.ok(report.reresolved.includes('app/main.go'));
    assert.deepEqual(targetsOf(root, 'app/main.go', 'example.com/app/pkg/util'), ['app/pkg/util/doc.go', 'app/pkg/util/split.go', 'app/pkg/util/util.go']);
    assert.deepEqual(targetsOf(root, 'app/internal/store/example_test.go', 'example.com/app/pkg/util'), ['app/pkg/util/doc.go', 'app/pkg/util/split.go', 'app/pkg/util/util.go']);
    await assertSameAsRebuild(root, 'go-rules');
    rmSync(path.join(root, 'app/pkg/util/split.go'));
    await updateIntel(root, ['app/pkg/util/split.go']);
    assert.deepEqual(targetsOf(root, 'app/main.go', 'example.com/app/pkg/util'), ['app/pkg/util/doc.go', 'app/pkg/util/util.go']);
    await assertSameAsRebuild(root, 'go-rules');
  });

  it('a go.work that stops using a module makes its paths external: the config file re-resolves the project', async () => {
    const root = copyProject('go-rules');
    await buildIntel(root);
    writeFile(root, 'go.work', 'go 1.19\n\nuse ./app\n');
    await updateIntel(root, ['go.work']);
    assert.deepEqual(targetsOf(root, 'app/main.go', 'example.com/lib/greet'), ['external']);
    await assertSameAsRebuild(root, 'go-rules');
  });

  it('the PostToolUse hook, spawned on a .go edit, puts the new import into the graph', async () => {
    const root = copyProject('go-rules');
    await buildIntel(root);
    const file = path.join(root, 'app', 'cmd', 'tool', 'tool.go');
    const original = readFileSync(file, 'utf8');
    const line = original.split('\n').find((l) => l.startsWith('package '))!;
    const edited = `${line}\n\nimport _ "example.com/app/pkg/util"\n`;
    writeFileSync(file, original.replace(line, edited));
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, line, edited, original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    await waitForWorkers(root);
    assert.deepEqual(targetsOf(root, 'app/cmd/tool/tool.go', 'example.com/app/pkg/util'), ['app/pkg/util/doc.go', 'app/pkg/util/util.go']);
    await assertSameAsRebuild(root, 'go-rules');
  });
});

describe('Go: bad input', () => {
  after(cleanupProjects);

  it('a file with a syntax error keeps its imports and says where; a go.mod without a module line steers nothing', async () => {
    const root = tempProject({
      'go.mod': 'go 1.19\n',
      'a/a.go': 'package a\n\nimport "example.com/m/b"\n\nfunc A( {\n',
      'b/b.go': 'package b\n\nfunc B() {}\n',
      'm/go.mod': 'module example.com/m\n',
      'm/b/b.go': 'package b\n',
      'm/c.go': 'package m\n\nimport "example.com/m/b"\n',
    });
    await buildIntel(root);
    const files = (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files;
    assert.match(files['a/a.go'].syntaxError?.message ?? '', /syntax error/);
    assert.deepEqual(targetsOf(root, 'a/a.go', 'example.com/m/b'), ['external'], 'the root go.mod names no module: m is not its module');
    assert.deepEqual(targetsOf(root, 'm/c.go', 'example.com/m/b'), ['m/b/b.go']);
  });
});
