#!/usr/bin/env node
// The shared server (docs/shared-server.md) against one stdio server per session, on 4 git worktrees of zod
// (≥ 700 files): 8 concurrent sessions (2 per worktree) doing the same calls, memory as the sum of RSS of every
// server-side process, and the warm round trip of one call through the stdio shim vs the direct stdio server.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureCorpora, getCorpus, corpusDir } from './corpora.mjs';
import { OUR_ENGINE, ROOT, WORK_DIR, log, machineInfo, mkdirp, parseArgs, setAside, runMain } from './lib/common.mjs';
import { median, percentile } from './lib/stats.mjs';
import { loadResult, saveResult, writeResultsSection } from './lib/write-results.mjs';

const USAGE = `
Usage: node bench/shared-server.mjs [options]      (build first: npm run build)

Makes a git repository of the zod corpus with 3 more worktrees (bench/.work/shared/), builds their intel, then:
 1. 8 stdio servers (dist/runtime/mcp-server.js, GSD_MCP_MODE=in-process), 2 per worktree, each doing the same
    calls, concurrently; sum of their RSS;
 2. one daemon (dist/runtime/mcp-server.js --daemon) with 8 sessions over HTTP doing the same calls (the
    install --shared registration): the daemon's RSS; and with 8 stdio shims in front (the default registration):
    daemon + shims;
 3. warm round trip of file_context through a shim vs a direct stdio server (median of --runs calls each), and for
    reference over http straight to the daemon, and of a ping (the transport alone) through the shim and direct.
Writes bench/.work/results/shared-server.json and its section of bench/RESULTS.md.`;

const SPEC = {
  corpus: { type: 'string', default: 'zod', help: 'corpus (≥ 700 files)' },
  sessions: { type: 'number', default: 8, help: 'concurrent sessions' },
  worktrees: { type: 'number', default: 4, help: 'worktrees (sessions spread over them)' },
  runs: { type: 'number', default: 200, help: 'measured warm round trips per side' },
  warmup: { type: 'number', default: 20, help: 'discarded warm-up round trips' },
  'results-md': { type: 'boolean', default: true, help: 'rewrite the shared-server section of bench/RESULTS.md' },
  'render-only': { type: 'boolean', default: false, help: 'only rewrite the section from the last saved result' },
};

const SERVER = path.join(ROOT, 'dist', 'runtime', 'mcp-server.js');
const START = '<!-- shared-server:start -->';
const END = '<!-- shared-server:end -->';
const hr = () => Number(process.hrtime.bigint()) / 1e6;
const rssMB = (pid) => Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });

/** The calls every session makes (the same on both sides). */
async function workload(client) {
  const hot = (await client.callTool({ name: 'hotspots', arguments: { limit: 5 } })).structuredContent.hotspots;
  for (const h of hot.slice(0, 3)) {
    await client.callTool({ name: 'file_context', arguments: { file: h.path } });
    await client.callTool({ name: 'blast_radius', arguments: { file: h.path } });
  }
  await client.callTool({ name: 'query_intel', arguments: { query: 'parse string schema' } });
  await client.callTool({ name: 'codebase_patterns', arguments: {} });
}

async function stdioClient(cwd, env) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd, env: { PATH: process.env.PATH, ...env }, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

