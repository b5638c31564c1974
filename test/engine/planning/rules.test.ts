/** Table tests of the rules to keep exactly (docs/planning.md): flattening, stage skipping, dot paths, scope overlap. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_SPAWN_RULES,
  PlanningError,
  deletePath,
  emptyState,
  flattenRule,
  getPath,
  listPaths,
  recommendSkills,
  registerSkill,
  bindSkill,
  resolveSpawnPlan,
  setPath,
  skippedStages,
  normalizeScope,
  type SpawnRule,
} from '../../../engine/src/index.js';
import { scopeOverlap } from '../../../engine/src/planning/lease-issue.js';

const rule = (r: Partial<SpawnRule>): SpawnRule => ({ before: [], beforeParallel: [], main: [], after: [], afterParallel: [], notes: '', ...r });
const compact = (steps: ReturnType<typeof flattenRule>) => steps.map((s) => `${s.order}:${s.stage}:${s.mode}:${s.agent}`);

describe('planning: flattening a spawn rule', () => {
  const table: Array<[string, SpawnRule, string[]]> = [
    ['empty rule', rule({}), []],
    ['main only', rule({ main: ['m'] }), ['1:main:sequential:m']],
    ['each before agent takes the next number', rule({ before: ['a', 'b'], main: ['m'] }), ['1:before:sequential:a', '2:before:sequential:b', '3:main:sequential:m']],
    ['beforeParallel agents share one number', rule({ beforeParallel: ['p', 'q', 'r'], main: ['m'] }), ['1:beforeParallel:parallel:p', '1:beforeParallel:parallel:q', '1:beforeParallel:parallel:r', '2:main:sequential:m']],
    [
      'every stage, in order',
      rule({ before: ['a'], beforeParallel: ['p', 'q'], main: ['m1', 'm2'], after: ['x', 'y'], afterParallel: ['u', 'v'] }),
      [
        '1:before:sequential:a',
        '2:beforeParallel:parallel:p',
        '2:beforeParallel:parallel:q',
        '3:main:sequential:m1',
        '4:main:sequential:m2',
        '5:after:sequential:x',
        '6:after:sequential:y',
        '7:afterParallel:parallel:u',
        '7:afterParallel:parallel:v',
      ],
    ],
    ['afterParallel alone', rule({ afterParallel: ['u', 'v'] }), ['1:afterParallel:parallel:u', '1:afterParallel:parallel:v']],
    ['an empty parallel stage takes no number', rule({ before: ['a'], beforeParallel: [], main: ['m'] }), ['1:before:sequential:a', '2:main:sequential:m']],
    ['one parallel agent still parallel', rule({ beforeParallel: ['p'], after: ['x'] }), ['1:beforeParallel:parallel:p', '2:after:sequential:x']],
  ];
  for (const [name, r, expected] of table) it(name, () => assert.deepEqual(compact(flattenRule(r)), expected));
});

describe('planning: stage skipping', () => {
  const before = ['before', 'beforeParallel'];
  const after = ['after', 'afterParallel'];
  const table: Array<[string, Record<string, unknown>, string[]]> = [
    ['plan_phase', {}, []],
    ['plan_phase', { skipResearch: true }, before],
    ['plan_phase', { hasResearch: true }, before],
    ['plan_phase', { skipResearch: false, hasResearch: false }, []],
    ['plan_phase', { skipVerify: true }, after],
    ['plan_phase', { hasResearch: true, skipVerify: true }, [...before, ...after]],
    ['plan_phase', { planFix: false }, []],
    ['execute_phase', {}, []],
    ['execute_phase', { skipVerify: true }, after],
    ['execute_phase', { skipResearch: true, hasResearch: true }, []],
    ['verify_work', { skipVerify: true, skipResearch: true, planFix: false }, []],
    ['debug_issue', {}, []],
    ['debug_issue', { planFix: true }, []],
    ['debug_issue', { planFix: false }, after],
    ['debug_issue', { skipVerify: true, skipResearch: true }, []],
    ['my_intent', { skipVerify: true, planFix: false }, []],
  ];
  for (const [intent, options, expected] of table) {
    it(`${intent} ${JSON.stringify(options)} skips ${expected.join(', ') || 'nothing'}`, () => assert.deepEqual([...skippedStages(intent, options)].sort(), [...expected].sort()));
  }

  it('resolves the default plans naming the agents this package ships', () => {
    assert.deepEqual(compact(resolveSpawnPlan('plan_phase').steps), ['1:beforeParallel:parallel:gsd-codebase-mapper', '2:main:sequential:gsd-planner', '3:after:sequential:gsd-plan-checker']);
    assert.deepEqual(compact(resolveSpawnPlan('plan_phase', { hasResearch: true, skipVerify: true }).steps), ['1:main:sequential:gsd-planner']);
    assert.deepEqual(resolveSpawnPlan('plan_phase', { skipResearch: true }).skipped, ['beforeParallel']);
    assert.deepEqual(compact(resolveSpawnPlan('execute_phase', { skipVerify: true }).steps), ['1:main:sequential:gsd-executor']);
    assert.deepEqual(compact(resolveSpawnPlan('debug_issue', { planFix: false }).steps), ['1:beforeParallel:parallel:gsd-codebase-mapper', '2:main:sequential:gsd-verifier']);
    const shipped = new Set(['gsd-codebase-mapper', 'gsd-executor', 'gsd-plan-checker', 'gsd-planner', 'gsd-verifier']);
    for (const [intent, r] of Object.entries(DEFAULT_SPAWN_RULES)) {
      for (const s of flattenRule(r)) assert.ok(shipped.has(s.agent), `${intent} names ${s.agent}, which agents/ does not ship`);
    }
    assert.throws(() => resolveSpawnPlan('nope'), /no spawn rule for intent "nope".*|Known intents/);
    assert.throws(() => resolveSpawnPlan('plan_phase', { skipVerify: 'yes' } as never), /options.skipVerify must be true or false/);
  });

  it('recommends skills in flattened plan order, each once', () => {
    const s = emptyState();
    for (const id of ['research', 'tdd', 'review', 'style']) registerSkill(s, { skillId: id, title: id }, 0);
    bindSkill(s, { skillId: 'review', agentId: 'gsd-plan-checker' });
    bindSkill(s, { skillId: 'style', agentId: 'gsd-planner' });
    bindSkill(s, { skillId: 'research', agentId: 'gsd-codebase-mapper' });
    bindSkill(s, { skillId: 'style', agentId: 'gsd-plan-checker' });
    assert.deepEqual(recommendSkills(s, 'plan_phase').skills.map((k) => k.id), ['research', 'style', 'review']);
    assert.deepEqual(recommendSkills(s, 'plan_phase', { hasResearch: true }).skills.map((k) => k.id), ['style', 'review']);
    assert.throws(() => bindSkill(s, { skillId: 'ghost', agentId: 'gsd-planner' }), /not registered/);
  });
});

describe('planning: dot paths', () => {
  it('set creates intermediates, get reads, delete removes a leaf only', () => {
    const kv: Record<string, unknown> = {};
    setPath(kv, 'a.b.c', 1);
    setPath(kv, 'a.b.d', { e: [1, 2] });
    assert.deepEqual(kv, { a: { b: { c: 1, d: { e: [1, 2] } } } });
    assert.deepEqual(getPath(kv, 'a.b.c'), { found: true, value: 1 });
    assert.deepEqual(getPath(kv, 'a.x.c'), { found: false });
    assert.deepEqual(listPaths(kv).keys, ['a.b.c', 'a.b.d.e']);
    assert.throws(() => deletePath(kv, 'a.b'), /not a leaf/);
    assert.equal(deletePath(kv, 'a.b.c'), true);
    assert.equal(deletePath(kv, 'a.b.c'), false);
    assert.throws(() => setPath(kv, 'a.b.d.e.f', 1), /holds a list, not an object/);
  });
  const refused = ['__proto__', 'a.__proto__.b', 'constructor', 'a.prototype', 'a..b', '', '.a', 'a.', 'a b', 'a/b', 'ä', 'a.\u202e', 'x'.repeat(129), Array(40).fill('a').join('.')];
  for (const keyPath of refused) {
    it(`refuses ${JSON.stringify(keyPath.slice(0, 30))}`, () => {
      const kv: Record<string, unknown> = {};
      assert.throws(() => setPath(kv, keyPath, 1), PlanningError);
      assert.deepEqual(kv, {});
      assert.equal(({} as Record<string, unknown>).b, undefined);
    });
  }
  it('refuses values carrying forbidden keys, non-JSON numbers and huge values', () => {
    const kv: Record<string, unknown> = {};
    assert.throws(() => setPath(kv, 'a', JSON.parse('{"x":{"__proto__":{"polluted":1}}}')), /refused/);
    assert.throws(() => setPath(kv, 'a', { constructor: { prototype: {} } }), /refused/);
    assert.throws(() => setPath(kv, 'a', Number.NaN), /finite/);
    assert.throws(() => setPath(kv, 'a', 'x'.repeat(70_000)), /KB/);
    assert.deepEqual(kv, {});
  });
});

describe('planning: scope overlap', () => {
  const table: Array<[string[], string[], string[], boolean]> = [
    [['src/a.ts'], ['src/a.ts'], [], true],
    [['src/auth'], ['src/auth/login.ts'], [], true],
    [['src/auth/'], ['./src/auth/x/y.ts'], [], true],
    [['src/**'], ['src/auth/*.ts'], [], true],
    [['src/**/*.ts'], ['src/auth'], [], true],
    [['src/*.ts'], ['src/**/*.js'], [], false],
    [['src/auth/**'], ['src/billing/**'], [], false],
    [['src/a*.ts'], ['src/*b.ts'], [], false],
    [['src/a*.ts'], ['src/*b.ts'], ['src/ab.ts'], true],
    [['lib/{x,y}/*.ts'], ['lib/y/z.ts'], [], true],
    [['docs/readme.md'], ['src/**'], ['src/a.ts'], false],
    [['package.json'], ['*.json'], [], true],
    [['**'], ['anything/at/all.txt'], [], true],
  ];
  for (const [a, b, files, expected] of table) {
    it(`${a} vs ${b}${files.length ? ` (indexed ${files})` : ''}: ${expected ? 'overlap' : 'apart'}`, () => {
      const na = normalizeScope(a);
      const nb = normalizeScope(b);
      assert.equal(scopeOverlap(na, nb, files) !== null, expected);
      assert.equal(scopeOverlap(nb, na, files) !== null, expected, 'symmetric');
    });
  }
  it('refuses scopes leading outside the project', () => {
    for (const bad of [['../x'], ['/etc/passwd'], ['a/../../b'], ['!src/**'], ['C:/x'], [], ['a\u0000b']]) assert.throws(() => normalizeScope(bad), PlanningError, JSON.stringify(bad));
  });
});
