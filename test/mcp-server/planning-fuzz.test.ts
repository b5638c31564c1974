/**
 * Hostile key paths and values sent to `state` and `skill` through the real MCP client: prototype pollution,
 * huge values, deep nesting, odd unicode. Every call answers (a result or a clear error, never an internal error),
 * the server keeps running, and nothing of the prototype machinery ends up in the state.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { startServer } from '../helpers/mcp.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

after(cleanupProjects);

/** mulberry32: a seeded generator, so a failure can be replayed */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = ['__proto__', 'constructor', 'prototype', 'a', 'b-1', 'x_y', '', ' ', '..', '\u0000', '\u202e', '\u200b', '😀', 'é', '\ud800', 'Ω', 'toString', 'hasOwnProperty', 'valueOf', '0', '-1', 'a'.repeat(200), '$ref', '%2e%2e', '../..', 'C:\\', '\n'];
const PROTO_JSON = ['{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '{"a":{"__proto__":{"x":1}}}', '[{"__proto__":null}]'];

describe('mcp server: fuzzing state and skill', () => {
  it('hostile key paths, values and ids: nothing polluted, nothing crashes', async () => {
    const root = tempProject({});
    const s = await startServer(root);
    const r = rng(15);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const keyPath = () => Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(SEGMENTS)).join(pick(['.', '.', '.', '..', '/']));
    const deep = (n: number): unknown => (n === 0 ? 'leaf' : { d: deep(n - 1) });
    const value = (): unknown => {
      switch (Math.floor(r() * 9)) {
        case 0: return JSON.parse(pick(PROTO_JSON));
        case 1: return 'x'.repeat(Math.floor(r() * 200_000));
        case 2: return deep(Math.floor(r() * 60));
        case 3: return pick(SEGMENTS);
        case 4: return Array.from({ length: Math.floor(r() * 3000) }, (_, i) => i);
        case 5: return { [pick(SEGMENTS)]: pick(SEGMENTS), ok: 1 };
        case 6: return null;
        case 7: return 1e308 * (r() < 0.5 ? 1 : -1);
        default: return { text: '\ud83d\ude00\u202e\u0000 mixed' };
      }
    };
    let ok = 0;
    let refused = 0;
    try {
      for (let i = 0; i < 150; i++) {
        const action = pick(['get', 'set', 'set', 'set', 'list', 'delete']);
        const args: Record<string, unknown> = { action, keyPath: keyPath() };
        if (action === 'set') args.value = value();
        const res = await s.call('state', args);
        const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        assert.doesNotMatch(text, /internal error/, `state ${JSON.stringify(args).slice(0, 200)}`);
        if (res.isError) refused++;
        else ok++;
      }
      for (let i = 0; i < 150; i++) {
        const action = pick(['register', 'register', 'bind', 'unbind', 'list', 'recommend']);
        const args: Record<string, unknown> = { action, skillId: pick([keyPath(), 'tdd', 'review']), agentId: pick([keyPath(), 'gsd-executor']), intent: pick([keyPath(), 'plan_phase']) };
        if (action === 'register') {
          args.title = pick(['T', '', 'x'.repeat(5000), '\u202e\u0000', '😀']);
          args.description = pick(['d', 'x'.repeat(30_000), '\ud800']);
          args.tags = pick([['a'], Array.from({ length: 60 }, () => 't'), ['__proto__', 'constructor'], ['x'.repeat(300)]]);
        }
        if (r() < 0.2) args.options = JSON.parse(pick(PROTO_JSON).replace(/^\[.*\]$/, '{}'));
        const res = await s.call('skill', args);
        const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        assert.doesNotMatch(text, /internal error/, `skill ${JSON.stringify(args).slice(0, 200)}`);
        if (res.isError) refused++;
        else ok++;
      }
      // still serving, and its fresh objects are clean
      assert.deepEqual((await s.ok('state', { action: 'get', keyPath: 'polluted' })).result, { keyPath: 'polluted', found: false });
      await s.ok('state', { action: 'set', keyPath: 'probe', value: {} });
      assert.deepEqual((await s.ok('state', { action: 'get', keyPath: 'probe' })).result.value, {});
    } finally {
      await s.close();
    }
    assert.ok(ok > 20 && refused > 20, `${ok} answered, ${refused} refused`);
    const text = readFileSync(path.join(root, '.planning', 'gsd-state.json'), 'utf8');
    const state = JSON.parse(text);
    assert.equal(state.version, 1);
    const forbidden: string[] = [];
    const walk = (v: unknown, at: string) => {
      if (v && typeof v === 'object') {
        for (const k of Object.keys(v)) {
          if (['__proto__', 'constructor', 'prototype'].includes(k)) forbidden.push(`${at}.${k}`);
          walk((v as Record<string, unknown>)[k], `${at}.${k}`);
        }
      }
    };
    walk(state, '$');
    assert.deepEqual(forbidden, [], 'no prototype key stored anywhere');
    for (const [agent, ids] of Object.entries<string[]>(state.bindings)) for (const id of ids) assert.ok(id in state.skills, `${agent} carries registered ${id}`);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
