#!/usr/bin/env node
// The MCP server on a ≥ 700-file code base (zod): warm blast_radius time inside the server vs codegraph's impact
// query, server start-up vs `node -e 0`, server RSS, and the token size of tools/list and of a blast_radius answer.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CORPORA, ensureCorpora } from './corpora.mjs';
import { OUR_ENGINE, WORK_DIR, freshCopy, log, machineInfo, mkdirp, parseArgs, rmrf, runMain } from './lib/common.mjs';
import { median, percentile, min, max } from './lib/stats.mjs';
import { saveResult } from './lib/write-results.mjs';
import { updateMcpResults } from './lib/mcp-results.mjs';
import { SERVER, toolsListSize, tokens } from './mcp-tokens.mjs';
import { codegraphBin, codegraphEnv, ensureTools } from './tools.mjs';

const USAGE = `
Usage: node bench/mcp.mjs [options]      (build first: npm run build)

Copies the zod corpus to bench/.work/mcp/, builds its intel, and measures the MCP server as installs run it
(dist/runtime/mcp-server.js, the bundle) over stdio:
warm blast_radius on the top hotspot (time inside the server, GSD_MCP_TIMING=1) vs codegraph impact on the same
files, start-up to the first tools/list vs node -e 0, RSS, and token sizes. Writes bench/.work/results/mcp.json
and the mcp section of bench/RESULTS.md.`;

const SPEC = {
  corpus: { type: 'string', default: 'zod', help: 'corpus (≥ 700 files)' },
  runs: { type: 'number', default: 30, help: 'measured blast_radius / codegraph runs' },
  warmup: { type: 'number', default: 5, help: 'discarded warm-up calls' },
  'start-runs': { type: 'number', default: 10, help: 'start-up rounds (server and node -e 0 each)' },
  'results-md': { type: 'boolean', default: true, help: 'rewrite the mcp section of bench/RESULTS.md' },
};

const stats = (name, xs) => ({ name, n: xs.length, median: median(xs), p95: percentile(xs, 95), min: min(xs), max: max(xs) });
const hr = () => Number(process.hrtime.bigint()) / 1e6;

function spawnWall(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const t0 = hr();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: hr() - t0, code, out, err }));
  });
}

function procStatus(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
}

/**
 * Spawn → initialize → initialized → tools/list answered, with a raw JSON-RPC client on the pipes: the SDK Client
 * would add its own work (it compiles an ajv validator per outputSchema when it receives tools/list), which is the
 * client's cost, not the server's.
 */
function rawStartToToolsList(cwd) {
  return new Promise((resolve, reject) => {
    const t0 = hr();
    const child = spawn(process.execPath, [SERVER], { cwd, stdio: ['pipe', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
    let buf = '';
    child.on('error', reject);
    child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const msg = JSON.parse(line);
        if (msg.id === 2) {
          const ms = hr() - t0;
          if (!msg.result?.tools?.length) reject(new Error(`tools/list: ${line.slice(0, 300)}`));
          child.on('close', () => resolve(ms));
          child.kill('SIGTERM');
        }
      }
    });
    const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
  });
}

