#!/usr/bin/env node
// `route` on real code bases of 700+ files (zod, webpack): one question per family in plain words, each answer
// checked against the engine's own answer (dist/engine), its token size (characters / 4), and the warm time inside
// the server of an execute-mode blast-radius question (GSD_MCP_TIMING=1), cache misses only.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureCorpora, selectCorpora } from './corpora.mjs';
import { OUR_CLI, OUR_ENGINE, WORK_DIR, freshCopy, log, machineInfo, parseArgs, runMain, sh } from './lib/common.mjs';
import { writeResultsSection } from './lib/write-results.mjs';
import { median, percentile } from './lib/stats.mjs';
import { SERVER, toolsListSize } from './mcp-tokens.mjs';

const USAGE = `
Usage: node bench/route.mjs [--corpora zod,webpack] [--runs 30]   (build first: npm run build)

Copies each corpus to bench/.work/route/<name>/ with a small GSD plan (.planning/ROADMAP.md, REQUIREMENTS.md,
STATE.md, one phase), builds its intel, asks route one question per family through the server as installs run it
(dist/runtime/mcp-server.js) and checks every answer against the engine. Appends nothing unless --results-md:
then it rewrites its section of bench/RESULTS.md (between <!-- route:start --> and <!-- route:end -->).`;

const SPEC = {
  corpora: { type: 'string', default: 'zod,webpack', help: 'corpora of 700+ files' },
  runs: { type: 'number', default: 30, help: 'timed blast-radius questions (distinct files: cache misses)' },
  'results-md': { type: 'boolean', default: false, help: 'rewrite the route section of bench/RESULTS.md' },
};

const tokens = (v) => Math.ceil(JSON.stringify(v).length / 4);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const PLAN = {
  'ROADMAP.md': '# Roadmap\n\n## Phases\n\n- [x] **Phase 1: Parsing core** - the parser and its errors\n- [ ] **Phase 2: Error messages** - readable error messages\n\n## Phase Details\n\n### Phase 1: Parsing core\n**Goal**: parse input into typed values and report errors\n**Requirements**: CORE-01\n\n### Phase 2: Error messages\n**Goal**: readable error messages for every failed check\n**Requirements**: CORE-02\n',
  'REQUIREMENTS.md': '# Requirements\n\n## v1 Requirements\n\n- [x] **CORE-01**: parse input into typed values\n- [ ] **CORE-02**: readable error messages\n\n## Traceability\n\n| Requirement | Phase | Status |\n|---|---|---|\n| CORE-01 | Phase 1 | Complete |\n| CORE-02 | Phase 2 | Pending |\n',
  'STATE.md': '# Project State\n\n## Current Position\n\nPhase: 2 of 2 (Error messages)\nStatus: In progress\n',
  'phases/01-parsing-core/01-01-SUMMARY.md': '---\nphase: 01-parsing-core\nplan: 01\n---\n\n# Phase 1 Plan 1: Parsing core summary\n\nParsed input into typed values with error reporting for failed checks.\n',
};

