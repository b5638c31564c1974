#!/usr/bin/env node
// Large monorepos: a tree of N source files made of real npm packages as npm workspaces (generated here, never
// committed), and on it a cold build (time, peak RSS), an edit through the PostToolUse hook (engine time in the
// worker), SessionStart's catch-up after a checkout that changed 1,000 files, the MCP server's warm blast radius
// (time inside the server, RSS) and `intel status`; for 1k / 10k / 50k files, so growth can be read at a glance.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CORPORA, ensureCorpus } from './corpora.mjs';
import { PARITY_CORPORA } from './skeleton.mjs';
import { OUR_CLI, OUR_ENGINE, ROOT, WORK_DIR, isSourcePath, listFiles, log, machineInfo, mkdirp, parseArgs, runMain, setAside, UsageError } from './lib/common.mjs';
import { measure, tailLog } from './lib/measure.mjs';
import { median } from './lib/stats.mjs';
import { logMark, logSince, waitForIdle, waitForWorker } from './lib/worker-wait.mjs';
import { loadResult, saveResult, writeResultsSection } from './lib/write-results.mjs';

const HOOK_DIR = path.join(ROOT, 'dist', 'hooks', 'src');
const POST = path.join(HOOK_DIR, 'post-tool-use.cjs');
const SESSION = path.join(HOOK_DIR, 'session-start.cjs');
const SERVER = path.join(ROOT, 'dist', 'runtime', 'mcp-server.js');
/** the five packages the tree is made of, copied round robin (five real npm packages) */
const PACKAGES = [...CORPORA, PARITY_CORPORA.find((c) => c.name === 'rxjs')];
/**
 * --recipe heavy: whole copies of five packages of heavy real code (about 300 lines a file), each its source as
 * published: --copies 20 makes ~51,760 indexed files, ~17 million lines.
 */
const HEAVY = [
  { name: 'rxjs', pkg: 'rxjs', version: '7.8.2' },
  { name: 'three', pkg: 'three', version: '0.187.0' },
  { name: 'webpack', pkg: 'webpack', version: '5.112.2' },
  { name: 'effect', pkg: 'effect', version: '3.22.4' },
  { name: 'svelte', pkg: 'svelte', version: '5.57.3' },
];
const RECIPES = { files: { packages: PACKAGES, start: '<!-- monorepo:start -->', end: '<!-- monorepo:end -->', result: 'monorepo' }, heavy: { packages: HEAVY, start: '<!-- monorepo-heavy:start -->', end: '<!-- monorepo-heavy:end -->', result: 'monorepo-heavy' } };
const BARS = { rssMB: 1024, timeRatio: 6, editMs: 300, catchUpMs: 5000, blastMs: 20, serverRssMB: 400, statusMs: 1000 };

const USAGE = `
Usage: node bench/monorepo.mjs [options]      (after npm run build)

Generates bench/.work/monorepo/<N>/ for each --sizes N: a root package.json with "workspaces": ["packages/*"] and
copies of ${PACKAGES.map((c) => `${c.pkg}@${c.version}`).join(', ')} (fetched like the corpora) as packages/<name>-<k>,
round robin, the last copy cut so that the tree holds exactly N files the engine indexes (JS/TS family outside
build output and the other built-in exclusions). On each tree:
  build      \`intel build\` cold (.planning/intel set aside first), --build-runs rounds over the trees before anything
             else: median wall and CPU time, highest peak RSS (GNU time)
  edit       Edits through the PostToolUse hook (real JSON on stdin): one to a cold worker, then SessionStart and
             --edits more to the worker it started, which waits between them; the engine time and drain CPU the
             worker logs (first after SessionStart; median of the following) and the waiting worker's RSS
  catch-up   1,000 files (a tenth of the tree below 10,000) modified, then SessionStart: until its worker is done
  mcp        the MCP server (dist/runtime/mcp-server.js) over stdio: warm blast_radius on the top hotspot, time
             inside the server (GSD_MCP_TIMING=1), median of 20; the server's RSS (VmRSS) after them
  status     \`intel status\` wall and CPU time, with a stale and with a current index-facts.bin
  size       .planning/intel/ by part
Bars at the largest size: build RSS ≤ ${BARS.rssMB} MB and time ≤ ${BARS.timeRatio}× the 10k tree's; edit ≤ ${BARS.editMs} ms;
catch-up ≤ ${BARS.catchUpMs} ms; blast radius ≤ ${BARS.blastMs} ms with server RSS ≤ ${BARS.serverRssMB} MB; status ≤ ${BARS.statusMs} ms.
--recipe heavy: trees of --copies whole copies of ${HEAVY.map((c) => `${c.pkg}@${c.version}`).join(', ')}
(bench/.work/monorepo/heavy-<copies>), judged on the same bars, the time ratio against the smallest tree.
Writes bench/RESULTS.md between its recipe's markers (<!-- monorepo:start --> or <!-- monorepo-heavy:start -->).`;

