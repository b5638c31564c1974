#!/usr/bin/env node
// guidance_load over 100 generated guidance files: warm keyword searches, load-by-number follow-ups, and searches
// after every file's mtime moved (each call re-parses all 100: the parse cache defeated). The server is the runtime
// bundle (dist/runtime/mcp-server.js, what an install runs), driven by the SDK's Client over stdio with
// GSD_MCP_TIMING=1, so the handler's own time comes back in _meta. Baseline of the same run: a `ping` round trip.
// Bar: median ≤ 50 ms for a warm search over 100 files.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { log, machineInfo, parseArgs, runMain, UsageError } from './lib/common.mjs';
import { median, percentile } from './lib/stats.mjs';
import { loadResult, saveResult, writeResultsSection } from './lib/write-results.mjs';
import { SERVER } from './mcp-tokens.mjs';

const START = '<!-- guidance:start -->';
const END = '<!-- guidance:end -->';
const BAR_MS = 50;

const USAGE = `
Usage: node bench/guidance.mjs [options]     (needs npm run build: dist/runtime/)

Generates --files guidance files in a temp project, then times guidance_load through the real MCP client and writes
the guidance section of bench/RESULTS.md.`;

const SPEC = {
  files: { type: 'number', default: 100, help: 'guidance files to generate' },
  runs: { type: 'number', default: 60, help: 'measured calls per case' },
  warmup: { type: 'number', default: 5, help: 'discarded calls per case' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};

const AREAS = ['api', 'auth', 'database', 'frontend', 'testing', 'deploy', 'security', 'performance', 'logging', 'errors'];
const WORDS = (
  'request response handler route schema validation token session cookie cache index query migration transaction ' +
  'component render state hook style layout fixture mock assertion coverage pipeline release rollback secret audit ' +
  'latency throughput profile memory log trace metric alert retry timeout fallback boundary contract version'
).split(' ');
const LEVELS = ['strategic', 'design', 'implementation'];
const QUERIES = [
  'api request validation',
  'database migration rollback',
  'auth session token',
  'frontend component state',
  'testing fixture coverage',
  'deploy release pipeline',
  'security secret audit',
  'performance latency profile',
  'logging trace metric',
  'errors retry timeout',
];

/** deterministic pseudo-random numbers, so every run generates the same files */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);
}

function generate(dir, count) {
  const rand = rng(42);
  const written = [];
  const pick = (list) => list[Math.floor(rand() * list.length)];
  for (let i = 0; i < count; i++) {
    const area = AREAS[i % AREAS.length];
    const levels = LEVELS.filter(() => rand() < 0.55);
    if (!levels.length) levels.push(pick(LEVELS));
    const tags = [area, pick(WORDS), pick(WORDS)];
    const flow = i % 2 === 0;
    const fm =
      i % 25 === 24
        ? 'type: guide\nfocus_levels: [design\n' // one malformed file in 25
        : `type: ${pick(['guide', 'checklist', 'reference'])}\ncategory: ${area}\n` +
          (flow ? `focus_levels: [${levels.join(', ')}]\ntags: [${tags.join(', ')}]\n` : `focus_levels:\n${levels.map((l) => `  - ${l}`).join('\n')}\ntags:\n${tags.map((t) => `  - ${t}`).join('\n')}\n`);
    const lines = [`# ${area} ${pick(WORDS)} notes ${i}`, ''];
    for (let p = 0; p < 12; p++) {
      const sentence = Array.from({ length: 8 + Math.floor(rand() * 10) }, () => pick(WORDS)).join(' ');
      lines.push(`- ${sentence[0].toUpperCase()}${sentence.slice(1)}.`, `  Prefer the ${pick(WORDS)} over the ${pick(WORDS)} when the ${pick(WORDS)} changes.`);
    }
    if (i % 10 === 0) lines.push('', `@${AREAS[(i + 1) % AREAS.length]}/${AREAS[(i + 1) % AREAS.length]}-${i + 1}.md`);
    const sub = path.join(dir, area);
    mkdirSync(sub, { recursive: true });
    const file = path.join(sub, `${area}-${i}.md`);
    writeFileSync(file, `---\n${fm}---\n${lines.join('\n')}\n`);
    written.push(file);
  }
  return written;
}

const r2 = (x) => Math.round(x * 100) / 100;
const stats = (xs) => ({ median: r2(median(xs)), p90: r2(percentile(xs, 90)), min: r2(Math.min(...xs)), max: r2(Math.max(...xs)) });

