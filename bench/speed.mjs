#!/usr/bin/env node
// Speed and memory of a full (cold) build: ours vs dependency-cruiser vs @colbymchenry/codegraph.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OUR_CLI_REL, ROOT, WORK_DIR, freshCopy, log, machineInfo, mkdirp, ourCliBuilt, parseArgs, runMain, setAside, UsageError } from './lib/common.mjs';
import { CORPORA, ensureCorpus, selectCorpora, corpusStamp } from './corpora.mjs';
import { codegraphBin, codegraphEnv, ensureTools, TOOLS } from './tools.mjs';
import { defaultMethod, measure, tailLog } from './lib/measure.mjs';
import { depcruiseCommand, depcruiseRecommendedCommand } from './lib/depcruise-edges.mjs';
import { edgesFromGraphDb, graphDbPath, ourBuildCommand } from './lib/our-edges.mjs';
import { median, max, min } from './lib/stats.mjs';
import { saveResult, updateResultsMd } from './lib/write-results.mjs';

export const BARS = { wallVsDepcruise: 4, cpuVsCodegraph: 0.5, rssMB: 300, minFiles: 700 };
export const BAR_CORPUS = 'zod';
const ALL_TOOLS = ['ours-cold', 'ours-warm', 'depcruise', 'depcruise-recommended', 'codegraph'];
/** Mirrors our engine's built-in `**\/*.min.js` exclusion (depcruise gets the same via DEPCRUISE_EXCLUDE). */
const CODEGRAPH_EXCLUDE = ['*.min.js'];

const USAGE = `
Usage: node bench/speed.mjs [options]

Full-build speed and memory. Each tool gets its own copy of the corpus under bench/.work/speed/<corpus>/.
One round = ours cold (.planning/intel renamed away first) → ours warm (cache kept) → dependency-cruiser (plain
variant, JSON to a file) → dependency-cruiser with the config its \`--init oneshot\` writes (informational: it also
validates its recommended rules) → codegraph cold (.codegraph renamed away first, then \`codegraph init -y <dir>\` with a
private HOME, telemetry/daemon/downloads off). The first --warmup rounds are discarded; medians of --runs rounds.
Without a built engine only dependency-cruiser and codegraph are measured. Bars are judged on ${BAR_CORPUS}.`;

