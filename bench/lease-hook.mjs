#!/usr/bin/env node
// The PostToolUse hook's lease check (docs/planning.md, "The hook's lease notice"): wall time of the hook against `node -e 0`, interleaved in one run.
// Usage: node bench/lease-hook.mjs [--runs 30] [--leases 200] [--kv-kb 900]   (after npm run build)
//   node       `node -e 0`
//   no-state   the hook, edit in a project without .planning/gsd-state.json (every project before it uses leases)
//   notice     the hook, edit inside another session's lease, a state of --leases active leases and --kv-kb of
//              key-value state (near the store's caps): it reads the leases array only and prints the notice
// Capture is switched off (intel.capture: false) in both hook cases, so no background worker starts and every round
// measures the same work; bench/hooks.mjs measures the capture path.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, log, parseArgs, runMain } from './lib/common.mjs';
import { median, percentile } from './lib/stats.mjs';

// The hooks' workers exit once the journal is empty (intel.workerIdleSeconds would keep them waiting 120 s).
process.env.GSD_WORKER_IDLE_MS ??= '0';

const HOOK = path.join(ROOT, 'dist', 'hooks', 'src', 'post-tool-use.cjs');
const SPEC = {
  runs: { type: 'number', default: 30, help: 'measured rounds' },
  warmup: { type: 'number', default: 3, help: 'discarded rounds' },
  leases: { type: 'number', default: 200, help: 'active leases in the state' },
  'kv-kb': { type: 'number', default: 900, help: 'key-value state size in KB' },
};

function timed(args, input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input: input ?? '', encoding: 'utf8' });
  if (r.error) throw r.error;
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout };
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, 'Usage: node bench/lease-hook.mjs [--runs N] [--leases N] [--kv-kb N]');
  const engine = await import(pathToFileURL(path.join(ROOT, 'dist', 'engine', 'src', 'index.js')).href);
  const make = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-lease-bench-'));
    fs.mkdirSync(path.join(root, '.planning'), { recursive: true });
    fs.mkdirSync(path.join(root, 'src', 'leased'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'leased', 'a.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, '.planning', 'config.json'), JSON.stringify({ intel: { capture: false } }));
    return root;
  };
  const bare = make();
  const busy = make();
  const store = new engine.StateStore(busy);
  const { issueLease } = await engine.loadLeaseIssuer();
  await store.update((s) => {
    for (let i = 0; i < opts.leases - 1; i++) issueLease(s, { taskId: `t-${i}`, scope: [`pkg/${i}/**`, `docs/${i}/*.md`], holder: 'other', session: 'other', ttlMinutes: 600 }, Date.now());
    issueLease(s, { taskId: 'leased-task', scope: ['src/leased/**'], holder: 'other', session: 'other', ttlMinutes: 600 }, Date.now());
    for (let i = 0; i < opts['kv-kb']; i++) engine.setPath(s.kv, `big.k${i}`, 'x'.repeat(1000));
  });
  const stateBytes = fs.statSync(path.join(busy, '.planning', 'gsd-state.json')).size;
  const payload = (root) => JSON.stringify({ session_id: 'me', cwd: root, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(root, 'src', 'leased', 'a.ts'), old_string: '1', new_string: '2' }, tool_response: {} });
  const check = timed([HOOK], payload(busy));
  if (!check.stdout.includes('leased-task')) throw new Error(`the hook printed no lease notice: ${check.stdout}`);
  const cases = { node: () => timed(['-e', '0']), 'no-state': () => timed([HOOK], payload(bare)), notice: () => timed([HOOK], payload(busy)) };
  const names = Object.keys(cases);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < opts.warmup + opts.runs; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const n of order) {
      const { ms } = cases[n]();
      if (round >= opts.warmup) times[n].push(ms);
    }
  }
  const base = median(times.node);
  log(`lease-hook: ${opts.runs} rounds, state ${Math.round(stateBytes / 1024)} KB with ${opts.leases} active leases`);
  for (const n of names) {
    const m = median(times[n]);
    log(`  ${n.padEnd(9)} median ${m.toFixed(1)} ms (×${(m / base).toFixed(2)} node -e 0), p95 ${percentile(times[n], 95).toFixed(1)} ms`);
  }
  fs.rmSync(bare, { recursive: true, force: true });
  fs.rmSync(busy, { recursive: true, force: true });
});
