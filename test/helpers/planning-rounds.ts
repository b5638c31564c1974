/**
 * Planning state under concurrent servers: rounds of lease and queue work one client runs against a project, a watcher
 * that reads `.planning/gsd-state.json` all along for overlapping active leases, and the check that nothing was lost.
 * Used by the two-stdio-process test and the daemon-beside-stdio test.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GsdState } from '../../engine/src/index.js';
import { scopeOverlap } from '../../engine/src/planning/lease-issue.js';
import type { Session } from './mcp.js';

export type ToolCaller = Pick<Session, 'call' | 'ok'>;

export const stateFile = (root: string) => path.join(root, '.planning', 'gsd-state.json');
export const readState = (root: string) => JSON.parse(readFileSync(stateFile(root), 'utf8')) as GsdState;

/** Pairs of the given active leases whose scopes overlap, as "taskA / taskB". */
export function overlapsAmong(active: { taskId: string; scope: string[] }[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < active.length; i++) {
    for (let j = i + 1; j < active.length; j++) {
      if (scopeOverlap(active[i].scope, active[j].scope)) found.push(`${active[i].taskId} / ${active[j].taskId}`);
    }
  }
  return found;
}

/** Reads the state file in a loop until stopped; `stop` (again: the same answer) says which active leases ever overlapped and how often it read. */
export function watchStateFile(root: string): { stop(): Promise<{ overlaps: string[]; snapshots: number }> } {
  const overlaps: string[] = [];
  let snapshots = 0;
  let watching = true;
  const loop = (async () => {
    while (watching) {
      let state: GsdState | null = null;
      try {
        state = readState(root);
      } catch {
        // not written yet
      }
      if (state) {
        snapshots++;
        const now = Date.now();
        overlaps.push(...overlapsAmong(state.leases.filter((l) => !l.returnedAt && Date.parse(l.expiresAt) > now)));
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return {
    async stop() {
      watching = false;
      await loop;
      return { overlaps, snapshots };
    },
  };
}

export interface RoundsLog {
  /** ids of every lease this client was issued */
  issued: string[];
  /** ids of the leases it returned (each return answered `returned`) */
  returned: string[];
  /** task ids of the contested scopes it won */
  contestedWins: string[];
  /** contested scopes it was refused, with the refusal naming the holder */
  contestedRefusals: number;
}

/**
 * `rounds` rounds by one client named `name`: a contested scope (`shared/<i>/**`, which the other clients ask for in
 * their round i too), a lease on its own scope renewed and returned, one spawn-queue item enqueued and completed with
 * note `<name><i>`, and one key-value write `<name>.n<i>`. `holder` is passed to `lease` when given (else the
 * session's id is the holder).
 */
export async function leaseAndQueueRounds(s: ToolCaller, name: string, rounds: number, holder?: string): Promise<RoundsLog> {
  const log: RoundsLog = { issued: [], returned: [], contestedWins: [], contestedRefusals: 0 };
  const who = holder ? { holder } : {};
  const giveBack = async (leaseId: string, result: string) => {
    const back = (await s.ok('lease', { action: 'return', leaseId, result })).result.lease;
    assert.equal(back.status, 'returned');
    log.returned.push(leaseId);
  };
  for (let i = 0; i < rounds; i++) {
    // every client asks for the same scope at about the same time: exactly one may hold it
    const contested = await s.call('lease', { action: 'issue', taskId: `contest-${i}-${name}`, scope: [`shared/${i}/**`, `docs/${i}.md`], ...who });
    const own = (await s.ok('lease', { action: 'issue', taskId: `${name}-${i}`, scope: [`src/${name}/${i}/**`], ...who })).result.lease;
    log.issued.push(own.id);
    const renewed = (await s.ok('lease', { action: 'renew', leaseId: own.id, ttl_minutes: 45, ...who })).result.lease;
    assert.equal(renewed.renewals, 1);
    const items = (await s.ok('agent', { action: 'enqueue', intent: 'verify_work' })).result.items;
    assert.equal(items.length, 1);
    await s.ok('state', { action: 'set', keyPath: `${name}.n${i}`, value: i });
    if (!contested.isError) {
      const lease = (contested.structuredContent as any).result.lease;
      log.issued.push(lease.id);
      log.contestedWins.push(lease.taskId);
      await giveBack(lease.id, 'contested');
    } else {
      const text = contested.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      assert.match(text, /overlaps lease L-[0-9a-f]{12} of task contest-\d+-[A-Za-z]+, held by \S+ until /);
      log.contestedRefusals++;
    }
    await s.ok('agent', { action: 'complete', spawnId: items[0].id, note: `${name}${i}` });
    await giveBack(own.id, 'ok');
  }
  return log;
}

/** Nothing the clients did was lost: every item kept with its final status and history, every write, every lease returned. */
export function assertNothingLost(state: GsdState, logs: Record<string, RoundsLog>, rounds: number): void {
  const names = Object.keys(logs);
  const n = names.length * rounds;
  assert.equal(state.queue.length, n, `all ${n} queue items are kept`);
  assert.ok(
    state.queue.every((i) => i.status === 'completed'),
    'all completed',
  );
  assert.deepEqual(new Set(state.queue.map((i) => i.note)), new Set(names.flatMap((name) => Array.from({ length: rounds }, (_, i) => `${name}${i}`))), 'each item completed with its own note');
  assert.equal(state.history.filter((e) => e.type === 'enqueue').length, n);
  assert.equal(state.history.filter((e) => e.type === 'complete').length, n);
  for (const name of names) assert.equal(Object.keys((state.kv as any)[name] ?? {}).length, rounds, `no key-value write of ${name} lost`);
  const issued = new Set(names.flatMap((name) => logs[name].issued));
  for (const name of names) assert.deepEqual([...logs[name].returned].sort(), [...logs[name].issued].sort(), `${name} returned every lease it was issued`);
  assert.equal(state.leases.filter((l) => !l.returnedAt).length, 0, 'no lease left active');
  assert.ok(
    state.leases.every((l) => l.returnedAt && l.result && issued.has(l.id)),
    'every kept lease was issued to a client and carries its result',
  );
  // every contested scope went to at least one task; two winners of one scope only one after the other (returned first)
  const wins = names.reduce((sum, name) => sum + logs[name].contestedWins.length, 0);
  assert.ok(wins >= rounds, `${wins} contested issues succeeded`);
  assert.equal(wins + names.reduce((sum, name) => sum + logs[name].contestedRefusals, 0), n, 'each contested ask was granted or refused');
}