async function corpusRun(c, runs) {
  const root = path.join(WORK_DIR, 'route', c.name);
  freshCopy(c.dir, root);
  for (const [rel, text] of Object.entries(PLAN)) {
    fs.mkdirSync(path.dirname(path.join(root, '.planning', rel)), { recursive: true });
    fs.writeFileSync(path.join(root, '.planning', rel), text);
  }
  log(`route: building the intel of ${c.name}`);
  sh(process.execPath, [OUR_CLI, 'intel', 'build', root]);
  const engine = await import(pathToFileURL(OUR_ENGINE).href);
  const reader = await engine.openIntel(root);
  const files = reader.nodes.size;
  const client = new Client({ name: 'gsd-route-bench', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: root, env: { ...process.env, GSD_MCP_TIMING: '1', GSD_MCP_MODE: 'in-process' } }));
  const ask = async (query, extra = {}) => {
    const r = await client.callTool({ name: 'route', arguments: { query, ...extra } });
    if (r.isError) throw new Error(`route "${query}": ${JSON.stringify(r.content)}`);
    return { a: r.structuredContent, ms: r._meta?.['gsd/timing']?.handlerMs ?? NaN };
  };
  const step = (a, id) => a.results.find((r) => r.id === id);

  // subjects picked from the engine: the top hotspot, a source file with a unique name and dependencies, a declared export
  const hot = engine.hotspots(reader, { limit: 20_000 }).hotspots;
  const hub = hot[0].path;
  const baseCount = new Map();
  for (const p of reader.byPath.keys()) baseCount.set(path.posix.basename(p), (baseCount.get(path.posix.basename(p)) ?? 0) + 1);
  const nodes = [...reader.nodes.values()].filter((n) => n.type === 'source');
  const file = nodes.find((n) => baseCount.get(path.posix.basename(n.path)) === 1 && engine.dependencies(reader, n.id).dependencies.length >= 3 && engine.dependentCounts(reader, n.id).direct >= 2).path;
  let sym = null;
  for (const h of hot) {
    const n = reader.nodes.get(reader.byPath.get(h.path));
    const e = n.exports.find((x) => x.kind !== 'reexport' && x.name !== 'default' && /^[A-Za-z_$][\w$]{3,}$/.test(x.name));
    if (e) {
      sym = { file: n.path, name: e.name, line: e.line };
      break;
    }
  }
  const purposeWords = (p) => reader.nodes.get(reader.byPath.get(p)).purpose.split(/\W+/).filter((w) => w.length > 4).slice(0, 3).join(' ');
  const vagueWords = purposeWords(file) || path.posix.basename(file).replace(/\.[^.]+$/, '');
  const checks = [
    ['dependents', `who imports ${hub}?`, (a) => {
      const d = step(a, 'answer').data;
      const want = engine.dependencies(reader, hub).dependents.map((x) => x.path);
      return d.by_depth[0].total === want.length && d.by_depth[0].files.every((f) => want.includes(f));
    }],
    // several files may declare the name (zod ships .ts, .js, .cjs and .d.ts twins): the answer must be right for the file route chose
    ['impact', `what breaks if I change ${sym.name}`, (a) => {
      const chosen = reader.nodes.get(reader.byPath.get(a.subject.path));
      return chosen.exports.some((x) => x.name === sym.name && x.kind !== 'reexport') && step(a, 'answer').data.total === engine.blastRadius(reader, a.subject.path, { symbol: sym.name, maxDepth: 3 }).total;
    }],
    ['explain', `explain ${path.posix.basename(file)}`, (a) => step(a, 'answer').data.path === file],
    ['explain (vague name)', `tell me about the module that handles ${vagueWords}`, (a) => a.results.at(-1).data?.path === engine.searchIntel(reader, vagueWords, { limit: 5 }).results[0]?.path],
    // the declaration (file:line) the engine ranks first, which for `module.exports.X = X` is not the export's line
    ['definition', `where is ${sym.name} defined?`, (a) => {
      const d = engine.definitions(reader, sym.name)[0];
      const top = step(a, 'answer').data.locations[0];
      return top.path === reader.nodes.get(d.id).path && top.line === d.line;
    }],
    ['imports', `what does ${file} import`, (a) => {
      const d = step(a, 'answer').data;
      const want = engine.dependencies(reader, file).dependencies.map((x) => x.path);
      return d.dependencies.total === want.length && same(d.dependencies.items, want.slice(0, d.dependencies.items.length));
    }],
    ['hotspots', 'what are the most depended-on files', (a) => same(step(a, 'hotspots').data.hotspots.map((h) => h.path), hot.map((h) => h.path).slice(0, step(a, 'hotspots').data.hotspots.length))],
    ['architecture', 'give me an overview of the architecture', (a) => a.results.every((r) => r.ok) && step(a, 'hotspots').data.hotspots[0].path === hub],
    ['conventions', `what are the conventions in ${path.posix.dirname(file)}`, (a) => step(a, 'patterns').data.areas.items.some((x) => x.folder === path.posix.dirname(file))],
    ['phase goal', 'what matters for phase 1', (a) => step(a, 'files').ok && step(a, 'files').data.files.length > 0],
    ['status', 'status of CORE-01', (a) => step(a, 'req-CORE-01').data.requirements[0].state === 'complete'],
    ['similar work', 'have we done something like parsing input into typed values before', (a) => step(a, 'similar').data.items[0]?.phase === '1'],
    ['fallback', 'frobnicate quux', (a) => a.family === 'search' && /no question family matched/.test(a.notes[0])],
  ];
  const answers = [];
  for (const [family, q, ok] of checks) {
    const { a } = await ask(q);
    let pass = false;
    try {
      pass = Boolean(ok(a));
    } catch {
      pass = false;
    }
    answers.push({ family, query: q, routed: a.family, tokens: tokens(a), ok: pass, truncated: Boolean(a.truncated) });
    log(`route ${c.name}: ${pass ? 'ok  ' : 'FAIL'} ${family.padEnd(20)} ${String(tokens(a)).padStart(5)} tokens  "${q}"`);
  }
  // warm execute-mode blast radius: distinct files, so each is a cache miss; first 5 discarded
  const targets = [...reader.nodes.values()].filter((n) => n.type === 'source').map((n) => n.path).slice(0, runs + 5);
  const times = [];
  for (const [i, t] of targets.entries()) {
    const { ms } = await ask(`what breaks if I change ${t}`);
    if (i >= 5) times.push(ms);
  }
  // the top hotspot (the largest blast radius): each max_tokens a new cache key, so every call is a miss
  const hubTimes = [];
  for (let i = 0; i < runs + 5; i++) {
    const { ms } = await ask(`impact of changing ${hub}`, { max_tokens: 2000 + i });
    if (i >= 5) hubTimes.push(ms);
  }
  const hub1 = await ask(`impact of changing ${hub}`);
  const hits = [];
  for (let i = 0; i < 10; i++) hits.push((await ask(`impact of changing ${hub}`)).ms);
  const { tools } = await client.listTools();
  await client.close();
  reader.close();
  return {
    corpus: c.name,
    files,
    answers,
    avgTokens: Math.round(answers.reduce((n, x) => n + x.tokens, 0) / answers.length),
    correct: answers.filter((x) => x.ok).length,
    blast: { median: median(times), p95: percentile(times, 95), n: times.length, hub, hubMedian: median(hubTimes), hubP95: percentile(hubTimes, 95), hubTokens: tokens(hub1.a), cachedMedian: median(hits) },
    toolsList: { ...toolsListSize(tools), count: tools.length },
  };
}