const SPEC = {
  sizes: { type: 'string', default: '1000,10000,50000', help: 'tree sizes (source files), comma list' },
  recipe: { type: 'string', default: 'files', help: 'files: trees cut to --sizes files; heavy: --copies whole copies of rxjs, three, webpack, effect, svelte' },
  copies: { type: 'string', default: '4,20', help: 'with --recipe heavy: copies of each package per tree, comma list' },
  edits: { type: 'number', default: 5, help: 'PostToolUse edits per tree (median)' },
  'build-runs': { type: 'number', default: 3, help: 'cold builds per tree, rounds interleaved across the trees (medians)' },
  keep: { type: 'boolean', default: false, help: 'reuse an existing generated tree of the same size' },
  'build-only': { type: 'boolean', default: false, help: 'only the cold build (and the folder size)' },
  'edit-only': { type: 'boolean', default: false, help: 'with --keep: only the edits through the hook, on the intel the tree has (results not saved)' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};

/** What the engine indexes of a package copy: JS/TS-family files outside its built-in exclusions (engine/src/config.ts). */
const EXCLUDED_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'coverage', '.next', '.nuxt', '.svelte-kit', '.turbo', '.cache', '.output', '.vercel', '.yarn']);
const indexable = (rel) => isSourcePath(rel) && !rel.endsWith('.min.js') && !rel.split('/').slice(0, -1).some((d) => EXCLUDED_DIRS.has(d));


/** Generates the tree of `n` source files; returns its root. */
export function generateMonorepo(n, { keep = false, packages = PACKAGES, copies = 0 } = {}) {
  const root = path.join(WORK_DIR, 'monorepo', copies ? `heavy-${copies}` : String(n));
  const stamp = path.join(root, '.bench-monorepo.json');
  if (keep && fs.existsSync(stamp)) return root;
  setAside(root);
  mkdirp(path.join(root, 'packages'));
  const sources = packages.map((c) => {
    const dir = ensureCorpus(c);
    const files = listFiles(dir).sort();
    const lines = files.filter(indexable).reduce((t, rel) => t + fs.readFileSync(path.join(dir, rel), 'utf8').split('\n').length, 0);
    return { c, dir, files, count: files.filter(indexable).length, lines };
  });
  if (copies) n = copies * sources.reduce((t, s) => t + s.count, 0);
  let total = 0;
  let lines = 0;
  const workspaces = [];
  for (let k = 1; total < n; k++) {
    for (const s of sources) {
      if (total >= n) break;
      const name = `${s.c.name}-${k}`;
      const dest = path.join(root, 'packages', name);
      if (total + s.count <= n) {
        fs.cpSync(s.dir, dest, { recursive: true });
        total += s.count;
        lines += s.lines;
      } else {
        // the last copy, cut: its first source files in path order, with every other file
        let left = n - total;
        for (const rel of s.files) {
          if (indexable(rel)) {
            if (left === 0) continue;
            left--;
          }
          mkdirp(path.dirname(path.join(dest, rel)));
          fs.copyFileSync(path.join(s.dir, rel), path.join(dest, rel));
        }
        total = n;
      }
      const pj = path.join(dest, 'package.json');
      const pkg = JSON.parse(fs.readFileSync(pj, 'utf8'));
      pkg.name = `@mono/${name}`;
      fs.writeFileSync(pj, JSON.stringify(pkg, null, 2) + '\n');
      workspaces.push(name);
    }
  }
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'bench-monorepo', private: true, workspaces: ['packages/*'] }, null, 2) + '\n');
  mkdirp(path.join(root, '.planning'));
  fs.writeFileSync(stamp, JSON.stringify({ files: n, workspaces: workspaces.length, ...(copies ? { lines } : {}) }) + '\n');
  log(`monorepo: ${root}: ${n} source files in ${workspaces.length} workspaces`);
  return root;
}


/** How long the worker of the hook-edit measurement waits for the next edit (the default is 120 s). */
const LINGER_MS = 60_000;
/**
 * Pause before each edit through the hook: Claude Code's edits come seconds apart (a model turn between them). Sent
 * back to back, an edit also pays for the background work the previous one left (V8's concurrent GC and compiler
 * threads count in the process's CPU time): ~2× the first edit's CPU in a probe at 50k files.
 */
const EDIT_PAUSE_MS = 2_000;

function hook(script, payload, env = {}) {
  // GSD_HOOK_DEBUG=1: the worker the hook starts logs each drain's engine time to hook.log. Workers exit once the
  // journal is empty (GSD_WORKER_IDLE_MS=0) unless the caller asks for an idle window (the hook-edit measurement).
  const r = spawnSync(process.execPath, [script], { input: JSON.stringify(payload), encoding: 'utf8', maxBuffer: 16 << 20, env: { ...process.env, GSD_HOOK_DEBUG: '1', GSD_WORKER_IDLE_MS: '0', ...env } });
  if (r.status !== 0) throw new Error(`${path.basename(script)} exited ${r.status}: ${r.stderr}`);
  return r;
}

