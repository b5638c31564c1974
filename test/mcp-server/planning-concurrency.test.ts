/**
 * Two real server processes on one project, interleaved: 100 leases issued, renewed and returned, 100 queue items
 * enqueued and completed, 100 key-value writes, and 50 contested scopes both ask for at the same time. Nothing is
 * lost, and no two active leases ever overlap (a watcher reads the state file all along).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startServer } from '../helpers/mcp.js';
import { assertNothingLost, leaseAndQueueRounds, readState, watchStateFile } from '../helpers/planning-rounds.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

after(cleanupProjects);

describe('mcp server: two processes share one planning state', () => {
  it('issue/renew/return 100 leases and enqueue/complete 100 items, interleaved: nothing lost, never an overlap', async () => {
    const root = tempProject({ 'src/index.ts': 'export {};\n' });
    const servers = await Promise.all([startServer(root, { CLAUDE_CODE_SESSION_ID: 'A' }), startServer(root, { CLAUDE_CODE_SESSION_ID: 'B' })]);
    const watcher = watchStateFile(root);
    const logs = await Promise.all(servers.map((s, k) => leaseAndQueueRounds(s, k === 0 ? 'A' : 'B', 50))).finally(() => watcher.stop());
    const seen = await watcher.stop();
    const state = readState(root);
    await Promise.all(servers.map((s) => s.close()));
    assert.deepEqual(seen.overlaps, [], 'no two active leases ever overlapped');
    assert.ok(seen.snapshots > 10, `the watcher saw the state ${seen.snapshots} times`);
    assertNothingLost(state, { A: logs[0], B: logs[1] }, 50);
  });
});
