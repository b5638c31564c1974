/**
 * The planning-document tools (vitals, plan, discuss, validate, dash, evolve) and the resources gsd://commands,
 * gsd://agents and gsd://phase, through the SDK's real Client against the built server on copies of the gsd-app
 * fixture: every action's happy path, bad input (a clear error and nothing changed), and persistence across a
 * server restart. The state store is the real one (engine/src/planning), seeded through its own API.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, loadLeaseIssuer, StateStore } from '../../engine/src/index.js';
import { startServer, type Session } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

/** every file under .planning/ (minus the intel and audit log) with its content: "nothing changed" is this being equal */
function planningSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(root, p);
      if (rel.startsWith(path.join('.planning', 'intel'))) continue;
      if (e.isDirectory()) walk(p);
      else out[rel] = readFileSync(p, 'utf8');
    }
  };
  walk(path.join(root, '.planning'));
  return out;
}

const read = async (s: Session, uri: string) => String(((await s.client.readResource({ uri })).contents[0] as { text?: string }).text);

describe('planning tools on the gsd-app fixture', () => {
  let root: string;
  let s: Session;
  before(async () => {
    root = copyProject('gsd-app');
    await buildIntel(root);
    s = await startServer(root, { CLAUDE_PROJECT_DIR: root });
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  it('publish their annotations: the writing ones say so', () => {
    const by = new Map(s.tools.map((t) => [t.name, t.annotations]));
    for (const t of ['vitals', 'discuss', 'validate', 'dash']) assert.equal(by.get(t)?.readOnlyHint, true, t);
    for (const t of ['plan', 'evolve']) assert.deepEqual([by.get(t)?.readOnlyHint, by.get(t)?.destructiveHint], [false, true], t);
    const share = s.tools.filter((t) => ['vitals', 'plan', 'discuss', 'validate', 'dash', 'evolve'].includes(t.name)).reduce((n, t) => n + JSON.stringify(t).length, 0);
    assert.ok(Math.ceil(share / 4) <= 1050, `the six tools take ${Math.ceil(share / 4)} tokens of tools/list`);
  });

  it('vitals: health, current phase, leases, and a command file parsed into its sections', async () => {
    const v = await s.ok('vitals');
    assert.deepEqual(v.phase, { number: '2', name: 'Password reset', source: 'state' });
    assert.deepEqual(v.problems, []);
    assert.equal(v.leases, 0);
    assert.equal(v.command, null);
    const { issueLease } = await loadLeaseIssuer();
    await new StateStore(root).update((st) => issueLease(st, { taskId: 'T1', scope: ['src/auth/**'], holder: 'test', ttlMinutes: 30 }, Date.now()));
    const c = await s.ok('vitals', { command: '/gsd:plan-phase' });
    assert.equal(c.leases, 1);
    assert.equal(c.command.file, path.join(repoRoot, 'commands', 'gsd', 'plan-phase.md'));
    assert.equal(c.command.synthetic, false);
    assert.match(c.command.sections.objective, /Plan a roadmap phase/);
    assert.deepEqual(c.command.sections.tasks.slice(0, 2), ['Preconditions', 'Plan']);
    assert.ok(c.command.sections.process.length >= 4);
    assert.ok(c.command.sections.constraints.some((x: string) => /must not be verified/.test(x)));
    assert.ok(c.command.sections.context.some((x: string) => x.includes('mcp__gsd__phase_status')), 'mcp__ names survive');
    const before = planningSnapshot(root);
    assert.match(await s.fails('vitals', { command: 'no-such-command' }), /no \/gsd:no-such-command command[\s\S]*plan-phase/);
    assert.match(await s.fails('vitals', { command: '../../etc/passwd' }), /not a command name/);
    assert.deepEqual(planningSnapshot(root), before);
  });

  it('validate: derives the rules from the templates and lists what is missing', async () => {
    const plan = readFileSync(path.join(root, '.planning/phases/02-auth/02-01-PLAN.md'), 'utf8');
    const r = await s.ok('validate', { content: plan, type: 'plan' });
    assert.equal(r.valid, false);
    for (const m of ['frontmatter type', 'frontmatter must_haves.key_links', 'section "## Tasks"', 'section "### Task N: …" (at least one)', 'section "## Verification"']) {
      assert.ok(r.missing.items.includes(m), `missing ${m}: ${r.missing.items.join(' | ')}`);
    }
    const template = readFileSync(path.join(repoRoot, 'templates', 'PLAN.md'), 'utf8');
    const t = await s.ok('validate', { content: template, type: 'plan' });
    assert.deepEqual(t.missing.items, [`placeholders left: ${[...new Set([...template.replace(/<!--[\s\S]*?-->/g, '').matchAll(/\{\{([A-Z0-9_]+)\}\}/g)].map((m) => `{{${m[1]}}}`))].slice(0, 10).join(', ')}`]);
    const project = await s.ok('validate', { content: readFileSync(path.join(root, '.planning/PROJECT.md'), 'utf8'), type: 'project' });
    assert.deepEqual(project.missing.items.sort(), ['section "## Constraints"', 'section "## Out of Scope"', 'section "## Users"'].sort());
    const reqs = await s.ok('validate', { content: '# Requirements: X\n\n## v1 Requirements\n', type: 'requirements' });
    assert.ok(reqs.missing.items.includes('"**Defined:**" in "# Requirements: X"'), reqs.missing.items.join(' | '));
    assert.ok(reqs.missing.items.includes('section "## Traceability"'));
    assert.match(await s.fails('validate', { content: 'x', type: 'roadmap' }), /type/i);
    assert.match(await s.fails('validate', { content: 'a\0b', type: 'plan' }), /NUL/);
  });

  it('plan: never overwrites; with overwrite writes a plan validate accepts, naming the files the intel ranks for the goal', async () => {
    const file = path.join(root, '.planning/phases/02-auth/02-01-PLAN.md');
    const before = planningSnapshot(root);
    assert.match(await s.fails('plan', { phase: '2' }), /02-01-PLAN\.md exists[\s\S]*overwrite/);
    assert.match(await s.fails('plan', { phase: '9' }), /phase 9 is not in ROADMAP[\s\S]*1, 2/);
    assert.match(await s.fails('plan', { phase: '../../etc' }), /not a phase number/);
    assert.match(await s.fails('plan', { phase: '2/../../x' }), /not a phase number/);
    assert.deepEqual(planningSnapshot(root), before);
    const r = await s.ok('plan', { phase: '02', overwrite: true });
    assert.deepEqual([r.file, r.replaced, r.spawn], ['.planning/phases/02-auth/02-01-PLAN.md', true, []]);
    const text = readFileSync(file, 'utf8');
    assert.deepEqual((await s.ok('validate', { content: text, type: 'plan' })).missing.items, []);
    const ranked = await s.ok('phase_relevant_files', { phase: '2' });
    const top = ranked.files.map((f: { path: string }) => f.path).filter((p: string) => !p.startsWith('test/'));
    assert.deepEqual(r.files, top.slice(0, r.files.length));
    assert.equal(r.files[0], 'src/auth/password.ts');
    assert.match(text, /requirements: \[AUTH-02, AUTH-03\]/);
    assert.match(text, /### Task 1: User can reset their password by email[\s\S]*\*\*Files:\*\* src\/auth\/password\.ts[\s\S]*\(AUTH-02\)/);
    assert.match(text, /### Task 2: Sessions expire after 30 days[\s\S]*\(AUTH-03\)/);
    assert.match(text, /test\/auth\.test\.ts/, 'the tests that reach the files (blast radius)');
    assert.match(text, /Sessions are opaque tokens/, 'decisions of similar past work');
    assert.match(text, /from: "src\/auth\/session\.ts"\n\s+to: "src\/auth\/password\.ts"/, 'key links are real imports');
    // the phase adapter reads it back
    const status = await s.ok('phase_status', { phase: '2' });
    assert.equal(status.detail.plans_total, 1);
  });

  it('plan: auto_spawn queues the plan_phase agents with the plan, persisted across a restart', async () => {
    rmSync(path.join(root, '.planning/phases/02-auth'), { recursive: true });
    const r = await s.ok('plan', { phase: '2', auto_spawn: true, skip_research: true, context: 'Keep the reset token single-use.' });
    assert.match(readFileSync(path.join(root, r.file), 'utf8'), /<objective>\nUsers can reset their password by email and sessions expire\n\nKeep the reset token single-use\.\n<\/objective>/);
    assert.equal(r.file, '.planning/phases/02-password-reset/02-01-PLAN.md');
    assert.ok(r.spawn.length >= 1);
    assert.ok(r.spawn.every((x: { stage: string }) => !x.stage.startsWith('before')), 'skip_research skips the before stages');
    assert.deepEqual(r.spawn.map((x: { order: number }) => x.order), [...r.spawn.map((x: { order: number }) => x.order)].sort((a: number, b: number) => a - b));
    const s2 = await startServer(root, { CLAUDE_PROJECT_DIR: root });
    try {
      const d = await s2.ok('dash', { format: 'json' });
      assert.deepEqual(d.data.queue.map((q: { id: string }) => q.id), r.spawn.map((x: { id: string }) => x.id));
      assert.ok(existsSync(path.join(root, r.file)));
      // a refused write queues nothing
      const queued = d.data.queue.length;
      assert.match(await s2.fails('plan', { phase: '2', auto_spawn: true }), /exists/);
      assert.equal((await s2.ok('dash', { format: 'json' })).data.queue.length, queued);
    } finally {
      await s2.close();
    }
  });

  it('discuss: goal, requirements, questions and decisions from CONTEXT.md and the roadmap, relevant files', async () => {
    writeFileSync(
      path.join(root, '.planning/phases/02-password-reset/02-CONTEXT.md'),
      '# Phase 2 Context\n\n## Decisions\n\n- Reset links expire after one hour\n\n## Open Questions\n\n- Do we email on every reset?\n- {{QUESTION}}\n',
    );
    const d = await s.ok('discuss', { phase: '2', topic: 'email' });
    assert.equal(d.phase.goal, 'Users can reset their password by email and sessions expire');
    assert.deepEqual(d.phase.requirements.map((r: { id: string }) => r.id), ['AUTH-02', 'AUTH-03']);
    assert.equal(d.phase.context_file, '.planning/phases/02-password-reset/02-CONTEXT.md');
    assert.equal(d.questions[0], 'Do we email on every reset?');
    assert.ok(!d.questions.some((q: string) => q.includes('{{')), 'template placeholders are not questions');
    assert.ok(d.decisions.includes('Reset links expire after one hour'));
    assert.ok(d.decisions.some((x: string) => /Sessions are opaque tokens — phase 1/.test(x)));
    assert.equal(d.files[0].path, 'src/auth/password.ts');
    const p1 = await s.ok('discuss', { phase: '1' });
    assert.equal(p1.phase.context_file, null);
    assert.match(await s.fails('discuss', { phase: 'x' }), /not a phase number/);
    assert.match(await s.fails('discuss', { phase: '7' }), /not in ROADMAP/);
  });

  it('dash: text and json with leases, queue and intel freshness', async () => {
    const t = await s.ok('dash', { format: 'text' });
    assert.match(t.text, /\*\*Phase\*\*: 2 Password reset/);
    assert.match(t.text, /## Leases \(1 active\)\n- T1 \(L-[0-9a-f]+\) by test until/);
    assert.match(t.text, /## Spawn queue \([1-9]\d* pending\)/);
    assert.match(t.text, /\*\*Intel\*\*: \d+ files, updated \d+ min ago/);
    const j = await s.ok('dash', { format: 'json' });
    assert.deepEqual(j.data.requirements, { complete: 2, in_progress: 1, pending: 2, blocked: 0, deferred: 0 });
    assert.deepEqual(j.data.progress, { phases: 2, phases_complete: 1, plans: 2, summaries: 1 });
    assert.equal(j.data.intel.present, true);
    assert.equal(j.text, undefined);
    assert.match(await s.fails('dash', { format: 'html' }), /format/);
  });

  it('resources: commands, agents and phases are listed and readable, capped, and ids cannot leave their folder', async () => {
    const { resources } = await s.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const u of ['gsd://commands/plan-phase', 'gsd://agents/gsd-planner', 'gsd://phase/1', 'gsd://phase/2']) assert.ok(uris.includes(u), u);
    assert.match(await read(s, 'gsd://commands/execute-phase'), /^---\ndescription: /);
    assert.match(await read(s, 'gsd://agents/gsd-executor'), /name: gsd-executor/);
    const p1 = await read(s, 'gsd://phase/1');
    assert.match(p1, /# Phase 1: Foundation\n\n\*\*Goal\*\*: Users can log in/);
    assert.match(p1, /## Plan 1-01 \(`\.planning\/phases\/01-foundation\/01-01-PLAN\.md`\)/);
    assert.match(p1, /## Summary 1-01/);
    assert.match(p1, /## Verification: passed/);
    assert.match(await read(s, 'gsd://commands/nope'), /No command "nope"\. Known: .*plan-phase/);
    assert.match(await read(s, 'gsd://commands/..%2F..%2Fpackage'), /No command/);
    assert.match(await read(s, 'gsd://phase/..%2F..%2Fx'), /not a phase number/);
    writeFileSync(path.join(root, '.planning/phases/01-foundation/01-01-SUMMARY.md'), `# Summary\n\n${'x'.repeat(40_000)}\n`);
    assert.match(await read(s, 'gsd://phase/1'), /_… cut at 16000 characters_\n$/);
  });
});

describe('evolve: detect, apply with a rollback, rollback, report', () => {
  let root: string;
  let s: Session;
  before(async () => {
    root = copyProject('gsd-app');
    rmSync(path.join(root, '.planning/phases/02-auth'), { recursive: true });
    await buildIntel(root);
    s = await startServer(root, { CLAUDE_PROJECT_DIR: root });
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  it('writes a missing plan and deletes it again', async () => {
    const d = await s.ok('evolve', { action: 'detect' });
    assert.deepEqual(d.items.map((c: { id: string }) => c.id), ['phase-without-plans:2']);
    const before = planningSnapshot(root);
    assert.match(await s.fails('evolve', { action: 'apply' }), /needs candidateId/);
    assert.match(await s.fails('evolve', { action: 'undo' }), /action/);
    assert.deepEqual((await s.ok('evolve', { action: 'detect', scope: 'stuck-queue' })).items, []);
    assert.match(await s.fails('evolve', { action: 'apply', candidateId: 'stale-leases' }), /no candidate "stale-leases"/);
    assert.match(await s.fails('evolve', { action: 'rollback', candidateId: 'E-000000000000' }), /no applied change/);
    assert.deepEqual(planningSnapshot(root), before);
    const a = await s.ok('evolve', { action: 'apply', candidateId: 'phase-without-plans:2' });
    const applied = a.items[0];
    assert.equal(applied.file, 'phases/02-password-reset/02-01-PLAN.md');
    assert.ok(existsSync(path.join(root, '.planning', applied.file)));
    assert.deepEqual((await s.ok('evolve', { action: 'detect' })).items, []);
    // the record survives a restart, and the rollback works from the new process
    await s.close();
    s = await startServer(root, { CLAUDE_PROJECT_DIR: root });
    const report = await s.ok('evolve', { action: 'report' });
    assert.deepEqual(report.items.map((x: { id: string }) => x.id), [applied.id]);
    const r = await s.ok('evolve', { action: 'rollback', candidateId: applied.id });
    assert.ok(r.items[0].rolledBackAt);
    assert.ok(!existsSync(path.join(root, '.planning', applied.file)));
    assert.match(await s.fails('evolve', { action: 'rollback', candidateId: applied.id }), /was rolled back/);
  });

  it('brings STATE.md up to date, and refuses to undo over a later edit unless forced', async () => {
    await s.ok('evolve', { action: 'apply', candidateId: 'phase-without-plans:2' });
    const dir = path.join(root, '.planning/phases/02-password-reset');
    writeFileSync(path.join(dir, '02-02-PLAN.md'), '---\nphase: 02-password-reset\nplan: 02\n---\n\n<objective>\nSessions.\n</objective>\n');
    writeFileSync(path.join(dir, '02-01-SUMMARY.md'), '# Summary\n\nDone.\n');
    const stateFile = path.join(root, '.planning/STATE.md');
    const original = readFileSync(stateFile, 'utf8');
    const d = await s.ok('evolve', { action: 'detect', scope: 'state-behind' });
    assert.deepEqual(d.items.map((c: { id: string }) => c.id), ['state-behind:2']);
    const a = (await s.ok('evolve', { action: 'apply', candidateId: 'state-behind:2' })).items[0];
    assert.match(readFileSync(stateFile, 'utf8'), /^Plan: 1 of 2 in current phase$/m);
    writeFileSync(stateFile, `${readFileSync(stateFile, 'utf8')}\nA later note.\n`);
    const edited = readFileSync(stateFile, 'utf8');
    assert.match(await s.fails('evolve', { action: 'rollback', candidateId: a.id }), /changed since[\s\S]*force/);
    assert.equal(readFileSync(stateFile, 'utf8'), edited);
    await s.ok('evolve', { action: 'rollback', candidateId: a.id, force: true });
    assert.equal(readFileSync(stateFile, 'utf8'), original);
  });

  it('returns stale leases and reopens them on rollback', async () => {
    const past = Date.now() - 2 * 60 * 60 * 1000;
    const { issueLease } = await loadLeaseIssuer();
    await new StateStore(root, { now: () => past }).update((st) => issueLease(st, { taskId: 'old-task', scope: ['src/db/**'], holder: 'gone', ttlMinutes: 5 }, past));
    const d = await s.ok('evolve', { action: 'detect', scope: 'stale-leases' });
    assert.equal(d.items.length, 1);
    const a = (await s.ok('evolve', { action: 'apply', candidateId: 'stale-leases' })).items[0];
    assert.equal(a.ids.length, 1);
    let { state } = await new StateStore(root).read();
    assert.equal(state.leases.find((l) => l.taskId === 'old-task')?.result, 'expired; returned by evolve');
    await s.ok('evolve', { action: 'rollback', candidateId: a.id });
    ({ state } = await new StateStore(root).read());
    assert.equal(state.leases.find((l) => l.taskId === 'old-task')?.returnedAt, undefined);
  });
});

describe('planning writes stay inside .planning/', () => {
  after(cleanupProjects);
  it('refuses a phase folder that is a symlink out of .planning/, and writes nothing there', async () => {
    const root = copyProject('gsd-app');
    const outside = mkdtempSync(path.join(os.tmpdir(), 'gsd-outside-'));
    rmSync(path.join(root, '.planning/phases/02-auth'), { recursive: true });
    // the folder plan would create for phase 2, planted as a link to a folder outside the project
    symlinkSync(outside, path.join(root, '.planning/phases/02-password-reset'));
    await buildIntel(root);
    const s = await startServer(root, { CLAUDE_PROJECT_DIR: root });
    try {
      assert.match(await s.fails('plan', { phase: '2' }), /symlink/);
      assert.deepEqual(readdirSync(outside), []);
    } finally {
      await s.close();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('command files and templates are found where each layout puts them', () => {
  const made: string[] = [];
  after(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
    cleanupProjects();
  });
  const runtime = path.join(repoRoot, 'dist', 'runtime');
  /** copies the runtime bundle to `<base>/<runtimeRel>/` and the assets to `<base>/<assetsRel>/{commands/gsd,agents}` and `templates` */
  function layout(runtimeRel: string, assetsRel: string | null, templatesRel: string | null): string {
    const base = mkdtempSync(path.join(os.tmpdir(), 'gsd-layout-'));
    made.push(base);
    cpSync(runtime, path.join(base, runtimeRel), { recursive: true });
    if (assetsRel !== null) {
      mkdirSync(path.join(base, assetsRel, 'commands'), { recursive: true });
      cpSync(path.join(repoRoot, 'commands', 'gsd'), path.join(base, assetsRel, 'commands', 'gsd'), { recursive: true });
      cpSync(path.join(repoRoot, 'agents'), path.join(base, assetsRel, 'agents'), { recursive: true });
    }
    if (templatesRel !== null) cpSync(path.join(repoRoot, 'templates'), path.join(base, templatesRel, 'templates'), { recursive: true });
    return path.join(base, runtimeRel, 'mcp-server.js');
  }

  for (const [name, entry, expect] of [
    ['an install (<config>/gsdcc/ holding its own commands/gsd/ and agents/)', () => layout('gsdcc', 'gsdcc', 'gsdcc'), 'commands'],
    ['the plugin / npm package (<root>/dist/runtime/)', () => layout('dist/runtime', '.', '.'), 'commands'],
    ['a runtime with no assets around it', () => layout('rt', null, null), 'synthetic'],
  ] as const) {
    it(name, async () => {
      const root = copyProject('gsd-app');
      const s = await startServer(root, { CLAUDE_PROJECT_DIR: root }, entry());
      try {
        const v = await s.ok('vitals', { command: 'execute-phase' });
        if (expect === 'commands') {
          assert.equal(v.command.synthetic, false);
          assert.match(v.command.file, /commands[/\\]gsd[/\\]execute-phase\.md$/);
          assert.ok(!v.command.file.startsWith(repoRoot), 'the copy, not the checkout');
          assert.match(await read(s, 'gsd://agents/gsd-planner'), /name: gsd-planner/);
          const plan = readFileSync(path.join(root, '.planning/phases/02-auth/02-01-PLAN.md'), 'utf8');
          assert.equal((await s.ok('validate', { content: plan, type: 'plan' })).valid, false);
        } else {
          assert.equal(v.command.synthetic, true);
          assert.equal(v.command.file, null);
          assert.match(v.command.sections.objective, /^\/gsd:execute-phase for phase 2 \(Password reset\)/);
          assert.deepEqual(v.command.sections.success, ['User can reset their password by email', 'Sessions expire after 30 days']);
          assert.match(await s.fails('validate', { content: 'x', type: 'plan' }), /templates\/PLAN\.md of get-shit-done-cc was not found/);
        }
      } finally {
        await s.close();
      }
    });
  }

  it('an install that named our agents gsdcc-* (beside upstream GSD): spawn plans name them so', async () => {
    const entry = layout('gsdcc', 'gsdcc', 'gsdcc');
    const agents = path.join(path.dirname(entry), 'agents');
    for (const f of readdirSync(agents)) if (f.startsWith('gsd-')) renameSync(path.join(agents, f), path.join(agents, `gsdcc-${f.slice(4)}`));
    const root = copyProject('gsd-app');
    const s = await startServer(root, { CLAUDE_PROJECT_DIR: root }, entry);
    try {
      const plan = await s.ok('agent', { action: 'plan', intent: 'plan_phase' });
      const names = plan.result.steps.map((step: { agent: string }) => step.agent);
      assert.ok(names.length > 0);
      assert.ok(names.every((n: string) => n.startsWith('gsdcc-')), names.join(', '));
    } finally {
      await s.close();
    }
  });
});
