#!/usr/bin/env node
// graph.db writers: the full build's own layout (engine/src/store/sqlite-file.ts) against sql.js (the reference),
// on the same rows, each in fresh child processes so that the first call pays its JIT warm-up as a build does.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { OUR_ENGINE, ROOT, WORK_DIR, freshCopy, log, machineInfo, parseArgs, runMain, UsageError } from './lib/common.mjs';
import { CORPORA, ensureCorpus, getCorpus } from './corpora.mjs';
import { median, min, max } from './lib/stats.mjs';
import { loadResult, saveResult, writeResultsSection } from './lib/write-results.mjs';

const START = '<!-- graphdb:start -->';
const END = '<!-- graphdb:end -->';
const WRITERS = ['ours', 'sqljs'];
const WRITER_NAMES = { ours: 'our layout (sqlite-file.ts, what a build runs)', sqljs: 'sql.js (reference)' };

const USAGE = `
Usage: node bench/graphdb.mjs [options]

graph.db writers. Builds the corpus's intel once (bench/.work/graphdb/<corpus>), takes graph.db's rows from its
index.json, then per round spawns one child per writer (order alternating) that encodes the same rows: "ours" =
encodeGraphFile (the SQLite file laid out directly, what a full build uses), "sqljs" = encodeGraphDbWithSqlJs (the
reference; includes loading and compiling sql.js's wasm, as a build that used it paid). Each child times its first
call (cold, as in a build) and then --warm more calls (median). The parent checks that SQLite reads both files the
same (integrity_check, same rows in every table). Needs \`npm run build\`.`;

