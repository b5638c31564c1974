/**
 * Following a project's journal: the loop of the process that holds its worker role (worker-role.ts). It applies
 * the hooks' journal until it is empty, then waits for the next entry (idle window) with the engine warm, so that an
 * edit finds sql.js compiled, the grammars loaded and index.json split in memory (warm-state.ts) instead of paying a
 * fresh process's start. Two callers: the hooks' background worker (hooks/src/worker.ts: an idle window, then it
 * exits) and the shared MCP server for the projects its sessions work in (mcp-server/src/daemon/followers.ts: until
 * the last session of the project closes).
 *
 * While it waits it keeps its pid file fresh (heartbeat), so hooks only append; it wakes on a change of the intel
 * folder (fs.watch) or, as a safety net, a slow poll of the journal. When it lets go of the role it removes its pid
 * file first and looks at the journal second, and takes the role again for an entry that came meanwhile (a hook that
 * appended it saw the pid file and started no worker).
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { hasPendingJournal } from '../journal.js';
import { HEARTBEAT_MS, claimForSelf, heartbeat, ownsPidFile, releasePidFile } from '../worker-role.js';
import { drainJournal } from './drain.js';
import { carryStatusFacts, refreshStatusFacts } from './status.js';
import { warmUpdates } from './update.js';

/** the journal is looked at this often while waiting, in case a change notification never comes */
const POLL_MS = 2_000;
/** quiet time after the last drain before `intel status`'s facts are brought up to date */
const STATUS_FACTS_AFTER_MS = 3_000;
const MAX_FAILURES = 3;

export interface FollowOptions {
  /** how long to wait for the next entry once the journal is empty; null: until `stop` */
  idleMs: number | null;
  /** stop waiting for entries after this long since the start (the journal is still drained to the end) */
  maxLifeMs?: number;
  /** ends the waiting: what is in the journal is drained, then the role is released */
  stop?: AbortSignal;
  /** false ends the waiting too (the worker: its script was replaced by an install) */
  stillValid?: () => boolean;
  /** one drain that takes longer than this: `onStuck` is called (the worker exits; the journal stays for the next) */
  stuckAfterMs?: number;
  onStuck?: () => void;
  /** a problem worth a line in the project's log, with the error behind it (the caller describes it its way) */
  note: (message: string, error?: unknown) => void;
  /** progress lines, for GSD_HOOK_DEBUG */
  debug?: (message: string, error?: unknown) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drainAll(root: string, o: FollowOptions): Promise<boolean> {
  let failures = 0;
  while (hasPendingJournal(root)) {
    const watchdog = o.onStuck && o.stuckAfterMs ? setTimeout(o.onStuck, o.stuckAfterMs) : null;
    watchdog?.unref();
    try {
      const wall = performance.now();
      const cpu = process.cpuUsage();
      const report = await drainJournal(root, { timeoutMs: 120_000 });
      failures = 0;
      if (report?.malformed) o.note(`${report.malformed} malformed journal line(s) skipped`);
      if (o.debug && report) {
        const u = report.update;
        const used = process.cpuUsage(cpu);
        // the engine's time for the change, then the whole drain (lock, journal, freeing replaced files) and its CPU
        const drain = `drain ${Math.round(performance.now() - wall)} ms, cpu ${Math.round((used.user + used.system) / 1000)} ms`;
        o.debug(`drained ${report.entries} entr${report.entries === 1 ? 'y' : 'ies'}${report.refreshed ? ' (refresh)' : ''}: ${u ? `${u.mode}, ${u.updated.length} updated, ${u.removed.length} removed, ${Math.round(u.engineMs)} ms` : 'nothing to do'} (${drain})`);
      }
    } catch (error) {
      failures++;
      o.note(`drain failed (${failures}/${MAX_FAILURES})`, error);
      if (failures >= MAX_FAILURES) return false;
      await sleep(500 * failures);
    } finally {
      if (watchdog) clearTimeout(watchdog);
    }
  }
  return true;
}

/**
 * Waits until the journal has entries ('entry'), or `ms` pass without any ('idle'; null: never), or the pid file is
 * no longer this process's, `stillValid` says no or `stop` fires ('stop'). No busy loop.
 */
function waitForJournal(root: string, ms: number | null, o: FollowOptions): Promise<'entry' | 'idle' | 'stop'> {
  return new Promise((resolve) => {
    let watcher: FSWatcher | null = null;
    let done = false;
    const finish = (why: 'entry' | 'idle' | 'stop') => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      clearInterval(poll);
      watcher?.close();
      o.stop?.removeEventListener('abort', stopped);
      resolve(why);
    };
    const stopped = () => finish('stop');
    const look = () => {
      if (hasPendingJournal(root)) finish('entry');
      else if (o.stop?.aborted || !ownsPidFile(root) || (o.stillValid && !o.stillValid())) finish('stop');
    };
    const timer = ms === null ? null : setTimeout(() => finish(hasPendingJournal(root) ? 'entry' : 'idle'), ms);
    const poll = setInterval(look, ms === null ? POLL_MS : Math.min(POLL_MS, ms));
    // a follower without an idle window (the shared server) must not keep its process alive; a worker's wait does
    if (o.idleMs === null) {
      timer?.unref();
      poll.unref();
    }
    o.stop?.addEventListener('abort', stopped);
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

/**
 * Applies `root`'s journal and waits for more as long as `options` say, for a process that holds the worker role
 * (the hook claimed it for its worker; the shared server calls claimForSelf first). Releases the role at the end.
 */
export async function followJournal(root: string, options: FollowOptions): Promise<void> {
  const started = Date.now();
  const beat = setInterval(() => heartbeat(root), HEARTBEAT_MS);
  beat.unref();
  const lingering = () => !options.stop?.aborted && options.idleMs !== 0 && (options.maxLifeMs === undefined || Date.now() - started < options.maxLifeMs);
  try {
    for (;;) {
      const ok = await drainAll(root, options);
      // the edits are in place and the lock is free: `intel status`'s sidecar follows the index.json they left
      if (ok && (await carryStatusFacts(root))) options.debug?.('status facts carried to the new index.json');
      if (ok && lingering()) {
        // the next edit should find the engine warm even when this drain did not need sql.js or index.json
        try {
          await warmUpdates(root);
        } catch (error) {
          options.debug?.('warm-up skipped', error);
        }
        options.debug?.(`idle, rss ${Math.round(process.memoryUsage().rss / 1048576)} MB; waiting ${options.idleMs === null ? 'until stopped' : `up to ${options.idleMs} ms`}`);
        // once the edits have settled, `intel status`'s facts are read for the index.json they left (~0.3 s of CPU
        // at 50,000 files, none when nothing changed), so that a status after them reads a 3 MB sidecar
        const settle = options.idleMs === null ? STATUS_FACTS_AFTER_MS : Math.min(STATUS_FACTS_AFTER_MS, options.idleMs);
        let waited = await waitForJournal(root, settle, options);
        if (waited === 'idle' && (options.idleMs === null || settle < options.idleMs)) {
          if (await refreshStatusFacts(root)) options.debug?.('status facts read for the new index.json');
          waited = await waitForJournal(root, options.idleMs === null ? null : options.idleMs - settle, options);
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
