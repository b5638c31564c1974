#!/usr/bin/env node
// Runs the benches (each in its own child process) and rewrites their sections of bench/RESULTS.md.
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BENCH_DIR, OUR_CLI_REL, ROOT, log, ourCliBuilt, parseArgs, runMain, UsageError } from './lib/common.mjs';
import { ensureTools } from './tools.mjs';
import { ensureCorpora, CORPORA } from './corpora.mjs';
import { updateResultsMd } from './lib/write-results.mjs';
import { updateHooksResultsMd } from './lib/hooks-results.mjs';
import { updateMcpResults } from './lib/mcp-results.mjs';
import { updateSkeletonResultsMd } from './skeleton.mjs';
import { updateGraphDbResultsMd } from './graphdb.mjs';
import { updateGuidanceResultsMd } from './guidance.mjs';

// route writes its RESULTS.md section itself, and only with --results-md (here: never, as for the others)
const BENCHES = ['accuracy', 'speed', 'incremental', 'mcp', 'hooks', 'skeleton', 'graphdb', 'guidance', 'route'];

const USAGE = `
Usage: node bench/run.mjs [options]      (npm run bench = npm run build && node bench/run.mjs)

Installs the pinned tools (bench/tools.mjs) and corpora (bench/corpora.mjs), then runs
bench/accuracy.mjs, bench/speed.mjs, bench/incremental.mjs, bench/mcp.mjs, bench/hooks.mjs, bench/skeleton.mjs,
bench/graphdb.mjs, bench/guidance.mjs and bench/route.mjs one after the other, each as a child process, and rewrites
their sections of bench/RESULTS.md (between the accuracy, cold-build, incremental, mcp, hooks, skeleton, graphdb and
guidance markers; route's section is written by \`node bench/route.mjs --results-md\`).
Exits non-zero only when a script itself fails, never because a bar is missed (verdicts are in RESULTS.md).`;

const SPEC = {
  only: { type: 'string', default: BENCHES.join(','), help: 'which benches to run' },
  corpora: { type: 'string', default: 'all', help: `corpora for accuracy and speed (${CORPORA.map((c) => c.name).join(',')})` },
  runs: { type: 'number', default: 5, help: 'speed: measured rounds' },
  warmup: { type: 'number', default: 1, help: 'speed: discarded warm-up rounds' },
  iterations: { type: 'number', default: 30, help: 'incremental: modify iterations' },
  'hook-runs': { type: 'number', default: 30, help: 'hooks: measured rounds per case' },
  'skeleton-runs': { type: 'number', default: 3, help: 'skeleton: timed runs per corpus and mode' },
  'graphdb-runs': { type: 'number', default: 7, help: 'graphdb: rounds (one child per writer each)' },
  quick: { type: 'boolean', default: false, help: 'smoke run: --runs 1 --warmup 0 --iterations 5 --hook-runs 5 --skeleton-runs 1 --graphdb-runs 1' },
};

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  const only = opts.only.split(',').map((s) => s.trim()).filter(Boolean);
  for (const b of only) if (!BENCHES.includes(b)) throw new UsageError(`unknown bench ${b}`);
  if (opts.quick) Object.assign(opts, { runs: 1, warmup: 0, iterations: 5, 'hook-runs': 5, 'skeleton-runs': 1, 'graphdb-runs': 1 });
  if (!ourCliBuilt()) log(`run: ${OUR_CLI_REL} is missing (run npm run build): our side will be reported as not built`);
  ensureTools();
  ensureCorpora(CORPORA);
  const args = {
    accuracy: ['--corpora', opts.corpora],
    speed: ['--corpora', opts.corpora, '--runs', String(opts.runs), '--warmup', String(opts.warmup)],
    incremental: ['--iterations', String(opts.iterations), ...(opts.quick ? ['--add-iterations', '3'] : [])],
    mcp: opts.quick ? ['--runs', '5', '--warmup', '1', '--start-runs', '3'] : [],
    hooks: ['--runs', String(opts['hook-runs'])],
    skeleton: ['--runs', String(opts['skeleton-runs'])],
    graphdb: ['--runs', String(opts['graphdb-runs'])],
    route: opts.quick ? ['--runs', '5'] : [],
    guidance: opts.quick ? ['--runs', '10', '--warmup', '2'] : [],
  };
  const failed = [];
  for (const b of only) {
    log(`run: ${b}`);
    // what a bench sets aside is deleted after the last one (runMain), not between two of them (lib/common.mjs, setAside)
    const r = spawnSync(process.execPath, [path.join(BENCH_DIR, `${b}.mjs`), ...args[b], '--no-results-md'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, GSD_BENCH_SET_ASIDE: 'keep' } });
    if (r.status !== 0) {
      failed.push(`${b} (exit ${r.status ?? r.signal})`);
      log(`run: ${b} FAILED`);
    }
  }
  updateResultsMd();
  if (only.includes('mcp')) updateMcpResults();
  if (only.includes('hooks')) updateHooksResultsMd();
  if (only.includes('skeleton')) updateSkeletonResultsMd();
  if (only.includes('graphdb')) updateGraphDbResultsMd();
  if (only.includes('guidance')) updateGuidanceResultsMd();
  if (failed.length) {
    log(`run: failed: ${failed.join(', ')}`);
    return 1;
  }
  return 0;
});
