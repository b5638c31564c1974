/**
 * The hooks' worker stays alive for an idle window once the journal is empty (hooks/src/worker.ts): the next edit
 * is applied by the same, warm process; after the window it exits and removes its pid file; an edit recorded while
 * it exits is never lost. Real hook processes with Claude Code payloads, a real worker.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, hasPendingJournal, intelPaths, intelStatus } from '../../engine/src/index.js';
import { currentIdentity, sidecarBelongsTo } from '../../engine/src/graph/facts-sidecar.js';
import { HOOKS, alive, everywhere, hookLog, payload, presence, runHookProcess, waitForWorkers, workerPid } from '../helpers/hooks.js';
import { repoRoot } from '../helpers/paths.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `rel` with one export and sends the PostToolUse hook a Write of it, the worker idling for `idleMs`. */
async function writeThroughHook(root: string, rel: string, idleMs: number): Promise<void> {
  const file = path.join(root, rel);
  const content = `export const ${path.basename(rel, '.ts').replace(/\W/g, '_')} = 1;\n`;
  writeFileSync(file, content);
  const r = await runHookProcess(HOOKS.postToolUse, payload.write(root, file, content, 'create'), {
    cwd: root,
    env: { GSD_WORKER_IDLE_MS: String(idleMs), GSD_HOOK_DEBUG: '1' },
  });
  assert.equal(r.code, 0, r.stderr);
}

function indexed(root: string, rel: string): boolean {
  try {
    return rel in (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as { files: Record<string, unknown> }).files;
  } catch {
    return false; // being replaced: look again
  }
}

/** Waits until `rel` is in index.json and the journal is empty (a cap turns a hang into a failure; no timing assertion). */
async function waitApplied(root: string, rel: string, capMs = 120_000): Promise<void> {
  const until = Date.now() + capMs;
  while (!(indexed(root, rel) && !hasPendingJournal(root))) {
    if (Date.now() > until) throw new Error(`${rel} not applied after ${capMs} ms; hook.log:\n${hookLog(root)}`);
    await sleep(25);
  }
}

/** Waits for the process to end (the cap turns a worker that never exits into a failure). */
async function waitDead(pid: number, capMs = 30_000): Promise<void> {
  const until = Date.now() + capMs;
  while (alive(pid)) {
    if (Date.now() > until) throw new Error(`worker ${pid} still alive after ${capMs} ms`);
    await sleep(25);
  }
}