/** A drain the worker logged ("drained …: incremental, …, N ms (drain W ms, cpu C ms)"): engine ms, drain wall ms, drain CPU ms, pid. */
function drainOf(line) {
  const m = line?.match(/ worker\[(\d+)\] drained .*?, (\d+) ms \(drain (\d+) ms, cpu (\d+) ms\)$/);
  return m ? { pid: Number(m[1]), engineMs: Number(m[2]), drainMs: Number(m[3]), cpuMs: Number(m[4]) } : null;
}

/** The worker's last drain after `mark` in hook.log. */
function lastDrain(root, mark = 0) {
  return logSince(root, mark).reverse().map(drainOf).find(Boolean) ?? { pid: NaN, engineMs: NaN, drainMs: NaN, cpuMs: NaN };
}

/** The engine time of the worker's last drain, from hook.log. */
function lastDrainMs(root) {
  return lastDrain(root).engineMs;
}

/** An Edit of `file` (its text before the edit: `original`) through the PostToolUse hook. */
function editThroughHook(root, file, original, env) {
  hook(POST, {
    session_id: 'bench', transcript_path: path.join(os.tmpdir(), 'bench.jsonl'), cwd: root, permission_mode: 'acceptEdits', hook_event_name: 'PostToolUse', tool_name: 'Edit',
    tool_input: { file_path: file, old_string: 'x', new_string: 'y', replace_all: false },
    tool_response: { filePath: file, oldString: 'x', newString: 'y', originalFile: original, structuredPatch: [], userModified: false, replaceAll: false },
    tool_use_id: 'toolu_bench', duration_ms: 5,
  }, env);
}

/**
 * The edit through the hook's worker, as a user meets it: a cold worker (started for this edit, exits after it: what
 * every edit cost before workers lingered, and what `intel.workerIdleSeconds: 0` gives), then SessionStart, whose
 * worker catches up, warms up and waits; the first edit after it and the following ones go to that same worker.
 * Each: the engine time the worker logs, the whole drain's wall and CPU; and the waiting worker's RSS.
 */
async function hookEdits(root, files, count) {
  const append = (i) => {
    const file = files[(i * 7919) % files.length];
    const original = fs.readFileSync(file, 'utf8');
    fs.appendFileSync(file, `\nexport const benchEdit${i}_${RUN} = ${i};\n`);
    return { file, original };
  };
  let mark = logMark(root);
  const c = append(0);
  editThroughHook(root, c.file, c.original, { GSD_WORKER_IDLE_MS: '0' });
  await waitForWorker(root);
  const cold = lastDrain(root, mark);
  const linger = { GSD_WORKER_IDLE_MS: String(LINGER_MS) };
  mark = logMark(root);
  hook(SESSION, { session_id: 'bench', transcript_path: path.join(os.tmpdir(), 'bench.jsonl'), cwd: root, hook_event_name: 'SessionStart', source: 'startup' }, linger);
  const started = await waitForIdle(root, mark);
  const warm = [];
  let idle = started;
  for (let i = 1; i <= count; i++) {
    await new Promise((r) => setTimeout(r, EDIT_PAUSE_MS));
    mark = logMark(root);
    const e = append(i);
    editThroughHook(root, e.file, e.original, linger);
    idle = await waitForIdle(root, mark);
    warm.push(lastDrain(root, mark));
  }
  const sameWorker = warm.every((d) => d.pid === started.pid);
  // hand the worker back: without its pid file it stops waiting (hooks/src/worker.ts)
  fs.rmSync(path.join(root, '.planning', 'intel', 'worker.pid'), { force: true });
  await waitForWorker(root);
  const med = (k) => median(warm.slice(1).map((d) => d[k]));
  return {
    cold,
    first: warm[0],
    following: { engineMs: med('engineMs'), drainMs: med('drainMs'), cpuMs: med('cpuMs'), n: warm.length - 1 },
    edits: warm,
    sameWorker,
    idleRssMB: { afterSessionStart: started.rssMB, afterEdits: idle.rssMB },
  };
}

function du(p) {
  let bytes = 0;
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  for (const e of fs.readdirSync(p)) bytes += du(path.join(p, e));
  return bytes;
}

/** Bytes of the source files the engine indexes in the tree (what .planning/intel/ describes). */
export function sourceBytes(root) {
  return listFiles(path.join(root, 'packages')).filter(indexable).reduce((t, rel) => t + fs.statSync(path.join(root, 'packages', rel)).size, 0);
}

