#!/usr/bin/env node
// The languages beside the peers that read them, and Python and Go beside our own JS/TS figures, each as a ratio in one run.
//
// 1. Cold build beside codegraph and GitNexus on the same corpus: ours (`intel build --no-cache`), codegraph 1.6.1
//    (`codegraph init -y`, bench/tools.mjs) and GitNexus (`gitnexus analyze --index-only --skip-git --skip-fts`,
//    installed from the npm registry into bench/.work/peers-tools, never into package.json), each on its own copy of
//    the tree, `--runs` rounds with the order rotated every round; wall and CPU medians, peak RSS max (GNU time).
//    Both peers read every language below (codegraph's README, GitNexus's "Supported Languages").
//    Corpora (the machine's own): Python, django + flask + jinja2 + requests + rich as /usr/lib/python3/dist-packages
//    has them (`apt-get install -y python3-django python3-flask python3-jinja2 python3-requests python3-rich`); Go,
//    golang.org/x/tools as /usr/share/gocode/src has it (`apt-get install -y golang-golang-x-tools-dev`); Rust, the
//    crates under /usr/share/cargo/registry (bench/languages-rust.mjs names the apt-get line); Java, JDK 17 modules as
//    src.zip lays them out (`apt-get install -y openjdk-17-source`); C/C++, PHP, Ruby, C#: git snapshots at pinned
//    commits, bare clones in bench/.snapshots made on first use or `--snapshots DIR` (bench/lib/snapshots.mjs).
//    `--languages` picks the corpora; rows of corpora not run keep their figures from the last run, each row saying
//    its date, rounds and load.
// 2. A one-file edit through the hooks: the installed runtime's PostToolUse hook (dist/runtime/hooks/, the bundle an
//    install copies) spawned as a process with an Edit payload on a file just modified (a different source file each
//    round), in each `--languages` corpus above and in zod (JS/TS, bench/corpora.mjs), the languages interleaved in
//    every round; the hook's own wall time (spawn → exit) and the time until the edit is in the graph, twice: with a
//    fresh background worker for every edit (spawn → worker gone, journal empty), then with a session of the installed
//    MCP entry open in every tree, so that the shared server holds each project's worker role and applies the edits
//    warm (spawn → index.json replaced, journal empty, lock free; each language paired with JS/TS edits).
//    Alone: `--no-peers --no-scale`.
// 3. Memory at ~10,000 files: a cold build of copies of the Python and Go trees against copies of zod of about the
//    same file count, `--memory-rounds` builds each, interleaved: GNU time's peak RSS and the process tree's peak (the
//    build and its parse worker process, PSS summed every 20 ms), medians and maxima, min wall. Alone:
//    `--no-peers --no-hooks`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { OUR_CLI, ROOT, WORK_DIR, listFiles, log, machineInfo, mkdirp, npmEnv, parseArgs, readJson, rmrf, runMain, setAside, sh, writeJson } from './lib/common.mjs';
import { defaultMethod, measure } from './lib/measure.mjs';
import { editPayload } from './lib/hook-payload.mjs';
import { waitForWorker } from './lib/worker-wait.mjs';
import { exportSnapshot, SNAPSHOTS_OPTION } from './lib/snapshots.mjs';
import { writeResultsSection } from './lib/write-results.mjs';
import { codegraphBin, codegraphEnv, ensureTools, TOOLS } from './tools.mjs';
import { corpusDir, ensureCorpus, getCorpus } from './corpora.mjs';

process.env.GSD_WORKER_IDLE_MS ??= '0';
const GITNEXUS = '1.6.12';
const DIST = '/usr/lib/python3/dist-packages';
const GOCODE = '/usr/share/gocode/src';
const PY_PACKAGES = ['django', 'flask', 'jinja2', 'requests', 'rich'];
const GO_MODULE = 'golang.org/x/tools';
const CARGO_REGISTRY = '/usr/share/cargo/registry';
const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';
const JDK_MODULES = ['java.sql', 'java.sql.rowset', 'java.logging', 'java.net.http', 'java.rmi', 'java.compiler', 'jdk.compiler', 'jdk.httpserver'];
/** git snapshots (repo, pinned commit, what is exported: the language's sources and the files steering resolution) */
const SNAPSHOTS = {
  'C/C++': { repo: 'libuv/libuv', commit: '6179e7af8', paths: /\.(c|h)$|(^|\/)CMakeLists\.txt$/ },
  PHP: { repo: 'composer/composer', commit: 'eba7baa59eb1b59246cf9800b0120fe78915b6ac', paths: /(\.php|(^|\/)composer\.(json|lock))$/ },
  Ruby: { repo: 'lobsters/lobsters', commit: '57268d762e1c2c95b7a8e64ee8deb259cddd8cc0', paths: /(\.rb|\.gemspec|\.rake|(^|\/)Gemfile)$/ },
  'C#': { repo: 'JamesNK/Newtonsoft.Json', commit: '09bb545d72969ad7fb4ea07db0d5c34f4fc07877', paths: /\.(cs|csproj)$/ },
};
const BASE = path.join(WORK_DIR, 'languages-peers');
const PEERS_DIR = path.join(WORK_DIR, 'peers-tools');
// the hook as an install runs it: the runtime bundle (scripts/bundle-runtime.mjs), whose worker is one ESM file with
// the engine and finds the grammars in its own tree-sitter/ folder, not the tsc output's modules and node_modules
let POST = path.join(ROOT, 'dist', 'runtime', 'hooks', 'post-tool-use.cjs');
const START = ['<!-- languages-peers:start -->', '<!-- languages-hooks-memory:start -->', '<!-- languages-memory:start -->'];
const END = ['<!-- languages-peers:end -->', '<!-- languages-hooks-memory:end -->', '<!-- languages-memory:end -->'];