describe('the worker waits for the next edit', () => {
  after(cleanupProjects);

  it('applies two edits sent a moment apart in one process, then exits after the idle window and removes its pid file', async () => {
    const root = copyProject('shop');
    await buildIntel(root);
    await writeThroughHook(root, 'src/idle-first.ts', 5_000);
    await waitApplied(root, 'src/idle-first.ts');
    const pid = workerPid(root);
    assert.ok(pid !== null && alive(pid), 'the worker is still alive once the journal is empty');
    await writeThroughHook(root, 'src/idle-second.ts', 5_000);
    await waitApplied(root, 'src/idle-second.ts');
    assert.equal(workerPid(root), pid, 'no second worker was started');
    assert.ok(alive(pid!));
    assert.deepEqual(await presence(root, 'src/idle-second.ts'), everywhere);
    const drains = hookLog(root).split('\n').filter((l) => l.includes(`worker[${pid}] drained`));
    assert.equal(drains.length, 2, hookLog(root));
    // after the idle window it goes, and takes its pid file with it
    await waitForWorkers(root);
    await waitDead(pid!);
    assert.equal(existsSync(path.join(intelPaths(root).dir, 'worker.pid')), false);
  });

  it('the worker SessionStart starts is the one that applies the first edit', async () => {
    const root = copyProject('shop');
    await buildIntel(root);
    const start = await runHookProcess(
      HOOKS.sessionStart,
      { session_id: 's', transcript_path: path.join(root, 't.jsonl'), cwd: root, hook_event_name: 'SessionStart', source: 'startup' },
      { cwd: root, env: { GSD_WORKER_IDLE_MS: '5000', GSD_HOOK_DEBUG: '1' } },
    );
    assert.equal(start.code, 0, start.stderr);
    const pid = workerPid(root);
    assert.ok(pid !== null);
    while (hasPendingJournal(root)) await sleep(25);
    await writeThroughHook(root, 'src/after-start.ts', 5_000);
    await waitApplied(root, 'src/after-start.ts');
    assert.equal(workerPid(root), pid);
    // a worker whose pid file is gone (intel folder reset, a stale-file clean-up) stops waiting at once
    rmSync(path.join(intelPaths(root).dir, 'worker.pid'));
    await waitForWorkers(root, 30_000);
    await waitDead(pid!);
  });

  it('edits sent around the moment the worker exits are all applied', async () => {
    const root = copyProject('shop');
    await buildIntel(root);
    const names: string[] = [];
    const gaps = [0, 120, 250, 400, 60, 300, 180, 500];
    for (let i = 0; i < 16; i++) {
      const rel = `src/handover-${i}.ts`;
      names.push(rel);
      await writeThroughHook(root, rel, 200);
      await sleep(gaps[i % gaps.length]);
    }
    await waitForWorkers(root);
    for (const rel of names) assert.deepEqual(await presence(root, rel), everywhere, rel);
    assert.doesNotMatch(hookLog(root), /failed|internal error|gave up/);
  });

  it('the worker carries intel status\'s facts to the index.json an edit left, or reads them once edits settle', async () => {
    const root = copyProject('shop');
    await buildIntel(root);
    const paths = intelPaths(root);
    const before = await intelStatus(root); // writes index-facts.bin for the built index.json
    assert.equal(before.state, 'fresh');
    /** waits until the sidecar belongs to index.json as it is now (a cap turns a miss into a failure) */
    const current = async () => {
      const until = Date.now() + 60_000;
      while (!sidecarBelongsTo(paths.indexFacts, currentIdentity(paths.index)!)) {
        if (Date.now() > until) throw new Error(`index-facts.bin not brought up to date; hook.log:\n${hookLog(root)}`);
        await sleep(50);
      }
    };
    // the sidecar described the index.json the edit replaced: carried along right after the drain
    await writeThroughHook(root, 'src/settled.ts', 8_000);
    await waitApplied(root, 'src/settled.ts');
    const pid = workerPid(root);
    await current();
    assert.match(hookLog(root), /status facts carried to the new index\.json/);
    let after = await intelStatus(root);
    assert.equal(after.state, 'fresh');
    assert.equal(after.files, before.files! + 1, 'the sidecar answers for the new index.json');
    // no sidecar before the edit: the waiting worker reads the facts once no entry came for 3 s
    rmSync(paths.indexFacts);
    await writeThroughHook(root, 'src/settled-too.ts', 8_000);
    await waitApplied(root, 'src/settled-too.ts');
    await current();
    assert.ok(pid !== null && alive(pid) && workerPid(root) === pid, 'the same waiting worker, still there');
    assert.match(hookLog(root), /status facts read for the new index\.json/);
    after = await intelStatus(root);
    assert.equal(after.files, before.files! + 2);
    await waitForWorkers(root);
  });
});

describe('a waiting worker and a new install', () => {
  after(cleanupProjects);

  it('stops waiting once its script is replaced (a reinstall or an upgrade), and takes its pid file with it', async () => {
    const root = copyProject('shop');
    await buildIntel(root);
    // a copy beside the built worker (its relative imports resolve the same), started as ensureWorker starts one
    const built = path.join(repoRoot, 'dist', 'hooks', 'src', 'worker.js');
    const script = path.join(path.dirname(built), `worker-reinstall-${process.pid}-${Date.now()}.js`);
    copyFileSync(built, script);
    try {
      const child = spawn(process.execPath, [script, root], {
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, GSD_WORKER_IDLE_MS: '600000', GSD_HOOK_DEBUG: '1' },
      });
      child.unref();
      writeFileSync(path.join(intelPaths(root).dir, 'worker.pid'), `${child.pid}\n`); // before node has even started
      const pid = child.pid!;
      const until = Date.now() + 60_000;
      while (!hookLog(root).includes(`worker[${pid}] idle`)) {
        if (Date.now() > until || !alive(pid)) throw new Error(`the worker never waited; hook.log:\n${hookLog(root)}`);
        await sleep(25);
      }
      assert.ok(alive(pid), 'waiting, with a 600 s idle window');
      appendFileSync(script, '\n// a new version\n');
      await waitDead(pid); // its 2 s poll sees the new script; the idle window is 600 s
      assert.equal(existsSync(path.join(intelPaths(root).dir, 'worker.pid')), false);
    } finally {
      rmSync(script, { force: true });
    }
  });
});
