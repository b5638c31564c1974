/**
 * Two real server processes on one project, interleaved: 100 leases issued, renewed and returned, 100 queue items
 * enqueued and completed, 100 key-value writes, and 50 contested scopes both ask for at the same time. Nothing is
 * lost, and no two active leases ever overlap (a watcher reads the state file all along).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { GsdState } from '../../engine/src/index.js';
import { scopeOverlap } from '../../engine/src/planning/lease-issue.js';
import { startServer } from '../helpers/mcp.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

after(cleanupProjects);

describe('mcp server: two processes share one planning state', () => {
  it('issue/renew/return 100 leases and enqueue/complete 100 items, interleaved: nothing lost, never an overlap', async () => {
    const root = tempProject({ 'src/index.ts': 'export {};\n' });
    const file = path.join(root, '.planning', 'gsd-state.json');
    const servers = await Promise.all([startServer(root, { CLAUDE_CODE_SESSION_ID: 'A' }), startServer(root, { CLAUDE_CODE_SESSION_ID: 'B' })]);
    const overlaps: string[] = [];
    let snapshots = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        let state: GsdState | null = null;
        try {
          state = JSON.parse(readFileSync(file, 'utf8')) as GsdState;
        } catch {
          // not written yet
        }
        if (state) {
          snapshots++;
          const now = Date.now();
          const active = state.leases.filter((l) => !l.returnedAt && Date.parse(l.expiresAt) > now);
          for (let i = 0; i < active.length; i++) {
            for (let j = i + 1; j < active.length; j++) {
              if (scopeOverlap(active[i].scope, active[j].scope)) overlaps.push(`${active[i].taskId} / ${active[j].taskId}`);
            }
          }
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const contestedWinners: string[] = [];
    try {
      const work = servers.map(async (s, k) => {
        const name = k === 0 ? 'A' : 'B';
        for (let i = 0; i < 50; i++) {
          // both processes ask for the same scope at about the same time: exactly one may hold it
          const contested = await s.call('lease', { action: 'issue', taskId: `contest-${i}-${name}`, scope: [`shared/${i}/**`, `docs/${i}.md`] });
          const own = (await s.ok('lease', { action: 'issue', taskId: `${name}-${i}`, scope: [`src/${name}/${i}/**`] })).result.lease;
          const renewed = (await s.ok('lease', { action: 'renew', leaseId: own.id, ttl_minutes: 45 })).result.lease;
          assert.equal(renewed.renewals, 1);
          const items = (await s.ok('agent', { action: 'enqueue', intent: 'verify_work' })).result.items;
          assert.equal(items.length, 1);
          await s.ok('state', { action: 'set', keyPath: `${name}.n${i}`, value: i });
          if (!contested.isError) {
            const lease = (contested.structuredContent as any).result.lease;
            contestedWinners.push(lease.taskId);
            await s.ok('lease', { action: 'return', leaseId: lease.id, result: 'contested' });
          } else {
            const text = contested.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
            assert.match(text, /overlaps lease L-[0-9a-f]{12} of task contest-\d+-[AB], held by [AB] until /);
          }
          await s.ok('agent', { action: 'complete', spawnId: items[0].id, note: `${name}${i}` });
          await s.ok('lease', { action: 'return', leaseId: own.id, result: 'ok' });
        }
      });
      await Promise.all(work);
    } finally {
      watching = false;
      await watcher;
    }
    const state = JSON.parse(readFileSync(file, 'utf8')) as GsdState;
    await Promise.all(servers.map((s) => s.close()));
    assert.deepEqual(overlaps, [], 'no two active leases ever overlapped');
    assert.ok(snapshots > 10, `the watcher saw the state ${snapshots} times`);
    // every contested scope went to at least one task; two winners of one scope only one after the other (returned first)
    assert.ok(contestedWinners.length >= 50, `${contestedWinners.length} contested issues succeeded`);
    const queue = state.queue;
    assert.equal(queue.length, 100, 'all 100 items are kept');
    assert.ok(queue.every((i) => i.status === 'completed'), 'all completed');
    assert.deepEqual(new Set(queue.map((i) => i.note)).size, 100);
    const history = state.history;
    assert.equal(history.filter((e) => e.type === 'enqueue').length, 100);
    assert.equal(history.filter((e) => e.type === 'complete').length, 100);
    assert.equal(Object.keys((state.kv as any).A).length + Object.keys((state.kv as any).B).length, 100, 'no key-value write lost');
    assert.equal(state.leases.filter((l) => !l.returnedAt).length, 0, 'every lease returned');
    assert.ok(state.leases.every((l) => l.returnedAt && l.result), 'every kept lease carries its result');
  });
});
