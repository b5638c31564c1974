#!/usr/bin/env node
// Skeleton parse: parity of parseSource (lexer skeleton → babel) with parseWhole (babel on the whole text), and speed.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ROOT, WORK_DIR, SOURCE_RE, listFiles, log, machineInfo, parseArgs, runMain, UsageError, writeJson } from './lib/common.mjs';
import { CORPORA, ensureCorpus } from './corpora.mjs';
import { loadResult, saveResult, writeResultsSection } from './lib/write-results.mjs';
import { median } from './lib/stats.mjs';

/** Extra pinned packages, used only here (fetched like the corpora, into bench/.corpora/<name>). */
export const PARITY_CORPORA = [
  { name: 'rxjs', pkg: 'rxjs', version: '7.8.2', kind: 'TS sources + cjs/esm5/esm builds + .d.ts' },
  { name: 'typescript-estree', pkg: '@typescript-eslint/typescript-estree', version: '8.73.0', kind: 'tsc CJS output + .d.ts' },
  { name: 'express', pkg: 'express', version: '5.3.0', kind: 'old-style CommonJS' },
  { name: 'axios', pkg: 'axios', version: '1.21.1', kind: 'ESM lib + CJS/ESM bundles + .d.ts/.d.cts' },
  { name: 'vue-runtime-core', pkg: '@vue/runtime-core', version: '3.5.45', kind: 'rollup bundles (cjs, esm-bundler) + .d.ts' },
  { name: 'preact', pkg: 'preact', version: '11.2.0', kind: 'ESM with JSX in .js, UMD/mjs builds' },
  { name: 'react-router', pkg: 'react-router', version: '8.5.1', kind: 'tsup ESM/CJS chunks + .d.ts/.d.mts' },
  { name: 'eslint', pkg: 'eslint', version: '10.15.0', kind: 'CommonJS with many regular expressions' },
  { name: 'jquery', pkg: 'jquery', version: '4.0.0', kind: 'ESM src + UMD builds, regex-heavy' },
  { name: 'moment', pkg: 'moment', version: '2.31.0', kind: 'UMD + ESM src + 130 locales' },
  { name: 'prettier', pkg: 'prettier', version: '3.10.1', kind: 'large minified-style bundles' },
];
const ALL = [...CORPORA, ...PARITY_CORPORA];
const MAX_BYTES = 1_000_000;
const EXTS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'].join(' ');
const MODES = ['whole', 'source', 'skeleton'];
const START = '<!-- skeleton:start -->';
const END = '<!-- skeleton:end -->';
const OUT_DIR = path.join(WORK_DIR, 'skeleton');

const USAGE = `
Usage: node bench/skeleton.mjs [options]

Parity and speed of the skeleton parse (engine/src/parse/skeleton.ts), on the built dist/. For every JS/TS-family
file (.d.ts included; no **/*.min.js, no node_modules, ≤ ${MAX_BYTES} bytes, valid UTF-8) of the pinned corpora
(${CORPORA.map((c) => c.name).join(', ')}) and of the parity-only packages
(${PARITY_CORPORA.map((c) => `${c.pkg}@${c.version}`).join(', ')}):
skeletonOf (bail = null), babel's verdict on the skeleton (fallback = syntax error), and parity
isDeepStrictEqual(parseSource, parseWhole); diffs go to bench/.work/skeleton/<corpus>-diffs.json.
Timing: parseWhole, parseSource and skeletonOf over a corpus, each in a fresh child process (files read and
modules loaded before the timer); median of --runs. Rewrites bench/RESULTS.md between ${START} and ${END}.
Exits 0 even with differing files (they are reported); non-zero only when the script fails.`;

