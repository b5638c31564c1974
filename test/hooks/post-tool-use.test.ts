import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, drainJournal, hasPendingJournal, intelPaths, journalPath } from '../../engine/src/index.js';
import { HOOKS, everywhere, hookLog, nowhere, payload, presence, runHookProcess, waitForWorkers } from '../helpers/hooks.js';
import { cleanupProjects, copyProject, tempProject, writeFile } from '../helpers/project.js';

const post = HOOKS.postToolUse;

/** Every hook run must exit 0 and print nothing (PostToolUse has nothing to tell the model). */
async function postHook(stdin: string | object | Buffer, cwd: string, env?: NodeJS.ProcessEnv) {
  const r = await runHookProcess(post, stdin, { cwd, env });
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  assert.equal(r.stdout, '', 'PostToolUse prints nothing');
  return r;
}

describe('PostToolUse hook (built, spawned with Claude Code payloads)', () => {
  let root: string;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
  });
  after(async () => {
    await waitForWorkers(root).catch(() => undefined);
    cleanupProjects();
  });

  it('Write (create): the new file lands in every artefact, with its edges', async () => {
    const file = path.join(root, 'src', 'lib', 'percent.ts');
    const content = "import { addTax } from './money.js';\nexport const withTax = (c: number) => addTax(c);\n";
    writeFileSync(file, content);
    await postHook(payload.write(root, file, content, 'create'), root);
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'src/lib/percent.ts'), everywhere);
    const index = JSON.parse(readFileSync(intelPaths(root).index, 'utf8'));
    const record = index.files['src/lib/percent.ts'];
    assert.ok(JSON.stringify(record).includes('src/lib/money.ts'), 'its import is resolved');
  });

  it('Write (update): the file is re-read', async () => {
    const file = path.join(root, 'src', 'lib', 'strings.ts');
    const before = readFileSync(file, 'utf8');
    const content = `${before}\nexport function shout(s: string): string {\n  return s.toUpperCase();\n}\n`;
    writeFileSync(file, content);
    await postHook(payload.write(root, file, content, 'update', before), root);
    await waitForWorkers(root);
    const index = JSON.parse(readFileSync(intelPaths(root).index, 'utf8'));
    assert.ok(JSON.stringify(index.files['src/lib/strings.ts']).includes('shout'));
  });

  it('Edit: the edited file is re-read, and a new import becomes an edge', async () => {
    const file = path.join(root, 'src', 'lazy.ts');
    const original = readFileSync(file, 'utf8');
    const added = "import { formatPrice } from './lib/money.js';\nexport const price = formatPrice(100);\n";
    writeFileSync(file, `${added}${original}`);
    await postHook(payload.edit(root, file, original.split('\n')[0], `${added}${original.split('\n')[0]}`, original), root);
    await waitForWorkers(root);
    const index = JSON.parse(readFileSync(intelPaths(root).index, 'utf8'));
    assert.ok(JSON.stringify(index.files['src/lazy.ts']).includes('formatPrice'));
  });

  it('NotebookEdit: takes notebook_path; a notebook is not JS/TS and is ignored cheaply', async () => {
    const nb = path.join(root, 'analysis.ipynb');
    writeFileSync(nb, '{"cells":[]}');
    await postHook(payload.notebookEdit(root, nb, 'print(1)'), root);
    assert.equal(hasPendingJournal(root), false);
    assert.equal(hookLog(root), '', 'nothing worth a note');
  });

  it('NotebookEdit on a path the engine indexes is captured through notebook_path', async () => {
    // Not a real notebook, but proves the field is read: the hook must not depend on file_path.
    const file = path.join(root, 'src', 'nb-helper.ts');
    writeFileSync(file, 'export const fromNotebook = 1;\n');
    await postHook(payload.notebookEdit(root, file, 'export const fromNotebook = 1;'), root);
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'src/nb-helper.ts'), everywhere);
  });

  it('files outside the indexed set are ignored without touching the journal', async () => {
    const files = ['README.md', 'node_modules/dep/index.js', '.git/hooks/pre-commit.js', '.planning/intel/summary.md', 'docs/notes.txt'];
    for (const rel of files) {
      writeFile(root, rel, 'x\n');
      await postHook(payload.write(root, path.join(root, rel), 'x\n', 'create'), root);
    }
    assert.equal(hasPendingJournal(root), false);
  });

  it('a file gone before the drain is pruned from every artefact', async () => {
    const file = path.join(root, 'src', 'ephemeral.ts');
    writeFileSync(file, 'export const e = 1;\n');
    await postHook(payload.write(root, file, 'export const e = 1;\n', 'create'), root);
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'src/ephemeral.ts'), everywhere);
    rmSync(file);
    // the hook fires for a path that is gone by the time the worker reads it (deleted right after the write)
    await postHook(payload.write(root, file, '', 'create'), root);
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'src/ephemeral.ts'), nowhere);
  });

  it('the project is found from the file, not from the session cwd (monorepo)', async () => {
    const mono = tempProject({ 'packages/app/src/a.ts': 'export const a = 1;\n', 'packages/app/.planning/.keep': '' }, { planning: false });
    const app = path.join(mono, 'packages', 'app');
    await buildIntel(app);
    const file = path.join(app, 'src', 'b.ts');
    writeFileSync(file, "import { a } from './a.js';\nexport const b = a;\n");
    await postHook(payload.write(mono, file, '', 'create'), mono); // cwd: the monorepo root, which has no .planning/
    await waitForWorkers(app);
    assert.deepEqual(await presence(app, 'src/b.ts'), everywhere);
    assert.equal(existsSync(path.join(mono, '.planning')), false, 'nothing created at the session cwd');
  });

  it('a project without .planning/ is left alone', async () => {
    const plain = tempProject({ 'a.ts': 'export const a = 1;\n' }, { planning: false });
    await postHook(payload.write(plain, path.join(plain, 'a.ts'), '', 'create'), plain);
    assert.equal(existsSync(path.join(plain, '.planning')), false);
  });

  it('capture off in .planning/config.json: nothing is recorded', async () => {
    const off = tempProject({ 'a.ts': 'export const a = 1;\n', '.planning/config.json': JSON.stringify({ intel: { capture: false } }) });
    await buildIntel(off);
    writeFile(off, 'b.ts', 'export const b = 2;\n');
    await postHook(payload.write(off, path.join(off, 'b.ts'), '', 'create'), off);
    assert.equal(hasPendingJournal(off), false);
    assert.equal(existsSync(path.join(intelPaths(off).dir, 'worker.pid')), false);
    assert.deepEqual(await presence(off, 'b.ts'), nowhere);
  });

  it('an edit of .planning/config.json asks for a refresh (the indexed set may have changed)', async () => {
    const p = tempProject({ 'a.ts': 'export const a = 1;\n', 'legacy/old.ts': 'export const o = 1;\n' });
    await buildIntel(p);
    const config = path.join(p, '.planning', 'config.json');
    writeFileSync(config, JSON.stringify({ intel: { exclude: ['legacy/**'] } }));
    await postHook(payload.write(p, config, '', 'create'), p);
    await waitForWorkers(p);
    assert.deepEqual(await presence(p, 'legacy/old.ts'), nowhere);
    assert.deepEqual(await presence(p, 'a.ts'), everywhere);
  });

  it('a stale worker.pid (dead process) does not stop a new worker', async () => {
    const p = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(p);
    writeFileSync(path.join(intelPaths(p).dir, 'worker.pid'), '2147483646\n');
    writeFile(p, 'b.ts', 'export const b = 1;\n');
    await postHook(payload.write(p, path.join(p, 'b.ts'), '', 'create'), p);
    await waitForWorkers(p);
    assert.deepEqual(await presence(p, 'b.ts'), everywhere);
  });

  it('a stdin too big to keep (a Write of a huge file) still records the file', async () => {
    const p = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(p);
    writeFile(p, 'big.ts', 'export const big = 1;\n');
    const huge = 'x'.repeat(9 * 1024 * 1024);
    await postHook(payload.write(p, path.join(p, 'big.ts'), huge, 'create'), p);
    await waitForWorkers(p);
    assert.deepEqual(await presence(p, 'big.ts'), everywhere);
  });

  it('readers drain first: the CLI query sees an edit recorded a moment ago', async () => {
    const { spawnSync } = await import('node:child_process');
    const { cliPath } = await import('../helpers/paths.js');
    const { appendJournal } = await import('../../engine/src/index.js');
    const p = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(p);
    writeFile(p, 'b.ts', "import { a } from './a.js';\nexport const b = a;\n");
    // recorded the way the hook records it, but with no worker started: only the reader can apply it
    appendJournal(p, [{ path: path.join(p, 'b.ts'), at: Date.now(), source: 'test' }]);
    const r = spawnSync(process.execPath, [cliPath, 'intel', 'query', 'deps', 'b.ts', '--json'], { cwd: p, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.includes('a.ts'));
    assert.equal(hasPendingJournal(p), false);
    assert.equal(await drainJournal(p), null);
  });
});