const USAGE = 'Usage: node bench/languages-peers.mjs [--languages L,…] [--snapshots DIR] [--runs N] [--edits N] [--files N] [--no-peers] [--no-hooks] [--no-scale] [--no-write] [--runtime DIR] [--results-only]';
const SPEC = {
  languages: { type: 'string', default: 'python,go,rust,java,c/c++,php,ruby,c#', help: 'corpora beside the peers and in the hooks table (python, go, rust, java, c/c++, php, ruby, c#); memory needs python and go' },
  snapshots: { ...SNAPSHOTS_OPTION, help: `${SNAPSHOTS_OPTION.help} (C/C++, PHP, Ruby, C#)` },
  runs: { type: 'number', default: 2, help: 'rotated cold-build rounds per tool and corpus' },
  edits: { type: 'number', default: 12, help: 'hook edits per language (the first is a warm-up)' },
  files: { type: 'number', default: 10000, help: 'files of each tree in the memory comparison' },
  'memory-rounds': { type: 'number', default: 4, help: 'cold builds of each tree in the memory comparison (a peak varies ~15 MB from build to build with when V8 collects)' },
  peers: { type: 'boolean', default: true, help: 'cold build beside codegraph and GitNexus' },
  hooks: { type: 'boolean', default: true, help: 'one-file edits through the hook per language' },
  scale: { type: 'boolean', default: true, help: 'memory of a ~10,000-file tree per language' },
  write: { type: 'boolean', default: true, help: 'write the two blocks into bench/RESULTS.md' },
  runtime: { type: 'string', default: '', help: 'measure the hooks of this runtime folder instead of dist/runtime (a copy from another build, to compare; with --no-write)' },
  'results-only': { type: 'boolean', default: false, help: 'write the blocks from the last run (bench/.work/languages-peers/results.json), measuring nothing' },
};

