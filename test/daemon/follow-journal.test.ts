/**
 * The shared server applies the hooks' journal of the projects its sessions work in: real processes throughout (the
 * daemon started by the stdio shim in a temporary HOME, the built PostToolUse hook spawned with Claude Code's JSON,
 * the SDK's Client). While a session is open the server holds `.planning/intel/worker.pid`, so an edit reaches the
 * graph without a worker process; when the last session closes the role is free again and hooks start workers.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, intelPaths } from '../../engine/src/index.js';
import { daemonHealth } from '../../mcp-server/src/daemon/info.js';
import { HOOKS, alive, everywhere, hookLog, payload, presence, runHookProcess, waitForWorkers, workerPid } from '../helpers/hooks.js';
import { shimSession, tempHome, until, type McpSession, type TempHome } from '../helpers/daemon.js';
import { startServer } from '../helpers/mcp.js';
import { cliPath } from '../helpers/paths.js';
import { cleanupProjects, tempProject, writeFile } from '../helpers/project.js';

type Answer = { files: string[] };

/** Writes a file as Claude's Write tool does and runs the PostToolUse hook on it, as a process. */
async function write(root: string, rel: string, content: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const abs = path.join(root, rel);
  const existed = existsSync(abs);
  writeFile(root, rel, content);
  const r = await runHookProcess(HOOKS.postToolUse, payload.write(root, abs, content, existed ? 'update' : 'create'), { cwd: root, env });
  assert.equal(r.code, 0, r.stderr);
}

const dependents = async (s: Pick<McpSession, 'ok'>, file: string): Promise<string[]> =>
  (await s.ok('blast_radius', { file, max_depth: 5 })).by_depth.flatMap((l: Answer) => l.files).sort();

describe('shared server: follows the journal of its sessions\' projects', () => {
  let h: TempHome;
  let root: string;

  before(async () => {
    h = tempHome();
    root = tempProject({
      '.planning/config.json': '{}\n',
      'app/__init__.py': '',
      'app/models.py': 'class User:\n    """A user."""\n',
      'svc/go.mod': 'module example.com/svc\n\ngo 1.21\n',
      'svc/store/store.go': 'package store\n\n// Open opens the store.\nfunc Open() {}\n',
      'svc/main.go': 'package main\n\nfunc main() {}\n',
    });
    await buildIntel(root);
  });
  after(async () => {
    await h.cleanup();
    cleanupProjects();
  });

  it('holds the worker role while a session is open: .py and .go edits reach the graph with no worker started', async () => {
    const s = await shimSession(root, h);
    try {
      const daemon = h.info()!.pid;
      await until(() => workerPid(root) === daemon, 'the server taking the worker role');
      const health = await daemonHealth(h.home, h.info()!);
      assert.ok(health.ok && health.following?.map((r) => realpathSync(r)).includes(realpathSync(root)), JSON.stringify(health));
      await write(root, 'app/views.py', 'from app.models import User\n\n\ndef show(u: User) -> str:\n    return str(u)\n');
      await write(root, 'svc/main.go', 'package main\n\nimport "example.com/svc/store"\n\nfunc main() { store.Open() }\n');
      await waitForWorkers(root, undefined, daemon);
      assert.equal(workerPid(root), daemon, 'no worker took the role');
      assert.deepEqual(await presence(root, 'app/views.py'), everywhere);
      // the graph the server answers from has both edits' edges
      assert.deepEqual(await dependents(s, 'app/models.py'), ['app/views.py']);
      assert.deepEqual(await dependents(s, 'svc/store/store.go'), ['svc/main.go']);
      // and an edit that takes an edge away
      await write(root, 'app/views.py', 'def show(u) -> str:\n    return str(u)\n');
      await waitForWorkers(root, undefined, daemon);
      assert.deepEqual(await dependents(s, 'app/models.py'), []);
      assert.equal(hookLog(root), '', 'no hook reported a problem');
    } finally {
      await s.close();
    }
    // the last session closed: the role is released, and the next edit starts a worker as without a server
    await until(() => workerPid(root) === null, 'the server releasing the worker role');
    await write(root, 'app/admin.py', 'from app import models\n');
    const worker = workerPid(root);
    assert.ok(worker !== null && worker !== h.info()?.pid, 'a worker process holds the role');
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'app/admin.py'), everywhere);
  });

  it('takes the role from a lingering worker once that worker leaves', async () => {
    // a worker that waits 2 s for more edits after its drain
    await write(root, 'app/linger.py', 'X = 1\n', { GSD_WORKER_IDLE_MS: '2000' });
    const worker = workerPid(root);
    assert.ok(worker !== null, 'the hook started a worker');
    const s = await shimSession(root, h);
    try {
      const daemon = h.info()!.pid;
      await until(() => workerPid(root) === daemon, 'the server taking the role after the worker left');
      assert.ok(!alive(worker), 'the worker is gone');
      await write(root, 'app/linger.py', 'X = 2\n');
      await waitForWorkers(root, undefined, daemon);
      const index = JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as { files: Record<string, { hash: string }> };
      assert.ok(index.files['app/linger.py'], 'the edit is in index.json');
    } finally {
      await s.close();
    }
  });

  it('an in-process server follows its project the same way', async () => {
    const s = await startServer(root, { GSD_WORKER_IDLE_MS: '0' });
    try {
      await until(() => workerPid(root) === s.pid, 'the in-process server taking the worker role');
      await write(root, 'app/inproc.py', 'from app.models import User\n');
      await waitForWorkers(root, undefined, s.pid);
      assert.equal(workerPid(root), s.pid, 'no worker took the role');
      assert.ok((await dependents(s, 'app/models.py')).includes('app/inproc.py'));
    } finally {
      await s.close();
    }
    await until(() => workerPid(root) === null, 'the in-process server releasing the role as it exits');
  });

  it('applies what the journal holds when it stops, and leaves no role behind', async () => {
    const s = await shimSession(root, h);
    const daemon = h.info()!.pid;
    await until(() => workerPid(root) === daemon, 'the server taking the worker role');
    const files = Array.from({ length: 5 }, (_, i) => `app/stop${i}.py`);
    for (const f of files) await write(root, f, `from app.models import User as U${files.indexOf(f)}\n`);
    const stop = spawnSync(process.execPath, [cliPath, 'serve', '--stop'], { env: { ...process.env, ...h.env }, encoding: 'utf8' });
    assert.equal(stop.status, 0, stop.stderr);
    await until(() => !alive(daemon), 'the server exiting');
    await s.close().catch(() => undefined);
    // whoever holds the role now (nobody, or a worker a last hook started) has nothing left to apply
    await waitForWorkers(root);
    assert.equal(workerPid(root), null);
    for (const f of files) assert.deepEqual(await presence(root, f), everywhere, f);
  });
});
