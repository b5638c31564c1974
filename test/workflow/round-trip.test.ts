/**
 * A project scaffolded from templates/ (placeholders filled the way /gsd:new-project, plan-phase, execute-phase and
 * verify-work fill them) answers requirement_status, phase_status, phase_relevant_files and similar_past_work
 * correctly through the real MCP client, before and after the edits /gsd:verify-work makes.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { startServer, type Session } from '../helpers/mcp.js';
import { cleanupProjects, copyProject, writeFile } from '../helpers/project.js';
import { fill, placeholders, template } from '../helpers/workflow.js';

const DATE = '2026-03-02';

const project = {
  PROJECT_NAME: 'Tiny Accounts',
  DATE,
  VISION: 'A small web app where people sign up, log in and get back into their account.',
  CORE_VALUE: 'People can always get back into their account.',
  USERS: 'Customers of a small online shop.',
  CONSTRAINT: 'TypeScript on Node 20, SQL through one client',
  OUT_OF_SCOPE: 'Social login',
  DECISION: 'Sessions are opaque tokens',
  RATIONALE: 'revocable on the server',
};

const requirements = {
  ...project,
  CATEGORY_NAME: 'Authentication',
  REQ_1: 'AUTH-01',
  REQ_1_TEXT: 'User can log in with email and password',
  REQ_2: 'AUTH-02',
  REQ_2_TEXT: 'User can reset their password by email',
  REQ_LATER: 'AUTH-10',
  REQ_LATER_TEXT: 'Two-factor login',
  EXCLUDED: 'Social login',
  EXCLUDED_WHY: 'not needed for v1',
};

const roadmap = {
  ...requirements,
  ROADMAP_OVERVIEW: 'Login first, then password reset.',
  PHASE_1_NAME: 'Login',
  PHASE_1_GOAL: 'Users log in with a session token stored through the database client',
  PHASE_1_CRITERION_1: 'User can log in with email and password',
  PHASE_1_CRITERION_2: 'Every query uses bound parameters',
  PHASE_2_NAME: 'Password reset',
  PHASE_2_GOAL: 'Users reset a forgotten password by email over the HTTP routes',
  PHASE_2_CRITERION_1: 'User can reset their password by email',
  PHASE_COUNT: '2',
  RECENT_DECISION: 'Sessions are opaque tokens',
};

const plan1 = {
  PHASE: '1',
  PHASE_DIR: '01-login',
  PHASE_PAD: '01',
  PLAN: '01',
  PLAN_TITLE: 'Login session over the database client',
  FILE_1: 'src/auth/session.ts',
  FILE_2: 'src/db/client.ts',
  REQ_ID: 'AUTH-01',
  TRUTH: 'User can log in with email and password',
  EXPORT: 'createSession',
  LINK_VIA: 'query()',
  OBJECTIVE: 'Create login sessions over a database client with bound parameters.',
  RELEVANT_FILES: 'src/auth/session.ts, src/db/client.ts',
  PAST_WORK: 'none',
  CONVENTIONS: 'named exports, one module per concern',
  TASK_1_NAME: 'Session creation',
  TASK_1_ACTION: 'Add createSession(email, password) that checks the hash and returns a token.',
  TASK_1_VERIFY: 'npm test -- auth',
  TASK_1_DONE: 'createSession returns a token for a known user',
  TASK_2_NAME: 'Database client',
  TASK_2_ACTION: 'Add query(sql, params) that only takes bound parameters.',
  TASK_2_VERIFY: 'grep finds no string-built SQL',
  TASK_2_DONE: 'every query goes through query()',
  PLAN_CHECK: 'npm test passes',
};

const summary1 = {
  ...plan1,
  SUBSYSTEM: 'auth',
  FILE_CREATED: 'src/auth/session.ts',
  FILE_MODIFIED: 'src/db/client.ts',
  DECISION: 'Sessions are opaque tokens',
  DURATION: '25min',
  DATE,
  ONE_LINER: 'Login with email and password creates an opaque session token through the database client.',
  WHAT_WAS_BUILT: 'createSession and a parameterised query helper.',
  DECISION_DETAIL: 'Hash passwords with a single helper',
  DEVIATION: 'Added a query helper for bound parameters',
  HOTSPOT_CHECK: 'src/db/client.ts: risk low, tests run',
  NEXT_STEP: 'Phase 2: password reset.',
};

const verification1 = {
  PHASE: '1',
  PHASE_DIR: '01-login',
  PHASE_NAME: 'Login',
  DATE,
  STATUS: 'passed',
  SCORE: '2/2 must-haves verified',
  PHASE_GOAL: roadmap.PHASE_1_GOAL,
  MUST_HAVE: 'User can log in with email and password',
  KIND: 'truth',
  EVIDENCE: 'src/auth/session.ts:5',
  RESULT: 'verified',
  REQ_ID: 'AUTH-01',
  REQ_STATE: 'satisfied',
  REQ_EVIDENCE: 'truth 1',
  GAP: 'None',
  HUMAN_CHECK: 'None',
};

const context2 = {
  PHASE: '2',
  PHASE_NAME: 'Password reset',
  PHASE_GOAL: roadmap.PHASE_2_GOAL,
  DECISION: 'Reset links expire after one hour',
  QUESTION: 'None',
  AREA: 'src/auth/password.ts',
  DEFERRED: 'SMS reset',
};

const plan2 = {
  ...plan1,
  PHASE: '2',
  PHASE_DIR: '02-password-reset',
  PHASE_PAD: '02',
  PLAN_TITLE: 'Password reset endpoint',
  FILE_1: 'src/auth/password.ts',
  FILE_2: 'src/api/routes.ts',
  REQ_ID: 'AUTH-02',
  TRUTH: 'User can reset their password by email',
  EXPORT: 'resetPassword',
  LINK_VIA: 'POST /api/password-reset',
  OBJECTIVE: 'Let users reset their password by email.',
  RELEVANT_FILES: 'src/auth/password.ts, src/api/routes.ts',
  PAST_WORK: 'phase 1: hash passwords with a single helper',
};

describe('workflow round trip: a project scaffolded from the templates, through the MCP client', () => {
  let root: string;
  let s: Session;
  const planning = (rel: string) => path.join(root, '.planning', rel);
  const edit = (rel: string, from: string, to: string) => {
    const text = readFileSync(planning(rel), 'utf8');
    assert.ok(text.includes(from), `${rel} should contain ${JSON.stringify(from)}`);
    writeFileSync(planning(rel), text.replace(from, to));
  };

  before(async () => {
    root = copyProject('gsd-app');
    rmSync(path.join(root, '.planning'), { recursive: true, force: true });
    const docs: Array<[string, string, Record<string, string>]> = [
      ['PROJECT.md', 'PROJECT.md', project],
      ['REQUIREMENTS.md', 'REQUIREMENTS.md', requirements],
      ['ROADMAP.md', 'ROADMAP.md', roadmap],
      ['STATE.md', 'STATE.md', roadmap],
      ['config.json', 'config.json', {}],
      ['phases/01-login/01-01-PLAN.md', 'PLAN.md', plan1],
      ['phases/01-login/01-01-SUMMARY.md', 'SUMMARY.md', summary1],
      ['phases/01-login/01-VERIFICATION.md', 'VERIFICATION.md', verification1],
      ['phases/02-password-reset/02-CONTEXT.md', 'CONTEXT.md', context2],
      ['phases/02-password-reset/02-01-PLAN.md', 'PLAN.md', plan2],
    ];
    for (const [rel, name, values] of docs) writeFile(root, `.planning/${rel}`, fill(template(name), values));
    await buildIntel(root);
    s = await startServer(path.join(root, 'src'), { CLAUDE_PROJECT_DIR: root });
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  it('every placeholder of every template is filled by the scaffold (no {{ left)', () => {
    for (const name of ['PROJECT.md', 'REQUIREMENTS.md', 'ROADMAP.md', 'STATE.md', 'PLAN.md', 'SUMMARY.md', 'VERIFICATION.md', 'CONTEXT.md', 'entity.md']) {
      assert.ok(placeholders(template(name)).length > 0 || name === 'config.json', `${name} has placeholders`);
    }
    for (const rel of ['PROJECT.md', 'REQUIREMENTS.md', 'ROADMAP.md', 'STATE.md', 'phases/01-login/01-01-PLAN.md']) {
      assert.doesNotMatch(readFileSync(planning(rel), 'utf8'), /\{\{/, rel);
    }
  });

  it('requirement_status: ids, texts, phases, plans, summaries and verification of a fresh project', async () => {
    const all = await s.ok('requirement_status');
    assert.deepEqual(all.requirements.map((r: any) => r.id), ['AUTH-01', 'AUTH-02', 'AUTH-10']);
    // AUTH-01 has a summary that completes it but is not ticked yet: in progress until /gsd:verify-work records it
    assert.deepEqual(all.counts, { complete: 0, in_progress: 1, pending: 2, blocked: 0, deferred: 0 });
    const one = await s.ok('requirement_status', { requirement_id: 'AUTH-01' });
    assert.deepEqual(one.requirements[0], {
      id: 'AUTH-01',
      text: 'User can log in with email and password',
      state: 'in_progress',
      checked: false,
      phase: '1',
      traced_status: 'Pending',
      plans: ['.planning/phases/01-login/01-01-PLAN.md'],
      summaries: ['.planning/phases/01-login/01-01-SUMMARY.md'],
      verification: 'passed (2/2 must-haves verified)',
    });
    const two = await s.ok('requirement_status', { requirement_id: 'AUTH-02' });
    assert.equal(two.requirements[0].phase, '2');
    assert.deepEqual(two.requirements[0].plans, ['.planning/phases/02-password-reset/02-01-PLAN.md']);
    assert.deepEqual(two.requirements[0].summaries, []);
    const later = await s.ok('requirement_status', { requirement_id: 'AUTH-10' });
    assert.deepEqual([later.requirements[0].checked, later.requirements[0].phase], [null, null]);
  });

  it('phase_status: goal, requirements, success criteria, plans and verification from ROADMAP, STATE and the phase folders', async () => {
    const cur = await s.ok('phase_status');
    assert.equal(cur.current_phase, '1');
    assert.equal(cur.detail.name, 'Login');
    assert.equal(cur.detail.goal, roadmap.PHASE_1_GOAL);
    assert.deepEqual(cur.detail.requirements, ['AUTH-01']);
    assert.deepEqual(cur.detail.success_criteria, [roadmap.PHASE_1_CRITERION_1, roadmap.PHASE_1_CRITERION_2]);
    assert.deepEqual([cur.detail.plans_total, cur.detail.plans_done], [1, 1]);
    assert.equal(cur.detail.verification, 'passed (2/2 must-haves verified)');
    assert.equal(cur.state.status, 'Ready to plan');
    const p2 = await s.ok('phase_status', { phase: '02' });
    assert.equal(p2.detail.name, 'Password reset');
    assert.deepEqual(p2.detail.requirements, ['AUTH-02']);
    assert.deepEqual(p2.detail.success_criteria, [roadmap.PHASE_2_CRITERION_1]);
    assert.deepEqual([p2.detail.plans_total, p2.detail.plans_done, p2.detail.verification], [1, 0, null]);
    assert.equal(p2.detail.status, 'planned', 'not started in ROADMAP, but it has a plan');
  });

  it('similar_past_work: the summary written from the template gives its one-liner, decisions, lessons and files', async () => {
    const past = await s.ok('similar_past_work', { current_goal: 'login session token through the database client' });
    assert.equal(past.items[0].phase, '1');
    const summary = past.items.find((i: any) => i.kind === 'summary');
    assert.ok(summary, JSON.stringify(past.items));
    assert.equal(summary.file, '.planning/phases/01-login/01-01-SUMMARY.md');
    assert.deepEqual(summary.decisions, ['Sessions are opaque tokens', 'Hash passwords with a single helper']);
    assert.equal(summary.title, `Summary 1-01: ${summary1.ONE_LINER}`, 'the line under the title is the one-liner');
    assert.deepEqual(summary.lessons, ['Added a query helper for bound parameters']);
    const plan = past.items.find((i: any) => i.kind === 'plan');
    assert.equal(plan.title, `Plan 1-01: ${plan1.OBJECTIVE}`, 'the <objective> of the plan');
    assert.deepEqual(summary.files, ['src/auth/session.ts', 'src/db/client.ts']);
  });

  it('phase_relevant_files: the files of the phase goal first, and what the similar past phase touched', async () => {
    const rel = await s.ok('phase_relevant_files', { phase: '2', include_purposes: true });
    const paths = rel.files.map((f: any) => f.path);
    assert.deepEqual(paths.slice(0, 2), ['src/auth/password.ts', 'src/api/routes.ts'], JSON.stringify(paths));
    assert.equal(rel.files[0].purpose, 'Password hashing and password reset.');
    for (const p of ['src/auth/session.ts', 'src/db/client.ts']) {
      assert.ok(rel.files.find((f: any) => f.path === p)?.reasons.includes('touched by similar phase 1'), `${p}: from the phase 1 summary`);
    }
    assert.deepEqual(rel.similar_phases.map((x: any) => x.phase), ['1']);
    assert.ok(!paths.some((p: string) => p.startsWith('.planning/')));
  });

  it('PROJECT.md from the template gives the vision, core value and key decisions (resources)', async () => {
    const read = async (uri: string) => {
      const r = await s.client.readResource({ uri });
      return r.contents.map((c) => ('text' in c ? c.text : '')).join('');
    };
    assert.equal(await read('gsd://project/vision'), `# ${project.PROJECT_NAME}\n\n## Vision\n\n${project.VISION}\n\n## Core value\n\n${project.CORE_VALUE}\n`);
    const decisions = await read('gsd://project/decisions');
    assert.match(decisions, /^- Sessions are opaque tokens — revocable on the server \(Pending\)$/m);
    assert.match(decisions, /^- Hash passwords with a single helper \(\.planning\/phases\/01-login\/01-01-SUMMARY\.md\)$/m);
    const pending = await read('gsd://project/requirements/pending');
    assert.match(pending, /\*\*AUTH-02\*\* User can reset their password by email \(phase 2\) — Pending/);
  });

  it('after /gsd:verify-work records phase 1: the requirement is complete and STATE moves to phase 2', async () => {
    edit('REQUIREMENTS.md', '- [ ] **AUTH-01**', '- [x] **AUTH-01**');
    edit('REQUIREMENTS.md', '| AUTH-01 | Phase 1 | Pending |', '| AUTH-01 | Phase 1 | Complete |');
    edit('ROADMAP.md', '- [ ] **Phase 1: Login**', '- [x] **Phase 1: Login**');
    edit('ROADMAP.md', '| 1. Login | 0/1 | Not started | - |', `| 1. Login | 1/1 | Complete | ${DATE} |`);
    edit('STATE.md', 'current_phase: 1', 'current_phase: 2');
    edit('STATE.md', 'Phase: 1 of 2 (Login)', 'Phase: 2 of 2 (Password reset)');
    const one = await s.ok('requirement_status', { requirement_id: 'AUTH-01' });
    assert.deepEqual([one.requirements[0].state, one.requirements[0].checked, one.requirements[0].traced_status], ['complete', true, 'Complete']);
    const all = await s.ok('requirement_status');
    assert.deepEqual(all.counts, { complete: 1, in_progress: 0, pending: 2, blocked: 0, deferred: 0 });
    const cur = await s.ok('phase_status');
    assert.equal(cur.current_phase, '2');
    assert.equal(cur.detail.name, 'Password reset');
    const p1 = await s.ok('phase_status', { phase: '1' });
    assert.equal(p1.detail.status, 'complete');
  });
});
