#!/usr/bin/env node
// Hooks: wall time a Claude Code hook blocks for, against `node -e 0` measured in the same run, interleaved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { OUR_ENGINE, ROOT, WORK_DIR, freshCopy, listFiles, log, machineInfo, parseArgs, runMain, UsageError } from './lib/common.mjs';
import { CORPORA, ensureCorpus, getCorpus } from './corpora.mjs';
import { waitForWorker } from './lib/worker-wait.mjs';
import { median, percentile, min, max } from './lib/stats.mjs';
import { saveResult } from './lib/write-results.mjs';
import { editPayload } from './lib/hook-payload.mjs';
import { END, START, updateHooksResultsMd } from './lib/hooks-results.mjs';
// The worker of each round exits once the journal is empty (waitForWorker waits for that; intel.workerIdleSeconds
// would keep it waiting 120 s, and a warm worker is measured by bench/monorepo.mjs).
process.env.GSD_WORKER_IDLE_MS ??= '0';
const HOOK_DIR = path.join(ROOT, 'dist', 'hooks', 'src');
const POST = path.join(HOOK_DIR, 'post-tool-use.cjs');
const SESSION = path.join(HOOK_DIR, 'session-start.cjs');
const BARS = { postMedian: 1.5, postP95: 2.5, sessionUnchanged: 1.5, session20: 3 };

const USAGE = `
Usage: node bench/hooks.mjs [options]      (after npm run build: it times dist/hooks/src/*.cjs)

Copies the corpus to bench/.work/hooks/<corpus>, builds its intel, then for each case runs --runs rounds; a round
spawns \`node -e 0\` and the hook (order alternating between rounds), each timed with process.hrtime around
spawnSync (start → exit, stdin piped like Claude Code does). Right after each hook, untimed, the background worker
it started is awaited, so the worker never overlaps a measurement and every round starts from the same state:
  post-edit          PostToolUse (Edit payload) for a source file just modified (a different file each round)
  session-unchanged  SessionStart (source startup), nothing changed since the last refresh
  session-20         SessionStart after 20 source files were modified outside Claude
Bars: post-edit median ≤ ${BARS.postMedian}× and p95 ≤ ${BARS.postP95}× node -e 0; session-unchanged median ≤ ${BARS.sessionUnchanged}×;
session-20 median ≤ ${BARS.session20}×. Writes bench/RESULTS.md between ${START} and ${END}.`;

