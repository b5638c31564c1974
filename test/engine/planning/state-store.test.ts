/** The state store: read-modify-write, pruning, a corrupt / future-version / unwritable file. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  KEEP_CLOSED_ITEMS,
  KEEP_CLOSED_LEASES,
  KEEP_HISTORY,
  StateStore,
  StateStoreError,
  StateVersionError,
  completeItem,
  enqueuePlan,
  returnLease,
  setPath,
  statePaths,
  emptyState,
  leasesSlice,
  serializeState,
} from '../../../engine/src/index.js';
import { issueLease } from '../../../engine/src/planning/lease-issue.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';

after(cleanupProjects);

describe('planning: the state store', () => {
  it('starts empty, saves every change, and writes nothing for a change that changes nothing', async () => {
    const root = tempProject({});
    const store = new StateStore(root);
    assert.deepEqual((await store.read()).state.leases, []);
    assert.equal(existsSync(statePaths(root).file), false);
    await store.update(() => undefined);
    assert.equal(existsSync(statePaths(root).file), false, 'no write for no change');
    await store.update((s) => setPath(s.kv, 'a.b', 1));
    assert.deepEqual(JSON.parse(readFileSync(statePaths(root).file, 'utf8')).kv, { a: { b: 1 } });
    assert.deepEqual((await new StateStore(root).read()).state.kv, { a: { b: 1 } });
    assert.deepEqual(readdirSync(path.join(root, '.planning')).sort(), ['gsd-state.json'], 'no temp file or lock left behind');
  });

  it('writes the leases first, so the hook reads them without parsing the rest', () => {
    const s = emptyState();
    setPath(s.kv, 'big', 'x'.repeat(50_000));
    setPath(s.kv, 'tricky', '"leases":[{"id":"fake"}]');
    for (const scope of [['src/[a-z]]/**'], ['docs/{a,b}}.md'], ['weird/"quoted"\\\\/x'], ['ünï/😀']]) issueLease(s, { taskId: `t${scope[0].length}`, scope, holder: 'h', ttlMinutes: 5 }, 0);
    const text = serializeState(s);
    assert.ok(text.startsWith('{"version":1,"leases":['));
    assert.deepEqual(JSON.parse(leasesSlice(text)!), s.leases);
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(s)));
    assert.equal(leasesSlice('{"kv":{"leases":[]},"version":1}'), null, 'anything else: parsed whole');
    assert.equal(leasesSlice('{"version":1,"leases":[{"id":"cut'), null);
  });

  it('a throwing change saves nothing', async () => {
    const root = tempProject({});
    const store = new StateStore(root);
    await store.update((s) => setPath(s.kv, 'a', 1));
    const before = readFileSync(statePaths(root).file, 'utf8');
    await assert.rejects(
      store.update((s) => {
        setPath(s.kv, 'b', 2);
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(readFileSync(statePaths(root).file, 'utf8'), before);
  });

  it('concurrent updates in one process lose nothing', async () => {
    const root = tempProject({});
    const store = new StateStore(root);
    // a generous lock wait: on a loaded machine 30 fsynced writes in a row can take longer than the default 10 s
    await Promise.all(Array.from({ length: 30 }, (_, i) => new StateStore(root, { lockTimeoutMs: 120_000 }).update((s) => setPath(s.kv, `k${i}`, i))));
    assert.equal(Object.keys((await store.read()).state.kv).length, 30);
  });

  it('prunes: every active lease and pending item, the last returned/closed ones and history up to the caps', async () => {
    const root = tempProject({});
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = new StateStore(root, { now: () => now });
    await store.update((s) => {
      for (let i = 0; i < KEEP_CLOSED_LEASES + 30; i++) {
        const l = issueLease(s, { taskId: `t${i}`, scope: [`f${i}.ts`], holder: 'h', ttlMinutes: 60 }, now + i);
        if (i >= 5) returnLease(s, { leaseId: l.id }, now + 1000 + i);
      }
      for (let i = 0; i < 150; i++) {
        for (const item of enqueuePlan(s, 'execute_phase', {}, now + i)) if (i >= 10) completeItem(s, { spawnId: item.id, status: 'completed' }, now + 2000 + i);
      }
    });
    const { state } = await store.read();
    assert.equal(state.leases.filter((l) => !l.returnedAt).length, 5, 'every active lease kept');
    assert.equal(state.leases.filter((l) => l.returnedAt).length, KEEP_CLOSED_LEASES);
    assert.ok(state.leases.some((l) => l.taskId === `t${KEEP_CLOSED_LEASES + 29}`), 'the most recent returned kept');
    assert.equal(state.queue.filter((i) => i.status === 'pending').length, 20, 'every pending item kept');
    assert.equal(state.queue.filter((i) => i.status !== 'pending').length, KEEP_CLOSED_ITEMS);
    assert.equal(state.history.length, KEEP_HISTORY);
    now += 61 * 60_000; // every lease has expired: expired ones are closed ones
    await store.update((s) => setPath(s.kv, 'tick', 1));
    assert.equal((await store.read()).state.leases.length, KEEP_CLOSED_LEASES);
  });

  for (const [name, content] of [
    ['not JSON', '{"version":1,"kv":'],
    ['binary', '\u0000\u0001\u0002garbage'],
    ['a JSON list', '[1,2,3]'],
    ['wrong section type', '{"version":1,"leases":{}}'],
    ['a malformed lease', '{"version":1,"leases":[{"id":3}]}'],
    ['version 0', '{"version":0}'],
  ] as const) {
    it(`moves a corrupt file (${name}) aside with a notice, never a silent reset`, async () => {
      const root = tempProject({ '.planning/gsd-state.json': content });
      const store = new StateStore(root);
      const read = await store.read();
      assert.match(read.notice ?? '', /gsd-state\.json was corrupt .* moved aside to \.planning\/gsd-state\.json\.corrupt-/);
      const aside = readdirSync(path.join(root, '.planning')).filter((f) => f.startsWith('gsd-state.json.corrupt-'));
      assert.equal(aside.length, 1);
      assert.equal(readFileSync(path.join(root, '.planning', aside[0]), 'utf8'), content, 'the corrupt content is kept byte for byte');
      const next = await store.update((s) => setPath(s.kv, 'fresh', true));
      assert.equal(next.notice, undefined, 'reported once');
      assert.deepEqual((await store.read()).state.kv, { fresh: true });
    });
  }

  it('an update finding a corrupt file reports it in its own answer', async () => {
    const root = tempProject({ '.planning/gsd-state.json': 'nope' });
    const out = await new StateStore(root).update((s) => setPath(s.kv, 'x', 1));
    assert.match(out.notice ?? '', /was corrupt/);
  });

  it('refuses a future-version file and leaves it untouched', async () => {
    const content = '{"version":2,"kv":{"mine":1},"newThing":[]}\n';
    const root = tempProject({ '.planning/gsd-state.json': content });
    const store = new StateStore(root);
    await assert.rejects(store.read(), (e: Error) => e instanceof StateVersionError && /newer get-shit-done-cc \(state version 2; this one reads 1\)/.test(e.message));
    await assert.rejects(store.update((s) => setPath(s.kv, 'x', 1)), StateVersionError);
    assert.equal(readFileSync(statePaths(root).file, 'utf8'), content);
    assert.deepEqual(readdirSync(path.join(root, '.planning')).sort(), ['gsd-state.json']);
  });

  it('a failed write reports, removes its temp file and loses nothing', async () => {
    const root = tempProject({});
    const store = new StateStore(root);
    await store.update((s) => setPath(s.kv, 'kept', 1));
    const before = readFileSync(statePaths(root).file, 'utf8');
    // the temp path taken by a folder: the write fails the way a read-only or full disk fails it (as root, chmod would not)
    mkdirSync(statePaths(root).temp);
    writeFileSync(path.join(statePaths(root).temp, 'x'), 'not ours');
    await assert.rejects(store.update((s) => setPath(s.kv, 'lost', 1)), (e: Error) => e instanceof StateStoreError && /could not save \.planning\/gsd-state\.json \(EISDIR.*nothing was changed/.test(e.message));
    assert.equal(readFileSync(statePaths(root).file, 'utf8'), before);
    assert.equal(readFileSync(path.join(statePaths(root).temp, 'x'), 'utf8'), 'not ours', 'what is in the way is not removed');
  });
});
