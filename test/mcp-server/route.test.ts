/**
 * `route` through the built server over stdio with the SDK's real Client, on the gsd-app fixture: one question per
 * family, each with the plan and the answer it must give (answers checked against the engine and the documents);
 * vague names and candidates; plan mode; the result cache and its invalidation by an edit recorded by the real
 * PostToolUse hook process, by an edit of a GSD document, by a file added, renamed and deleted and by a config change;
 * answers cut to a tiny max_tokens; lists whole when they fit the budget, and the call for the rest when they do not;
 * definitions from declarations in every module system; and a plan step naming a tool that is not registered.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { blastRadius, buildIntel, dependencies, hotspots } from '../../engine/src/index.js';
import { ServerContext } from '../../mcp-server/src/context.js';
import { planQuestion } from '../../mcp-server/src/route/plan.js';
import { runPlan } from '../../mcp-server/src/route/run.js';
import { buildServer } from '../../mcp-server/src/server.js';
import { HOOKS, payload, runHookProcess } from '../helpers/hooks.js';
import { fixtureServer, startServer, type Session } from '../helpers/mcp.js';
import { cleanupProjects, copyProject, tempProject } from '../helpers/project.js';

type Answer = Record<string, any>;
const tokens = (v: unknown) => Math.ceil(JSON.stringify(v).length / 4);
const step = (a: Answer, id: string) => a.results.find((r: Answer) => r.id === id);

describe('mcp server: route', () => {
  const f = fixtureServer('gsd-app');

  const ask = (query: string, extra: Record<string, unknown> = {}) => f.s.ok<Answer>('route', { query, ...extra });
  const plan = (a: Answer) => a.plan.map((p: Answer) => ({ tool: p.tool, args: p.args }));

  it('is listed first, loads upfront in Claude Code, and every tool has a search hint', () => {
    assert.equal(f.s.tools[0].name, 'route');
    assert.equal((f.s.tools[0]._meta as Answer)['anthropic/alwaysLoad'], true);
    for (const t of f.s.tools) assert.ok((t._meta as Answer)?.['anthropic/searchHint'], t.name);
  });

  it('who imports a file: blast_radius at depth 1, the engine’s direct dependents', async () => {
    const a = await ask('who imports src/db/client.ts?');
    assert.equal(a.family, 'dependents');
    assert.deepEqual(plan(a), [{ tool: 'blast_radius', args: { file: 'src/db/client.ts', max_depth: 1 } }]);
    const engine = dependencies(f.reader, 'src/db/client.ts').dependents.map((d) => d.path).sort();
    assert.deepEqual([...step(a, 'answer').data.by_depth[0].files].sort(), engine);
  });

  it('who uses a symbol: only the files that reach it, through re-exports', async () => {
    const a = await ask('which files use hashPassword');
    assert.equal(a.family, 'dependents');
    assert.deepEqual(a.subject, { how: 'symbol', path: 'src/auth/password.ts', symbol: 'hashPassword', why: a.subject.why });
    assert.match(a.subject.why, /declares function hashPassword/);
    const engine = blastRadius(f.reader, 'src/auth/password.ts', { symbol: 'hashPassword', maxDepth: 3 });
    assert.equal(step(a, 'answer').data.total, engine.total);
  });

  it('impact: blast_radius with the change type the words name', async () => {
    const a = await ask('what breaks if I delete hashPassword');
    assert.equal(a.family, 'impact');
    assert.deepEqual(plan(a), [{ tool: 'blast_radius', args: { file: 'src/auth/password.ts', symbol: 'hashPassword', change_type: 'deletion' } }]);
    const r = step(a, 'answer').data;
    assert.equal(r.total, blastRadius(f.reader, 'src/auth/password.ts', { symbol: 'hashPassword', maxDepth: 3 }).total);
    assert.deepEqual(r.tests.items, ['test/auth.test.ts']);
    assert.match(r.recommendation, /delete/);
  });

  it('explain a file named loosely ("db.ts"): file_context of the best match', async () => {
    const a = await ask('explain db.ts');
    assert.equal(a.family, 'explain');
    assert.equal(a.subject.path, 'src/db/client.ts');
    const r = a.results.at(-1).data;
    assert.equal(r.path, 'src/db/client.ts');
    assert.equal(r.purpose, 'Database client: runs parameterised queries.');
  });

  it('a vague name: search, then the file context of the best hit, fed forward; the other candidates say why', async () => {
    const a = await ask('tell me about the module that handles login sessions');
    assert.equal(a.family, 'explain');
    assert.deepEqual(
      a.plan.map((p: Answer) => [p.id, p.tool, p.uses ?? null]),
      [
        ['search', 'query_intel', null],
        ['answer', 'file_context', 'file = search.results.0.path'],
      ],
    );
    assert.equal(a.subject.path, 'src/auth/session.ts');
    assert.equal(step(a, 'answer').data.path, 'src/auth/session.ts');
    assert.equal(step(a, 'answer').data.path, step(a, 'search').data.results[0].path);
    assert.ok(a.candidates.length >= 1, 'LoginForm.tsx matches "login" too');
    for (const c of a.candidates) assert.match(c.why, /search "login sessions"/);
    assert.ok(a.notes.some((n: string) => /candidates match; answered for the best: src\/auth\/session\.ts/.test(n)));
  });

  it('where is a symbol defined: its declaration, file:line', async () => {
    const a = await ask('where is createSession defined?');
    assert.equal(a.family, 'definition');
    assert.deepEqual(plan(a), [{ tool: 'verify_artifact', args: { must_exist: 'createSession', check_type: 'definition' } }]);
    assert.deepEqual(step(a, 'answer').data.locations, [{ path: 'src/auth/session.ts', line: 5, detail: 'exported function declaration' }]);
  });

  it('what a file imports: its dependencies and packages only', async () => {
    const a = await ask('what does src/api/routes.ts import');
    assert.equal(a.family, 'imports');
    const r = step(a, 'answer').data;
    assert.deepEqual(Object.keys(r).sort(), ['dependencies', 'packages', 'path', 'unresolved']);
    assert.deepEqual(r.dependencies.items, dependencies(f.reader, 'src/api/routes.ts').dependencies.map((d) => d.path));
  });

  it('the most depended-on files: the engine’s hotspots, in order', async () => {
    const a = await ask('what are the most depended-on files');
    assert.equal(a.family, 'hotspots');
    assert.deepEqual(
      step(a, 'hotspots').data.hotspots.map((h: Answer) => h.path),
      hotspots(f.reader, { limit: 10 }).hotspots.map((h) => h.path),
    );
  });

  it('architecture / overview: hotspots and the project conventions, independent steps', async () => {
    const a = await ask('give me an overview of the architecture');
    assert.equal(a.family, 'architecture');
    assert.deepEqual(a.plan.map((p: Answer) => p.tool), ['hotspots', 'codebase_patterns']);
    assert.ok(a.results.every((r: Answer) => r.ok));
    assert.ok(step(a, 'areas').data.project.some((l: string) => /ES modules/.test(l)));
  });

  it('conventions of an area: codebase_patterns for it', async () => {
    const a = await ask('what are the conventions in src/auth');
    assert.equal(a.family, 'conventions');
    assert.deepEqual(plan(a), [{ tool: 'codebase_patterns', args: { query: 'src/auth' } }]);
    assert.equal(step(a, 'patterns').data.areas.items[0].folder, 'src/auth');
  });

  it('what matters for a phase goal: phase_relevant_files of that ROADMAP phase', async () => {
    const a = await ask('what matters for phase 2?');
    assert.equal(a.family, 'phase_files');
    assert.deepEqual(plan(a), [{ tool: 'phase_relevant_files', args: { phase: '2' } }]);
    assert.equal(step(a, 'files').data.files[0].path, 'src/auth/password.ts');
  });

  it('requirement and phase status; leases and the dashboard through dash and lease', async () => {
    const req = await ask('status of AUTH-01');
    assert.equal(req.family, 'status');
    assert.deepEqual(plan(req), [{ tool: 'requirement_status', args: { requirement_id: 'AUTH-01' } }]);
    assert.equal(step(req, 'req-AUTH-01').data.requirements[0].state, 'complete');
    const phase = await ask('what is the progress of phase 2');
    assert.deepEqual(plan(phase), [{ tool: 'phase_status', args: { phase: '2' } }]);
    assert.equal(step(phase, 'phase').data.detail.name, 'Password reset');
    const board = await ask('show the leases');
    assert.equal(board.family, 'status');
    assert.deepEqual(board.plan.map((p: Answer) => p.tool), ['dash', 'lease']);
    assert.ok(board.results.every((r: Answer) => r.ok), JSON.stringify(board.results));
    assert.deepEqual(step(board, 'leases').data.result.leases, []);
    const dash = await ask('show the dashboard');
    assert.deepEqual(dash.plan.map((p: Answer) => p.tool), ['dash']);
    assert.ok(dash.results[0].ok, JSON.stringify(dash.results));
  });

  it('similar past work: similar_past_work with the goal', async () => {
    const a = await ask('have we done something like password hashing before');
    assert.equal(a.family, 'similar_work');
    assert.equal(a.plan[0].tool, 'similar_past_work');
    assert.ok(step(a, 'similar').data.items.some((i: Answer) => i.phase === '1'));
  });

  it('anything else falls back to a search, and says so', async () => {
    const a = await ask('frobnicate the password widgets');
    assert.equal(a.family, 'search');
    assert.deepEqual(a.plan.map((p: Answer) => p.tool), ['query_intel']);
    assert.match(a.notes[0], /no question family matched/);
    assert.equal(step(a, 'search').data.results[0].path, 'src/auth/password.ts');
  });

  it('a file named by a question no family reads: a combined answer, both directions of the file, far smaller than a search', async () => {
    const f1 = 'src/db/client.ts';
    const a = await ask(`hmm, ${f1}?`);
    assert.equal(a.family, 'links');
    assert.deepEqual(plan(a), [{ tool: 'file_context', args: { file: f1 } }]);
    assert.ok(a.notes.some((n: string) => /not read with confidence: answered both ways/.test(n)), a.notes.join('; '));
    const whole = await f.s.ok<Answer>('file_context', { file: f1 });
    const d = step(a, 'answer').data;
    assert.equal(d.path, f1);
    assert.deepEqual(d.dependents, whole.dependents);
    assert.deepEqual(d.dependencies, whole.dependencies);
    assert.ok(d.dependents.total > 0 && d.dependencies.total >= 0);
    const search = await f.s.ok<Answer>('query_intel', { query: f1 });
    assert.ok(tokens(a) < tokens(search), `combined ${tokens(a)} tokens, search ${tokens(search)}`);
    // a confidently read question keeps its targeted answer
    assert.equal((await ask(`who imports ${f1}?`)).family, 'dependents');
  });

  it('a name declared once, named by a question no family reads: where it is declared, then the files importing it', async () => {
    const a = await ask('createSession ... thoughts?');
    assert.equal(a.family, 'links');
    assert.deepEqual(plan(a).map((p: Answer) => p.tool), ['verify_artifact', 'blast_radius']);
    assert.deepEqual(step(a, 'answer').data.locations[0], { path: 'src/auth/session.ts', line: 5, detail: 'exported function declaration' });
    const users = await f.s.ok<Answer>('blast_radius', { file: 'src/auth/session.ts', symbol: 'createSession', max_depth: 1 });
    assert.equal(step(a, 'users').ok, true);
    assert.deepEqual(step(a, 'users').data.by_depth, users.by_depth);
    // a vague word stays a search
    assert.equal((await ask('frobnicate the password widgets', { mode: 'plan' })).family, 'search');
  });

  it('reads what-if framing, "a dependency on", conditions, downstream/upstream and the question over a side clause', async () => {
    const f1 = 'src/db/client.ts';
    const cases: Array<[string, string]> = [
      // a consequence or what-if framing asks for the dependents
      [`if I break ${f1}, which files stop compiling`, 'impact'],
      [`which modules would i have to touch if ${f1} moved`, 'impact'],
      // "a dependency on F": what has it depends on F; F having one depends on something
      [`can u list the files with a dependency on ${f1}`, 'dependents'],
      // a condition's file brings the others in
      [`what other modules get loaded when ${f1} is loaded`, 'imports'],
      [`what is downstream of ${f1}`, 'dependents'],
      [`what is upstream of ${f1}`, 'imports'],
      [`refs to ${f1}`, 'dependents'],
      [`what files reach for ${f1}`, 'dependents'],
    ];
    for (const [q, family] of cases) {
      const a = await ask(q, { mode: 'plan' });
      assert.equal(a.family, family, q);
      assert.equal(a.subject.path, f1, q);
    }
    for (const q of ['goto def hashPassword', 'I keep seeing hashPassword referenced, where is it actually defined?']) {
      const d = await ask(q, { mode: 'plan' });
      assert.equal(d.family, 'definition', q);
      assert.equal(d.subject.symbol, 'hashPassword', q);
    }
    // without a pronoun for the subject the whole question decides: the side clause names the file, the last clause asks
    assert.equal((await ask(`i'm moving ${f1} into another package, what does it import that would have to come along?`, { mode: 'plan' })).family, 'imports');
  });

  it('reads a question\'s links as people write them: any inflection, the file first or last, nouns, passives', async () => {
    const f1 = 'src/db/client.ts';
    const cases: Array<[string, string]> = [
      [`files depending on ${f1}`, 'dependents'],
      [`which modules are relying on ${f1}`, 'dependents'],
      [`${f1}'s importers`, 'dependents'],
      [`${f1} is required by which files`, 'dependents'],
      [`where does ${f1} get imported`, 'dependents'],
      [`Could you list everything that pulls in ${f1}, please`, 'dependents'],
      [`what is ${f1} depending on`, 'imports'],
      [`${f1}'s deps`, 'imports'],
      [`files needed by ${f1}`, 'imports'],
      [`${f1}: what does it rely on`, 'imports'],
      [`what does ${f1} import and who imports it`, 'links'],
    ];
    for (const [q, family] of cases) {
      const a = await ask(q, { mode: 'plan' });
      assert.equal(a.family, family, q);
      assert.equal(a.subject.path, f1, q);
    }
  });

  it('reads phrasal verbs, "make use of", "dependent on", British spelling and typing slips by their grammar', async () => {
    const f1 = 'src/db/client.ts';
    const cases: Array<[string, string]> = [
      // a verb that links only with its particle, either way round
      [`what hangs off ${f1}`, 'dependents'],
      [`${f1}: what does it lean on?`, 'imports'],
      [`which files are built on top of ${f1}`, 'dependents'],
      [`what does ${f1} reach into`, 'imports'],
      // a light verb makes the noun a verb again
      [`what files does ${f1} make use of`, 'imports'],
      [`which modules make use of ${f1}?`, 'dependents'],
      // an agent noun before "on" is an adjective: the verb
      [`what is ${f1} dependent on`, 'imports'],
      [`files reliant upon ${f1}`, 'dependents'],
      [`dependants of ${f1}`, 'dependents'],
      // a letter dropped or two swapped
      [`who is importng ${f1}`, 'dependents'],
      [`imprts of ${f1}`, 'imports'],
      [`what does ${f1} dpeend on`, 'imports'],
      // inbound/outbound as incoming/outgoing; a passive before "for"/"before" F: what F needs; "impacted"
      [`inbound dependencies of ${f1}`, 'dependents'],
      [`outbound deps of ${f1}`, 'imports'],
      [`what has to be loaded before ${f1} can run`, 'imports'],
      [`whats ${f1} dependant on`, 'imports'],
      [`what would be impacted by changing ${f1}`, 'impact'],
    ];
    for (const [q, family] of cases) {
      const a = await ask(q, { mode: 'plan' });
      assert.equal(a.family, family, q);
      assert.equal(a.subject.path, f1, q);
    }
    // where a name is: typos, abbreviations, "module" for file, a file or line or path for or to the name
    for (const q of ['whre is hashPassword defnied', 'defn of hashPassword?', 'file + line for hashPassword', 'which module exports hashPassword', 'whats the path to hashPassword']) {
      const d = await ask(q, { mode: 'plan' });
      assert.equal(d.family, 'definition', q);
      assert.equal(d.subject.symbol, 'hashPassword', q);
    }
    // a verb without its particle is no link ("why does it hang"), and a lone word is a name, never mended into a verb
    assert.notEqual((await ask(`why does ${f1} hang`, { mode: 'plan' })).family, 'dependents');
    assert.notEqual((await ask('explain rings', { mode: 'plan' })).matched, 'brings');
  });

    it('plan mode returns the plan and runs nothing', async () => {
    const a = await ask('impact of changing src/db/client.ts', { mode: 'plan' });
    assert.equal(a.mode, 'plan');
    assert.deepEqual(a.results, []);
    assert.deepEqual(plan(a), [{ tool: 'blast_radius', args: { file: 'src/db/client.ts', change_type: 'any' } }]);
  });

  it('caches an answer, and an edit recorded by the real PostToolUse hook makes the next one fresh', async () => {
    const q = 'who imports src/db/client.ts';
    await ask(q);
    const hit = await ask(q);
    assert.equal(hit.cached, true);
    const file = path.join(f.root, 'src', 'api', 'routes.ts');
    const before = readFileSync(file, 'utf8');
    const added = "import { query } from '../db/client.js';\nexport const ping = () => query('SELECT 1', []);\n";
    writeFileSync(file, before + added);
    const hook = await runHookProcess(HOOKS.postToolUse, payload.edit(f.root, file, 'x', 'y', before), { cwd: f.root });
    assert.equal(hook.code, 0);
    const fresh = await ask(q);
    assert.equal(fresh.cached, false, 'an answer made before the edit must not be served after it');
    assert.ok(step(fresh, 'answer').data.by_depth[0].files.includes('src/api/routes.ts'), 'the edit is in the answer');
    assert.equal((await ask(q)).cached, true, 'and that answer is cached again');
  });

  it('an edit of a GSD document invalidates the cache too', async () => {
    const q = 'status of AUTH-02';
    const first = await ask(q);
    assert.equal((await ask(q)).cached, true);
    const file = path.join(f.root, '.planning', 'REQUIREMENTS.md');
    const text = readFileSync(file, 'utf8');
    assert.match(text, /- \[ \] \*\*AUTH-02\*\*/);
    writeFileSync(file, text.replace('- [ ] **AUTH-02**', '- [x] **AUTH-02**'));
    const after = await ask(q);
    assert.equal(after.cached, false);
    assert.notDeepEqual(step(after, 'req-AUTH-02').data.requirements[0].checked, step(first, 'req-AUTH-02').data.requirements[0].checked);
    assert.equal(step(after, 'req-AUTH-02').data.requirements[0].checked, true);
  });

  it('a tiny max_tokens: valid JSON within the budget, truncated, the most important items kept', async () => {
    const whole = await f.s.ok<Answer>('file_context', { file: 'src/auth/session.ts' });
    const r = await f.s.call('file_context', { file: 'src/auth/session.ts', max_tokens: 100 });
    assert.ok(!r.isError);
    const text = (r.content[0] as { text: string }).text;
    const parsed = JSON.parse(text) as Answer;
    assert.deepEqual(r.structuredContent, parsed);
    assert.equal(parsed.truncated, true);
    assert.ok(parsed.budget.cut.length > 0);
    assert.equal(parsed.path, whole.path, 'the file itself is never cut');
    assert.deepEqual(parsed.exports.items, whole.exports.items.slice(0, 1), 'the first list keeps its first item');
    assert.equal(parsed.dependents.total, whole.dependents.total, 'total stays the real count');
    assert.ok(parsed.dependents.items.length < whole.dependents.items.length, 'later lists give first');
    assert.equal(parsed.budget.over, true, 'this answer cannot be made smaller than its first items: it says so');
    await f.s.ok('file_context', { file: 'src/auth/session.ts', max_tokens: 100 }); // and it matches the output shape
    const routed = await ask('explain src/auth/session.ts', { max_tokens: 150 });
    assert.equal(routed.truncated, true);
    assert.equal(routed.subject.path, 'src/auth/session.ts');
    assert.equal(routed.results[0].tool, 'file_context', 'the answer goes last');
    assert.equal(routed.results[0].data.path, 'src/auth/session.ts');
    const bad = await f.s.call('route', { query: 'hotspots', max_tokens: 5 });
    assert.equal(bad.isError, true);
  });

  it('a plan step naming a tool the server lacks fails alone; the steps that need it are skipped, the rest run', async () => {
    const ctx = new ServerContext({ cwd: f.root, env: {} });
    buildServer(ctx);
    const project = await ctx.project();
    const p = planQuestion('show the dashboard', { reader: f.reader, readerError: null, has: (t) => ctx.handlers.has(t) });
    p.steps.unshift({ id: 'ghost', tool: 'ghost_tool' as never, args: {}, why: 'a tool this server lacks' });
    p.steps.push({ id: 'after', tool: 'file_context', args: {}, use: { step: 'ghost', field: 'phase.dir', as: 'file' }, why: 'needs ghost' });
    const results = await runPlan(p, project, ctx.handlers, 2000);
    assert.deepEqual(
      results.map((r) => [r.id, r.ok]),
      [
        ['ghost', false],
        ['dash', true],
        ['after', false],
      ],
    );
    assert.match(results[0].error!, /ghost_tool is not a tool of this server/);
    assert.match(results[2].error!, /needs step "ghost", which failed/);
    ctx.close();
  });
});

