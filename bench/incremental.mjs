#!/usr/bin/env node
// Incremental update: engine time of updateIntel() for one changed / added / deleted file, in one process.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { OUR_ENGINE, WORK_DIR, freshCopy, log, machineInfo, parseArgs, runMain, UsageError } from './lib/common.mjs';
import { CORPORA, ensureCorpus, getCorpus } from './corpora.mjs';
import { edgesFromGraphDb, graphDbPath } from './lib/our-edges.mjs';
import { median, percentile, min, max } from './lib/stats.mjs';
import { saveResult, updateResultsMd } from './lib/write-results.mjs';

export const BAR_MS = 50;

const USAGE = `
Usage: node bench/incremental.mjs [options]

Incremental update. In this process: import { buildIntel, updateIntel } from dist/engine/src/index.js, build a
private copy of the corpus (bench/.work/incremental/<corpus>) once, then
  modify: --iterations times append "// bench N" to a mid-graph file and time await updateIntel(root, [file]);
  add / delete: --add-iterations times create a new file importing that file, time updateIntel(root, [new]),
                delete it and time updateIntel(root, [new]) again.
The mid-graph file is the source file with the largest min(dependents, dependencies) in our graph (ties: path
order), unless --file is given. Reports median / p95; the bar (≤ ${BAR_MS} ms) is read on the modify median.`;