async function httpClient(url, token, folder) {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}`, 'x-gsd-root': encodeURIComponent(folder) } } }));
  return client;
}

async function roundTrips(client, file, runs, warmup) {
  const xs = [];
  for (let i = 0; i < warmup + runs; i++) {
    const t0 = hr();
    if (file) await client.callTool({ name: 'file_context', arguments: { file } });
    else await client.ping();
    if (i >= warmup) xs.push(hr() - t0);
  }
  return xs;
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (opts['render-only']) {
    writeResultsSection(START, END, renderSection(loadResult('shared-server')), 'shared-server');
    return 0;
  }
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build`);
  const corpus = getCorpus(opts.corpus);
  ensureCorpora([corpus]);
  const work = mkdirp(path.join(WORK_DIR, 'shared'));
  setAside(work);
  const repo = path.join(work, 'wt0');
  fs.cpSync(corpusDir(corpus.name), repo, { recursive: true });
  fs.mkdirSync(path.join(repo, '.planning'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.planning', 'config.json'), '{}\n');
  fs.writeFileSync(path.join(repo, '.gitignore'), '.planning/intel/\n');
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'corpus');
  const trees = [repo];
  for (let i = 1; i < opts.worktrees; i++) {
    const wt = path.join(work, `wt${i}`);
    git(repo, 'worktree', 'add', '-q', '-b', `wt${i}`, wt);
    trees.push(wt);
  }
  const { buildIntel } = await import(pathToFileURL(OUR_ENGINE).href);
  let files = 0;
  for (const t of trees) files = (await buildIntel(t)).files ?? files;
  log(`shared: ${trees.length} worktrees of ${corpus.name} (${files} files each) under ${work}`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-bench-home-'));
  const env = { HOME: home, GSD_HOME: path.join(home, 'gsd') };
  const folderOf = (i) => trees[i % trees.length];

  // 1. one stdio server per session
  const stdio = await Promise.all(Array.from({ length: opts.sessions }, (_, i) => stdioClient(folderOf(i), { ...env, GSD_MCP_MODE: 'in-process' })));
  await Promise.all(stdio.map((s) => workload(s.client)));
  await sleep(500);
  const stdioRss = stdio.map((s) => rssMB(s.pid));
  const direct = stdio[0];

  // 2. one daemon, sessions over HTTP (install --shared), then through shims (the default registration)
  const daemon = spawn(process.execPath, [SERVER, '--daemon'], { env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
  const infoFile = path.join(env.GSD_HOME, 'daemon.json');
  for (let i = 0; i < 400 && !fs.existsSync(infoFile); i++) await sleep(50);
  const info = JSON.parse(fs.readFileSync(infoFile, 'utf8'));
  const token = fs.readFileSync(path.join(env.GSD_HOME, 'token'), 'utf8').trim();
  const http = await Promise.all(Array.from({ length: opts.sessions }, (_, i) => httpClient(info.url, token, folderOf(i))));
  await Promise.all(http.map((c) => workload(c)));
  await sleep(500);
  const daemonHttpRss = rssMB(daemon.pid);
  const shims = await Promise.all(Array.from({ length: opts.sessions }, (_, i) => stdioClient(folderOf(i), env)));
  await Promise.all(shims.map((s) => workload(s.client)));
  await sleep(500);
  const daemonRss = rssMB(daemon.pid);
  const shimRss = shims.map((s) => rssMB(s.pid));

  // 3. warm round trips, interleaved in blocks so that machine noise hits both sides alike
  const hotFile = (await direct.client.callTool({ name: 'hotspots', arguments: { limit: 1 } })).structuredContent.hotspots[0].path;
  const viaShim = [];
  const viaStdio = [];
  const viaHttp = [];
  const pingShim = [];
  const pingStdio = [];
  const block = Math.max(1, Math.floor(opts.runs / 10));
  await roundTrips(shims[0].client, hotFile, 0, opts.warmup);
  await roundTrips(direct.client, hotFile, 0, opts.warmup);
  await roundTrips(http[0], hotFile, 0, opts.warmup);
  for (let done = 0; done < opts.runs; done += block) {
    viaStdio.push(...(await roundTrips(direct.client, hotFile, block, 0)));
    viaShim.push(...(await roundTrips(shims[0].client, hotFile, block, 0)));
    viaHttp.push(...(await roundTrips(http[0], hotFile, block, 0)));
    pingStdio.push(...(await roundTrips(direct.client, null, block, 0)));
    pingShim.push(...(await roundTrips(shims[0].client, null, block, 0)));
  }
  for (const s of [...stdio, ...shims]) await s.client.close();
  for (const c of http) await c.close();
  const exited = daemon.exitCode !== null ? Promise.resolve() : new Promise((r) => daemon.once('exit', r));
  daemon.kill('SIGTERM');
  await exited; // the daemon writes under home until it exits: removing home earlier raced it (ENOTEMPTY)
  fs.rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });

  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const result = {
    at: new Date().toISOString(),
    machine: machineInfo(),
    corpus: corpus.name,
    files,
    worktrees: trees.length,
    sessions: opts.sessions,
    memory: {
      stdioSumMB: sum(stdioRss),
      stdioEachMB: stdioRss,
      daemonHttpMB: daemonHttpRss,
      daemonWithShimSessionsMB: daemonRss,
      shimsSumMB: sum(shimRss),
      shimEachMedianMB: median(shimRss),
      httpRatio: daemonHttpRss / sum(stdioRss),
      shimRatio: (daemonRss + sum(shimRss)) / sum(stdioRss),
    },
    roundTrip: {
      tool: 'file_context',
      runs: viaShim.length,
      stdioMedianMs: median(viaStdio),
      stdioP95Ms: percentile(viaStdio, 95),
      shimMedianMs: median(viaShim),
      shimP95Ms: percentile(viaShim, 95),
      ratio: median(viaShim) / median(viaStdio),
      httpMedianMs: median(viaHttp),
      pingStdioMedianMs: median(pingStdio),
      pingShimMedianMs: median(pingShim),
    },
  };
  saveResult('shared-server', result);
  log(JSON.stringify(result.memory), JSON.stringify(result.roundTrip));
  if (opts['results-md']) writeResultsSection(START, END, renderSection(result), 'shared-server');
  return 0;
});