async function main() {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (!(opts.files >= 1) || !(opts.runs >= 1)) throw new UsageError('--files and --runs must be ≥ 1');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-bench-guidance-'));
  const root = path.join(tmp, 'project');
  const gdir = path.join(root, '.planning', 'guidance');
  mkdirSync(gdir, { recursive: true });
  const files = generate(gdir, opts.files);
  const client = new Client({ name: 'bench-guidance', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: root, env: { PATH: process.env.PATH ?? '', HOME: tmp, GSD_MCP_TIMING: '1', GSD_MCP_MODE: 'in-process' } }));
  const out = { bench: 'guidance', date: new Date().toISOString(), machine: machineInfo(), command: `node bench/guidance.mjs ${process.argv.slice(2).join(' ')}`.trim(), files: opts.files, runs: opts.runs, cases: {} };
  try {
    const call = async (args) => {
      const t0 = performance.now();
      const r = await client.callTool({ name: 'guidance_load', arguments: args });
      const roundTrip = performance.now() - t0;
      if (r.isError) throw new Error(`guidance_load ${JSON.stringify(args)}: ${JSON.stringify(r.content)}`);
      return { roundTrip, handler: r._meta?.['gsd/timing']?.handlerMs ?? NaN, search: r.structuredContent.performanceMetrics.searchMs, metrics: r.structuredContent.performanceMetrics };
    };
    const first = await call({ query: QUERIES[0], focus_level: 'design' });
    out.cold = { handlerMs: r2(first.handler), roundTripMs: r2(first.roundTrip), metrics: first.metrics };
    log(`guidance: cold first call ${r2(first.handler)} ms in the server (${first.metrics.filesScanned} files scanned)`);
    const cases = {
      ping: async () => {
        const t0 = performance.now();
        await client.ping();
        return { roundTrip: performance.now() - t0, handler: NaN, search: NaN };
      },
      search: async (i) => call({ query: QUERIES[i % QUERIES.length], focus_level: LEVELS[i % LEVELS.length], max_auto_load: 2 }),
      byNumber: async () => call({ query: '3,4', focus_level: 'design' }),
      uncached: async (i) => {
        const t = new Date(Date.now() + (i + 1) * 1000);
        for (const f of files) utimesSync(f, t, t);
        return call({ query: QUERIES[i % QUERIES.length], focus_level: LEVELS[i % LEVELS.length] });
      },
    };
    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, { roundTrip: [], handler: [], search: [] }]));
    let lastMetrics = null;
    await call({ query: QUERIES[1], focus_level: 'design', max_auto_load: 1 }); // a list for byNumber
    for (let i = 0; i < opts.warmup + opts.runs; i++) {
      // cases in rotating order, so a slow spell of the shared machine does not always hit the same one
      const names = Object.keys(cases);
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length];
        if (name === 'byNumber') await call({ query: QUERIES[i % QUERIES.length], focus_level: 'design', max_auto_load: 1 });
        const r = await cases[name](i);
        if (name === 'search') lastMetrics = r.metrics;
        if (i < opts.warmup) continue;
        for (const key of ['roundTrip', 'handler', 'search']) if (Number.isFinite(r[key])) samples[name][key].push(r[key]);
      }
    }
    for (const [name, s] of Object.entries(samples)) {
      out.cases[name] = Object.fromEntries(Object.entries(s).filter(([, xs]) => xs.length).map(([k, xs]) => [k, stats(xs)]));
    }
    out.metrics = lastMetrics;
    out.ratio = r2(out.cases.search.roundTrip.median / out.cases.ping.roundTrip.median);
    out.pass = out.cases.search.handler.median <= BAR_MS;
    log(`guidance: warm search median ${out.cases.search.handler.median} ms in the server, ${out.cases.search.roundTrip.median} ms round trip (ping ${out.cases.ping.roundTrip.median} ms); uncached ${out.cases.uncached.handler.median} ms; by number ${out.cases.byNumber.handler.median} ms → ${out.pass ? 'PASS' : 'FAIL'} (bar ≤ ${BAR_MS} ms)`);
  } finally {
    await client.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  saveResult('guidance', out);
  if (!opts['no-results-md']) updateGuidanceResultsMd();
  return 0;
}

export function renderGuidanceSection(r) {
  if (!r) return `${START}\n### guidance_load (bench/guidance.mjs)\n\nNot run yet: \`npm run build && node bench/guidance.mjs\`.\n${END}`;
  const m = r.machine;
  const row = (label, c) => `| ${label} | ${c.handler?.median ?? '—'} | ${c.handler?.p90 ?? '—'} | ${c.search?.median ?? '—'} | ${c.roundTrip.median} | ${c.roundTrip.p90} |`;
  return [
    START,
    '### guidance_load (bench/guidance.mjs)',
    '',
    `- Date: ${r.date}; machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}; Node ${m.node}; load average at start ${m.loadavg}`,
    `- Command: \`npm run build && ${r.command}\`; the runtime bundle over stdio, ${r.files} generated guidance files (one in 25 with malformed frontmatter, one in 10 with an @reference) plus the package's own; ${r.runs} measured calls per case after warm-up, cases interleaved.`,
    `- Last warm search: ${r.metrics?.filesScanned} files scanned, ${r.metrics?.filesMatched} matched. Cold first call of the server: ${r.cold.handlerMs} ms in the handler (loads the yaml library and parses every file).`,
    '',
    '| case | handler median (ms) | handler p90 | searchMs median | round trip median (ms) | round trip p90 |',
    '|---|---|---|---|---|---|',
    row('warm keyword search (10 queries, 3 levels, 2 loaded)', r.cases.search),
    row('load by number ("3,4")', r.cases.byNumber),
    row('every file touched before the call (all re-parsed)', r.cases.uncached),
    row('baseline: `ping` round trip', r.cases.ping),
    '',
    `Bar: a warm guidance_load over ${r.files} files answers in ≤ ${BAR_MS} ms median inside the server: ${r.pass ? '**PASS**' : '**FAIL**'} (${r.cases.search.handler.median} ms). Round trip of a search / ping: ${r.ratio}×.`,
    END,
  ].join('\n');
}

export function updateGuidanceResultsMd() {
  writeResultsSection(START, END, renderGuidanceSection(loadResult('guidance')), 'guidance');
}

if (import.meta.url === `file://${process.argv[1]}`) runMain(main);
