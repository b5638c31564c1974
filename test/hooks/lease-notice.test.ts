/**
 * The PostToolUse hook, spawned as Claude Code runs it with real payloads, tells the model when an edit falls inside
 * another session's active lease (hookSpecificOutput.additionalContext naming the task and the expiry), and stays
 * silent for the session's own leases, returned or expired leases, files outside every lease and tools that do not write.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StateStore } from '../../engine/src/index.js';
import { issueLease } from '../../engine/src/planning/lease-issue.js';
import { HOOKS, payload, runHookProcess, waitForWorkers } from '../helpers/hooks.js';
import { startServer, type Session } from '../helpers/mcp.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

const SESSION = 'b3492ee6-1b8a-4c39-9e0e-5f1c2d3e4f50'; // the session_id of the helper payloads

async function edit(root: string, rel: string, session = SESSION) {
  const file = path.join(root, rel);
  const run = await runHookProcess(HOOKS.postToolUse, { ...payload.edit(root, file, 'a', 'b', 'a\n'), session_id: session }, { cwd: root });
  assert.equal(run.code, 0);
  return run.stdout ? (JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }) : null;
}

describe('hooks: PostToolUse lease notice', () => {
  let root: string;
  let s: Session;
  let lease: { id: string; expiresAt: string };
  before(async () => {
    root = tempProject({ 'src/auth/login.ts': 'a\n', 'src/other.ts': 'a\n', 'README.md': 'a\n' });
    s = await startServer(root, { CLAUDE_CODE_SESSION_ID: 'executor-session' });
    lease = (await s.ok('lease', { action: 'issue', taskId: '03-02', scope: ['src/auth', 'README.md'] })).result.lease;
  });
  after(async () => {
    await s?.close();
    await waitForWorkers(root);
    cleanupProjects();
  });

  it("names the task, the lease and its expiry when another session's edit falls inside an active lease", async () => {
    const out = await edit(root, 'src/auth/login.ts');
    assert.ok(out, 'the hook printed its JSON');
    assert.equal(out.hookSpecificOutput.hookEventName, 'PostToolUse');
    const text = out.hookSpecificOutput.additionalContext;
    assert.match(text, /src\/auth\/login\.ts lies inside the active lease of another task: task 03-02/);
    assert.ok(text.includes(lease.id) && text.includes(lease.expiresAt), text);
    assert.match(text, /held by executor-session/);
    assert.match((await edit(root, 'README.md'))!.hookSpecificOutput.additionalContext, /README\.md .* task 03-02/, 'files the intel does not index too');
  });

  it('stays silent for the holding session, files outside every lease and tools that do not write', async () => {
    assert.equal(await edit(root, 'src/auth/login.ts', 'executor-session'), null);
    assert.equal(await edit(root, 'src/other.ts'), null);
    const read = await runHookProcess(HOOKS.postToolUse, { ...payload.edit(root, path.join(root, 'src/auth/login.ts'), 'a', 'b', 'a\n'), tool_name: 'Read' }, { cwd: root });
    assert.equal(read.stdout, '');
  });

  it('reads leases past the first 64 KB, and a file in another key order whole', async () => {
    const store = new StateStore(root);
    const state = (await store.read()).state;
    const big = { ...state, leases: [...state.leases] };
    for (let i = 0; i < 300; i++) big.leases.push({ ...state.leases[0], id: `L-${String(i).padStart(12, '0')}`, taskId: `filler-${i}`, patterns: [{ source: `^nothing/${i}$`, flags: '' }] });
    const file = path.join(root, '.planning', 'gsd-state.json');
    const original = readFileSync(file, 'utf8');
    const { version, leases, kv, ...rest } = big;
    writeFileSync(file, JSON.stringify({ version, leases: [...leases.slice(1), leases[0]], kv, ...rest }));
    assert.match((await edit(root, 'src/auth/login.ts'))!.hookSpecificOutput.additionalContext, /task 03-02/, 'the covering lease is the last of 301');
    writeFileSync(file, JSON.stringify({ kv: { ...kv, pad: 'x'.repeat(100_000) }, version, leases, ...rest }));
    assert.match((await edit(root, 'src/auth/login.ts'))!.hookSpecificOutput.additionalContext, /task 03-02/, 'leases not first: the whole file is read');
    writeFileSync(file, original);
  });

  it('stays silent once the lease is returned or expired, and a broken state file never breaks the hook', async () => {
    await s.ok('lease', { action: 'return', leaseId: lease.id });
    assert.equal(await edit(root, 'src/auth/login.ts'), null);
    const store = new StateStore(root, { now: () => Date.now() - 3_600_000 });
    await store.update((st) => issueLease(st, { taskId: 'old', scope: ['src/**'], holder: 'x', ttlMinutes: 30 }, Date.now() - 3_600_000));
    assert.equal(await edit(root, 'src/other.ts'), null, 'a lease that expired 30 minutes ago');
    writeFileSync(path.join(root, '.planning', 'gsd-state.json'), '{ not json');
    assert.equal(await edit(root, 'src/other.ts'), null);
  });
});