const SPEC = {
  corpora: { type: 'string', default: 'all', help: `comma list (${ALL.map((c) => c.name).join(',')}) or all` },
  runs: { type: 'number', default: 3, help: 'timed child processes per corpus and mode (median)' },
  timing: { type: 'boolean', default: true, help: 'time the parses (--no-timing: parity only)' },
  show: { type: 'number', default: 10, help: 'differing files printed per corpus' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};

async function engine() {
  const dir = path.join(ROOT, 'dist', 'engine', 'src', 'parse');
  if (!fs.existsSync(path.join(dir, 'skeleton.js'))) throw new Error(`${dir}/skeleton.js is missing: run \`npm run build\` first`);
  const load = (f) => import(pathToFileURL(path.join(dir, f)).href);
  const [{ parseSource, parseWhole }, { skeletonOf }, { dialectOf }, { factsFromSkeleton }] = await Promise.all(
    ['parse-source.js', 'skeleton.js', 'babel-options.js', 'skeleton-facts.js'].map(load),
  );
  return { parseSource, parseWhole, skeletonOf, dialectOf, factsFromSkeleton };
}

/** The files of a corpus as the engine reads them (UTF-8, BOM dropped), sorted by path. */
function loadFiles(dir) {
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const files = [];
  let skipped = 0;
  for (const rel of listFiles(dir)) {
    if (!SOURCE_RE.test(rel) || rel.endsWith('.min.js')) continue;
    const bytes = fs.readFileSync(path.join(dir, rel));
    if (bytes.length > MAX_BYTES || bytes.subarray(0, 8192).includes(0)) { skipped++; continue; }
    try {
      files.push({ rel, src: utf8.decode(bytes), bytes: bytes.length });
    } catch {
      skipped++;
    }
  }
  return { files, skipped };
}

/** Hidden child mode: `--child <mode> <dir>` prints {"ms": …} for one pass of `mode` over the files of `dir`. */
async function child(mode, dir) {
  const { files } = loadFiles(dir);
  const e = await engine();
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (const f of files) {
    if (mode === 'whole') sink += e.parseWhole(f.rel, f.src).imports.length;
    else if (mode === 'source') sink += e.parseSource(f.rel, f.src).imports.length;
    else sink += e.skeletonOf(f.src, e.dialectOf(f.rel))?.length ?? 0;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(JSON.stringify({ ms, files: files.length, sink }) + '\n');
}

function timeChild(mode, dir) {
  const r = spawnSync(process.execPath, [process.argv[1], '--child', mode, dir], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`child ${mode} ${dir} exited ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()).ms;
}

/** The elements of one result field that the other lacks (arrays), or both values. */
function fieldDiff(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) {
    const ka = a.map((x) => JSON.stringify(x));
    const kb = b.map((x) => JSON.stringify(x));
    const onlyA = a.filter((_, i) => !kb.includes(ka[i]));
    const onlyB = b.filter((_, i) => !ka.includes(kb[i]));
    return onlyA.length || onlyB.length ? { onlySource: onlyA, onlyWhole: onlyB } : { sameElementsOtherOrder: true };
  }
  return { source: a, whole: b };
}

function parity(c, dir, e, show) {
  const { files, skipped } = loadFiles(dir);
  const r = { name: c.name, pkg: `${c.pkg}@${c.version}`, kind: c.kind, files: files.length, skipped, bytes: 0, skeletonBytes: 0, unchanged: 0, tokenRead: 0, bails: [], fallbacks: [], diffs: [] };
  for (const { rel, src, bytes } of files) {
    r.bytes += bytes;
    const skeleton = e.skeletonOf(src, e.dialectOf(rel));
    const whole = e.parseWhole(rel, src);
    r.skeletonBytes += skeleton === null ? bytes : Buffer.byteLength(skeleton);
    if (skeleton !== null && e.factsFromSkeleton(skeleton, e.dialectOf(rel)) !== null) r.tokenRead++;
    if (skeleton === null) r.bails.push({ path: rel, cause: e.dialectOf(rel) === 'tsx' ? 'tsx' : whole.syntaxError ? `source error: ${whole.syntaxError.message}` : 'lexer' });
    else if (skeleton === src) r.unchanged++;
    else {
      const err = e.parseWhole(rel, skeleton).syntaxError;
      if (err) {
        const line = skeleton.split(/\r\n?|\n|\u2028|\u2029/)[err.line - 1] ?? '';
        r.fallbacks.push({ path: rel, message: err.message, line: err.line, skeletonLine: line.slice(0, 240), sourceError: whole.syntaxError });
      }
    }
    {
      const via = 'parseSource';
      const fast = e.parseSource(rel, src);
      if (isDeepStrictEqual(fast, whole)) continue;
      const fields = Object.keys(whole).filter((k) => !isDeepStrictEqual(fast[k], whole[k]));
      r.diffs.push({ path: rel, via, fields: Object.fromEntries(fields.map((k) => [k, fieldDiff(fast[k], whole[k])])), [via]: fast, parseWhole: whole });
    }
  }
  writeJson(path.join(OUT_DIR, `${c.name}-diffs.json`), r.diffs);
  for (const d of r.diffs.slice(0, show)) {
    process.stdout.write(`DIFF ${c.name}/${d.path} (${d.via})\n`);
    for (const [k, v] of Object.entries(d.fields)) process.stdout.write(`  ${k}: ${JSON.stringify(v).slice(0, 1500)}\n`);
  }
  log(`skeleton: ${c.name}: ${r.files} files, ${r.bails.length} bails, ${r.fallbacks.length} fallbacks, ${r.diffs.length} differing`);
  return r;
}

const mb = (b) => (b / 1e6).toFixed(2);
const ms = (x) => (Number.isFinite(x) ? x.toFixed(0) : '—');
const ratio = (t) => (t && Number.isFinite(t.whole) && t.source > 0 ? `${(t.whole / t.source).toFixed(2)}×` : '—');

function tableRows(r) {
  const head = ['corpus', 'package', 'files', 'MB', 'skeleton MB', 'read from tokens', 'bails', 'fallbacks', 'differing', 'whole ms', 'skeleton ms', 'skeletonOf ms', 'whole / skeleton'];
  const rows = r.corpora.map((c) => [c.name, c.pkg, c.files, mb(c.bytes), mb(c.skeletonBytes), c.tokenRead ?? 0, c.bails.length, c.fallbacks.length, c.diffs.length, ms(c.time?.whole), ms(c.time?.source), ms(c.time?.skeleton), ratio(c.time)]);
  const sum = (k) => r.corpora.reduce((s, c) => s + (typeof k === 'function' ? k(c) : c[k]), 0);
  const t = Object.fromEntries(MODES.map((m) => [m, sum((c) => c.time?.[m] ?? NaN)]));
  rows.push(['total', '', sum('files'), mb(sum('bytes')), mb(sum('skeletonBytes')), sum((c) => c.tokenRead ?? 0), sum((c) => c.bails.length), sum((c) => c.fallbacks.length), sum((c) => c.diffs.length), ms(t.whole), ms(t.source), ms(t.skeleton), ratio(t)]);
  return [head, ...rows];
}

export function renderSkeletonSection(r) {
  const L = [START, '', '### Parse: skeleton parity and speed (bench/skeleton.mjs)', ''];
  if (!r) return [...L, 'No results yet: `npm run build && node bench/skeleton.mjs`.', '', END].join('\n');
  const m = r.machine;
  const [head, ...rows] = tableRows(r);
  L.push(
    `- Command: \`${r.command}\` (from the repository root, after \`npm run build\`)`,
    `- Date: ${r.date}; machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}; Node ${m.node}; load average at start ${m.loadavg}`,
    `- Files: ${EXTS} (\`.d.ts\` included) minus \`**/*.min.js\`, node_modules, files > ${MAX_BYTES} bytes and non-UTF-8 ones. "skeleton MB": the text left by skeletonOf (a bailed file counts whole). "read from tokens": files whose skeleton skeleton-facts.ts read without babel (the others go to babel: the skeleton, or the whole file). Bail: skeletonOf returned null. Fallback: babel found a syntax error in the skeleton, so parseSource parsed the file whole. Differing: \`isDeepStrictEqual(parseSource(p, src), parseWhole(p, src))\` is false (must be 0; a difference is a missed fact).`,
    `- Times: one pass of parseWhole ("whole"), parseSource ("skeleton": what a build runs), skeletonOf alone over all files, each in a fresh \`node\` process (cold babel; files read and modules loaded before the timer), ${r.timing ? `median of ${r.runs} runs` : 'not measured in this run (--no-timing)'}.`,
    '',
    `| ${head.join(' | ')} |`,
    `| --- | --- | ${head.slice(2).map(() => '---:').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  );
  const notes = r.corpora.flatMap((c) => [...c.bails.map((b) => `${c.name}/${b.path}: bail (${b.cause})`), ...c.fallbacks.map((f) => `${c.name}/${f.path}: fallback, line ${f.line}: ${f.message}`)]);
  if (notes.length) L.push(`Bails and fallbacks (${notes.length}${notes.length > 40 ? ', first 40' : ''}; all in bench/.work/results/skeleton.json):`, '', ...notes.slice(0, 40).map((n) => `- \`${n.replace(/`/g, "'")}\``), '');
  L.push(END);
  return L.join('\n');
}

