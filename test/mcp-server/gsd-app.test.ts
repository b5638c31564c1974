/**
 * The GSD-document tools, resources and prompts over the gsd-app fixture (known answers), plus security and bad
 * input: paths outside the root, symlinks out, secrets, hostile strings through every text argument, the rate limit,
 * disabled tools, missing documents and the audit log.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { TOOL_TEXT } from '../../mcp-server/src/texts.js';
import { startServer, type Session } from '../helpers/mcp.js';
import { cleanupProjects, copyProject, tempProject } from '../helpers/project.js';

describe('mcp server: GSD documents on the gsd-app fixture', () => {
  let root: string;
  let outside: string;
  let s: Session;
  before(async () => {
    root = copyProject('gsd-app');
    outside = mkdtempSync(path.join(os.tmpdir(), 'gsd-outside-'));
    writeFileSync(path.join(outside, 'secret.ts'), 'export const s = 1;\n');
    symlinkSync(outside, path.join(root, 'src', 'linked'));
    await buildIntel(root);
    s = await startServer(path.join(root, 'src'), { CLAUDE_PROJECT_DIR: root });
  });
  after(async () => {
    await s?.close();
    rmSync(outside, { recursive: true, force: true });
    cleanupProjects();
  });

  it('requirement_status reads ids, checkboxes and the traceability table', async () => {
    const all = await s.ok('requirement_status');
    assert.deepEqual(all.counts, { complete: 2, in_progress: 1, pending: 2, blocked: 0, deferred: 0 });
    assert.deepEqual(all.requirements.map((r: any) => r.id), ['AUTH-01', 'AUTH-02', 'AUTH-03', 'DATA-01', 'AUTH-10']);
    const one = await s.ok('requirement_status', { requirement_id: 'auth-01' });
    assert.deepEqual(one.requirements[0], {
      id: 'AUTH-01',
      text: 'User can log in with email and password',
      state: 'complete',
      checked: true,
      phase: '1',
      traced_status: 'Complete',
      plans: ['.planning/phases/01-foundation/01-01-PLAN.md'],
      summaries: ['.planning/phases/01-foundation/01-01-SUMMARY.md'],
      verification: 'passed (2/2 must-haves verified)',
    });
    assert.match(await s.fails('requirement_status', { requirement_id: 'AUTH-99' }), /AUTH-99 is not in REQUIREMENTS.md[\s\S]*AUTH-01/);
  });

  it('phase_status defaults to the current phase of STATE.md', async () => {
    const cur = await s.ok('phase_status');
    assert.equal(cur.current_phase, '2');
    assert.equal(cur.detail.name, 'Password reset');
    assert.equal(cur.detail.goal, 'Users can reset their password by email and sessions expire');
    assert.deepEqual(cur.detail.success_criteria, ['User can reset their password by email', 'Sessions expire after 30 days']);
    assert.deepEqual([cur.detail.plans_total, cur.detail.plans_done], [1, 0]);
    assert.deepEqual(cur.detail.requirements, ['AUTH-02', 'AUTH-03']);
    assert.equal(cur.state.status, 'In progress');
    const p1 = await s.ok('phase_status', { phase: '01' });
    assert.equal(p1.detail.status, 'complete');
    assert.equal(p1.detail.verification, 'passed (2/2 must-haves verified)');
    assert.deepEqual([p1.detail.plans_total, p1.detail.plans_done], [1, 1]);
    assert.match(await s.fails('phase_status', { phase: '7' }), /phase 7 is not in ROADMAP[\s\S]*1, 2/);
  });

  it('similar_past_work and phase_relevant_files use past phases', async () => {
    const past = await s.ok('similar_past_work', { current_goal: 'login sessions over the database' });
    assert.equal(past.items[0].phase, '1');
    const summary = past.items.find((i: any) => i.kind === 'summary');
    assert.deepEqual(summary.decisions, ['Sessions are opaque tokens', 'Hash passwords with a single helper']);
    assert.deepEqual(summary.lessons, ['Added a query helper for bound parameters']);
    assert.deepEqual(summary.files, ['src/db/client.ts', 'src/auth/session.ts']);
    const rel = await s.ok('phase_relevant_files', { phase: '2' });
    assert.equal(rel.files[0].path, 'src/auth/password.ts');
    assert.ok(rel.files.some((f: any) => f.reasons.includes('touched by similar phase 1')));
    const byGoal = await s.ok('phase_relevant_files', { phase_goal: 'HTTP routes', include_blast_radius: true });
    assert.equal(byGoal.files[0].path, 'src/api/routes.ts');
    assert.ok(byGoal.files[0].dependents);
    assert.match(await s.fails('phase_relevant_files', {}), /phase_goal .* or phase/);
  });

  it('codebase_patterns gives folder conventions with examples', async () => {
    const out = await s.ok('codebase_patterns', { query: 'password session' });
    const auth = out.areas.items.find((a: any) => a.folder === 'src/auth');
    assert.ok(auth);
    assert.equal(auth.exports, 'named exports (100%)');
    assert.ok(auth.examples.length >= 1 && auth.examples.length <= 3);
    assert.match(auth.examples[0].excerpt, /export function/);
    assert.ok(out.project.some((l: string) => /Module system/.test(l)));
  });

  it('verify_artifact finds files, exports, functions, components, endpoints and tests with file:line', async () => {
    const cases: Array<[string, string, string | null]> = [
      ['src/auth/password.ts', 'file', 'src/auth/password.ts:1'],
      ['resetPassword', 'export', 'src/auth/password.ts:8'],
      ['src/auth/session.ts:createSession', 'function', 'src/auth/session.ts:5'],
      ['LoginForm', 'component', 'src/components/LoginForm.tsx:2'],
      ['POST /api/password-reset', 'endpoint', 'src/api/routes.ts:7'],
      ['creates a session', 'test', 'test/auth.test.ts:6'],
      ['src/nothing.ts', 'file', null],
      ['deleteAccount', 'function', null],
      ['GET /api/login', 'endpoint', null],
    ];
    for (const [must_exist, check_type, where] of cases) {
      const out = await s.ok('verify_artifact', { must_exist, check_type });
      assert.equal(out.exists, where !== null, `${check_type} ${must_exist}`);
      if (where) assert.equal(`${out.locations[0].path}:${out.locations[0].line}`, where, `${check_type} ${must_exist}`);
    }
  });

  it('verify_behavior never claims evidence it does not have', async () => {
    const yes = await s.ok('verify_behavior', { must_have: 'User can reset their password by email' });
    assert.equal(yes.status, 'evidence_found');
    assert.deepEqual(`${yes.tests.items[0].path}:${yes.tests.items[0].line}`, 'test/auth.test.ts:5');
    assert.ok(yes.code.items.some((c: any) => c.path === 'src/auth/password.ts'));
    const partial = await s.ok('verify_behavior', { must_have: 'hash passwords' });
    assert.equal(partial.status, 'partial');
    const no = await s.ok('verify_behavior', { must_have: 'export invoices as PDF' });
    assert.equal(no.status, 'no_evidence');
    assert.doesNotMatch(JSON.stringify([yes, partial, no]), /"verified"/);
  });

  it('serves the resources, the entity template (list, complete) and the prompts', async () => {
    const { resources } = await s.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const u of ['gsd://project/vision', 'gsd://project/requirements/pending', 'gsd://project/decisions', 'gsd://intel/summary', 'gsd://intel/hotspots', 'gsd://intel/conventions']) {
      assert.ok(uris.includes(u), u);
    }
    assert.ok(uris.some((u) => u.startsWith('gsd://intel/entity/src-db-client-ts-')));
    const { resourceTemplates } = await s.client.listResourceTemplates();
    assert.ok(resourceTemplates.map((t) => t.uriTemplate).includes('gsd://intel/entity/{id}'));
    const read = async (uri: string) => String(((await s.client.readResource({ uri })).contents[0] as { text?: string }).text);
    assert.match(await read('gsd://project/vision'), /sign up, log in and reset their password[\s\S]*get back into their account/);
    const pending = await read('gsd://project/requirements/pending');
    assert.match(pending, /AUTH-02/);
    assert.doesNotMatch(pending, /AUTH-01/);
    assert.match(await read('gsd://project/decisions'), /Hash passwords in src\/auth[\s\S]*Sessions are opaque tokens/);
    assert.match(await read('gsd://intel/summary'), /# Codebase intel/);
    assert.equal(JSON.parse(await read('gsd://intel/hotspots')).hotspots[0].path, 'src/db/client.ts');
    assert.match(await read('gsd://intel/conventions'), /Module system/);
    const done = await s.client.complete({ ref: { type: 'ref/resource', uri: 'gsd://intel/entity/{id}' }, argument: { name: 'id', value: 'src-auth-pa' } });
    assert.equal(done.completion.values.length, 1);
    assert.match(await read(`gsd://intel/entity/${done.completion.values[0]}`), /# `src\/auth\/password\.ts`/);
    assert.match(await read('gsd://intel/entity/..%2F..%2FPROJECT'), /No entity page/);
    const { prompts } = await s.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ['spawn-executor', 'spawn-planner', 'spawn-verifier']);
    const text = async (name: string) => String(((await s.client.getPrompt({ name, arguments: { phase: '2' } })).messages[0].content as { text?: string }).text);
    const planner = await text('spawn-planner');
    assert.match(planner, /Password reset[\s\S]*AUTH-02[\s\S]*src\/auth\/password\.ts[\s\S]*Phase 1/);
    assert.match(await text('spawn-executor'), /02-01-PLAN\.md[\s\S]*src\/auth\/password\.ts`: \d+ dependents/);
    assert.match(await text('spawn-verifier'), /truth: User can reset their password by email[\s\S]*verify_behavior/);
  });

  it('refuses paths outside the root, symlinks out of it and secrets', async () => {
    const bad: Array<[string, Record<string, unknown>, RegExp]> = [
      ['file_context', { file: '../../../../etc/passwd' }, /outside the project root/],
      ['blast_radius', { file: '/etc/passwd' }, /outside the project root/],
      ['verify_artifact', { must_exist: '../x.ts', check_type: 'file' }, /outside the project root/],
      ['verify_artifact', { must_exist: 'src/linked/secret.ts', check_type: 'file' }, /symlink that leaves the project root/],
      ['file_context', { file: 'src/linked/secret.ts' }, /symlink that leaves the project root/],
      ['verify_artifact', { must_exist: '.env', check_type: 'file' }, /secrets file/],
      ['verify_artifact', { must_exist: 'keys/server.pem', check_type: 'file' }, /secrets file/],
      ['file_context', { file: 'src/\u0000x.ts' }, /NUL/],
      ['query_intel', { query: 'x', root: '/' }, /no .planning|not part of this session/],
      ['query_intel', { query: 'x', root: outside }, /no .planning|not part of this session/],
      ['query_intel', { query: 'x', root: path.join(root, 'nope') }, /does not exist/],
    ];
    for (const [tool, args, re] of bad) assert.match(await s.fails(tool, args), re, `${tool} ${JSON.stringify(args)}`);
    const all = JSON.stringify(await s.client.listResources());
    assert.doesNotMatch(all, /supersecret|PRIVATE KEY/);
  });

  it('sends quotes, %, _, ; and unicode through every text argument without harm', async () => {
    const hostile = ["' OR 1=1; --", '%', '_', '%_%', '"; DROP TABLE nodes; --', 'ünïcødé 漢字 🚀', "\\' \\\" `x`", 'a'.repeat(400)];
    const textArgs: Array<[string, string, Record<string, unknown>]> = [
      ['query_intel', 'query', {}],
      ['blast_radius', 'file', {}],
      ['blast_radius', 'symbol', { file: 'src/db/client.ts' }],
      ['file_context', 'file', {}],
      ['phase_relevant_files', 'phase_goal', {}],
      ['phase_relevant_files', 'phase', {}],
      ['codebase_patterns', 'query', {}],
      ['similar_past_work', 'current_goal', {}],
      ['verify_artifact', 'must_exist', { check_type: 'export' }],
      ['verify_artifact', 'must_exist', { check_type: 'function' }],
      ['verify_artifact', 'must_exist', { check_type: 'endpoint' }],
      ['verify_artifact', 'must_exist', { check_type: 'test' }],
      ['verify_artifact', 'must_exist', { check_type: 'file' }],
      ['verify_behavior', 'must_have', {}],
      ['requirement_status', 'requirement_id', {}],
      ['phase_status', 'phase', {}],
      ['query_intel', 'root', { query: 'x' }],
      ['guidance_load', 'query', { focus_level: 'design' }],
    ];
    for (const [tool, arg, extra] of textArgs) {
      for (const value of hostile) {
        const r = await s.call(tool, { ...extra, [arg]: value });
        const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        assert.doesNotMatch(text, /internal error/, `${tool}.${arg}=${value}: ${text}`);
        if (tool === 'query_intel' && !r.isError) assert.equal((r.structuredContent as any).query, value);
      }
    }
    // the graph is intact and the server alive
    assert.equal((await s.ok('hotspots', { limit: 1 })).hotspots[0].path, 'src/db/client.ts');
  });

  it('invalid arguments give a clear isError naming what was expected', async () => {
    assert.match(await s.fails('verify_artifact', { must_exist: 'x', check_type: 'banana' }), /check_type|Invalid/);
    assert.match(await s.fails('query_intel', { query: 42 }), /query|expected string/i);
    assert.match(await s.fails('query_intel', {}), /query/);
    assert.match(await s.fails('hotspots', { limit: 0 }), /limit|too small|>=/i);
  });

  it('applies the per-tool rate limit of .planning/config.json and writes a redacted audit log', async () => {
    // hotspots: 3 per minute; earlier tests called it once
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await s.call('hotspots', { limit: 1 }));
    assert.ok(results.some((r) => r.isError && /rate limit of hotspots/.test(String((r.content[0] as { text: string }).text))));
    await s.call('verify_behavior', { must_have: 'token sk-live-abcdefghijklmnopqrstuvwxyz' });
    const log = readFileSync(path.join(root, '.planning', 'intel', 'mcp-audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(log.length > 50);
    assert.ok(log.every((e) => e.tool && typeof e.ok === 'boolean' && e.at));
    assert.doesNotMatch(JSON.stringify(log), /sk-live-abcdef/);
    assert.ok(log.some((e) => JSON.stringify(e.args).includes('[redacted]')));
  });

  it('stdout carried only the protocol; the server is still up', async () => {
    assert.equal((await s.ok('phase_status')).current_phase, '2');
  });
});

describe('mcp server: missing documents and disabled tools', () => {
  let s: Session;
  let root: string;
  before(async () => {
    root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
    writeFileSync(path.join(root, '.planning', 'config.json'), JSON.stringify({ mcp: { disabledTools: ['verify_behavior'] } }));
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    s = await startServer(path.join(root, 'sub'));
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  it('says what is missing and how to create it', async () => {
    assert.match(await s.fails('query_intel', { query: 'a' }), /graph\.db is missing[\s\S]*\/gsd:analyze-codebase[\s\S]*intel build/);
    assert.match(await s.fails('blast_radius', { file: 'src/a.ts' }), /\/gsd:analyze-codebase/);
    assert.match(await s.fails('requirement_status'), /REQUIREMENTS\.md is missing[\s\S]*\/gsd:new-project/);
    assert.match(await s.fails('phase_status'), /ROADMAP\.md is missing[\s\S]*\/gsd:new-project/);
    assert.match(await s.fails('similar_past_work', { current_goal: 'x' }), /\/gsd:plan-phase/);
    const { contents } = await s.client.readResource({ uri: 'gsd://project/vision' });
    assert.match(String((contents[0] as { text?: string }).text), /PROJECT\.md is missing[\s\S]*\/gsd:new-project/);
    const prompt = await s.client.getPrompt({ name: 'spawn-planner', arguments: { phase: '1' } });
    assert.match(String((prompt.messages[0].content as { text?: string }).text), /ROADMAP\.md is missing/);
  });

  it('hides and refuses the tools the project disabled', async () => {
    const { tools } = await s.client.listTools();
    assert.ok(!tools.some((t) => t.name === 'verify_behavior'));
    assert.equal(tools.length, Object.keys(TOOL_TEXT).length - 1);
  });

  it('malformed documents do not crash the tools', async () => {
    writeFileSync(path.join(root, '.planning', 'REQUIREMENTS.md'), '---\n: : [\n---\n| broken | table\n- [x] **\n#');
    writeFileSync(path.join(root, '.planning', 'ROADMAP.md'), '## Phase\n**Goal**:\n### Phase 1\n- [x] **Phase 1: Done**');
    mkdirSync(path.join(root, '.planning', 'phases', '01-x'), { recursive: true });
    writeFileSync(path.join(root, '.planning', 'phases', '01-x', '01-01-PLAN.md'), '---\nfiles_modified: [a, [b\nmust_haves:\n  - : \n');
    assert.equal((await s.ok('requirement_status')).total, 0);
    const ph = await s.ok('phase_status', { phase: '1' });
    assert.equal(ph.detail.status, 'complete');
    await s.ok('similar_past_work', { current_goal: 'done' });
  });
});