function writeBlocks(out) {
  if (out.peers) writeResultsSection(START[0], END[0], peersSection(out), 'languages-peers');
  if (out.hooks) writeResultsSection(START[1], END[1], hooksSection(out), 'languages-hooks-memory');
  if (out.scale) writeResultsSection(START[2], END[2], memorySection(out), 'languages-memory');
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** A copy of zod with `src/consts/c0..c39.ts`, 1,080 `export const` each. */
function largeStore(from, to) {
  copyTree(from, to);
  fs.mkdirSync(path.join(to, 'src', 'consts'), { recursive: true });
  for (let f = 0; f < 40; f++) {
    const lines = Array.from({ length: 1080 }, (_, i) => `export const C_${f}_${i}: number = ${i};\n`);
    fs.writeFileSync(path.join(to, 'src', 'consts', `c${f}.ts`), lines.join(''));
  }
  return to;
}

const copyTree = (from, to, filter = () => true) => {
  rmrf(to);
  fs.cpSync(from, to, { recursive: true, filter: (f) => !f.includes('__pycache__') && !f.endsWith('.so') && !/[/\\]\.(planning|codegraph|gitnexus)([/\\]|$)/.test(f) && filter(f) });
  return to;
};

function pythonTree(dest) {
  rmrf(dest);
  for (const p of PY_PACKAGES) {
    const from = path.join(DIST, p);
    if (!fs.existsSync(from)) throw new Error(`${from} is missing: apt-get install -y ${PY_PACKAGES.map((x) => `python3-${x}`).join(' ')}`);
    copyTree(from, path.join(dest, p));
  }
  return dest;
}

function goTree(dest) {
  const from = path.join(GOCODE, GO_MODULE);
  if (!fs.existsSync(from)) throw new Error(`${from} is missing: apt-get install -y golang-golang-x-tools-dev`);
  return copyTree(from, dest);
}

function rustTree(dest) {
  if (!fs.existsSync(CARGO_REGISTRY)) throw new Error(`${CARGO_REGISTRY} is missing: see bench/languages-rust.mjs for the apt-get line`);
  return copyTree(CARGO_REGISTRY, dest);
}

function javaTree(dest) {
  if (!fs.existsSync(SRC_ZIP)) throw new Error(`${SRC_ZIP} is missing: apt-get install -y openjdk-17-source`);
  rmrf(dest);
  mkdirp(dest);
  execFileSync('unzip', ['-q', SRC_ZIP, ...JDK_MODULES.map((m) => `${m}/*`), '-d', dest]);
  return dest;
}

/** The corpora beside the peers: what each is, how its tree is made, which files count. */
const CORPORA = [
  { name: 'Python', tree: 'django …', comment: '#', re: /\.pyi?$/, source: `${PY_PACKAGES.join(' + ')} from ${DIST} (Debian bookworm), one flat tree`, make: pythonTree },
  { name: 'Go', tree: 'x/tools', comment: '//', re: /\.go$/, source: `${GO_MODULE} from ${GOCODE}, one module`, make: goTree },
  { name: 'Rust', tree: 'Debian crates', comment: '//', re: /\.rs$/, source: `the crates under ${CARGO_REGISTRY} (Debian's librust-*-dev packages, as bench/languages-rust.mjs installs them)`, make: rustTree },
  { name: 'Java', tree: 'JDK modules', comment: '//', re: /\.java$/, source: `JDK 17 modules from src.zip (${JDK_MODULES.join(', ')})`, make: javaTree },
  ...Object.entries(SNAPSHOTS).map(([name, s]) => ({
    name,
    tree: s.repo.split('/')[1],
    comment: name === 'Ruby' ? '#' : '//',
    re: { 'C/C++': /\.(c|h)$/, PHP: /\.php$/, Ruby: /\.rb$/, 'C#': /\.cs$/ }[name],
    source: `${s.repo} at ${s.commit.slice(0, 9)}, its ${name} sources and build files at that commit`,
    make: (dest, opts) => exportSnapshot(opts.snapshots, s, s.paths, dest),
  })),
];

const countFiles = (tree, re) => listFiles(tree).filter((f) => re.test(f)).length;

function gitnexusBin() {
  const bin = path.join(PEERS_DIR, 'node_modules', 'gitnexus', 'dist', 'cli', 'index.js');
  if (readJson(path.join(PEERS_DIR, 'node_modules', 'gitnexus', 'package.json'), null)?.version !== GITNEXUS) {
    mkdirp(PEERS_DIR);
    fs.writeFileSync(path.join(PEERS_DIR, 'package.json'), '{"name":"gsd-bench-peers","private":true}\n');
    log(`peers: npm i --prefix ${path.relative(ROOT, PEERS_DIR)} gitnexus@${GITNEXUS}`);
    sh('npm', ['i', '--prefix', PEERS_DIR, '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', `gitnexus@${GITNEXUS}`], { env: npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  }
  return bin;
}

/** Environment for GitNexus: a private HOME (its registry lives there), no telemetry, no extension downloads. */
function gitnexusEnv(home) {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache'), DO_NOT_TRACK: '1', SCARF_ANALYTICS: 'false', NO_COLOR: '1', CI: '1' };
}

/** Cold builds of the three tools on their own copies of `tree`, rotated rounds. */
async function peers(name, tree, runs) {
  ensureTools();
  const method = defaultMethod();
  const home = mkdirp(path.join(BASE, `home-${name.toLowerCase().replace(/[^a-z]/g, '')}`));
  const gnBin = gitnexusBin();
  const tools = {
    ours: { tree, store: '.planning', run: (t) => measure(process.execPath, [OUR_CLI, 'intel', 'build', t, '--no-cache'], { cwd: t, method }) },
    codegraph: { tree: copyTree(tree, `${tree}-codegraph`), store: '.codegraph', run: (t) => measure(codegraphBin(), ['init', '-y', t], { cwd: t, env: codegraphEnv(home), method }) },
    gitnexus: {
      tree: copyTree(tree, `${tree}-gitnexus`),
      store: '.gitnexus',
      run: (t) => measure(process.execPath, [gnBin, 'analyze', '--index-only', '--skip-git', '--skip-fts', t], { cwd: t, env: gitnexusEnv(home), method }),
    },
  };
  const order = Object.keys(tools);
  const results = Object.fromEntries(order.map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < order.length; j++) {
      const tool = order[(i + j) % order.length];
      const t = tools[tool];
      setAside(path.join(t.tree, t.store));
      const r = await t.run(t.tree);
      if (r.exitCode !== 0) throw new Error(`${name}: ${tool} failed (exit ${r.exitCode}), log ${r.logFile}`);
      results[tool].push(r);
      log(`${name} round ${i + 1}: ${tool} wall ${r.wallMs.toFixed(0)} ms, CPU ${r.cpuMs.toFixed(0)} ms, peak RSS ${r.maxRssMB.toFixed(0)} MB`);
    }
  }
  for (const k of ['codegraph', 'gitnexus']) rmrf(tools[k].tree);
  const agg = (tool) => ({ wallMs: median(results[tool].map((r) => r.wallMs)), cpuMs: median(results[tool].map((r) => r.cpuMs)), maxRssMB: Math.max(...results[tool].map((r) => r.maxRssMB)) });
  return { method, runs, ours: agg('ours'), codegraph: agg('codegraph'), gitnexus: agg('gitnexus') };
}

/** One-file edits through the spawned PostToolUse hook, the languages interleaved every round. */
async function hooks(trees, edits) {
  const { buildIntel } = await import(path.join(ROOT, 'dist', 'engine', 'src', 'index.js'));
  const langs = {};
  for (const [name, { tree, re, comment }] of Object.entries(trees)) {
    await buildIntel(tree, { cache: false });
    const sources = listFiles(tree).filter((f) => re.test(f)).sort();
    langs[name] = { tree, sources, comment };
  }
  // a fresh worker for every edit: the first edit after a pause, or a session without the shared server
  const fresh = await editRounds(langs, edits, (tree) => waitForWorker(tree));
  // the shared server following every tree for a session open in it (mcp-server/src/daemon/followers.ts); each
  // language's edits interleaved with JS/TS edits, a pair at a time: a session edits one or two projects at once
  const server = await withServer(langs, async (wait) => {
    const pairs = {};
    for (const name of Object.keys(langs).filter((n) => n !== 'js/ts')) {
      const r = await editRounds({ [name]: langs[name], 'js/ts': langs['js/ts'] }, edits, wait);
      pairs[name] = { ...r[name], js: r['js/ts'] };
    }
    const js = Object.values(pairs).map((p) => p.js);
    pairs['js/ts'] = { hookMs: median(js.map((j) => j.hookMs)), caughtUpMs: median(js.map((j) => j.caughtUpMs)), js: null };
    return pairs;
  });
  const out = {};
  for (const [name, l] of Object.entries(langs)) {
    const sv = server.results[name];
    out[name] = { files: l.sources.length, ...fresh[name], server: sv };
    log(`hooks ${name}: hook ${out[name].hookMs.toFixed(1)} ms, in the graph ${out[name].caughtUpMs.toFixed(1)} ms (fresh worker); with the server: hook ${sv.hookMs.toFixed(1)} ms, in the graph ${sv.caughtUpMs.toFixed(1)} ms${sv.js ? ` (its JS/TS pair ${sv.js.caughtUpMs.toFixed(1)} ms)` : ''} (medians of ${edits - 1})`);
  }
  return { edits: edits - 1, serverRss: server.rss, ...out };
}

/** `edits` rounds, one edit per language in each (the first round a warm-up); medians of the hook and in-graph times. */
async function editRounds(langs, edits, applied) {
  const times = Object.fromEntries(Object.keys(langs).map((n) => [n, { hook: [], caughtUp: [] }]));
  for (let i = 0; i < edits; i++) {
    for (const [name, l] of Object.entries(langs)) {
      const rel = l.sources[(i * 37) % l.sources.length];
      const file = path.join(l.tree, rel);
      const original = fs.readFileSync(file, 'utf8');
      fs.appendFileSync(file, `\n${l.comment} bench edit ${i}\n`);
      const before = indexIdentity(l.tree);
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [POST], { input: editPayload(l.tree, file, original), cwd: l.tree, encoding: 'utf8' });
      const hookMs = performance.now() - t0;
      if (r.status !== 0) throw new Error(`hook on ${name} ${rel} exited ${r.status}: ${r.stderr}`);
      await applied(l.tree, before);
      const caughtUpMs = performance.now() - t0;
      if (i > 0) {
        times[name].hook.push(hookMs);
        times[name].caughtUp.push(caughtUpMs);
      }
    }
  }
  return Object.fromEntries(Object.entries(times).map(([n, t]) => [n, { hookMs: median(t.hook), caughtUpMs: median(t.caughtUp) }]));
}

const indexIdentity = (tree) => {
  const st = fs.statSync(path.join(tree, '.planning', 'intel', 'index.json'), { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : null;
};

/**
 * Runs `fn` with the shared server started by the installed runtime's stdio entry (dist/runtime/mcp-server.js, in a
 * temporary HOME) and one session open in each tree, the server holding every tree's worker role; `fn` gets the
 * wait for an edit to be in the graph: index.json replaced, the journal empty and the intel lock free. Returns what
 * `fn` returns and the server's RSS after it.
 */
async function withServer(langs, fn) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-bench-home-'));
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const clients = [];
  try {
    for (const l of Object.values(langs)) {
      const client = new Client({ name: 'bench', version: '0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'dist', 'runtime', 'mcp-server.js')], cwd: l.tree, env, stderr: 'ignore' }));
      clients.push(client);
    }
    const { gsdHome } = await import(path.join(ROOT, 'dist', 'mcp-server', 'src', 'daemon', 'home.js'));
    const daemon = JSON.parse(fs.readFileSync(gsdHome(env).daemonJson, 'utf8')).pid;
    for (const l of Object.values(langs)) await until(() => readPid(l.tree) === daemon, `the server following ${l.tree}`);
    const rssMB = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${daemon}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    const before = rssMB();
    const busy = await pendingOrLocked();
    const results = await fn((tree, was) => until(() => indexIdentity(tree) !== was && !busy(tree), `the edit in ${tree}`));
    return { results, rss: { before, after: rssMB() } };
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    spawnSync(process.execPath, [OUR_CLI, 'serve', '--stop'], { env });
    rmrf(home);
  }
}

const readPid = (tree) => {
  try {
    return Number.parseInt(fs.readFileSync(path.join(tree, '.planning', 'intel', 'worker.pid'), 'utf8'), 10);
  } catch {
    return null;
  }
};

/** The engine's own tests: a journal file waiting, or a drain holding the intel lock. */
async function pendingOrLocked() {
  const { hasPendingJournal, intelPaths } = await import(path.join(ROOT, 'dist', 'engine', 'src', 'index.js'));
  return (tree) => hasPendingJournal(tree) || fs.existsSync(intelPaths(tree).lock);
}

async function until(cond, what, capMs = 120_000) {
  const end = Date.now() + capMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Copies of each tree up to about `files` files of its language; `rounds` cold builds of each, interleaved, peak RSS. */
async function scale(trees, files, rounds) {
  const method = defaultMethod();
  const made = {};
  for (const [name, { tree, re }] of Object.entries(trees)) {
    const per = countFiles(tree, re);
    const copies = Math.ceil(files / per);
    const dest = path.join(BASE, `scale-${name.replace('/', '')}`);
    rmrf(dest);
    for (let i = 0; i < copies; i++) copyTree(tree, path.join(dest, `copy${i}`));
    // the last copy trimmed (its last files by path) so that every tree holds the same number of source files
    const last = path.join(dest, `copy${copies - 1}`);
    for (const f of listFiles(last).filter((f) => re.test(f)).reverse().slice(0, copies * per - files)) fs.rmSync(path.join(last, f));
    made[name] = { tree: dest, copies };
  }
  const out = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, m] of Object.entries(made)) {
      setAside(path.join(m.tree, '.planning'));
      const r = await measure(process.execPath, [OUR_CLI, 'intel', 'build', m.tree, '--no-cache', '--json'], { cwd: m.tree, method, tree: true });
      if (r.exitCode !== 0) throw new Error(`scale ${name} failed, log ${r.logFile}`);
      const text = fs.readFileSync(r.logFile, 'utf8');
      const { files: indexed, edges } = JSON.parse(text.slice(text.indexOf('{')));
      out[name] = { copies: m.copies, files: indexed, edges, maxRssMB: Math.max(out[name]?.maxRssMB ?? 0, r.maxRssMB), rounds: [...(out[name]?.rounds ?? []), [r.maxRssMB, r.treePeakMB]], treePeakMB: Math.max(out[name]?.treePeakMB ?? 0, r.treePeakMB ?? 0) || null, wallMs: Math.min(out[name]?.wallMs ?? Infinity, r.wallMs) };
      log(`scale ${name}: ${indexed} files, peak RSS ${r.maxRssMB.toFixed(0)} MB, process tree ${r.treePeakMB?.toFixed(0) ?? '?'} MB, wall ${r.wallMs.toFixed(0)} ms`);
    }
  }
  for (const m of Object.values(made)) rmrf(m.tree);
  return { method, ...out };
}

const x = (a, b) => `${(a / b).toFixed(2)}×`;
const machineLine = (out) => {
  const m = out.machine;
  return `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadavg} at the start; go ${out.go}, Python ${out.python}.`;
};

function peersSection(out) {
  const L = [START[0], '### Beside the peers (bench/languages-peers.mjs)', ''];
  L.push(`Cold build of the same tree by each tool on its own copy, order rotated every round, medians of the rounds (peak RSS: max), ${out.method}. Ours: \`intel build --no-cache\`; codegraph ${TOOLS['@colbymchenry/codegraph']}: \`codegraph init -y\`; GitNexus ${GITNEXUS} (npm): \`gitnexus analyze --index-only --skip-git --skip-fts\` (no full-text index: its extension would be downloaded at run time).`, '');
  L.push('| corpus | files | rounds | tool | wall | CPU | peak RSS | their wall / ours | their RSS / ours |', '| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const c of out.peers) {
    for (const tool of ['ours', 'codegraph', 'gitnexus']) {
      const t = c[tool];
      L.push(`| ${c.name} | ${c.files} | ${c.runs} | ${tool} | ${(t.wallMs / 1000).toFixed(2)} s | ${(t.cpuMs / 1000).toFixed(2)} s | ${t.maxRssMB.toFixed(0)} MB | ${tool === 'ours' ? '1.00×' : x(t.wallMs, c.ours.wallMs)} | ${tool === 'ours' ? '1.00×' : x(t.maxRssMB, c.ours.maxRssMB)} |`);
    }
  }
  L.push('');
  for (const c of out.peers) L.push(`- ${c.name}: ${CORPORA.find((k) => k.name === c.name).source}; measured ${c.date}, ${c.runs} round${c.runs === 1 ? '' : 's'}, load ${c.loadavg} at its start.`);
  L.push('- The peers do more than a file graph (call graphs, symbol tables; GitNexus clusters and flows); they are what agents use for the same questions, and their cold build is what a user waits for.');
  L.push('', 'Each row gives the time and load of its own rounds (rows can come from separate `--languages` runs). The machine is shared and its load moves between rows: compare the ratios, which come from the same rounds of one corpus.');
  L.push('', machineLine({ ...out, machine: out.peersMachine ?? out.machine }), `Command: \`npm run build && node bench/languages-peers.mjs\` (one corpus alone: \`--languages rust\`; one round: \`--runs 1\`).`, END[0]);
  return L.join('\n');
}

function hooksSection(out) {
  const L = [START[1], '### Hooks per language (bench/languages-peers.mjs)', ''];
  const h = out.hooks;
  L.push(`One-file edit through the PostToolUse hook as an install runs it (the runtime bundle, dist/runtime/: the hook, its worker and the MCP server entry), spawned as a process with an Edit payload (${h.edits} edits per language, a different source file each, languages interleaved in every round, medians): the hook's own time (spawn → exit) and the time until the edit is in the graph, in two settings:`, '');
  L.push('- **with the shared server**: a session open in every tree (the installed stdio entry, which starts the shared server), so the server holds each project\'s worker role and applies its journal warm (mcp-server/src/daemon/followers.ts): what a Claude Code session with the GSD server sees. Each language\'s edits alternate with JS/TS edits, one pair of projects at a time, and its ratios are to the JS/TS edits of its own pair (the JS/TS row: medians over the pairs). In the graph = spawn → index.json replaced, journal empty, lock free.');
  L.push('- **fresh worker**: no session, and the worker lingers for no next edit (`GSD_WORKER_IDLE_MS=0`), so every edit pays a fresh worker\'s start: the first edit after a pause (`intel.workerIdleSeconds`, 120 s) in a session without the GSD server (an install with `--no-mcp`). In the graph = spawn → worker gone, journal empty.', '');
  L.push('| language (tree) | source files | hook, with the server | / JS/TS | in the graph, with the server | / JS/TS | hook, fresh worker | / JS/TS | in the graph, fresh worker | / JS/TS |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const rows = [...CORPORA.map((c) => [c.name.toLowerCase(), `${c.name} (${c.tree})`]), ['js/ts', 'JS/TS (zod)'], ['js/ts-large', 'JS/TS (zod + 43,200 generated constants: the Rust tree\'s store size)']];
  const js = h['js/ts'];
  for (const [name, label] of rows) {
    const r = h[name];
    if (!r) continue;
    const sv = r.server;
    L.push(`| ${label} | ${r.files} | ${sv.hookMs.toFixed(0)} ms | ${x(sv.hookMs, (sv.js ?? sv).hookMs)} | ${sv.caughtUpMs.toFixed(0)} ms | ${x(sv.caughtUpMs, (sv.js ?? sv).caughtUpMs)} | ${r.hookMs.toFixed(0)} ms | ${x(r.hookMs, js.hookMs)} | ${r.caughtUpMs.toFixed(0)} ms | ${x(r.caughtUpMs, js.caughtUpMs)} |`);
  }
  L.push('', `The server's RSS with a session open in each of the ${rows.filter(([n]) => h[n]).length} trees: ${h.serverRss.before.toFixed(0)} MB before the edits, ${h.serverRss.after.toFixed(0)} MB after them (every grammar loaded, the last two projects' index.json kept split; a worker holds its own ~80-140 MB while it lingers).`);
  L.push('', `Trees: ${CORPORA.filter((c) => h[c.name.toLowerCase()]).map((c) => `${c.name}, ${c.source}`).join('; ')}; JS/TS, zod (bench/corpora.mjs).`);
  L.push('', 'What a fresh worker pays for a tree-sitter language beyond JS/TS, measured in a fresh process with the worker\'s flags: the tree-sitter runtime (~3.5 ms to load its JavaScript, ~7 ms to start its WebAssembly), the grammar (~2 ms for Python\'s or Go\'s, ~10 ms for C#\'s 5 MB one) and the first parse in baseline code (the worker runs WebAssembly without the optimising tier, ARCHITECTURE.md "Baseline WebAssembly in the worker"); JS/TS\'s reader is JavaScript already in the worker\'s bundle. No resolver is made for these edits: a file whose imports an edit leaves as they were keeps its resolutions (ARCHITECTURE.md "Incremental updates"). The trees differ in store size too: the Rust tree\'s index.json is 7.4 MB and its graph.db 11.6 MB against zod\'s 1.8 MB and 2.3 MB, and every edit writes index.json again and copies graph.db to patch it, in every language (the store-size row). With the server the runtime and grammars are loaded once per session; the store is written on every edit either way.');
  L.push('', 'The machine is shared: absolute times carry its load (hook times are mostly Node start-up under it); the ratios come from the same rounds.');
  L.push('', machineLine(out), `Command: \`npm run build && node bench/languages-peers.mjs --no-peers --no-scale\` (${out.date}).`, END[1]);
  return L.join('\n');
}

function memorySection(out) {
  const L = [START[2], '### Memory per language (bench/languages-peers.mjs)', ''];
  const s = out.scale;
  const rounds = (r) => r.rounds ?? [[r.maxRssMB, r.treePeakMB]];
  const mid = (r, i) => median(rounds(r).map((x) => x[i] ?? 0));
  const mb = (v) => `${v.toFixed(0)} MB`;
  L.push(`Memory of a cold build (\`intel build --no-cache\`) at ${out.files} source files, copies of each tree (the last copy trimmed to that count), ${rounds(s['js/ts']).length} builds of each tree, interleaved. Peak RSS: ${s.method}'s, the largest single process. Process tree: the build and its parse worker process together, the sum of their PSS sampled every 20 ms. Each as the median of the builds (the largest in brackets); the ratios are of the medians; wall is the fastest build:`, '');
  L.push('| language | copies | files indexed | internal dependencies | peak RSS | / JS/TS | process tree | / JS/TS | per file | wall | each build (RSS / tree, MB) |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const name of ['python', 'go', 'js/ts']) {
    const r = s[name];
    if (!r) continue;
    const js = s['js/ts'];
    const tree = mid(r, 1);
    L.push(`| ${name} | ${r.copies} | ${r.files} | ${r.edges ?? '?'} | ${mb(mid(r, 0))} (${mb(r.maxRssMB)}) | ${x(mid(r, 0), mid(js, 0))} | ${tree ? `${mb(tree)} (${mb(r.treePeakMB)})` : '?'} | ${tree && mid(js, 1) ? x(tree, mid(js, 1)) : '?'} | ${((mid(r, 0) * 1024) / r.files).toFixed(1)} KB | ${(r.wallMs / 1000).toFixed(1)} s | ${rounds(r).map(([rss, t]) => `${rss.toFixed(0)} / ${t ? t.toFixed(0) : '?'}`).join(', ')} |`);
  }
  L.push('', 'A Python or Go build peaks where a JS/TS build of as many files does, in the write phase (graph.db, entity pages, index.json), and holds about what it holds. What the grammars cost stays out of that phase: below 4 cores the tree-sitter files of a large load go to one worker process while the main thread loads the JS/TS ones (`parse/pool.ts`), and it ends with the parse phase, taking along the tree-sitter runtime\'s WebAssembly memory (it grows to the largest file\'s parse and never shrinks: ~40 MB on the Go tree) and the C heap V8\'s optimising compiler used on the runtime\'s and the grammar\'s largest functions (in a worker thread, freeing that raised glibc\'s malloc trim threshold for the whole process, and the Go build peaked 15-20 MB above the JS/TS one). The peak RSS column is the build\'s process, with the worker process counted as GNU time counts a child (the larger of the two, not their sum); the process-tree column counts both at once, each page shared between them once (PSS), so it is what the machine holds at the busiest moment. The Go tree has more than twice the internal dependencies of the JS/TS tree (an import reaches every file of its package, and files reach the files of their own package that declare the names they use); its write phase holds them in about the memory the JS/TS one needs. From 10,000 files a build runs an extra full collection before the edge index (`engine/src/memory.ts`). GSD_PERF=1 prints RSS and heap (used/committed) after each phase.');
  L.push('', 'The machine is shared: the ratios come from the same rounds.');
  L.push('', machineLine(out), `Command: \`npm run build && node bench/languages-peers.mjs --no-peers --no-hooks\` (${out.date}).`, END[2]);
  return L.join('\n');
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (opts.runtime && opts.write) throw new Error('--runtime measures another build than this one: add --no-write');
  if (opts.runtime) POST = path.join(path.resolve(opts.runtime), 'hooks', 'post-tool-use.cjs');
  if (opts['results-only']) return writeBlocks(JSON.parse(fs.readFileSync(path.join(BASE, 'results.json'), 'utf8')));
  if (!fs.existsSync(OUR_CLI) || !fs.existsSync(POST)) throw new Error('run npm run build first');
  mkdirp(BASE);
  const out = {
    date: new Date().toISOString().slice(0, 10),
    machine: machineInfo(),
    go: execFileSync('go', ['version'], { encoding: 'utf8' }).trim().split(' ')[2]?.replace(/^go/, ''),
    python: execFileSync('python3', ['-c', 'import sys; print(sys.version.split()[0])'], { encoding: 'utf8' }).trim(),
    files: opts.files,
    runs: opts.runs,
  };
  const wanted = new Set(opts.languages.toLowerCase().split(',').filter(Boolean));
  const unknown = [...wanted].filter((l) => !CORPORA.some((c) => c.name.toLowerCase() === l));
  if (unknown.length) throw new Error(`--languages: no corpus for ${unknown.join(', ')} (one of ${CORPORA.map((c) => c.name.toLowerCase()).join(', ')})`);
  const corpora = CORPORA.filter((c) => wanted.has(c.name.toLowerCase()));
  const withJs = wanted.has('python') && wanted.has('go');
  if (!withJs) opts.scale = false;
  const trees = {};
  for (const c of corpora) if (opts.peers || opts.hooks || (opts.scale && ['Python', 'Go'].includes(c.name))) trees[c.name] = c.make(path.join(BASE, c.name.toLowerCase().replace('#', 'sharp').replace(/\+/g, 'p').replace(/[^a-z]/g, '')), opts);
  if (opts.peers) {
    const done = [];
    for (const c of corpora) {
      const loadavg = os.loadavg().map((n) => n.toFixed(2)).join(' ');
      const r = await peers(c.name, trees[c.name], opts.runs);
      out.method = r.method;
      done.push({ name: c.name, files: countFiles(trees[c.name], c.re), date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`, loadavg, ...r });
    }
    // rows of corpora not run this time keep their figures from the last run
    const last = readJson(path.join(BASE, 'results.json'), null)?.peers ?? [];
    out.peers = CORPORA.map((c) => done.find((d) => d.name === c.name) ?? last.find((d) => d.name === c.name)).filter(Boolean);
  }
  const py = trees.Python;
  const go = trees.Go;
  if (!opts.hooks && !opts.scale) {
    // the hooks and memory figures of the last full run keep their own machine line and date
    const last = readJson(path.join(BASE, 'results.json'), null) ?? out;
    Object.assign(out, { ...last, peers: out.peers, method: out.method ?? last.method, peersMachine: out.machine });
    writeJson(path.join(BASE, 'results.json'), out);
    if (out.peers) process.stdout.write(`${peersSection(out)}\n`);
    if (opts.write && out.peers) writeResultsSection(START[0], END[0], peersSection(out), 'languages-peers');
    return;
  }
  const zod = getCorpus('zod');
  ensureCorpus(zod);
  const js = copyTree(corpusDir('zod'), path.join(BASE, 'zod'));
  const jsTree = { tree: js, re: /\.(?:ts|mts|cts|js|mjs|cjs)$/, comment: '//' };
  if (opts.hooks) {
    const hookTrees = Object.fromEntries(corpora.map((c) => [c.name.toLowerCase(), { tree: trees[c.name], re: c.name === 'Python' ? /\.py$/ : c.re, comment: c.comment }]));
    hookTrees['js/ts'] = { ...jsTree, re: /^(?!.*\.d\.[cm]?ts$).*\.(?:ts|mts|cts|js|mjs|cjs)$/ };
    // a control for store size: zod plus 40 generated files of 1,080 exported constants each (as a C binding crate
    // declares them), whose index.json and graph.db are about the Rust tree's (6.5 and 8.5 MB against 7.4 and 11.8);
    // its edits are zod's own files
    if (wanted.has('rust')) hookTrees['js/ts-large'] = { ...hookTrees['js/ts'], tree: largeStore(corpusDir('zod'), path.join(BASE, 'zod-large')), re: /^src\/(?!consts\/).*\.ts$/ };
    out.hooks = await hooks(hookTrees, opts.edits);
  }
  if (opts.scale) out.scale = await scale({ python: { tree: py, re: /\.py$/, comment: '#' }, go: { tree: go, re: /\.go$/, comment: '//' }, 'js/ts': jsTree }, opts.files, opts['memory-rounds']);
  // the parts not measured this time keep their figures from the last run
  writeJson(path.join(BASE, 'results.json'), { ...readJson(path.join(BASE, 'results.json'), {}), ...out });
  if (out.peers) process.stdout.write(`${peersSection(out)}\n`);
  if (out.hooks) process.stdout.write(`${hooksSection(out)}\n`);
  if (out.scale) process.stdout.write(`${memorySection(out)}\n`);
  if (opts.write) writeBlocks(out);
});
