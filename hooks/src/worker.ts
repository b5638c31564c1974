/**
 * The background worker the hooks start (`node worker.js <root>`, detached, no stdio): drains the project's capture
 * journal with the engine until it is empty, then stays alive for an idle window (`intel.workerIdleSeconds`,
 * default 120 s) waiting for the next entry, so that an edit finds sql.js compiled and index.json split in memory
 * (engine/src/pipeline/warm-state.ts) instead of paying a fresh process's start each time. At most one runs per
 * project (`.planning/intel/worker.pid`, see capture.ts); it is the only hook-side code that loads the engine's
 * pipeline and sql.js.
 *
 * While it waits it keeps its pid file and heartbeat, so hooks only append; it wakes on a change of the intel folder
 * (fs.watch) or, as a safety net, a slow poll of the journal. The hand-over with hooks cannot lose an entry: a hook
 * appends first and checks the pid file second, while the worker removes its pid file first and checks the journal
 * second. Either the hook sees no worker and starts one, or the worker sees the new entry and goes on.
 */
import './wasm-baseline.js';
import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { carryStatusFacts, drainJournal, fileIdentity, hasPendingJournal, readIntelConfig, refreshStatusFacts, warmUpdates } from '../../engine/src/index.js';
import { HEARTBEAT_MS, claimForSelf, heartbeat, ownsPidFile, releasePidFile } from './capture.js';
import { describeError, logNote } from './log.js';

/** one drain never takes longer than this, whatever happens (a build of a huge project included) */
const MAX_DRAIN_MS = 30 * 60_000;
/** after this long a worker stops waiting for more edits once the journal is empty (a fresh one starts on the next) */
const MAX_LINGER_LIFE_MS = 60 * 60_000;
/** the journal is looked at this often while waiting, in case a change notification never comes */
const POLL_MS = 2_000;
const DEFAULT_IDLE_MS = 120_000;
/** quiet time after the last drain before `intel status`'s facts are brought up to date */
const STATUS_FACTS_AFTER_MS = 3_000;
const MAX_FAILURES = 3;
const debug = process.env.GSD_HOOK_DEBUG === '1';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The idle window: `GSD_WORKER_IDLE_MS` (tests), else `intel.workerIdleSeconds`; a broken config gives the default. */
function idleWindowMs(root: string): number {
  const env = process.env.GSD_WORKER_IDLE_MS;
  if (env !== undefined && env !== '' && Number.isFinite(Number(env)) && Number(env) >= 0) return Number(env);
  try {
    return readIntelConfig(root).workerIdleSeconds * 1000;
  } catch {
    return DEFAULT_IDLE_MS; // the drain reports the broken config
  }
}

async function drainAll(root: string): Promise<boolean> {
  let failures = 0;
  while (hasPendingJournal(root)) {
    const watchdog = setTimeout(() => {
      logNote(root, 'worker', `gave up after ${MAX_DRAIN_MS} ms in one drain; the journal stays for the next reader`);
      releasePidFile(root);
      process.exit(0);
    }, MAX_DRAIN_MS);
    watchdog.unref();
    try {
      const wall = performance.now();
      const cpu = process.cpuUsage();
      const report = await drainJournal(root, { timeoutMs: 120_000 });
      failures = 0;
      if (report?.malformed) logNote(root, 'worker', `${report.malformed} malformed journal line(s) skipped`);
      if (debug && report) {
        const u = report.update;
        const used = process.cpuUsage(cpu);
        // the engine's time for the change, then the whole drain (lock, journal, freeing replaced files) and its CPU
        const drain = `drain ${Math.round(performance.now() - wall)} ms, cpu ${Math.round((used.user + used.system) / 1000)} ms`;
        logNote(root, 'worker', `drained ${report.entries} entr${report.entries === 1 ? 'y' : 'ies'}${report.refreshed ? ' (refresh)' : ''}: ${u ? `${u.mode}, ${u.updated.length} updated, ${u.removed.length} removed, ${Math.round(u.engineMs)} ms` : 'nothing to do'} (${drain})`);
      }
    } catch (error) {
      failures++;
      logNote(root, 'worker', `drain failed (${failures}/${MAX_FAILURES}): ${describeError(error)}`);
      if (failures >= MAX_FAILURES) return false;
      await sleep(500 * failures);
    } finally {
      clearTimeout(watchdog);
    }
  }
  return true;
}

/** The worker script as it was when this process started: a reinstall or an upgrade replaces it. */
function scriptStamp(): string {
  try {
    return fileIdentity(statSync(process.argv[1]));
  } catch {
    return 'gone';
  }
}
const startedAs = scriptStamp();

/**
 * Waits until the journal has entries ('entry'), or `ms` pass without any ('idle'), or the pid file is no longer this
 * process's, or the installed worker script changed ('stop': a worker of the new version takes the next edit, rather
 * than this one loading the new version's modules lazily beside its own). Wakes on a change in the intel folder,
 * with a slow poll besides; no busy loop.
 */
function waitForJournal(root: string, ms: number): Promise<'entry' | 'idle' | 'stop'> {
  return new Promise((resolve) => {
    let watcher: FSWatcher | null = null;
    let done = false;
    const finish = (why: 'entry' | 'idle' | 'stop') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      watcher?.close();
      resolve(why);
    };
    const look = () => {
      if (hasPendingJournal(root)) finish('entry');
      else if (!ownsPidFile(root)) finish('stop'); // hooks no longer see this worker: stop waiting, hand over
      else if (scriptStamp() !== startedAs) finish('stop');
    };
    const timer = setTimeout(() => finish(hasPendingJournal(root) ? 'entry' : 'idle'), ms);
    const poll = setInterval(look, Math.min(POLL_MS, ms));
    try {
      watcher = watch(path.join(root, '.planning', 'intel'), { persistent: false }, (_event, name) => {
        if (!name || String(name).startsWith('journal')) look();
      });
      watcher.on('error', () => watcher?.close()); // the poll goes on
    } catch {
      // no watch on this file system: the poll alone
    }
    look();
  });
}

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root) return;
  const started = Date.now();
  const idleMs = idleWindowMs(root);
  const beat = setInterval(() => heartbeat(root), HEARTBEAT_MS);
  beat.unref();
  try {
    for (;;) {
      const ok = await drainAll(root);
      // the edits are in place and the lock is free: `intel status`'s sidecar follows the index.json they left
      if (ok && (await carryStatusFacts(root)) && debug) logNote(root, 'worker', 'status facts carried to the new index.json');
      if (ok && idleMs > 0 && Date.now() - started < MAX_LINGER_LIFE_MS) {
        // the next edit should find the engine warm even when this drain did not need sql.js or index.json
        try {
          await warmUpdates(root);
        } catch (error) {
          if (debug) logNote(root, 'worker', `warm-up skipped: ${describeError(error)}`);
        }
        if (debug) logNote(root, 'worker', `idle, rss ${Math.round(process.memoryUsage().rss / 1048576)} MB; waiting up to ${idleMs} ms`);
        // once the edits have settled, `intel status`'s facts are read for the index.json they left (~0.3 s of CPU
        // at 50,000 files, none when nothing changed), so that a status after them reads a 3 MB sidecar
        const settle = Math.min(STATUS_FACTS_AFTER_MS, idleMs);
        let waited = await waitForJournal(root, settle);
        if (waited === 'idle' && settle < idleMs) {
          const read = await refreshStatusFacts(root);
          if (debug && read) logNote(root, 'worker', 'status facts read for the new index.json');
          waited = await waitForJournal(root, idleMs - settle);
        }
        if (waited === 'entry') continue;
      }
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