const SPEC = {
  corpus: { type: 'string', default: 'zod', help: `corpus (${CORPORA.map((c) => c.name).join(',')})` },
  runs: { type: 'number', default: 7, help: 'rounds (one child per writer each)' },
  warm: { type: 'number', default: 5, help: 'warm calls per child after the first' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};

const dist = (rel) => import(pathToFileURL(path.join(ROOT, 'dist', 'engine', 'src', rel)).href);

async function rowsOfIntel(dir) {
  const [{ readIndexDocument }, { rowsOf }] = await Promise.all([dist('graph/index-document.js'), dist('graph/records.js')]);
  const read = readIndexDocument(path.join(dir, '.planning', 'intel', 'index.json'));
  if (!read.ok) throw new Error(`${dir}: index.json does not read`);
  // plain objects, as a build hands them over (rowsOf's records are parsed lazily)
  const rows = JSON.parse(JSON.stringify(rowsOf(read.records.values())));
  return { rows, meta: { storeFormatVersion: 1, toolVersion: 'bench', builtAt: read.header.builtAt } };
}

/** Hidden child mode: `--child <writer> <dir> <warm>` prints {"cold": ms, "warm": [ms…], "bytes": n}. */
async function child(writer, dir, warm) {
  const { rows, meta } = await rowsOfIntel(dir);
  const t0 = performance.now();
  const encode = writer === 'ours' ? (await dist('store/sqlite-file.js')).encodeGraphFile : (await dist('store/sqlite.js')).encodeGraphDbWithSqlJs;
  let bytes = await encode(rows, meta);
  const cold = performance.now() - t0;
  const times = [];
  for (let i = 0; i < Number(warm); i++) {
    const t = performance.now();
    bytes = await encode(rows, meta);
    times.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify({ cold, warm: times, bytes: bytes.length }) + '\n');
}

function timeChild(writer, dir, warm) {
  const r = spawnSync(process.execPath, [process.argv[1], '--child', writer, dir, String(warm)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`child ${writer} exited ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** The writers' files for the same rows, read back with sql.js: same rows everywhere, integrity_check ok. */
async function sameDatabase(rows, meta) {
  const [{ encodeGraphFile }, { encodeGraphDbWithSqlJs, loadSqlJs }] = await Promise.all([dist('store/sqlite-file.js'), dist('store/sqlite.js')]);
  const SQL = await loadSqlJs();
  const ours = encodeGraphFile(rows, meta);
  const a = new SQL.Database(ours);
  const b = new SQL.Database(await encodeGraphDbWithSqlJs(rows, meta));
  const q = (db, sql) => JSON.stringify(db.exec(sql)[0]?.values ?? []);
  const checks = ['PRAGMA integrity_check', 'SELECT type, name, tbl_name, sql FROM sqlite_master', 'SELECT rowid, * FROM nodes', 'SELECT * FROM edges', 'SELECT rowid, * FROM symbols', 'SELECT rowid, * FROM externals', 'SELECT rowid, * FROM unresolved', 'SELECT rowid, * FROM meta'];
  const differing = checks.filter((sql) => q(a, sql) !== q(b, sql));
  const integrity = q(a, 'PRAGMA integrity_check');
  a.close();
  b.close();
  return { differing, integrityOk: integrity === '[["ok"]]' };
}

function renderSection(r) {
  if (!r) return `${START}\n${END}`;
  const m = r.machine;
  const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');
  const L = [START, '', '### graph.db writer (bench/graphdb.mjs)', ''];
  L.push(`Generated by \`node bench/graphdb.mjs\`; edit outside the graphdb markers.`, '');
  L.push(`- Date: ${r.date}; machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}; Node ${m.node}; load average at start ${m.loadavg}, at the end ${r.loadavgEnd}`);
  L.push(`- Command: \`${r.command}\` (from the repository root, after \`npm run build\`)`);
  L.push(`- Rows: ${r.corpus} (${Object.entries(r.rowCounts).map(([k, v]) => `${v} ${k}`).join(', ')}), taken from the index.json of a build; every writer gets the same plain objects.`);
  L.push(
    `- Method: ${r.runs} rounds; per round one child process per writer, the order alternating. A child times its first call (cold: the JIT warms up during it, as in a one-shot build; for sql.js this includes importing sql.js and compiling its wasm, which a build that used it paid too) and then ${r.warm} more calls (warm, median).`,
  );
  L.push(`- Same database: ${r.check.integrityOk ? 'PRAGMA integrity_check ok on ours' : '**integrity_check FAILED**'}; schema and every table's rows ${r.check.differing.length === 0 ? 'identical' : `**differ: ${r.check.differing.join('; ')}**`} (read back with sql.js).`, '');
  L.push('| writer | cold ms median (min–max) | warm ms median | file bytes |', '| --- | ---: | ---: | ---: |');
  for (const w of WRITERS) {
    const s = r.samples[w];
    L.push(`| ${WRITER_NAMES[w]} | ${ms(median(s.cold))} (${ms(min(s.cold))}–${ms(max(s.cold))}) | ${ms(median(s.warm))} | ${s.bytes} |`);
  }
  const ratio = (a, b, k) => (median(r.samples[a][k]) / median(r.samples[b][k])).toFixed(2);
  L.push('', `Cold ratio our layout / sql.js: **${ratio('ours', 'sqljs', 'cold')}**; warm: ${ratio('ours', 'sqljs', 'warm')}.`, '', END);
  return L.join('\n');
}

export function updateGraphDbResultsMd() {
  writeResultsSection(START, END, renderSection(loadResult('graphdb')), 'graphdb');
}

async function main() {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (!(opts.runs >= 1)) throw new UsageError('--runs must be ≥ 1');
  if (!fs.existsSync(OUR_ENGINE)) throw new Error(`${OUR_ENGINE} is missing: run \`npm run build\` first`);
  const corpus = getCorpus(opts.corpus);
  const dir = path.join(WORK_DIR, 'graphdb', corpus.name);
  freshCopy(ensureCorpus(corpus), dir);
  const { buildIntel } = await import(pathToFileURL(OUR_ENGINE).href);
  log(`graphdb: building ${corpus.name} once`);
  await buildIntel(dir);
  const { rows, meta } = await rowsOfIntel(dir);
  const check = await sameDatabase(rows, meta);
  const samples = Object.fromEntries(WRITERS.map((w) => [w, { cold: [], warm: [], bytes: 0 }]));
  for (let run = 0; run < opts.runs; run++) {
    for (let k = 0; k < WRITERS.length; k++) {
      const w = WRITERS[(run + k) % WRITERS.length];
      const r = timeChild(w, dir, opts.warm);
      samples[w].cold.push(r.cold);
      samples[w].warm.push(...r.warm);
      samples[w].bytes = r.bytes;
    }
    log(`graphdb: round ${run + 1}/${opts.runs}: ours ${samples.ours.cold.at(-1).toFixed(1)} ms, sql.js ${samples.sqljs.cold.at(-1).toFixed(1)} ms (cold)`);
  }
  const out = {
    bench: 'graphdb',
    date: new Date().toISOString(),
    machine: machineInfo(),
    command: `node bench/graphdb.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    corpus: `${corpus.name}@${corpus.version}`,
    rowCounts: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.length])),
    runs: opts.runs,
    warm: opts.warm,
    check,
    samples,
    loadavgEnd: machineInfo().loadavg,
  };
  saveResult('graphdb', out);
  log(`graphdb: cold median ours ${median(samples.ours.cold).toFixed(1)} ms, sql.js ${median(samples.sqljs.cold).toFixed(1)} ms; same database: ${check.integrityOk && check.differing.length === 0}`);
  if (!opts['no-results-md']) updateGraphDbResultsMd();
  return check.integrityOk && check.differing.length === 0 ? 0 : 1;
}

if (process.argv[1]?.endsWith('/graphdb.mjs')) {
  if (process.argv[2] === '--child') runMain(() => child(process.argv[3], process.argv[4], process.argv[5]));
  else runMain(main);
}
