/**
 * The planning tools (state, lease, agent, skill) and resources through the real MCP SDK Client over stdio, against
 * the built server: every action's happy path, bad input (a clear error, the state file unchanged byte for byte),
 * persistence across a server restart, and a corrupt, future-version or unwritable state file.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { startServer, type Session } from '../helpers/mcp.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

const PLANNING_TOOLS = ['state', 'lease', 'agent', 'skill'];

function project(): string {
  return tempProject({
    'src/auth/login.ts': "export const login = () => 1;\n",
    'src/auth/session.ts': "import { login } from './login';\nexport const s = login();\n",
    'src/billing/pay.ts': 'export const pay = 2;\n',
    '.planning/config.json': JSON.stringify({ planning: { leaseTtlMinutes: 20, maxLeaseTtlMinutes: 120 } }),
  });
}

const stateFile = (root: string) => path.join(root, '.planning', 'gsd-state.json');
const bytes = (root: string) => (existsSync(stateFile(root)) ? readFileSync(stateFile(root), 'utf8') : null);

/** calls a failing action and checks the error says `message` and the state file did not change */
async function refused(s: Session, root: string, tool: string, args: Record<string, unknown>, message: RegExp): Promise<string> {
  const before = bytes(root);
  const text = await s.fails(tool, args);
  assert.match(text, message, `${tool} ${JSON.stringify(args)}`);
  assert.equal(bytes(root), before, `${tool} ${JSON.stringify(args)} left the state unchanged`);
  return text;
}