async function connect(cwd, env = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
  const client = new Client({ name: 'gsd-bench', version: '0' });
  await client.connect(transport);
  return { client, transport };
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build`);
  const corpus = CORPORA.find((c) => c.name === opts.corpus);
  if (!corpus) throw new Error(`unknown corpus ${opts.corpus}`);
  ensureTools();
  const [{ dir: src }] = ensureCorpora([corpus]);
  const base = mkdirp(path.join(WORK_DIR, 'mcp'));
  const ours = freshCopy(src, path.join(base, corpus.name));
  const cg = freshCopy(src, path.join(base, `${corpus.name}-codegraph`));
  fs.writeFileSync(path.join(cg, 'codegraph.json'), JSON.stringify({ exclude: ['*.min.js'] }, null, 2) + '\n');
  mkdirp(path.join(ours, '.planning'));
  const machine = machineInfo();
  const engine = await import(pathToFileURL(OUR_ENGINE).href);
  log(`mcp: building intel of ${ours}`);
  await engine.buildIntel(ours);
  const reader = await engine.openIntel(ours);
  const hot = engine.hotspots(reader, { limit: 1 }).hotspots[0];
  const hotNode = reader.nodes.get(hot.id);
  // the exported symbol most files import by name, for codegraph's symbol-level impact query
  const counts = new Map();
  for (const e of reader.in.get(hot.id) ?? []) for (const n of e.names) if (n !== '*' && n !== 'default') counts.set(n, (counts.get(n) ?? 0) + 1);
  const symbol = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? hotNode.exports[0]?.name;
  let edges = 0;
  for (const l of reader.out.values()) edges += l.length;
  log(`mcp: hotspot ${hot.path} (${hot.direct}/${hot.transitive}), symbol ${symbol}`);

  const cgBin = codegraphBin();
  const cgHome = mkdirp(path.join(base, 'codegraph-home'));
  log('mcp: codegraph init');
  rmrf(path.join(cg, '.codegraph'));
  const init = spawnSync(cgBin, ['init', '-y', cg], { env: codegraphEnv(cgHome), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (init.status !== 0) throw new Error(`codegraph init failed: ${init.stderr?.slice(-2000)}`);
  const cgArgs = ['impact', symbol, '-p', cg, '-f', hot.path, '-d', '3', '-j'];

  const { client, transport } = await connect(ours, { GSD_MCP_TIMING: '1' });
  const callArgs = { file: hot.path, max_depth: 3 };
  const handler = [];
  const roundTrip = [];
  const inProcess = [];
  const cgWall = [];
  const cgVersion = [];
  let answer = null;
  let cgOut = null;
  for (let i = 0; i < opts.warmup + opts.runs; i++) {
    const t0 = hr();
    const r = await client.callTool({ name: 'blast_radius', arguments: callArgs });
    const rt = hr() - t0;
    if (r.isError) throw new Error(`blast_radius failed: ${JSON.stringify(r.content)}`);
    const t1 = hr();
    engine.blastRadius(reader, hot.path, { maxDepth: 3 });
    const ip = hr() - t1;
    const c = await spawnWall(cgBin, cgArgs, { env: codegraphEnv(cgHome) });
    if (c.code !== 0) throw new Error(`codegraph impact failed: ${c.err.slice(-1000)}`);
    const v = await spawnWall(cgBin, ['--version'], { env: codegraphEnv(cgHome) });
    if (i < opts.warmup) continue;
    handler.push(r._meta?.['gsd/timing']?.handlerMs);
    roundTrip.push(rt);
    inProcess.push(ip);
    cgWall.push(c.ms);
    cgVersion.push(v.ms);
    answer = r;
    cgOut = c.out;
  }
  const withSymbol = [];
  for (let i = 0; i < 10; i++) {
    const r = await client.callTool({ name: 'blast_radius', arguments: { ...callArgs, symbol } });
    withSymbol.push(r._meta?.['gsd/timing']?.handlerMs);
  }
  const rss = procStatus(transport.pid);
  const { tools } = await client.listTools();
  await client.close();
  reader.close();

  log('mcp: start-up rounds');
  const startServer = [];
  const startNode = [];
  for (let i = 0; i < opts['start-runs'] + 1; i++) {
    const n = await spawnWall(process.execPath, ['-e', '0'], {});
    const ms = await rawStartToToolsList(ours);
    if (i === 0) continue;
    startNode.push(n.ms);
    startServer.push(ms);
  }
  const size = toolsListSize(tools);
  const blastStructuredChars = JSON.stringify(answer.structuredContent).length;
  const blastTextChars = answer.content.map((c) => c.text ?? '').join('').length;
  let cgSummary = '';
  try {
    const j = JSON.parse(cgOut);
    cgSummary = `codegraph's answer: ${JSON.stringify(j).length} chars of JSON`;
  } catch {
    cgSummary = `codegraph printed ${cgOut.length} chars`;
  }
  const hMed = median(handler);
  const cgMed = median(cgWall);
  const startRatio = median(startServer) / median(startNode);
  const bars = [
    { name: 'warm blast_radius on the hotspot, median inside the server', value: `${hMed.toFixed(2)} ms`, target: '≤ 10 ms', pass: hMed <= 10 },
    { name: 'vs codegraph impact on the same files (ours / codegraph)', value: `${(hMed / cgMed).toFixed(4)} (${hMed.toFixed(2)} / ${cgMed.toFixed(1)} ms)`, target: '≤ 0.333', pass: hMed / cgMed <= 1 / 3 },
    { name: 'server start → first tools/list vs node -e 0', value: `${startRatio.toFixed(2)}× (${median(startServer).toFixed(1)} / ${median(startNode).toFixed(1)} ms)`, target: '≤ 4×', pass: startRatio <= 4 },
    { name: 'server RSS on the corpus (after warm calls)', value: `${rss.rssMB.toFixed(1)} MB (peak ${rss.hwmMB.toFixed(1)} MB)`, target: '≤ 150 MB', pass: rss.hwmMB <= 150 },
    { name: 'tools/list, the whole result (tools with input and output schemas, annotations)', value: `${size.full} tokens (${size.fullChars} chars)`, target: '≤ 4,000 tokens', pass: size.full <= 4000 },
    { name: 'tools/list, model-facing part (name+description+input_schema, what Claude Code forwards)', value: `${size.modelFacing} tokens`, target: 'info', pass: null },
    { name: 'typical blast_radius answer (structuredContent, hotspot)', value: `${tokens(blastStructuredChars)} tokens`, target: '≤ 2,000 tokens', pass: tokens(blastStructuredChars) <= 2000 },
  ];
  const result = {
    date: new Date().toISOString(),
    machine,
    loadavgEnd: os.loadavg().map((x) => x.toFixed(2)).join(' '),
    corpus: `${corpus.pkg}@${corpus.version}`,
    files: reader.nodes.size,
    edges,
    workDir: path.relative(process.cwd(), ours),
    hotspot: { file: hot.path, direct: hot.direct, transitive: hot.transitive, symbol },
    warmup: opts.warmup,
    runs: opts.runs,
    startRuns: opts['start-runs'],
    callArgs,
    codegraph: { command: `codegraph ${cgArgs.join(' ').replace(cg, path.relative(process.cwd(), cg))}`, versionMedianMs: median(cgVersion) },
    table: [
      stats('blast_radius, inside the server (handler) ms', handler),
      stats(`blast_radius with symbol ${symbol}, inside the server ms`, withSymbol),
      stats('blast_radius, client round trip over stdio ms', roundTrip),
      stats('engine blastRadius alone, in this process ms', inProcess),
      stats('codegraph impact, CLI wall ms', cgWall),
      stats('codegraph --version, CLI wall ms (start-up floor)', cgVersion),
      stats('server spawn → first tools/list ms', startServer),
      stats('node -e 0 ms', startNode),
    ],
    rss,
    tokens: { ...size, blastStructured: tokens(blastStructuredChars), blastText: tokens(blastTextChars) },
    bars,
    notes: [
      cgSummary,
      `codegraph impact minus its own start-up floor: ${(cgMed - median(cgVersion)).toFixed(1)} ms median; ours / that: ${(hMed / (cgMed - median(cgVersion))).toFixed(4)}.`,
    ],
  };
  saveResult('mcp', result);
  if (opts['results-md']) updateMcpResults();
  for (const b of bars) log(`mcp: ${b.name}: ${b.value} (target ${b.target}) ${b.pass === null ? '' : b.pass ? 'PASS' : 'FAIL'}`);
  return 0;
});