export function updateSkeletonResultsMd() {
  writeResultsSection(START, END, renderSkeletonSection(loadResult('skeleton')), 'skeleton');
}

async function main() {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (!(opts.runs >= 1)) throw new UsageError('--runs must be ≥ 1');
  const names = opts.corpora === 'all' ? ALL.map((c) => c.name) : opts.corpora.split(',').map((s) => s.trim()).filter(Boolean);
  const list = names.map((n) => ALL.find((c) => c.name === n) ?? (() => { throw new UsageError(`unknown corpus ${n}`); })());
  const e = await engine();
  const out = { bench: 'skeleton', date: new Date().toISOString(), machine: machineInfo(), command: `node bench/skeleton.mjs ${process.argv.slice(2).join(' ')}`.trim(), runs: opts.runs, timing: opts.timing, corpora: [] };
  const dirs = new Map(list.map((c) => [c.name, ensureCorpus(c)]));
  for (const c of list) out.corpora.push(parity(c, dirs.get(c.name), e, opts.show));
  if (opts.timing) {
    for (const c of out.corpora) {
      const samples = Object.fromEntries(MODES.map((m) => [m, []]));
      for (let run = 0; run < opts.runs; run++) {
        // modes in rotating order, so a slow spell of the shared machine does not always hit the same one
        for (let k = 0; k < MODES.length; k++) {
          const mode = MODES[(run + k) % MODES.length];
          samples[mode].push(timeChild(mode, dirs.get(c.name)));
        }
      }
      c.samples = samples;
      c.time = Object.fromEntries(MODES.map((m) => [m, median(samples[m])]));
      log(`skeleton: ${c.name}: whole ${ms(c.time.whole)} ms, skeleton ${ms(c.time.source)} ms, skeletonOf ${ms(c.time.skeleton)} ms (${ratio(c.time)})`);
    }
  }
  out.loadavgEnd = machineInfo().loadavg;
  saveResult('skeleton', out);
  const rows = tableRows(out);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  for (const row of rows) process.stdout.write(row.map((x, i) => String(x).padStart(widths[i])).join('  ') + '\n');
  if (!opts['no-results-md']) updateSkeletonResultsMd();
  return 0;
}

if (process.argv[1]?.endsWith('/skeleton.mjs')) {
  if (process.argv[2] === '--child') runMain(() => child(process.argv[3], process.argv[4]));
  else runMain(main);
}