describe('mcp server: planning tools', () => {
  let root: string;
  let s: Session;
  before(async () => {
    root = project();
    await buildIntel(root);
    s = await startServer(root, { CLAUDE_CODE_SESSION_ID: 'session-one' });
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  it('lists the four tools as writing tools, with the agreed annotations', () => {
    for (const name of PLANNING_TOOLS) {
      const t = s.tools.find((x) => x.name === name);
      assert.ok(t, name);
      assert.equal(t.annotations?.readOnlyHint, false, name);
      assert.equal(t.annotations?.openWorldHint, false, name);
      assert.equal(t.annotations?.destructiveHint, name !== 'lease', name);
      assert.deepEqual((t.inputSchema as { required?: string[] }).required, ['action']);
    }
  });

  it("keeps the four tools' share of tools/list small (characters / 4, root included)", () => {
    const chars = JSON.stringify(s.tools.filter((t) => PLANNING_TOOLS.includes(t.name))).length;
    // 3,490 characters (873 tokens) when written: 27 parameters with a few words each, one envelope output schema
    assert.ok(chars <= 3_500, `state, lease, agent and skill take ${chars} characters = ${Math.ceil(chars / 4)} tokens of tools/list`);
  });

  it('state: set, get, list, delete', async () => {
    assert.deepEqual((await s.ok('state', { action: 'set', keyPath: 'phase.3.owner', value: 'ana' })).result, { keyPath: 'phase.3.owner', value: 'ana' });
    await s.ok('state', { action: 'set', keyPath: 'phase.3.done', value: { tasks: [1, 2], ok: true } });
    assert.deepEqual((await s.ok('state', { action: 'get', keyPath: 'phase.3' })).result, { keyPath: 'phase.3', found: true, value: { owner: 'ana', done: { tasks: [1, 2], ok: true } } });
    assert.deepEqual((await s.ok('state', { action: 'get', keyPath: 'nothing.here' })).result, { keyPath: 'nothing.here', found: false });
    assert.deepEqual((await s.ok('state', { action: 'list' })).result, { total: 3, truncated: false, keys: ['phase.3.done.ok', 'phase.3.done.tasks', 'phase.3.owner'] });
    assert.deepEqual((await s.ok('state', { action: 'list', keyPath: 'phase.3.done' })).result.keys, ['phase.3.done.ok', 'phase.3.done.tasks']);
    assert.deepEqual((await s.ok('state', { action: 'delete', keyPath: 'phase.3.owner' })).result, { keyPath: 'phase.3.owner', deleted: true });
    assert.deepEqual((await s.ok('state', { action: 'delete', keyPath: 'phase.3.owner' })).result, { keyPath: 'phase.3.owner', deleted: false });
  });

  it('state: bad input is refused clearly and changes nothing', async () => {
    await refused(s, root, 'state', { action: 'get' }, /get needs keyPath/);
    await refused(s, root, 'state', { action: 'set', keyPath: 'a' }, /set needs value/);
    await refused(s, root, 'state', { action: 'set', keyPath: '__proto__.polluted', value: 1 }, /segment "__proto__" is refused/);
    await refused(s, root, 'state', { action: 'set', keyPath: 'a..b', value: 1 }, /segment "" is not allowed/);
    await refused(s, root, 'state', { action: 'set', keyPath: 'phase.3.done.tasks.x', value: 1 }, /holds a list, not an object/);
    await refused(s, root, 'state', { action: 'delete', keyPath: 'phase.3' }, /not a leaf; nothing was deleted/);
    await refused(s, root, 'state', { action: 'drop', keyPath: 'a' }, /action|Invalid/i);
  });

  it('lease: issue, refuse an overlap naming holder and expiry, renew by the holder, return, list', async () => {
    const { lease } = (await s.ok('lease', { action: 'issue', taskId: '02-01', scope: ['src/auth/**'] })).result;
    assert.equal(lease.taskId, '02-01');
    assert.equal(lease.holder, 'session-one', 'the session is the default holder');
    assert.equal(lease.status, 'active');
    const ttl = Date.parse(lease.expiresAt) - Date.parse(lease.issuedAt);
    assert.equal(ttl, 20 * 60_000, 'TTL from .planning/config.json');
    const text = await refused(s, root, 'lease', { action: 'issue', taskId: '02-02', scope: ['src/auth/session.ts', 'src/billing'] }, /overlaps lease L-[0-9a-f]{12} of task 02-01/);
    assert.match(text, new RegExp(`held by session-one until ${lease.expiresAt.replace(/[.]/g, '\\.')}`));
    // apart by their texts, overlapping on an indexed file only
    const other = (await s.ok('lease', { action: 'issue', taskId: '02-03', scope: ['src/billing/**/p*.ts'], holder: 'exec-2' })).result.lease;
    await refused(s, root, 'lease', { action: 'issue', taskId: '02-04', scope: ['src/*/*ay.ts'] }, /task 02-03.*both cover src\/billing\/pay\.ts/);
    const renewed = (await s.ok('lease', { action: 'renew', leaseId: lease.id, ttl_minutes: 60 })).result.lease;
    assert.equal(renewed.renewals, 1);
    assert.ok(Date.parse(renewed.expiresAt) > Date.parse(lease.expiresAt));
    await refused(s, root, 'lease', { action: 'renew', leaseId: other.id }, /held by exec-2, not session-one; only its holder renews it/);
    await s.ok('lease', { action: 'renew', leaseId: other.id, holder: 'exec-2' });
    const returned = (await s.ok('lease', { action: 'return', leaseId: lease.id, result: 'done: 3 files' })).result.lease;
    assert.equal(returned.status, 'returned');
    assert.equal(returned.result, 'done: 3 files');
    const list = (await s.ok('lease', { action: 'list' })).result;
    assert.equal(list.active, 1);
    assert.deepEqual(list.leases.map((l: any) => [l.taskId, l.status]), [['02-03', 'active'], ['02-01', 'returned']]);
    // the scope is free again
    await s.ok('lease', { action: 'issue', taskId: '02-02', scope: ['src/auth/session.ts'] });
  });

  it('lease: bad input is refused clearly and changes nothing', async () => {
    await refused(s, root, 'lease', { action: 'issue', scope: ['x'] }, /issue needs taskId/);
    await refused(s, root, 'lease', { action: 'issue', taskId: 't' }, /scope is missing/);
    await refused(s, root, 'lease', { action: 'issue', taskId: '../../etc', scope: ['x'] }, /taskId "..\/..\/etc" is not a safe id/);
    await refused(s, root, 'lease', { action: 'issue', taskId: 't', scope: ['../outside/**'] }, /leads outside the project/);
    await refused(s, root, 'lease', { action: 'issue', taskId: 't', scope: ['/etc/passwd'] }, /is absolute/);
    await refused(s, root, 'lease', { action: 'issue', taskId: 't', scope: ['docs'], ttl_minutes: 500 }, /over the project's maximum of 120/);
    await refused(s, root, 'lease', { action: 'issue', taskId: 't', scope: ['docs'], ttl_minutes: -1 }, /positive number of minutes/);
    await refused(s, root, 'lease', { action: 'renew', leaseId: 'L-000000000000' }, /no lease "L-000000000000"/);
    await refused(s, root, 'lease', { action: 'return' }, /leaseId is missing/);
    await refused(s, root, 'lease', { action: 'issue', taskId: '02-02', scope: ['elsewhere'] }, /task 02-02 already holds lease/);
  });

  it('agent: rules, set_rule, plan, enqueue, queue, complete, history', async () => {
    const rules = (await s.ok('agent', { action: 'rules' })).result.rules;
    assert.deepEqual(rules.map((r: any) => r.intent), ['debug_issue', 'execute_phase', 'plan_phase', 'verify_work']);
    assert.equal((await s.ok('agent', { action: 'rules', intent: 'plan_phase' })).result.rules[0].rule.main[0], 'gsd-planner');
    const plan = (await s.ok('agent', { action: 'plan', intent: 'plan_phase', options: { hasResearch: true } })).result;
    assert.deepEqual(plan.steps.map((x: any) => [x.order, x.agent, x.mode]), [[1, 'gsd-planner', 'sequential'], [2, 'gsd-plan-checker', 'sequential']]);
    assert.deepEqual(plan.skipped, ['beforeParallel']);
    const set = (await s.ok('agent', { action: 'set_rule', intent: 'ship_release', rule: { before: ['gsd-verifier'], afterParallel: ['gsd-planner', 'gsd-executor'], notes: 'release' } })).result;
    assert.equal(set.source, 'project');
    assert.deepEqual((await s.ok('agent', { action: 'plan', intent: 'ship_release' })).result.steps.map((x: any) => `${x.order}${x.mode[0]}`), ['1s', '2p', '2p']);
    const queued = (await s.ok('agent', { action: 'enqueue', intent: 'execute_phase' })).result.items;
    assert.deepEqual(queued.map((i: any) => [i.agent, i.status]), [['gsd-executor', 'pending'], ['gsd-verifier', 'pending']]);
    const pending = (await s.ok('agent', { action: 'queue', status: 'pending' })).result;
    assert.equal(pending.total, 2);
    const done = (await s.ok('agent', { action: 'complete', spawnId: queued[0].id, completionStatus: 'failed', note: 'tests red' })).result;
    assert.equal(done.item.status, 'failed');
    assert.equal(done.item.note, 'tests red');
    await s.ok('agent', { action: 'complete', spawnId: queued[1].id, completionStatus: 'skipped' });
    const unknown = (await s.ok('agent', { action: 'complete', spawnId: 'S-ffffffffffff' })).result;
    assert.equal(unknown.item, null);
    assert.match(unknown.message, /no queue item "S-ffffffffffff": nothing was completed/);
    const events = (await s.ok('agent', { action: 'history' })).result.events;
    assert.deepEqual(events.map((e: any) => e.type), ['complete', 'complete', 'enqueue', 'enqueue', 'set_rule'], 'newest first');
    assert.deepEqual((await s.ok('agent', { action: 'history', limit: 2 })).result.events.map((e: any) => e.status), ['skipped', 'failed']);
    // a small budget cuts the list from its oldest end and says so
    const cut = await s.ok('agent', { action: 'history', max_tokens: 150 });
    assert.equal(cut.result.total, 5);
    assert.equal(cut.result.truncated, true);
    assert.ok(cut.result.events.length < 5 && cut.result.events.length >= 1);
    assert.equal(cut.result.events[0].status, 'skipped', 'the newest event stays');
    assert.match(cut.budget.rest, /max_tokens/);
  });

  it('agent: bad input is refused clearly and changes nothing', async () => {
    await refused(s, root, 'agent', { action: 'plan' }, /plan needs intent/);
    await refused(s, root, 'agent', { action: 'plan', intent: 'unknown_intent' }, /no spawn rule for intent "unknown_intent"/);
    await refused(s, root, 'agent', { action: 'plan', intent: 'plan_phase', options: { skipVerify: 'yes' } }, /options.skipVerify must be true or false/);
    await refused(s, root, 'agent', { action: 'set_rule', intent: 'x', rule: { main: ['../evil'] } }, /agent in rule.main "..\/evil" is not a safe id/);
    await refused(s, root, 'agent', { action: 'set_rule', intent: 'x', rule: { main: [] } }, /rule names no agent/);
    await refused(s, root, 'agent', { action: 'set_rule', intent: 'x', rule: { mian: ['a'] } }, /unknown field\(s\) "mian"/);
    await refused(s, root, 'agent', { action: 'set_rule', intent: 'x' }, /set_rule needs rule/);
    await refused(s, root, 'agent', { action: 'complete', spawnId: 'S-1', completionStatus: 'done' }, /completionStatus must be one of completed, failed, skipped/);
    await refused(s, root, 'agent', { action: 'queue', status: 'weird' }, /status must be one of/);
    await refused(s, root, 'agent', { action: 'history', limit: 500 }, /limit must be a whole number from 1 to 200/);
    const closed = (await s.ok('agent', { action: 'queue', status: 'failed' })).result.items[0];
    await refused(s, root, 'agent', { action: 'complete', spawnId: closed.id }, /already failed/);
  });

  it('skill: register, list, bind, unbind, recommend', async () => {
    const reg = (await s.ok('skill', { action: 'register', skillId: 'tdd', title: 'Test first', description: 'Write the failing test first.', tags: ['testing'] })).result;
    assert.equal(reg.created, true);
    await s.ok('skill', { action: 'register', skillId: 'blast-check', title: 'Check the blast radius' });
    assert.equal((await s.ok('skill', { action: 'register', skillId: 'tdd', title: 'Test first!' })).result.created, false);
    assert.deepEqual((await s.ok('skill', { action: 'bind', skillId: 'tdd', agentId: 'gsd-executor' })).result, { agentId: 'gsd-executor', skills: ['tdd'] });
    await s.ok('skill', { action: 'bind', skillId: 'blast-check', agentId: 'gsd-planner' });
    await s.ok('skill', { action: 'bind', skillId: 'tdd', agentId: 'gsd-plan-checker' });
    const list = (await s.ok('skill', { action: 'list' })).result;
    assert.deepEqual(list.skills.map((k: any) => [k.id, k.title]), [['blast-check', 'Check the blast radius'], ['tdd', 'Test first!']]);
    assert.equal(list.skills[1].description, 'Write the failing test first.', 'an update keeps what it does not name');
    const rec = (await s.ok('skill', { action: 'recommend', intent: 'plan_phase' })).result;
    assert.deepEqual(rec.skills.map((k: any) => k.id), ['blast-check', 'tdd'], 'plan order: planner before checker');
    assert.deepEqual(rec.steps.map((x: any) => [x.agent, x.skills]), [['gsd-codebase-mapper', []], ['gsd-planner', ['blast-check']], ['gsd-plan-checker', ['tdd']]]);
    assert.deepEqual((await s.ok('skill', { action: 'unbind', skillId: 'tdd', agentId: 'gsd-plan-checker' })).result.skills, []);
  });

  it('skill: bad input is refused clearly and changes nothing', async () => {
    await refused(s, root, 'skill', { action: 'bind', skillId: 'ghost', agentId: 'gsd-executor' }, /skill "ghost" is not registered; it cannot be bound/);
    await refused(s, root, 'skill', { action: 'register', skillId: 'new-one' }, /title is missing/);
    await refused(s, root, 'skill', { action: 'register', skillId: '../../skills/x', title: 't' }, /not a safe id/);
    await refused(s, root, 'skill', { action: 'unbind', skillId: 'tdd', agentId: 'gsd-verifier' }, /does not carry skill "tdd"/);
    await refused(s, root, 'skill', { action: 'recommend' }, /recommend needs intent/);
    await refused(s, root, 'skill', { action: 'bind', skillId: 'tdd', agentId: 'constructor.prototype' }, /not a safe id/);
  });

  it('resources: gsd://skills/{id} and gsd://spawn-rules/{intent} are listed and readable', async () => {
    const { resources } = await s.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const u of ['gsd://skills/tdd', 'gsd://skills/blast-check', 'gsd://spawn-rules/plan_phase', 'gsd://spawn-rules/ship_release']) assert.ok(uris.includes(u), u);
    const skill = (await s.client.readResource({ uri: 'gsd://skills/tdd' })).contents[0] as { text: string };
    assert.match(skill.text, /# Test first!/);
    assert.match(skill.text, /carried by: gsd-executor/);
    const rule = (await s.client.readResource({ uri: 'gsd://spawn-rules/plan_phase' })).contents[0] as { text: string };
    assert.match(rule.text, /1\. gsd-codebase-mapper \(beforeParallel, parallel\)\n2\. gsd-planner \(main, sequential\)/);
    const missing = (await s.client.readResource({ uri: 'gsd://skills/nope' })).contents[0] as { text: string };
    assert.match(missing.text, /No skill "nope"/);
  });

  it('everything survives a server restart', async () => {
    const snapshot = async () => ({
      kv: (await s.ok('state', { action: 'list' })).result,
      leases: (await s.ok('lease', { action: 'list' })).result,
      queue: (await s.ok('agent', { action: 'queue' })).result,
      rules: (await s.ok('agent', { action: 'rules' })).result,
      history: (await s.ok('agent', { action: 'history' })).result,
      skills: (await s.ok('skill', { action: 'list' })).result,
    });
    const before = await snapshot();
    await s.close();
    s = await startServer(root, { CLAUDE_CODE_SESSION_ID: 'session-one' });
    assert.deepEqual(await snapshot(), before);
    assert.equal(before.queue.total, 2);
    assert.equal(before.leases.active, 2);
  });

  it('everything these tools write stays inside .planning/', () => {
    const planning = readdirSync(path.join(root, '.planning')).filter((f) => f !== 'intel' && f !== 'config.json');
    assert.deepEqual(planning, ['gsd-state.json']);
    assert.deepEqual(readdirSync(root).sort(), ['.planning', 'src']);
  });
});

describe('mcp server: a damaged or unwritable state file', () => {
  after(cleanupProjects);

  it('a corrupt file is moved aside and the answer says so', async () => {
    const root = project();
    writeFileSync(stateFile(root), '{"version":1,"kv":{"half":');
    const s = await startServer(root);
    try {
      const out = (await s.ok('state', { action: 'list' })).result;
      assert.match(out.notice, /gsd-state\.json was corrupt \(not valid JSON.*moved aside to \.planning\/gsd-state\.json\.corrupt-/);
      const aside = readdirSync(path.join(root, '.planning')).find((f) => f.startsWith('gsd-state.json.corrupt-'))!;
      assert.equal(readFileSync(path.join(root, '.planning', aside), 'utf8'), '{"version":1,"kv":{"half":', 'nothing lost');
      assert.equal((await s.ok('state', { action: 'set', keyPath: 'a', value: 1 })).result.notice, undefined);
    } finally {
      await s.close();
    }
  });

  it('a future-version file is refused by every tool and left untouched', async () => {
    const root = project();
    const content = JSON.stringify({ version: 7, leases: 'new shape' });
    writeFileSync(stateFile(root), content);
    const s = await startServer(root);
    try {
      for (const [tool, args] of [
        ['state', { action: 'set', keyPath: 'a', value: 1 }],
        ['lease', { action: 'list' }],
        ['agent', { action: 'enqueue', intent: 'verify_work' }],
        ['skill', { action: 'list' }],
      ] as const) {
        assert.match(await s.fails(tool, args), /written by a newer get-shit-done-cc \(state version 7; this one reads 1\); it was left untouched[\s\S]*Upgrade/);
      }
      assert.equal(readFileSync(stateFile(root), 'utf8'), content);
    } finally {
      await s.close();
    }
  });

  it('a write that fails (read-only .planning/, full disk) reports and loses nothing', async () => {
    const root = project();
    const s = await startServer(root);
    try {
      await s.ok('state', { action: 'set', keyPath: 'kept', value: 1 });
      const before = bytes(root);
      // Tests run as root, where chmod does not stop a write: a folder where the temp file goes fails it for real.
      mkdirSync(`${stateFile(root)}.tmp`);
      assert.match(await s.fails('state', { action: 'set', keyPath: 'lost', value: 2 }), /could not save \.planning\/gsd-state\.json \(EISDIR[^]*nothing was changed/);
      assert.equal(bytes(root), before);
      rmSync(`${stateFile(root)}.tmp`, { recursive: true });
      if (process.getuid?.() !== 0) {
        chmodSync(path.join(root, '.planning'), 0o555);
        try {
          assert.match(await s.fails('state', { action: 'set', keyPath: 'lost', value: 3 }), /nothing was changed/);
          assert.equal(bytes(root), before);
        } finally {
          chmodSync(path.join(root, '.planning'), 0o755);
        }
      }
      assert.deepEqual((await s.ok('state', { action: 'get', keyPath: 'kept' })).result, { keyPath: 'kept', found: true, value: 1 });
    } finally {
      await s.close();
    }
  });
});
