/**
 * The planning state tools with the shared daemon and an in-process stdio server side by side on one project: a
 * session straight to the daemon over HTTP (as `install --shared`) and a stdio server (GSD_MCP_MODE=in-process) run
 * 40 interleaved rounds each of contested and disjoint leases and spawn-queue items, while a third session (the stdio
 * shim, which started the daemon) polls `lease list` and a watcher reads `.planning/gsd-state.json`. Nothing is lost,
 * no two active leases ever overlap, and only a lease's holder renews it across the two servers.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { httpSession, shimSession, sleep, tempHome, text } from '../helpers/daemon.js';
import { startServer } from '../helpers/mcp.js';
import { assertNothingLost, leaseAndQueueRounds, overlapsAmong, readState, watchStateFile } from '../helpers/planning-rounds.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

const ROUNDS = 40;

after(cleanupProjects);

describe('shared server: the planning state tools beside an in-process stdio server', () => {
  it('leases and the spawn queue keep their guarantees with the daemon and a stdio server on one project', async () => {
    const h = tempHome();
    const root = tempProject({ 'src/index.ts': 'export {};\n', '.planning/config.json': '{}\n' });
    // a Claude Code-like session through the stdio shim: it starts the daemon, then serves as the third client
    const shim = await shimSession(root, h, { CLAUDE_CODE_SESSION_ID: 'claude-session-shim' });
    const info = h.info();
    assert.ok(info, 'the shim started a daemon');
    const daemon = await httpSession(info, h.token(), { folder: root });
    const stdio = await startServer(root, { CLAUDE_CODE_SESSION_ID: 'S' });
    try {
      const watcher = watchStateFile(root);
      const listed = { polls: 0, overlaps: [] as string[] };
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const { leases } = (await shim.ok('lease', { action: 'list' })).result;
          listed.polls++;
          listed.overlaps.push(...overlapsAmong(leases.filter((l: { status: string }) => l.status === 'active')));
          await sleep(5);
        }
      })();
      const [d, s] = await Promise.all([leaseAndQueueRounds(daemon, 'D', ROUNDS), leaseAndQueueRounds(stdio, 'S', ROUNDS)]).finally(async () => {
        polling = false;
        await poller;
        await watcher.stop();
      });
      const seen = await watcher.stop();
      assert.deepEqual(seen.overlaps, [], 'no two active leases in the state file ever overlapped');
      assert.deepEqual(listed.overlaps, [], 'no two active leases listed by the third session ever overlapped');
      assert.ok(seen.snapshots > 10 && listed.polls > 5, `the watcher read the state ${seen.snapshots} times, the third session listed ${listed.polls} times`);
      assertNothingLost(readState(root), { D: d, S: s }, ROUNDS);

      // both servers answer the same final state
      for (const server of [daemon, stdio]) {
        const queue = (await server.ok('agent', { action: 'queue', status: 'completed' })).result;
        assert.equal(queue.total, 2 * ROUNDS);
        // the whole history fits the largest answer budget (the default one would cut the list)
        const { events } = (await server.ok('agent', { action: 'history', limit: 200, max_tokens: 25_000 })).result;
        assert.deepEqual(
          ['enqueue', 'complete'].map((type) => events.filter((e: { type: string }) => e.type === type).length),
          [2 * ROUNDS, 2 * ROUNDS],
          'every enqueue and complete is in the history',
        );
        const leases = (await server.ok('lease', { action: 'list' })).result;
        assert.equal(leases.active, 0);
      }

      // only a lease's holder renews it, whichever server it was issued through
      const fromDaemon = (await daemon.ok('lease', { action: 'issue', taskId: 'held-D', scope: ['src/held/d/**'] })).result.lease;
      const fromStdio = (await stdio.ok('lease', { action: 'issue', taskId: 'held-S', scope: ['src/held/s/**'] })).result.lease;
      assert.equal(fromStdio.holder, 'S');
      assert.match(await stdio.fails('lease', { action: 'renew', leaseId: fromDaemon.id }), new RegExp(`held by ${fromDaemon.holder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, not S; only its holder renews it`));
      assert.match(await daemon.fails('lease', { action: 'renew', leaseId: fromStdio.id }), /held by S, not .*only its holder renews it/);
      assert.match(text(await shim.call('lease', { action: 'issue', taskId: 'over', scope: ['src/held/s/x.ts'] })), /overlaps lease L-[0-9a-f]{12} of task held-S, held by S/);
      // sessions of the daemon are holders of their own: an http session gets an id of its MCP session (never the
      // daemon's pid, which all would share), a shim session the Claude Code session it serves; neither renews the other's
      assert.match(fromDaemon.holder, /^mcp-session:[0-9a-f-]{36}$/);
      const fromShim = (await shim.ok('lease', { action: 'issue', taskId: 'held-shim', scope: ['src/held/shim/**'] })).result.lease;
      assert.equal(fromShim.holder, 'claude-session-shim');
      assert.match(await shim.fails('lease', { action: 'renew', leaseId: fromDaemon.id }), /only its holder renews it/);
      assert.match(await daemon.fails('lease', { action: 'renew', leaseId: fromShim.id }), /only its holder renews it/);
      await shim.ok('lease', { action: 'renew', leaseId: fromShim.id });
      await shim.ok('lease', { action: 'return', leaseId: fromShim.id, result: 'done' });
      for (const [server, lease] of [[daemon, fromDaemon], [stdio, fromStdio]] as const) await server.ok('lease', { action: 'return', leaseId: lease.id, result: 'done' });
      assert.equal(readState(root).leases.filter((l) => !l.returnedAt).length, 0);
    } finally {
      for (const c of [stdio, daemon, shim]) await c.close().catch(() => undefined);
      await h.cleanup();
    }
  });
});