function intelSize(root) {
  const dir = path.join(root, '.planning', 'intel');
  return { total: du(dir), entities: du(path.join(dir, 'entities')), graph: du(path.join(dir, 'graph.db')), index: du(path.join(dir, 'index.json')), summary: du(path.join(dir, 'summary.md')) };
}

/** a name no earlier run appended (a tree kept with --keep would otherwise get a second `export const` of the same name: a syntax error, parsed by babel) */
const RUN = Date.now().toString(36);

/** files the edits and the catch-up touch: indexed ones only (an edit of an excluded file changes nothing) */
const editable = (root) =>
  listFiles(path.join(root, 'packages'))
    .filter((f) => /\.(?:ts|mts|cts|js|mjs|cjs)$/.test(f) && !/\.d\.[cm]?ts$/.test(f) && indexable(f))
    .map((f) => path.join(root, 'packages', f));

/**
 * Hidden child mode `--engine <root>`: the same operations in one process through the engine's API, each timed as
 * wall time and as CPU time (process.cpuUsage): on a shared, overloaded machine CPU time is what the code costs.
 */
async function engineChild(root) {
  const engine = await import(pathToFileURL(OUR_ENGINE).href);
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const timed = async (fn) => {
    const w = performance.now();
    const c = cpu();
    const value = await fn();
    return { wallMs: performance.now() - w, cpuMs: cpu() - c, value };
  };
  const files = editable(root);
  const edits = [];
  for (let i = 0; i < 5; i++) {
    const file = files[(i * 6151 + 17) % files.length];
    fs.appendFileSync(file, `\nexport const engineEdit${i}_${RUN} = ${i};\n`);
    edits.push(await timed(() => engine.updateIntel(root, [path.relative(root, file)])));
  }
  const changed = Math.min(1000, Math.floor(files.length / 10));
  for (let k = 0; k < changed; k++) fs.appendFileSync(files[(k * 7907 + 3) % files.length], `\n// engine checkout ${k}\n`);
  const refresh = await timed(() => engine.refreshIntel(root));
  const status = await timed(() => engine.intelStatus(root));
  const statusAgain = await timed(() => engine.intelStatus(root));
  const open = await timed(() => engine.openIntel(root));
  const reader = open.value;
  const hot = engine.hotspots(reader, { limit: 1 }).hotspots[0];
  const blasts = [];
  for (let i = 0; i < 23; i++) {
    const b = await timed(() => engine.blastRadius(reader, hot.path, { maxDepth: 3 }));
    if (i >= 3) blasts.push(b);
  }
  const med = (xs, k) => median(xs.map((x) => x[k]));
  const out = {
    edit: { wallMs: med(edits, 'wallMs'), cpuMs: med(edits, 'cpuMs'), engineMs: median(edits.map((e) => e.value.engineMs)) },
    refresh: { files: changed, wallMs: refresh.wallMs, cpuMs: refresh.cpuMs },
    status: { wallMs: status.wallMs, cpuMs: status.cpuMs },
    statusAgain: { wallMs: statusAgain.wallMs, cpuMs: statusAgain.cpuMs },
    open: { wallMs: open.wallMs, cpuMs: open.cpuMs },
    blast: { wallMs: med(blasts, 'wallMs'), cpuMs: med(blasts, 'cpuMs'), total: blasts[0].value.total },
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function runEngineChild(root) {
  const r = spawnSync(process.execPath, [process.argv[1], '--engine', root], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`engine child failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

export async function mcpBlast(root) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GSD_MCP_TIMING: '1', GSD_MCP_MODE: 'in-process' } });
  const client = new Client({ name: 'gsd-bench-monorepo', version: '0' });
  await client.connect(transport);
  try {
    const hot = await client.callTool({ name: 'hotspots', arguments: { limit: 1 } });
    const file = hot.structuredContent?.hotspots?.[0]?.path;
    if (!file) throw new Error(`hotspots gave no file: ${JSON.stringify(hot).slice(0, 500)}`);
    const times = [];
    for (let i = 0; i < 23; i++) {
      const r = await client.callTool({ name: 'blast_radius', arguments: { file, max_depth: 3 } });
      if (r.isError) throw new Error(`blast_radius failed: ${JSON.stringify(r.content).slice(0, 500)}`);
      if (i >= 3) times.push(r._meta?.['gsd/timing']?.handlerMs);
    }
    const status = fs.readFileSync(`/proc/${transport.pid}/status`, 'utf8');
    const rssMB = Number(status.match(/^VmRSS:\s+(\d+)/m)[1]) / 1024;
    const hwmMB = Number(status.match(/^VmHWM:\s+(\d+)/m)[1]) / 1024;
    return { file, blastMs: median(times), rssMB, hwmMB };
  } finally {
    await client.close();
  }
}

/**
 * Cold builds of one tree, `runs` of them (the rounds interleaved with the other trees' by the caller): the previous
 * intel folder set aside (lib/common.mjs, setAside), then `intel build`. Medians of wall and CPU time, the highest peak
 * RSS; each run's figures are kept.
 */
async function buildSize(n, root, out = { files: n, builds: [] }) {
  setAside(path.join(root, '.planning', 'intel'));
  const b = await measure(process.execPath, [OUR_CLI, 'intel', 'build', root], { cwd: root, env: { ...process.env, GSD_PERF: '1' } });
  if (b.exitCode !== 0) throw new Error(`intel build failed on ${n} files: ${tailLog(b.logFile)}`);
  out.builds.push({ wallMs: b.wallMs, cpuMs: b.cpuMs, maxRssMB: b.maxRssMB, perf: fs.readFileSync(b.logFile, 'utf8').split('\n').filter((l) => l.startsWith('[gsd perf]')) });
  out.build = {
    wallMs: median(out.builds.map((x) => x.wallMs)),
    cpuMs: median(out.builds.map((x) => x.cpuMs)),
    maxRssMB: Math.max(...out.builds.map((x) => x.maxRssMB)),
    runs: out.builds.length,
  };
  out.size = intelSize(root);
  log(`monorepo: ${n}: build ${out.builds.length}: ${b.wallMs.toFixed(0)} ms wall, ${b.cpuMs.toFixed(0)} ms CPU, ${b.maxRssMB.toFixed(0)} MB peak; intel ${(out.size.total / 1e6).toFixed(1)} MB`);
  return out;
}

/** Everything but the build, on a tree its build left: edits, catch-up, MCP server, status, one engine process. */
async function measureSize(root, out, opts) {
  const n = out.files;
  const files = editable(root);
  out.hook = await hookEdits(root, files, opts.edits);
  out.editMs = out.hook.following.engineMs;
  out.edits = out.hook.edits.map((d) => d.engineMs);
  const h = out.hook;
  log(`monorepo: ${n}: edit through PostToolUse (engine / drain wall / drain CPU ms): cold worker ${h.cold.engineMs} / ${h.cold.drainMs} / ${h.cold.cpuMs}; first after SessionStart ${h.first.engineMs} / ${h.first.drainMs} / ${h.first.cpuMs}; following (median of ${h.following.n}) ${h.following.engineMs} / ${h.following.drainMs} / ${h.following.cpuMs}; ${h.sameWorker ? 'one worker' : 'NOT one worker'}; idle worker RSS ${h.idleRssMB.afterSessionStart} / ${h.idleRssMB.afterEdits} MB`);

  const sessionInput = { session_id: 'bench', transcript_path: path.join(os.tmpdir(), 'bench.jsonl'), cwd: root, hook_event_name: 'SessionStart', source: 'startup' };
  hook(SESSION, sessionInput);
  await waitForWorker(root);
  const changed = Math.min(1000, Math.floor(n / 10));
  for (let k = 0; k < changed; k++) fs.appendFileSync(files[(k * 104729) % files.length], `\n// checkout ${k}\n`);
  const t0 = performance.now();
  hook(SESSION, sessionInput);
  await waitForWorker(root);
  out.catchUp = { files: changed, ms: performance.now() - t0, engineMs: lastDrainMs(root) };
  log(`monorepo: ${n}: SessionStart catch-up after ${changed} changed files: ${out.catchUp.ms.toFixed(0)} ms`);

  out.mcp = await mcpBlast(root);
  log(`monorepo: ${n}: MCP warm blast radius ${out.mcp.blastMs.toFixed(2)} ms, server RSS ${out.mcp.rssMB.toFixed(0)} MB`);

  // status right after the edits and the catch-up went through the hooks: their worker carried index-facts.bin along
  // (GSD_PERF's line says whether the status read the sidecar)
  const afterHooks = await measure(process.execPath, [OUR_CLI, 'intel', 'status', root], { cwd: root, env: { ...process.env, GSD_PERF: '1' } });
  if (afterHooks.exitCode !== 0) throw new Error(`intel status failed: ${tailLog(afterHooks.logFile)}`);
  out.statusAfterHooks = { wallMs: afterHooks.wallMs, cpuMs: afterHooks.cpuMs, sidecar: /index\.json's facts \(sidecar\)/.test(fs.readFileSync(afterHooks.logFile, 'utf8')) };
  log(`monorepo: ${n}: intel status right after the hooks' edits ${out.statusAfterHooks.wallMs.toFixed(0)} ms wall / ${out.statusAfterHooks.cpuMs.toFixed(0)} ms CPU (${out.statusAfterHooks.sidecar ? 'read the carried index-facts.bin' : 'split index.json'})`);

  // status with a stale index-facts.bin (deleted; otherwise met within ~3 s of an index write the hooks' worker did not
  // make, e.g. an MCP server's drain), then with a current one (after a build, after edits through the hooks, and
  // again); interleaved
  const st = { first: [], firstCpu: [], again: [], againCpu: [] };
  for (let i = 0; i < 5; i++) {
    fs.rmSync(path.join(root, '.planning', 'intel', 'index-facts.bin'), { force: true });
    for (const k of ['first', 'again']) {
      const s = await measure(process.execPath, [OUR_CLI, 'intel', 'status', root], { cwd: root });
      if (s.exitCode !== 0) throw new Error(`intel status failed: ${tailLog(s.logFile)}`);
      st[k].push(s.wallMs);
      st[`${k}Cpu`].push(s.cpuMs);
    }
  }
  out.statusMs = median(st.first);
  out.statusCpuMs = median(st.firstCpu);
  out.statusAgainMs = median(st.again);
  out.statusAgainCpuMs = median(st.againCpu);
  log(`monorepo: ${n}: intel status ${out.statusMs.toFixed(0)} ms wall / ${out.statusCpuMs.toFixed(0)} ms CPU, again ${out.statusAgainMs.toFixed(0)} / ${out.statusAgainCpuMs.toFixed(0)}`);
  out.engine = runEngineChild(root);
  log(`monorepo: ${n}: in one process (wall / CPU ms): edit ${out.engine.edit.wallMs.toFixed(0)} / ${out.engine.edit.cpuMs.toFixed(0)}, catch-up of ${out.engine.refresh.files} ${out.engine.refresh.wallMs.toFixed(0)} / ${out.engine.refresh.cpuMs.toFixed(0)}, status ${out.engine.status.wallMs.toFixed(0)} / ${out.engine.status.cpuMs.toFixed(0)}, blast ${out.engine.blast.wallMs.toFixed(2)} / ${out.engine.blast.cpuMs.toFixed(2)}`);
  return out;
}

function renderSection(r, recipe = RECIPES.files) {
  const { start: START, end: END, packages } = recipe;
  if (!r) return `${START}\n${END}`;
  const m = r.machine;
  const f = (x, d = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '—');
  const mb = (b) => f(b / 1e6, 1);
  const heavy = recipe === RECIPES.heavy;
  const L = [START, '', heavy ? '### Heavy real code: whole copies of five packages (bench/monorepo.mjs --recipe heavy)' : '### 1,000, 10,000 and 50,000 files (bench/monorepo.mjs)', '', 'Generated by `node bench/monorepo.mjs`; edit outside the monorepo markers.', ''];
  L.push(`- Date: ${r.date}; machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}; Node ${m.node}; load average at start ${m.loadavg}, at the end ${r.loadavgEnd}`);
  L.push(`- Command: \`${r.command}\` (after \`npm run build\`). Trees: copies of ${packages.map((c) => `${c.pkg}@${c.version}`).join(', ')} as npm workspaces (each package's source as published, \`npm pack\`), ${heavy ? `whole copies (${r.sizes.map((s) => `${s.copies} copies: ${f(s.files)} indexed files, ${f(s.lines)} lines`).join('; ')})` : 'cut to N indexed files'}.`);
  L.push(`- build: \`intel build\` cold (the old intel folder renamed away, not deleted: bench/README.md), wall, CPU and peak RSS by GNU time; median of ${r.sizes[0]?.build?.runs ?? 1} build${(r.sizes[0]?.build?.runs ?? 1) === 1 ? '' : 's'} per tree, rounds interleaved across the trees and run before everything else, highest peak RSS. edit: engine time the worker logs for an Edit sent through the PostToolUse hook to a warm worker (median of the edits after the first; the table below has the cold worker and the first edit). catch-up: SessionStart after N files were modified, until its worker is done (wall). blast: warm \`blast_radius\` (depth 3) on the top hotspot, time inside the server (median of 20), and the server\'s RSS after them. status: \`intel status\`, whole CLI process, median of 5 interleaved pairs: with a stale index-facts.bin (deleted before the run; otherwise met within ~3 s of an index write the hooks\' worker did not make), then with a current one (after a build, after edits through the hooks, and every status after the first). A row below: the status right after the edits and the catch-up through the hooks.`, '');
  L.push('- Wall times on this machine are shared with other jobs (load averages above): each figure is also given as CPU time (user + system: GNU time for processes; `process.cpuUsage()` around the call in one engine process, `--engine` child, for edit / catch-up / status / blast), which is what the code costs. Bars are judged on CPU time where the wall time is inflated by the load, except `intel status`, judged on wall time: its CPU time counts V8\'s parallel GC threads and is above its wall time on a quiet machine. Both are shown.', '');
  L.push('| files | build wall / CPU s | build peak RSS MB | edit: hook wall ms; engine CPU ms | catch-up (files): hook wall ms; engine CPU ms | blast: server ms; engine CPU ms | server RSS MB | status: CLI wall / CPU ms (stale sidecar; current) | source MB | intel MB (entities / graph.db / index.json) | intel / source |');
  L.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
  const e = (s, k, d = 0) => f(s.engine?.[k]?.cpuMs, d);
  for (const s of r.sizes) {
    L.push(`| ${f(s.files)} | ${f(s.build.wallMs / 1000, 1)} / ${f(s.build.cpuMs / 1000, 1)} | ${f(s.build.maxRssMB)} | ${f(s.editMs)}; ${e(s, 'edit')} | ${s.catchUp ? `(${f(s.catchUp.files)}) ${f(s.catchUp.ms)}; ${e(s, 'refresh')}` : '—'} | ${f(s.mcp?.blastMs, 2)}; ${e(s, 'blast', 2)} | ${f(s.mcp?.rssMB)} | ${f(s.statusMs)} / ${f(s.statusCpuMs)}; ${f(s.statusAgainMs)} / ${f(s.statusAgainCpuMs)} | ${s.sourceBytes ? mb(s.sourceBytes) : '—'} | ${mb(s.size.total)} (${mb(s.size.entities)} / ${mb(s.size.graph)} / ${mb(s.size.index)}) | ${s.sourceBytes ? `${f(s.size.total / s.sourceBytes, 2)}×` : '—'} |`);
  }
  if (r.sizes.some((s) => s.hook)) {
    L.push('', `Edit through the PostToolUse hook, engine ms / drain CPU ms (the worker's log: engine time of the update; CPU of the whole drain, lock and journal included). Cold: a worker started for the edit (\`intel.workerIdleSeconds: 0\`, and every edit before workers lingered). First: the first edit after SessionStart, whose worker caught up, warmed up and waited. Following: median of the next ones, same worker. Edits ${EDIT_PAUSE_MS / 1000} s apart. Idle RSS: the waiting worker's, after SessionStart / after the edits.`, '');
    L.push('| files | cold worker | first after SessionStart | following (median) | one worker | idle worker RSS MB |', '| ---: | ---: | ---: | ---: | --- | ---: |');
    const d = (x) => (x ? `${f(x.engineMs)} / ${f(x.cpuMs)}` : '—');
    for (const s of r.sizes) if (s.hook) L.push(`| ${f(s.files)} | ${d(s.hook.cold)} | ${d(s.hook.first)} | ${d(s.hook.following)} | ${s.hook.sameWorker ? 'yes' : '**no**'} | ${f(s.hook.idleRssMB.afterSessionStart)} / ${f(s.hook.idleRssMB.afterEdits)} |`);
  }
  const big = r.sizes.at(-1);
  const ten = heavy ? r.sizes[0] : r.sizes.find((s) => s.files === 10000);
  if (big && big.files >= 50000) {
    const cpu = (k) => big.engine?.[k]?.cpuMs;
    const bars = [
      ['cold build peak RSS', `${f(big.build.maxRssMB)} MB`, `≤ ${BARS.rssMB} MB`, big.build.maxRssMB <= BARS.rssMB],
      [`cold build time / ${ten ? f(ten.files) : '10k'}-file tree (CPU; wall)`, ten ? `${f(big.build.cpuMs / ten.build.cpuMs, 2)}×; ${f(big.build.wallMs / ten.build.wallMs, 2)}×` : '—', `≤ ${BARS.timeRatio}×`, ten ? big.build.cpuMs / ten.build.cpuMs <= BARS.timeRatio : false],
      big.hook
        ? ['edit through PostToolUse, warm worker (drain CPU, first; following; engine wall, following)', `${f(big.hook.first.cpuMs)}; ${f(big.hook.following.cpuMs)}; ${f(big.hook.following.engineMs)} ms`, `≤ ${BARS.editMs} ms`, Math.max(big.hook.first.cpuMs, big.hook.following.cpuMs) <= BARS.editMs]
        : ['edit through PostToolUse (engine CPU; worker wall)', `${f(cpu('edit'))}; ${f(big.editMs)} ms`, `≤ ${BARS.editMs} ms`, cpu('edit') <= BARS.editMs],
      ['SessionStart catch-up, 1,000 files (engine CPU; hook wall)', `${f(cpu('refresh'))}; ${big.catchUp ? f(big.catchUp.ms) : '—'} ms`, `≤ ${BARS.catchUpMs} ms`, cpu('refresh') <= BARS.catchUpMs],
      ['warm blast radius (engine CPU; inside the server, wall)', `${f(cpu('blast'), 2)}; ${f(big.mcp?.blastMs, 2)} ms`, `≤ ${BARS.blastMs} ms`, cpu('blast') <= BARS.blastMs],
      ['MCP server RSS', `${f(big.mcp?.rssMB)} MB`, `≤ ${BARS.serverRssMB} MB`, big.mcp?.rssMB <= BARS.serverRssMB],
      ['intel status, index-facts.bin current: after a build, after edits through the hooks, again (CLI wall; CPU)', `${f(big.statusAgainMs)}; ${f(big.statusAgainCpuMs)} ms`, `≤ ${BARS.statusMs} ms`, big.statusAgainMs <= BARS.statusMs],
      big.statusAfterHooks
        ? [`intel status right after the edits and the catch-up through the hooks (CLI wall; CPU; ${big.statusAfterHooks.sidecar ? 'read the carried index-facts.bin' : 'split index.json'})`, `${f(big.statusAfterHooks.wallMs)}; ${f(big.statusAfterHooks.cpuMs)} ms`, `≤ ${BARS.statusMs} ms`, big.statusAfterHooks.wallMs <= BARS.statusMs]
        : null,
      ['intel status, index-facts.bin stale: deleted, or ≤ 3 s after an index write the worker did not make (CLI wall; CPU)', `${f(big.statusMs)}; ${f(big.statusCpuMs)} ms`, `≤ ${BARS.statusMs} ms`, big.statusMs <= BARS.statusMs],
    ];
    L.push('', `Bars at ${f(big.files)} files:`, '', '| bar | measured | target | verdict |', '| --- | ---: | ---: | --- |');
    for (const [name, value, target, pass] of bars.filter(Boolean)) L.push(`| ${name} | ${value} | ${target} | ${pass ? 'PASS' : '**FAIL**'} |`);
  }
  L.push('', END);
  return L.join('\n');
}

export function updateMonorepoResultsMd() {
  for (const recipe of Object.values(RECIPES)) if (loadResult(recipe.result)) writeResultsSection(recipe.start, recipe.end, renderSection(loadResult(recipe.result), recipe), 'monorepo');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain && process.argv[2] === '--engine') runMain(() => engineChild(process.argv[3]).then(() => 0));
else if (isMain) {
  runMain(async () => {
    const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
    const recipe = RECIPES[opts.recipe];
    if (!recipe) throw new UsageError(`--recipe: one of ${Object.keys(RECIPES).join(', ')}`);
    const heavy = recipe === RECIPES.heavy;
    const copies = heavy ? String(opts.copies).split(',').map((s) => Number(s.trim())) : [];
    if (copies.some((c) => !(c >= 1))) throw new UsageError('--copies: numbers ≥ 1');
    const sizes = heavy ? copies.map(() => 0) : String(opts.sizes).split(',').map((s) => Number(s.trim()));
    if (sizes.some((s) => !heavy && !(s >= 10))) throw new UsageError('--sizes: numbers ≥ 10');
    if (!(opts['build-runs'] >= 1)) throw new UsageError('--build-runs: a number ≥ 1');
    for (const f of [OUR_CLI, POST, SESSION, SERVER]) if (!fs.existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing: run npm run build first`);
    const result = { bench: 'monorepo', date: new Date().toISOString(), machine: machineInfo(), command: `node bench/monorepo.mjs ${process.argv.slice(2).join(' ')}`.trim(), sizes: [] };
    const roots = sizes.map((n, i) => generateMonorepo(n, { keep: opts.keep, packages: recipe.packages, copies: copies[i] }));
    const stamps = roots.map((root) => JSON.parse(fs.readFileSync(path.join(root, '.bench-monorepo.json'), 'utf8')));
    if (heavy) stamps.forEach((st, i) => (sizes[i] = st.files));
    if (opts['edit-only']) {
      for (const [i, root] of roots.entries()) {
        if (!fs.existsSync(path.join(root, '.planning', 'intel', 'index.json'))) throw new UsageError(`--edit-only: ${root} has no intel (run once with --keep first)`);
        const hook = await hookEdits(root, editable(root), opts.edits);
        log(`monorepo: ${sizes[i]}: ${JSON.stringify(hook)}`);
      }
      return 0;
    }
    // every build first: the edits and the catch-up replace entity pages (freeing their inodes), which would slow the
    // next tree's build on this disk (lib/common.mjs, setAside)
    // rounds interleaved, so that a busy spell of this shared machine falls on every tree alike
    result.sizes = sizes.map((n, i) => ({ files: n, ...(heavy ? { copies: copies[i], lines: stamps[i].lines } : {}), sourceBytes: sourceBytes(roots[i]), builds: [] }));
    for (let round = 0; round < opts['build-runs']; round++) for (const [i, root] of roots.entries()) await buildSize(sizes[i], root, result.sizes[i]);
    if (!opts['build-only']) for (const [i, root] of roots.entries()) await measureSize(root, result.sizes[i], opts);
    result.loadavgEnd = machineInfo().loadavg;
    saveResult(recipe.result, result);
    if (!opts['no-results-md']) updateMonorepoResultsMd();
    return 0;
  });
}
