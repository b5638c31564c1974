/**
 * The background worker the hooks start (`node worker.js <root>`, detached, no stdio): drains the project's capture
 * journal with the engine until it is empty, then exits. At most one runs per project (`.planning/intel/worker.pid`,
 * see capture.ts); it is the only hook-side code that loads the engine's pipeline and sql.js.
 *
 * The hand-over with hooks cannot lose an entry: a hook appends first and checks the pid file second, while the
 * worker removes its pid file first and checks the journal second. Either the hook sees no worker and starts one,
 * or the worker sees the new entry and goes on.
 */
import { drainJournal, hasPendingJournal } from '../../engine/src/index.js';
import { HEARTBEAT_MS, claimForSelf, heartbeat, releasePidFile } from './capture.js';
import { describeError, logNote } from './log.js';

/** a worker never lives longer than this, whatever happens (a build of a huge project included) */
const MAX_LIFE_MS = 30 * 60_000;
const MAX_FAILURES = 3;
const debug = process.env.GSD_HOOK_DEBUG === '1';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drainAll(root: string): Promise<boolean> {
  let failures = 0;
  while (hasPendingJournal(root)) {
    try {
      const report = await drainJournal(root, { timeoutMs: 120_000 });
      failures = 0;
      if (report?.malformed) logNote(root, 'worker', `${report.malformed} malformed journal line(s) skipped`);
      if (debug && report) {
        const u = report.update;
        logNote(root, 'worker', `drained ${report.entries} entr${report.entries === 1 ? 'y' : 'ies'}${report.refreshed ? ' (refresh)' : ''}: ${u ? `${u.mode}, ${u.updated.length} updated, ${u.removed.length} removed, ${Math.round(u.engineMs)} ms` : 'nothing to do'}`);
      }
    } catch (error) {
      failures++;
      logNote(root, 'worker', `drain failed (${failures}/${MAX_FAILURES}): ${describeError(error)}`);
      if (failures >= MAX_FAILURES) return false;
      await sleep(500 * failures);
    }
  }
  return true;
}

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root) return;
  setTimeout(() => {
    logNote(root, 'worker', `gave up after ${MAX_LIFE_MS} ms; the journal stays for the next reader`);
    releasePidFile(root);
    process.exit(0);
  }, MAX_LIFE_MS).unref();
  const beat = setInterval(() => heartbeat(root), HEARTBEAT_MS);
  beat.unref();
  try {
    for (;;) {
      const ok = await drainAll(root);
      releasePidFile(root);
      // a hook may have appended after our last look and seen our pid file: look again now that it is gone
      if (!ok || !hasPendingJournal(root)) break;
      if (!claimForSelf(root)) break; // another worker took over
    }
  } finally {
    clearInterval(beat);
    releasePidFile(root);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    logNote(process.argv[2] ?? null, 'worker', `internal error: ${describeError(error)}`);
    process.exit(0);
  },
);