const SPEC = {
  corpus: { type: 'string', default: 'zod', help: `corpus (${CORPORA.map((c) => c.name).join(',')})` },
  runs: { type: 'number', default: 30, help: 'measured rounds per case' },
  warmup: { type: 'number', default: 3, help: 'discarded rounds per case' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};


function timed(args, input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input: input ?? '', stdio: ['pipe', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout, stderr: r.stderr };
}


function stats(xs) {
  return { n: xs.length, median: median(xs), p95: percentile(xs, 95), min: min(xs), max: max(xs) };
}

async function runCase(name, root, runs, warmup, prepare, hookArgs) {
  const base = [];
  const hook = [];
  const catchUp = [];
  for (let i = 0; i < warmup + runs; i++) {
    const input = prepare(i);
    const order = i % 2 ? ['hook', 'base'] : ['base', 'hook'];
    let h = null;
    let b = null;
    let waited = 0;
    for (const which of order) {
      if (which === 'base') b = timed(['-e', '0']);
      else {
        const t0 = performance.now();
        h = timed(hookArgs, input);
        if (h.status !== 0) throw new Error(`${name}: hook exited ${h.status}: ${h.stderr}`);
        // untimed: let the worker finish before anything else is measured, so it never slows the baseline either
        await waitForWorker(root);
        waited = performance.now() - t0;
      }
    }
    if (i >= warmup) {
      base.push(b.ms);
      hook.push(h.ms);
      catchUp.push(waited);
    }
    if (i === warmup) log(`hooks: ${name} first measured round: node -e 0 ${b.ms.toFixed(1)} ms, hook ${h.ms.toFixed(1)} ms`);
  }
  const s = { base: stats(base), hook: stats(hook), catchUp: stats(catchUp) };
  s.ratioMedian = s.hook.median / s.base.median;
  s.ratioP95 = s.hook.p95 / s.base.p95;
  s.ratioP95OverBaseMedian = s.hook.p95 / s.base.median;
  s.samples = { base, hook };
  log(`hooks: ${name}: node -e 0 median ${s.base.median.toFixed(1)} ms, hook median ${s.hook.median.toFixed(1)} ms (×${s.ratioMedian.toFixed(2)}), p95 ×${s.ratioP95.toFixed(2)}`);
  return s;
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  const machine = machineInfo(); // load average at the start
  if (!(opts.runs >= 1)) throw new UsageError('--runs must be ≥ 1');
  for (const f of [POST, SESSION, OUR_ENGINE]) if (!fs.existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing: run npm run build first`);
  const corpus = getCorpus(opts.corpus);
  const src = ensureCorpus(corpus);
  const root = freshCopy(src, path.join(WORK_DIR, 'hooks', corpus.name));
  fs.mkdirSync(path.join(root, '.planning'), { recursive: true });
  const { buildIntel } = await import(pathToFileURL(OUR_ENGINE).href);
  const t0 = performance.now();
  const built = await buildIntel(root);
  const buildMs = performance.now() - t0;
  const sources = listFiles(root).filter((f) => /\.(?:ts|mts|cts|js|mjs|cjs)$/.test(f) && !/\.d\.[cm]?ts$/.test(f));
  log(`hooks: ${corpus.name}: ${built.files ?? sources.length} files indexed in ${buildMs.toFixed(0)} ms; ${sources.length} candidate source files`);
  const pick = (i, k = 0) => sources[(i * 37 + k * 101) % sources.length];
  const touch = (rel, i) => fs.appendFileSync(path.join(root, rel), `\n// bench edit ${i}\n`);

  const postEdit = await runCase('post-edit', root, opts.runs, opts.warmup, (i) => {
    const rel = pick(i);
    const file = path.join(root, rel);
    const original = fs.readFileSync(file, 'utf8');
    touch(rel, i);
    return editPayload(root, file, original);
  }, [POST]);

  const sessionInput = JSON.stringify({ session_id: 'bench', transcript_path: path.join(os.tmpdir(), 'bench.jsonl'), cwd: root, hook_event_name: 'SessionStart', source: 'startup' });
  // one refresh first, so "unchanged" really starts from a caught-up state
  timed([SESSION], sessionInput);
  await waitForWorker(root);
  const sessionUnchanged = await runCase('session-unchanged', root, opts.runs, opts.warmup, () => sessionInput, [SESSION]);
  const session20 = await runCase('session-20', root, opts.runs, opts.warmup, (i) => {
    for (let k = 0; k < 20; k++) touch(pick(i, k + 1), i);
    return sessionInput;
  }, [SESSION]);
  const sample = JSON.parse(timed([SESSION], sessionInput).stdout).hookSpecificOutput.additionalContext;
  await waitForWorker(root);

  const result = {
    date: new Date().toISOString(),
    machine,
    command: `node bench/hooks.mjs --corpus ${opts.corpus} --runs ${opts.runs} --warmup ${opts.warmup}`,
    corpus: { name: corpus.name, pkg: `${corpus.pkg}@${corpus.version}`, files: built.files ?? null, buildMs },
    runs: opts.runs,
    warmup: opts.warmup,
    loadavgEnd: os.loadavg().map((x) => x.toFixed(2)).join(' '),
    contextChars: sample.length,
    cases: { postEdit, sessionUnchanged, session20 },
    bars: [
      { name: 'PostToolUse (edited file) median', value: postEdit.ratioMedian, target: BARS.postMedian },
      { name: 'PostToolUse (edited file) p95', value: postEdit.ratioP95, target: BARS.postP95, strict: postEdit.ratioP95OverBaseMedian },
      { name: 'SessionStart, nothing changed, median', value: sessionUnchanged.ratioMedian, target: BARS.sessionUnchanged },
      { name: 'SessionStart, 20 files changed, median', value: session20.ratioMedian, target: BARS.session20 },
    ].map((b) => ({ ...b, pass: b.value <= b.target })),
  };
  saveResult('hooks', result);
  if (!opts['no-results-md']) updateHooksResultsMd();
  return 0;
});