const SPEC = {
  corpus: { type: 'string', default: 'zod', help: `corpus (${CORPORA.map((c) => c.name).join(',')})` },
  iterations: { type: 'number', default: 30, help: 'modify iterations' },
  'add-iterations': { type: 'number', default: 10, help: 'add+delete iterations' },
  file: { type: 'string', default: '', help: 'corpus-relative file to modify (default: picked from the graph)' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};

function degrees(graph) {
  const indeg = new Map();
  const outdeg = new Map();
  for (const e of graph.edges.values()) {
    if (e.source === e.target) continue;
    outdeg.set(e.source, (outdeg.get(e.source) ?? 0) + 1);
    indeg.set(e.target, (indeg.get(e.target) ?? 0) + 1);
  }
  return { indeg, outdeg };
}

/**
 * Candidates: files with both dependencies and dependents, preferring hand-written TypeScript (not .d.ts, not
 * tests/benchmarks) when the corpus has such files. `hub` = largest min(dependents, dependencies) (the bar's file:
 * the most connected, so the conservative choice); `typical` = the median candidate by dependents+dependencies.
 */
function pickMidFiles(graph) {
  const { indeg, outdeg } = degrees(graph);
  const all = [...graph.files].filter((f) => (indeg.get(f) ?? 0) > 0 && (outdeg.get(f) ?? 0) > 0).sort();
  const ts = all.filter((f) => /\.(?:ts|tsx|mts|cts)$/.test(f) && !/\.d\.[cm]?ts$/.test(f) && !/test|spec|bench/i.test(f));
  const pool = ts.length ? ts : all.filter((f) => !/test|spec|bench/i.test(f));
  if (!pool.length) return null;
  const info = (f) => ({ file: f, dependents: indeg.get(f), dependencies: outdeg.get(f) });
  const hub = [...pool].sort((a, b) => Math.min(indeg.get(b), outdeg.get(b)) - Math.min(indeg.get(a), outdeg.get(a)) || (a < b ? -1 : 1))[0];
  const bySum = [...pool].sort((a, b) => indeg.get(a) + outdeg.get(a) - (indeg.get(b) + outdeg.get(b)) || (a < b ? -1 : 1));
  return { hub: info(hub), typical: info(bySum[bySum.length >> 1]), degrees: { indeg, outdeg } };
}

function stats(name, file, xs, bar) {
  const m = median(xs);
  return { name, file, n: xs.length, median: m, p95: percentile(xs, 95), min: min(xs), max: max(xs), first: xs[0], samples: xs, bar, pass: bar ? m <= BAR_MS : null };
}

/** What every result of this bench starts with, measured or not. */
function resultHeader(opts) {
  const c = getCorpus(opts.corpus);
  return {
    bench: 'incremental',
    date: new Date().toISOString(),
    machine: machineInfo(),
    command: `node bench/incremental.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    corpus: `${c.pkg}@${c.version}`,
    barMs: BAR_MS,
    cases: [],
    notes: [],
  };
}

/** The engine threw: that is a finding about the engine, not a failure of this script. */
class EngineError extends Error {}

export async function runIncremental(opts) {
  try {
    return await measureIncremental(opts);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    const out = { ...resultHeader(opts), error: e.message };
    log(`incremental: ${e.message}`);
    saveResult('incremental', out);
    return out;
  }
}

async function engineCall(what, fn) {
  try {
    return await fn();
  } catch (e) {
    const stack = String(e?.stack ?? e).split('\n').slice(0, 4).join(' | ');
    throw new EngineError(`the engine threw in ${what}: ${stack}`);
  }
}

async function measureIncremental(opts) {
  const c = getCorpus(opts.corpus);
  const out = resultHeader(opts);
  if (!fs.existsSync(OUR_ENGINE)) {
    out.error = 'engine not built (dist/engine/src/index.js missing)';
    log(`incremental: ${out.error}`);
    saveResult('incremental', out);
    return out;
  }
  const engine = await import(pathToFileURL(OUR_ENGINE).href);
  const { buildIntel, updateIntel } = engine;
  if (typeof buildIntel !== 'function' || typeof updateIntel !== 'function') {
    out.error = `dist/engine/src/index.js does not export buildIntel and updateIntel (exports: ${Object.keys(engine).join(', ')})`;
    log(`incremental: ${out.error}`);
    saveResult('incremental', out);
    return out;
  }
  const root = freshCopy(ensureCorpus(c), path.join(WORK_DIR, 'incremental', c.name));
  log(`incremental: building ${c.name} once`);
  let t0 = performance.now();
  await engineCall('buildIntel', () => buildIntel(root));
  out.buildMs = performance.now() - t0;
  const graph = await edgesFromGraphDb(graphDbPath(root));
  const picked = pickMidFiles(graph);
  let target;
  if (opts.file) {
    if (!graph.files.has(opts.file)) throw new UsageError(`--file ${opts.file} is not in our graph of ${c.name}`);
    target = { file: opts.file, dependents: picked?.degrees.indeg.get(opts.file) ?? 0, dependencies: picked?.degrees.outdeg.get(opts.file) ?? 0 };
  } else {
    if (!picked) throw new Error('no file with both dependencies and dependents in our graph');
    target = picked.hub;
  }
  const rel = target.file;
  const abs = path.join(root, rel);
  out.notes.push(`graph: ${graph.files.size} files, ${graph.edges.size} edges; build in this process ${out.buildMs.toFixed(0)} ms`);
  const modes = {};
  const engineMs = [];
  const timeUpdate = async (files) => {
    const t = performance.now();
    const report = await engineCall(`updateIntel(root, ${JSON.stringify(files)})`, () => updateIntel(root, files));
    const ms = performance.now() - t;
    const mode = report?.mode ?? '?';
    modes[mode] = (modes[mode] ?? 0) + 1;
    if (Number.isFinite(report?.engineMs)) engineMs.push(report.engineMs);
    return ms;
  };

  // --- modify: the hub (bar) and, for information, a typical file
  const modifyCase = async (t, label, bar) => {
    const a = path.join(root, t.file);
    const original = fs.readFileSync(a, 'utf8');
    const xs = [];
    for (let i = 1; i <= opts.iterations; i++) {
      fs.appendFileSync(a, `\n// bench ${i}\n`);
      xs.push(await timeUpdate([t.file]));
    }
    fs.writeFileSync(a, original);
    await engineCall('updateIntel', () => updateIntel(root, [t.file]));
    log(`incremental: modify ${t.file}: median ${median(xs).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms`);
    out.cases.push(stats(`modify ${label} (${t.dependents} dependents, ${t.dependencies} dependencies): append a comment line`, t.file, xs, bar));
  };
  await modifyCase(target, opts.file ? 'the given file' : 'a mid-graph hub', true);
  if (!opts.file && picked.typical.file !== target.file) await modifyCase(picked.typical, 'a typical mid-graph file', false);

  // --- add + delete
  const dir = path.posix.dirname(rel);
  const spec = './' + path.posix.basename(rel).replace(/\.(?:ts|tsx)$/, '.js').replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs');
  const ext = /\.[cm]?tsx?$/.test(rel) ? '.ts' : path.posix.extname(rel);
  const adds = [];
  const dels = [];
  let sanity = null;
  for (let i = 1; i <= opts['add-iterations']; i++) {
    const newRel = `${dir === '.' ? '' : dir + '/'}__bench_new_${i}${ext}`;
    const newAbs = path.join(root, newRel);
    fs.writeFileSync(newAbs, `import * as dep from '${spec}';\nexport const benchNew${i} = dep;\n`);
    adds.push(await timeUpdate([newRel]));
    if (i === 1) {
      const g = await edgesFromGraphDb(graphDbPath(root));
      sanity = { added: g.files.has(newRel), edgeToModified: g.edges.has(`${newRel}\t${rel}`) };
    }
    fs.rmSync(newAbs);
    dels.push(await timeUpdate([newRel]));
    if (i === 1) sanity.removed = !(await edgesFromGraphDb(graphDbPath(root))).files.has(newRel);
  }
  log(`incremental: add median ${median(adds).toFixed(1)} ms, delete median ${median(dels).toFixed(1)} ms`);
  out.cases.push(stats(`add a new file importing it (${spec})`, `${dir}/__bench_new_N${ext}`, adds, false));
  out.cases.push(stats('delete that file again', `${dir}/__bench_new_N${ext}`, dels, false));
  out.notes.push(
    `sanity check after the first add/delete (graph.db re-read, not timed): new file in graph ${sanity?.added ? 'yes' : 'NO'}, its edge to the modified file ${sanity?.edgeToModified ? 'yes' : 'NO'}, gone after delete ${sanity?.removed ? 'yes' : 'NO'}`,
  );
  out.sanity = sanity;
  out.modes = modes;
  out.notes.push(
    `updateIntel reports: modes ${JSON.stringify(modes)}; its own engineMs median ${median(engineMs).toFixed(1)} ms, p95 ${percentile(engineMs, 95).toFixed(1)} ms (over all ${engineMs.length} timed calls)`,
  );
  saveResult('incremental', out);
  return out;
}

if (process.argv[1]?.endsWith('/incremental.mjs')) {
  runMain(async () => {
    const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
    await runIncremental(opts);
    if (!opts['no-results-md']) updateResultsMd();
  });
}
