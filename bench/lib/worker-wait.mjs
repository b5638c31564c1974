// Waiting for a project's background hook worker (hooks/src/worker.ts) to finish, shared by the benches.
import fs from 'node:fs';
import path from 'node:path';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until the worker is gone and the journal empty; returns how long that took. */
export async function waitForWorker(root, capMs = 300_000) {
  const t0 = Date.now();
  const dir = path.join(root, '.planning', 'intel');
  for (;;) {
    let pid = null;
    try {
      pid = Number.parseInt(fs.readFileSync(path.join(dir, 'worker.pid'), 'utf8'), 10) || null;
    } catch {}
    // the folder is briefly away while a worker swaps in a rebuilt store: pending
    let names;
    try {
      names = fs.readdirSync(dir);
    } catch {
      names = ['journal.jsonl.draining']; // the folder is briefly away while a worker swaps in a rebuilt store
    }
    const pending = names.some((n) => n.startsWith('journal.jsonl') && (n.endsWith('.draining') || (fs.statSync(path.join(dir, n), { throwIfNoEntry: false })?.size ?? 1) > 0)); // renamed by the worker between readdir and stat: look again
    const running = pid !== null && alive(pid);
    if (!running && !pending) return Date.now() - t0;
    if (!running && pending && Date.now() - t0 > 2_000) throw new Error(`journal pending in ${dir} with no worker running`);
    if (Date.now() - t0 > capMs) throw new Error(`worker still busy after ${capMs} ms`);
    await sleep(10);
  }
}

/** The hook.log of a project: its size now, to read what a worker logs after this point (waitForIdle). */
export function logMark(root) {
  return fs.statSync(path.join(root, '.planning', 'intel', 'hook.log'), { throwIfNoEntry: false })?.size ?? 0;
}

/** hook.log lines written after `mark`. */
export function logSince(root, mark) {
  try {
    const bytes = fs.readFileSync(path.join(root, '.planning', 'intel', 'hook.log'));
    return bytes.subarray(bytes.length >= mark ? mark : 0).toString('utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Waits until a lingering worker (GSD_HOOK_DEBUG=1) logs that it is idle after `mark`: it drained what was sent and
 * warmed up, and now waits for the next edit. Returns its pid and the RSS it logged.
 */
export async function waitForIdle(root, mark, capMs = 300_000) {
  const t0 = Date.now();
  for (;;) {
    const idle = logSince(root, mark).map((l) => l.match(/ worker\[(\d+)\] idle, rss (\d+) MB/)).find(Boolean);
    if (idle) return { pid: Number(idle[1]), rssMB: Number(idle[2]), ms: Date.now() - t0 };
    if (Date.now() - t0 > capMs) throw new Error(`no idle worker after ${capMs} ms`);
    await sleep(10);
  }
}