const SPEC = {
  corpora: { type: 'string', default: 'all', help: `comma list (${CORPORA.map((c) => c.name).join(',')}) or all` },
  runs: { type: 'number', default: 5, help: 'measured rounds per corpus' },
  warmup: { type: 'number', default: 1, help: 'discarded warm-up rounds' },
  tools: { type: 'string', default: ALL_TOOLS.join(','), help: 'which commands to run' },
  method: { type: 'string', default: '', help: 'gnu-time | procfs (default: gnu-time when /usr/bin/time works)' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};

const toMs = (v, unit) => Number(v) * (unit === 's' ? 1000 : 1);
/** Phase timings our CLI prints ("scan 60 ms · parse 2.92 s · resolve 34 ms · write 936 ms"), in ms, or null. */
function parsePhases(text) {
  const out = {};
  for (const m of text.matchAll(/\b(scan|parse|resolve|write) ([\d.]+) (ms|s)\b/g)) out[m[1]] = toMs(m[2], m[3]);
  return Object.keys(out).length ? out : null;
}

function summarize(samples) {
  const ok = samples.filter((s) => s.exitCode === 0);
  const pick = (k) => ok.map((s) => s[k]);
  return {
    ok: ok.length,
    wall: { median: median(pick('wallMs')), min: min(pick('wallMs')), max: max(pick('wallMs')) },
    cpu: { median: median(pick('cpuMs')), min: min(pick('cpuMs')), max: max(pick('cpuMs')), userMedian: median(pick('userMs')), sysMedian: median(pick('sysMs')) },
    rss: { median: median(pick('maxRssMB')), max: max(pick('maxRssMB')) },
    phases: ok.some((s) => s.phases)
      ? Object.fromEntries(['scan', 'parse', 'resolve', 'write'].map((k) => [k, median(ok.map((s) => s.phases?.[k]).filter((x) => x !== undefined))]))
      : null,
    samples: samples.map(({ wallMs, userMs, sysMs, cpuMs, maxRssMB, exitCode, phases }) => ({ wallMs, userMs, sysMs, cpuMs, maxRssMB, exitCode, phases })),
  };
}

/** Writes dirty pages back (`sync`), where there is a sync command. */
function flushDirtyPages() {
  if (process.platform !== 'win32') spawnSync('sync', [], { stdio: 'ignore' });
}

export async function runSpeed(opts) {
  ensureTools();
  const method = opts.method || defaultMethod();
  if (!['gnu-time', 'procfs'].includes(method)) throw new UsageError(`--method must be gnu-time or procfs`);
  let tools = String(opts.tools).split(',').map((s) => s.trim()).filter(Boolean);
  for (const t of tools) if (!ALL_TOOLS.includes(t)) throw new UsageError(`unknown tool ${t}`);
  const built = ourCliBuilt();
  if (!built) {
    log(`speed: our CLI is not built (${OUR_CLI_REL} missing, run npm run build): measuring dependency-cruiser and codegraph only`);
    tools = tools.filter((t) => !t.startsWith('ours'));
  }
  const cgBin = codegraphBin();
  const cgHome = mkdirp(path.join(WORK_DIR, 'speed', 'codegraph-home'));
  const out = {
    bench: 'speed',
    date: new Date().toISOString(),
    machine: machineInfo(),
    command: `node bench/speed.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    tools: TOOLS,
    method,
    runs: opts.runs,
    warmup: opts.warmup,
    order: tools,
    ours: built ? 'built' : 'not built',
    barCorpus: BAR_CORPUS,
    commands: {},
    corpora: [],
    bars: [],
  };
  for (const c of selectCorpora(opts.corpora)) {
    const src = ensureCorpus(c);
    const base = mkdirp(path.join(WORK_DIR, 'speed', c.name));
    const dirs = { ours: path.join(base, 'ours'), depcruise: path.join(base, 'depcruise'), 'depcruise-recommended': path.join(base, 'depcruise-recommended'), codegraph: path.join(base, 'codegraph') };
    for (const d of Object.values(dirs)) freshCopy(src, d);
    // same files for every tool: codegraph skips minified bundles only when told (gitignore-style `exclude`)
    fs.writeFileSync(path.join(dirs.codegraph, 'codegraph.json'), JSON.stringify({ exclude: CODEGRAPH_EXCLUDE }, null, 2) + '\n');
    // A cold run starts without the previous run's output: it is set aside (renamed), not deleted, right before the
    // run, and deleted when the bench ends (lib/common.mjs, setAside: deleting thousands of files slows the file
    // writes of whatever runs in the next minutes on this disk, which is the benchmark's cost, not the tool's)
    const cmds = {
      'ours-cold': { ...ourBuildCommand(dirs.ours), before: () => setAside(path.join(dirs.ours, '.planning', 'intel')) },
      'ours-warm': { ...ourBuildCommand(dirs.ours), before: () => {} },
      depcruise: { ...depcruiseCommand(dirs.depcruise, 'plain', path.join(base, 'depcruise-out.json')), before: () => {} },
      'depcruise-recommended': tools.includes('depcruise-recommended')
        ? { ...depcruiseRecommendedCommand(dirs['depcruise-recommended'], path.join(base, 'depcruise-recommended-out.json')), before: () => {} }
        : null,
      codegraph: {
        cmd: cgBin,
        args: ['init', '-y', dirs.codegraph],
        cwd: base,
        env: codegraphEnv(cgHome),
        display: `codegraph init -y ${path.relative(ROOT, dirs.codegraph)}  (codegraph.json {"exclude":${JSON.stringify(CODEGRAPH_EXCLUDE)}} in the copy; launcher ${path.relative(ROOT, cgBin)}; env CODEGRAPH_TELEMETRY=0 DO_NOT_TRACK=1 CODEGRAPH_NO_DAEMON=1 CODEGRAPH_NO_DOWNLOAD=1 HOME=${path.relative(ROOT, cgHome)})`,
        before: () => setAside(path.join(dirs.codegraph, '.codegraph')),
      },
    };
    for (const t of tools) out.commands[t] = cmds[t].display.split(c.name).join('<corpus>');
    const samples = Object.fromEntries(tools.map((t) => [t, []]));
    const errors = {};
    const total = opts.warmup + opts.runs;
    let cgFiles = null;
    for (let round = 0; round < total; round++) {
      const warm = round < opts.warmup;
      for (const t of tools) {
        if (errors[t]) continue;
        const k = cmds[t];
        k.before();
        // no run pays for the previous one's writes: the kernel would flush them meanwhile (codegraph leaves ~55 MB
        // of dirty pages per zod run; measured: our cold build right after 60 MB written took ~6 % longer unsynced)
        flushDirtyPages();
        const r = await measure(k.cmd, k.args, { cwd: k.cwd, env: k.env, method, logFile: path.join(base, `${t}.log`), timeoutMs: 10 * 60 * 1000 });
        log(`speed: ${c.name} ${warm ? 'warm-up' : `run ${round - opts.warmup + 1}/${opts.runs}`} ${t}: wall ${r.wallMs.toFixed(0)} ms, cpu ${r.cpuMs.toFixed(0)} ms, rss ${r.maxRssMB.toFixed(0)} MB${r.exitCode ? ` EXIT ${r.exitCode}` : ''}`);
        if (r.exitCode !== 0) {
          errors[t] = `exit ${r.exitCode}: ${tailLog(r.logFile, 300).replace(/\s+/g, ' ').trim()}`;
          log(`speed: ${t} failed on ${c.name}; not running it again. Log: ${r.logFile}`);
        }
        if (t.startsWith('ours')) r.phases = parsePhases(tailLog(r.logFile, 4000));
        if (t === 'codegraph') {
          const m = tailLog(r.logFile, 4000).match(/Indexed ([\d,]+) files/);
          if (m) cgFiles = Number(m[1].replace(/,/g, ''));
        }
        if (!warm) samples[t].push(r);
      }
    }
    const entry = { name: c.name, pkg: `${c.pkg}@${c.version}`, sourceFiles: corpusStamp(c.name)?.sourceFiles, codegraphIndexedFiles: cgFiles, tools: [], ratios: {} };
    for (const t of tools) entry.tools.push({ tool: t, error: errors[t] ?? null, ...summarize(samples[t]) });
    if (built && fs.existsSync(graphDbPath(dirs.ours))) {
      try {
        entry.ourIndexedFiles = (await edgesFromGraphDb(graphDbPath(dirs.ours))).files.size;
      } catch {}
    }
    const get = (t) => entry.tools.find((x) => x.tool === t);
    const ratio = (a, b) => (a && b && a.ok && b.ok ? a : null);
    const oc = get('ours-cold');
    const ow = get('ours-warm');
    const dc = get('depcruise');
    const dr = get('depcruise-recommended');
    const cg = get('codegraph');
    entry.ratios = {
      depcruiseWallOverOurs: ratio(oc, dc) ? dc.wall.median / oc.wall.median : NaN,
      depcruiseRecommendedWallOverOurs: ratio(oc, dr) ? dr.wall.median / oc.wall.median : NaN,
      codegraphCpuOverOurs: ratio(oc, cg) ? cg.cpu.median / oc.cpu.median : NaN,
      warmOverCold: ratio(oc, ow) ? ow.wall.median / oc.wall.median : NaN,
      ourPeakRssMaxMB: oc?.ok ? oc.rss.max : NaN,
    };
    out.corpora.push(entry);
    if (c.name === BAR_CORPUS) {
      const r = entry.ratios;
      const has = (x) => Number.isFinite(x);
      out.bars.push(
        {
          id: 'B',
          name: `wall: dependency-cruiser / ours (cold), ${c.name}`,
          value: has(r.depcruiseWallOverOurs) ? `${r.depcruiseWallOverOurs.toFixed(2)}× (${dc.wall.median.toFixed(0)} / ${oc.wall.median.toFixed(0)} ms)` : 'n/a',
          target: `≥ ${BARS.wallVsDepcruise}×`,
          detail: has(r.depcruiseWallOverOurs) ? `median wall ${dc.wall.median.toFixed(0)} ms / ${oc.wall.median.toFixed(0)} ms = ${r.depcruiseWallOverOurs.toFixed(2)}× (need ≥ ${BARS.wallVsDepcruise}×)` : 'not measured',
          pass: has(r.depcruiseWallOverOurs) ? r.depcruiseWallOverOurs >= BARS.wallVsDepcruise : null,
        },
        {
          id: 'B',
          name: `CPU: ours (cold) / codegraph, ${c.name}`,
          value: has(r.codegraphCpuOverOurs) ? `${(1 / r.codegraphCpuOverOurs).toFixed(3)} (${oc.cpu.median.toFixed(0)} / ${cg.cpu.median.toFixed(0)} ms)` : 'n/a',
          target: `≤ ${BARS.cpuVsCodegraph}`,
          detail: has(r.codegraphCpuOverOurs) ? `median CPU ${oc.cpu.median.toFixed(0)} ms / ${cg.cpu.median.toFixed(0)} ms = ${(1 / r.codegraphCpuOverOurs).toFixed(3)} (need ≤ ${BARS.cpuVsCodegraph})` : 'not measured',
          pass: has(r.codegraphCpuOverOurs) ? 1 / r.codegraphCpuOverOurs <= BARS.cpuVsCodegraph : null,
        },
        {
          id: 'C',
          name: `peak RSS of our full build, ${c.name}`,
          value: has(r.ourPeakRssMaxMB) ? `${r.ourPeakRssMaxMB.toFixed(0)} MB (max of ${oc.ok} cold runs; median ${oc.rss.median.toFixed(0)})` : 'n/a',
          target: `≤ ${BARS.rssMB} MB`,
          detail: has(r.ourPeakRssMaxMB) ? `max peak RSS over the cold runs ${r.ourPeakRssMaxMB.toFixed(0)} MB (need ≤ ${BARS.rssMB} MB)` : 'not measured',
          pass: has(r.ourPeakRssMaxMB) ? r.ourPeakRssMaxMB <= BARS.rssMB : null,
        },
      );
    }
  }
  out.loadavgEnd = machineInfo().loadavg;
  saveResult('speed', out);
  return out;
}

if (process.argv[1]?.endsWith('/speed.mjs')) {
  runMain(async () => {
    const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
    if (!(opts.runs >= 1) || !(opts.warmup >= 0)) throw new UsageError('--runs must be ≥ 1 and --warmup ≥ 0');
    await runSpeed(opts);
    if (!opts['no-results-md']) updateResultsMd();
  });
}