const ROUTE_START = '<!-- route:start -->';
const ROUTE_END = '<!-- route:end -->';

function section(results) {
  const m = machineInfo();
  const L = [ROUTE_START, '', '### route: answers, their size and speed (bench/route.mjs)', ''];
  L.push(`Command: \`npm run build && node bench/route.mjs --results-md\` on ${m.cpu} (${m.cores} cores, ${m.memGiB} GiB), ${m.os ?? ''}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC, load average at the end ${m.loadavg}.`);
  L.push('');
  const tl = results[0].toolsList;
  L.push(`tools/list, the whole listing the server publishes (${tl.count} tools, generic root and max_tokens): ${tl.full} tokens whole response (${tl.fullChars} chars), ${tl.modelFacing} tokens of {name, description, input_schema} as Claude Code forwards them; bar: whole listing with every tool <= 4,000, and route with the eleven intel/plan tools <= 1,700 (both asserted by test/mcp-server/tool-list.test.ts).`);
  L.push('');
  L.push('| corpus | files | answers correct | avg route answer tokens | "what breaks if I change <file>", 30 files, warm, in server (median / p95, cache misses) | "impact of changing <top hotspot>" (median / p95, misses; answer tokens) | same, cache hit (median) |');
  L.push('|---|---|---|---|---|---|---|');
  for (const r of results) L.push(`| ${r.corpus} | ${r.files} | ${r.correct}/${r.answers.length} | ${r.avgTokens} | ${r.blast.median.toFixed(2)} / ${r.blast.p95.toFixed(2)} ms (n=${r.blast.n}) | ${r.blast.hubMedian.toFixed(2)} / ${r.blast.hubP95.toFixed(2)} ms (\`${r.blast.hub}\`; ${r.blast.hubTokens} tokens) | ${r.blast.cachedMedian.toFixed(2)} ms |`);
  L.push('');
  L.push('Typical route answer per family (tokens = characters / 4 of the structuredContent; default budget 2,000):');
  L.push('');
  L.push(`| family | ${results.map((r) => r.corpus).join(' | ')} | correct |`);
  L.push(`|---|${results.map(() => '---|').join('')}---|`);
  for (const [i, a] of results[0].answers.entries()) L.push(`| ${a.family} | ${results.map((r) => `${r.answers[i].tokens}${r.answers[i].truncated ? ' (cut)' : ''}`).join(' | ')} | ${results.map((r) => (r.answers[i].ok ? 'yes' : 'NO')).join(' / ')} |`);
  L.push('');
  L.push('Correct = the same answer as the engine (dist/engine) for the same subject: direct dependents, blast-radius totals, the declaring file:line, dependencies, hotspot order, the search\'s best hit for a vague name; the plan-document families against the .planning/ files the bench writes.', '', ROUTE_END);
  return L.join('\n');
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  const corpora = ensureCorpora(selectCorpora(opts.corpora));
  const results = [];
  for (const c of corpora) results.push(await corpusRun(c, opts.runs));
  for (const r of results) {
    process.stdout.write(`${r.corpus} (${r.files} files): ${r.correct}/${r.answers.length} correct, avg ${r.avgTokens} tokens; blast-radius route median ${r.blast.median.toFixed(2)} ms (p95 ${r.blast.p95.toFixed(2)}), top hotspot ${r.blast.hubMedian.toFixed(2)} ms, cached ${r.blast.cachedMedian.toFixed(2)} ms; tools/list ${r.toolsList.full} tokens\n`);
  }
  fs.mkdirSync(path.join(WORK_DIR, 'results'), { recursive: true });
  fs.writeFileSync(path.join(WORK_DIR, 'results', 'route.json'), JSON.stringify(results, null, 2));
  if (opts['results-md']) {
    writeResultsSection(ROUTE_START, ROUTE_END, section(results), 'route');
  }
  return results.every((r) => r.correct === r.answers.length && r.avgTokens <= 2000) ? 0 : 1;
});