describe('mcp server: default answer budget on a big project', () => {
  let s: Session;
  before(async () => {
    const files: Record<string, string> = { 'package.json': '{ "name": "big", "type": "module" }\n' };
    files['src/core/widget.ts'] = '/** The widget core. */\nexport const widget = 1;\n';
    for (let i = 0; i < 150; i++) {
      files[`src/widgets/widget-part-${i}.ts`] =
        `/** Widget part ${i}: renders the widget frame, its borders, shadows and every nested child widget of the page layout engine. */\n` +
        `import { widget } from '../core/widget.js';\nexport const widgetPart${i} = widget + ${i};\nexport function renderWidgetPart${i}() { return widgetPart${i}; }\n`;
    }
    const root = tempProject(files);
    await buildIntel(root);
    s = await startServer(root);
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  it('keeps every answer under 4,000 tokens without max_tokens, cutting the tail of the longest lists', async () => {
    const search = await s.ok<Answer>('query_intel', { query: 'widget part', max_results: 50, include_blast_radius: true });
    assert.ok(tokens(search) < 4000, `query_intel: ${tokens(search)} tokens`);
    assert.equal(search.truncated, true);
    assert.ok(search.results.length >= 5 && search.results.length < 50, `${search.results.length} results kept`);
    const ctx = await s.ok<Answer>('file_context', { file: 'src/core/widget.ts' });
    assert.ok(tokens(ctx) < 4000);
    assert.equal(ctx.dependents.total, 150);
    assert.equal(ctx.dependents.items.length, 150, 'a list that fits the budget is there whole, whatever its length');
    assert.equal(ctx.truncated, undefined);
    const routed = await s.ok<Answer>('route', { query: 'show me everything that imports src/core/widget.ts' });
    assert.equal(routed.results[0].data.by_depth[0].files.length, 150, 'route gives the 150 direct dependents whole');
    const small = await s.ok<Answer>('file_context', { file: 'src/core/widget.ts', max_tokens: 250 });
    assert.ok(tokens(small) <= 250, `max_tokens 250: ${tokens(small)} tokens`);
    assert.equal(small.truncated, true);
    assert.equal(small.budget.over, undefined);
    assert.match(small.budget.rest, /^call file_context again with the same arguments and max_tokens: \d+$/, 'a cut answer says how to get the rest');
    const rest = Number(/max_tokens: (\d+)/.exec(small.budget.rest)![1]);
    assert.equal((await s.ok<Answer>('file_context', { file: 'src/core/widget.ts', max_tokens: rest })).dependents.items.length, 150, 'and that call gets it');
    assert.equal(small.dependents.total, 150);
    assert.deepEqual(small.dependents.items, ctx.dependents.items.slice(0, small.dependents.items.length), 'the head of the list is kept');
    for (const q of ['who imports src/core/widget.ts', 'impact of changing widget', 'what are the most depended-on files', 'overview of the architecture']) {
      const a = await s.ok<Answer>('route', { query: q });
      assert.ok(tokens(a) <= 2000, `route "${q}": ${tokens(a)} tokens`);
    }
  });
});

describe('mcp server: route finds definitions from declarations in every module system', () => {
  let s: Session;
  before(async () => {
    const root = tempProject({
      'package.json': '{ "name": "defs" }\n',
      // CommonJS: a class declared, then `module.exports = X`; a lazy require map that only mentions the name
      'lib/NormalModule.js': "'use strict';\n\nclass NormalModule {\n  build() {}\n}\n\nmodule.exports = NormalModule;\n",
      'lib/internalSerializables.js': "module.exports = {\n  NormalModule: () => require('./NormalModule'),\n};\n",
      'lib/util.js': "exports.formatBytes = function (n) {\n  return `${n} B`;\n};\n",
      'lib/use.js': "const NormalModule = require('./NormalModule');\nconst { formatBytes } = require('./util');\nmodule.exports = () => formatBytes(new NormalModule());\n",
      // ESM: a class declared, then `export default X`, and a barrel re-exporting it
      'src/nodes/ColorNode.js': "import { Mode } from '../modes.js';\n\nclass ColorNode {\n  mode = Mode.A;\n}\n\nexport default ColorNode;\n",
      'src/index.js': "export { default as ColorNode } from './nodes/ColorNode.js';\nexport { Mode } from './modes.js';\n",
      // TypeScript: enum, interface, type, and ambient `declare` forms
      'src/modes.ts': "export enum Mode {\n  A,\n  B,\n}\n\nexport interface RenderOptions {\n  mode: Mode;\n}\n\nexport type NodeId = string;\n",
      'types/globals.d.ts': "declare class Renderer {\n  render(): void;\n}\n\ndeclare function createRenderer(): Renderer;\n",
      // two files whose names differ only in case, in two folders
      'src/TQueue.ts': "import { q } from './stm/tQueue.js';\nimport { source } from './signals.js';\nexport const Q = source(q);\n",
      'src/stm/tQueue.ts': "import { formatBytes } from '../../lib/util.js';\nexport const q = formatBytes(1);\n",
      // a plain word that is also a much-used function, beside a name only code has
      'src/signals.js': 'export function source(v) {\n  return v;\n}\n',
      'src/attrs.js': "import { source } from './signals.js';\n\nexport function remove_input_defaults(input) {\n  return source(input);\n}\n",
      // a file of another language named bare, beside a declaration named like a word of the question
      'scripts/report.py': 'import os\n\n\ndef render():\n    return os.sep\n',
      'scripts/checks.py': 'def test():\n    return 1\n',
    });
    await buildIntel(root);
    s = await startServer(root);
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  const first = async (query: string) => {
    const a = await s.ok<Answer>('route', { query });
    assert.equal(a.family, 'definition', query);
    const locations = step(a, 'answer').data.locations as Answer[];
    return `${locations[0].path}:${locations[0].line}`;
  };

  it('answers with the declaration, not a mention, an export-only binding or a re-export', async () => {
    assert.equal(await first('Where is the class NormalModule defined?'), 'lib/NormalModule.js:3');
    assert.equal(await first('where is ColorNode defined'), 'src/nodes/ColorNode.js:3');
    assert.equal(await first('where is formatBytes defined'), 'lib/util.js:1');
    assert.equal(await first('where is the Mode enum declared?'), 'src/modes.ts:1');
    assert.equal(await first('which file defines RenderOptions'), 'src/modes.ts:6');
    assert.equal(await first('NodeId: where is it defined?'), 'src/modes.ts:10');
    assert.equal(await first('where is Renderer declared'), 'types/globals.d.ts:1');
    assert.equal(await first('find the definition of createRenderer'), 'types/globals.d.ts:5');
  });

  it('a name in code\'s shape outranks a plain word that also names a declaration', async () => {
    assert.equal(await first('source location of remove_input_defaults'), 'src/attrs.js:3');
  });

  it('a bare file name of any indexed language is the file, not a declaration named like a word beside it', async () => {
    const a = await s.ok<Answer>('route', { query: 'I want to unit test report.py in isolation, what does it depend on?' });
    assert.equal(a.family, 'imports');
    assert.equal(step(a, 'answer').data.path, 'scripts/report.py');
  });

  it('a file name as written outranks its twin in another case', async () => {
    for (const [name, want] of [['tQueue.ts', 'src/stm/tQueue.ts'], ['TQueue.ts', 'src/TQueue.ts']]) {
      const a = await s.ok<Answer>('route', { query: `what does ${name} import` });
      assert.equal(a.family, 'imports');
      assert.equal(step(a, 'answer').data.path, want, name);
    }
  });

  it('ranks the re-export after the declaration', async () => {
    const a = await s.ok<Answer>('route', { query: 'where is ColorNode defined' });
    const where = (step(a, 'answer').data.locations as Answer[]).map((l) => `${l.path}:${l.detail}`);
    assert.equal(where.at(-1), 'src/index.js:re-export');
  });

  it('who uses a class exported as module.exports: the file\'s dependents', async () => {
    const a = await s.ok<Answer>('route', { query: 'who uses NormalModule' });
    assert.equal(a.subject.path, 'lib/NormalModule.js');
    assert.deepEqual([...step(a, 'answer').data.by_depth[0].files].sort(), ['lib/internalSerializables.js', 'lib/use.js']);
  });
});

describe('mcp server: the route cache after every kind of change', () => {
  let root: string;
  let s: Session;
  before(async () => {
    root = copyProject('gsd-app');
    await buildIntel(root);
    s = await startServer(root);
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  const q = 'who imports src/db/client.ts';
  const ask = () => s.ok<Answer>('route', { query: q });
  const importers = (a: Answer) => [...step(a, 'answer').data.by_depth[0].files].sort();

  it('a file added, renamed and deleted (each rebuilt) and a config change: the next answer is fresh and right', async () => {
    const before = importers(await ask());
    assert.equal((await ask()).cached, true);
    const added = path.join(root, 'src', 'api', 'extra.ts');
    writeFileSync(added, "import { query } from '../db/client.js';\nexport const extra = () => query('SELECT 2', []);\n");
    await buildIntel(root);
    let a = await ask();
    assert.equal(a.cached, false, 'added');
    assert.deepEqual(importers(a), [...before, 'src/api/extra.ts'].sort());
    assert.equal((await ask()).cached, true);
    renameSync(added, path.join(root, 'src', 'api', 'renamed.ts'));
    await buildIntel(root);
    a = await ask();
    assert.equal(a.cached, false, 'renamed');
    assert.deepEqual(importers(a), [...before, 'src/api/renamed.ts'].sort());
    rmSync(path.join(root, 'src', 'api', 'renamed.ts'));
    await buildIntel(root);
    a = await ask();
    assert.equal(a.cached, false, 'deleted');
    assert.deepEqual(importers(a), before);
    assert.equal((await ask()).cached, true);
    const config = path.join(root, '.planning', 'config.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), mode: 'interactive' }, null, 2));
    a = await ask();
    assert.equal(a.cached, false, 'config changed');
    assert.deepEqual(importers(a), before);
  });

  it('a file created through the real PostToolUse hook (no rebuild): the next answer is fresh and has it', async () => {
    const before = importers(await ask());
    assert.equal((await ask()).cached, true);
    const file = path.join(root, 'src', 'api', 'written.ts');
    const content = "import { query } from '../db/client.js';\nexport const written = () => query('SELECT 3', []);\n";
    writeFileSync(file, content);
    const hook = await runHookProcess(HOOKS.postToolUse, payload.write(root, file, content, 'create'), { cwd: root });
    assert.equal(hook.code, 0);
    const a = await ask();
    assert.equal(a.cached, false, 'created');
    assert.deepEqual(importers(a), [...before, 'src/api/written.ts'].sort());
  });

    it('lease list: every lease within a large budget; under a small one, cut with the total and the call for the rest', async () => {
    for (let i = 0; i < 70; i++) await s.ok('lease', { action: 'issue', taskId: `task-${i}`, scope: [`src/area-${i}/**`], holder: `agent-${i}` });
    const all = await s.ok<Answer>('lease', { action: 'list', max_tokens: 25_000 });
    assert.equal(all.result.total, 70);
    assert.equal(all.result.leases.length, 70, 'no count cuts the list');
    const cut = await s.ok<Answer>('lease', { action: 'list', max_tokens: 1000 });
    assert.equal(cut.truncated, true);
    assert.equal(cut.result.total, 70);
    assert.ok(cut.result.leases.length < 70);
    assert.match(cut.budget.rest, /^call lease again with the same arguments and max_tokens: \d+$/);
  });
});