function renderSection(r) {
  const m = r.memory;
  const t = r.roundTrip;
  const f = (x) => x.toFixed(1);
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  return [
    START,
    '### One daemon for eight sessions (bench/shared-server.mjs)',
    '',
    `${r.at}, ${r.machine.cpu} × ${r.machine.cores}, ${r.machine.memGiB} GiB, ${r.machine.os}, node ${r.machine.node}, load average at the end ${r.machine.loadavg} (other jobs were running); \`npm run build && node bench/shared-server.mjs\`. ` +
      `${r.sessions} concurrent sessions on ${r.worktrees} git worktrees of ${r.corpus} (${r.files} files each), 2 per worktree, each doing the same ` +
      'calls (hotspots, file_context and blast_radius on the top 3, query_intel, codebase_patterns). Memory is the sum of VmRSS of every server-side process after the calls.',
    '',
    '| setup | processes | RSS (MB) | vs 8 stdio servers | bar |',
    '|---|---|---|---|---|',
    `| 8 stdio servers (one per session, in-process) | 8 | ${f(m.stdioSumMB)} (each ${f(Math.min(...m.stdioEachMB))}–${f(Math.max(...m.stdioEachMB))}) | 100 % | |`,
    `| one daemon, 8 sessions over http (\`install --shared\`) | 1 | ${f(m.daemonHttpMB)} | ${pct(m.httpRatio)} | ≤ 30 %: ${m.httpRatio <= 0.3 ? 'PASS' : 'FAIL'} |`,
    `| one daemon + 8 stdio shims (default registration) | 9 | ${f(m.daemonWithShimSessionsMB)} + ${f(m.shimsSumMB)} (a shim ~${f(m.shimEachMedianMB)}) | ${pct(m.shimRatio)} | (a shim is a Node process) |`,
    '',
    `Warm round trip of \`${t.tool}\` (SDK Client, ${t.runs} calls a side, interleaved in blocks): direct stdio median ${t.stdioMedianMs.toFixed(2)} ms (p95 ${t.stdioP95Ms.toFixed(2)}), ` +
      `through the shim and the daemon ${t.shimMedianMs.toFixed(2)} ms (p95 ${t.shimP95Ms.toFixed(2)}): **${t.ratio.toFixed(2)}×** (bar ≤ 2×: ${t.ratio <= 2 ? 'PASS' : 'FAIL'}).` +
      (t.httpMedianMs === undefined
        ? ''
        : ` For reference, in the same blocks: over http straight to the daemon (\`install --shared\`) ${t.httpMedianMs.toFixed(2)} ms (${(t.httpMedianMs / t.stdioMedianMs).toFixed(2)}×); a \`ping\` (the transport alone) ${t.pingStdioMedianMs.toFixed(2)} ms direct, ${t.pingShimMedianMs.toFixed(2)} ms through the shim.`),
    END,
  ].join('\n');
}
