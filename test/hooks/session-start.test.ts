import assert from 'node:assert/strict';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, hasPendingJournal, intelPaths } from '../../engine/src/index.js';
import { HOOKS, everywhere, nowhere, payload, presence, runHookProcess, waitForWorkers } from '../helpers/hooks.js';
import { cleanupProjects, copyProject, tempProject, writeFile } from '../helpers/project.js';

const SOURCES = ['startup', 'resume', 'clear', 'compact', 'fork'] as const;

async function sessionStart(cwd: string, source: (typeof SOURCES)[number], env?: NodeJS.ProcessEnv) {
  const r = await runHookProcess(HOOKS.sessionStart, payload.sessionStart(cwd, source), { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  return r;
}

/** stdout must be exactly one hook JSON object carrying SessionStart additionalContext */
function contextOf(stdout: string): string {
  const out = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.deepEqual(Object.keys(out), ['hookSpecificOutput']);
  assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
  const text = out.hookSpecificOutput.additionalContext;
  assert.equal(typeof text, 'string');
  assert.ok(text.length < 10_000, `under Claude Code's cap (${text.length})`);
  return text;
}

describe('SessionStart hook (built, spawned with Claude Code payloads)', () => {
  let root: string;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
  });
  after(async () => {
    await waitForWorkers(root).catch(() => undefined);
    cleanupProjects();
  });

  for (const [i, source] of SOURCES.entries()) {
    it(`source ${source}: a compact summary in additionalContext, and changes made outside Claude are caught up`, async () => {
      // outside Claude (Bash, git checkout, another editor): no PostToolUse fires for these
      const added = `src/outside-${source}.ts`;
      writeFile(root, added, `import { addTax } from './lib/money.js';\nexport const t${i} = addTax(${i});\n`);
      const r = await sessionStart(root, source);
      const text = contextOf(r.stdout);
      assert.ok(text.length < 3_000, `compact (${text.length} characters)`);
      assert.match(text, /Hotspots/);
      assert.match(text, /src\/lib\/money\.ts/);
      assert.match(text, /Conventions:/);
      assert.match(text, /Freshness: last updated/);
      assert.match(text, /background refresh is catching up/);
      assert.match(text, /mcp__gsd__/);
      assert.match(text, /get-shit-done-cc intel query/);
      await waitForWorkers(root);
      assert.deepEqual(await presence(root, added), everywhere);
    });
  }

  it('deleted and renamed files are pruned from every artefact at the next SessionStart', async () => {
    assert.deepEqual(await presence(root, 'src/catalog/search.ts'), everywhere);
    assert.deepEqual(await presence(root, 'src/legacy/format.cjs'), everywhere);
    rmSync(path.join(root, 'src/catalog/search.ts'));
    renameSync(path.join(root, 'src/legacy/format.cjs'), path.join(root, 'src/legacy/formatting.cjs'));
    await sessionStart(root, 'resume');
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'src/catalog/search.ts'), nowhere);
    assert.deepEqual(await presence(root, 'src/legacy/format.cjs'), nowhere);
    assert.deepEqual(await presence(root, 'src/legacy/formatting.cjs'), everywhere);
  });

  it('the session cwd may be a sub-folder: the project is the nearest .planning/ above it', async () => {
    const r = await sessionStart(path.join(root, 'src', 'cart'), 'startup');
    assert.match(contextOf(r.stdout), /codebase intelligence for `/);
    await waitForWorkers(root);
  });

  it('no .planning/ anywhere above the cwd: silent, exit 0, nothing created', async () => {
    const plain = tempProject({ 'a.ts': 'export const a = 1;\n' }, { planning: false });
    const r = await sessionStart(plain, 'startup');
    assert.equal(r.stdout, '');
    assert.equal(existsSync(path.join(plain, '.planning')), false);
  });

  it('no intel yet, build slower than the budget: says it is building in the background, which then finishes', async () => {
    const p = tempProject({ 'a.ts': 'export const a = 1;\n', 'b.ts': "import { a } from './a.js';\nexport const b = a;\n" });
    const r = await sessionStart(p, 'startup', { GSD_HOOK_BUILD_BUDGET_MS: '0' });
    const text = contextOf(r.stdout);
    assert.match(text, /being built in the background/);
    await waitForWorkers(p);
    assert.deepEqual(await presence(p, 'b.ts'), everywhere);
  });

  it('no intel yet, build within the budget: the summary of the fresh build is in the context', async () => {
    const p = tempProject({ 'a.ts': 'export const a = 1;\n', 'b.ts': "import { a } from './a.js';\nexport const b = a;\n" });
    const r = await sessionStart(p, 'startup', { GSD_HOOK_BUILD_BUDGET_MS: '60000' });
    const text = contextOf(r.stdout);
    assert.match(text, /2 files · 1 internal dependency/);
    assert.match(text, /`a\.ts` 1 direct/);
    await waitForWorkers(p);
    assert.deepEqual(await presence(p, 'a.ts'), everywhere);
  });

  it('capture off: no refresh, no worker; the existing summary is still given, with a note', async () => {
    const p = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(p);
    writeFileSync(path.join(p, '.planning', 'config.json'), JSON.stringify({ intel: { capture: false } }));
    writeFile(p, 'late.ts', 'export const late = 1;\n');
    const r = await sessionStart(p, 'startup');
    const text = contextOf(r.stdout);
    assert.match(text, /capture is off/);
    assert.equal(hasPendingJournal(p), false);
    assert.equal(existsSync(path.join(intelPaths(p).dir, 'worker.pid')), false);
    assert.deepEqual(await presence(p, 'late.ts'), nowhere);
  });

  it('capture off and no intel: says how to build it', async () => {
    const p = tempProject({ 'a.ts': 'export const a = 1;\n', '.planning/config.json': JSON.stringify({ intel: { capture: false } }) });
    const r = await sessionStart(p, 'startup');
    assert.match(contextOf(r.stdout), /get-shit-done-cc intel build/);
    assert.equal(existsSync(intelPaths(p).index), false);
  });
});
