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
    const pending = fs.readdirSync(dir).some((n) => n.startsWith('journal.jsonl') && (n.endsWith('.draining') || (fs.statSync(path.join(dir, n), { throwIfNoEntry: false })?.size ?? 1) > 0)); // renamed by the worker between readdir and stat: look again
    const running = pid !== null && alive(pid);
    if (!running && !pending) return Date.now() - t0;
    if (!running && pending && Date.now() - t0 > 2_000) throw new Error(`journal pending in ${dir} with no worker running`);
    if (Date.now() - t0 > capMs) throw new Error(`worker still busy after ${capMs} ms`);
    await sleep(10);
  }
}
