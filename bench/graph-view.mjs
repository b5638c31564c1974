#!/usr/bin/env node
// The graph page (`intel view`): time to write it, and time until it is interactive in headless Chromium, on a
// 700+-file code base (zod, webpack) and a ~5,500-file one made of four corpora side by side (zod + lodash + webpack
// + date-fns without its locales; made under bench/.work/, not committed); and, on the loaded page, the time of each
// interaction (select a drawn file, select the top hotspot, open the largest cluster, close it), as the call and until
// the next frame is drawn, with the chromium CPU time each step used (all of chromium's processes, from the step to
// 400 ms after its frame: unlike wall time, it hardly grows with the machine's load), and the number of full layouts
// they ran.
// Baselines taken in the same run, so that the figures survive a loaded machine:
//   write:        `intel query hotspots --json` (same CLI start, same graph.db load, no page) -> ratio
//   interactive:  the same page script over an empty project (parse + start of the 0.6 MB script, no graph) -> ratio
// Usage: node bench/graph-view.mjs [--runs 3] [--no-results-md]      (needs `npm run build`; chromium: as the tests)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureCorpus, getCorpus } from './corpora.mjs';
import { log, machineInfo, mkdirp, OUR_CLI, parseArgs, RESULTS_MD, setAside, ROOT, runMain, WORK_DIR } from './lib/common.mjs';
import { median } from './lib/stats.mjs';

const USAGE = `
Usage: node bench/graph-view.mjs [options]
Writes the graph page of each code base with the built CLI and loads it in headless chromium; prints a table and
rewrites the graph-view section of bench/RESULTS.md (between <!-- graph-view:start --> and <!-- graph-view:end -->).`;
const SPEC = {
  runs: { type: 'number', default: 3, help: 'measured rounds per code base' },
  'no-results-md': { type: 'boolean', default: false, help: 'print only' },
};

const work = path.join(WORK_DIR, 'graph-view');

/** [name, how it is made]: a corpus as it is, or several side by side in one project. */
const CODE_BASES = [
  ['zod', () => sideBySide('zod', [['zod', null]])],
  ['webpack', () => sideBySide('webpack', [['webpack', null]])],
  ['zod+lodash+webpack+date-fns', () => sideBySide('mixed', [['zod', null], ['lodash', null], ['webpack', null], ['date-fns', (rel) => !rel.startsWith('locale/')]])],
];

function sideBySide(name, parts) {
  const dir = path.join(work, name);
  setAside(dir);
  mkdirp(path.join(dir, '.planning'));
  if (parts.length === 1) {
    fs.cpSync(ensureCorpus(getCorpus(parts[0][0])), dir, { recursive: true });
    mkdirp(path.join(dir, '.planning'));
    return dir;
  }
  for (const [corpus, keep] of parts) {
    const src = ensureCorpus(getCorpus(corpus));
    fs.cpSync(src, path.join(dir, corpus), { recursive: true, filter: (p) => !keep || p === src || keep(path.relative(src, p).split(path.sep).join('/')) });
  }
  return dir;
}

function cli(args, cwd) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [OUR_CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

async function loadPage(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(pathToFileURL(file).href, { timeout: 300_000 });
  await page.waitForFunction(() => window.gsdView?.ready === true, null, { timeout: 300_000, polling: 20 });
  const m = await page.evaluate(() => ({
    readyMs: performance.now(),
    layoutMs: window.gsdView.layoutMs()[0],
    drawnFiles: window.gsdView.drawnFiles().length,
    clusters: window.gsdView.clusters().length,
  }));
  if (problems.length) throw new Error(`${file}: ${problems.join('; ')}`);
  return { page, ...m };
}

const fmtMs = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  const { launchBrowser } = await import(pathToFileURL(path.join(ROOT, 'dist', 'test', 'helpers', 'browser.js')).href);
  const { renderGraphPage } = await import(pathToFileURL(path.join(ROOT, 'dist', 'engine', 'src', 'view', 'page.js')).href);
  const browser = await launchBrowser();
  if ('skip' in browser) throw new Error(browser.skip);
  // CPU seconds used so far by all of chromium's processes (browser, renderers, GPU/raster)
  const cdp = await browser.newBrowserCDPSession();
  const cpuMs = async () => 1000 * (await cdp.send('SystemInfo.getProcessInfo')).processInfo.reduce((n, p) => n + p.cpuTime, 0);
  const machine = machineInfo();
  const chromeVersion = browser.version();
  const rows = [];
  try {
    // baseline: the page's script over an empty project
    const empty = path.join(mkdirp(work), 'empty.html');
    fs.writeFileSync(empty, renderGraphPage({ v: 1, project: 'empty', generatedAt: '', tool: '', types: ['source'], kinds: ['import'], files: [], edges: [], focus: -1 }));
    for (const [name, make] of CODE_BASES) {
      const root = make();
      log(`graph-view: ${name}: intel build`);
      const build = JSON.parse(cli(['intel', 'build', root, '--json'], root).stdout);
      const out = path.join(root, '.planning', 'intel', 'graph-view.html');
      const hot = JSON.parse(cli(['intel', 'query', 'hotspots', '--limit', '1', '--json'], root).stdout).hotspots[0]?.path;
      const r = { name, files: build.files, write: [], query: [], ready: [], baseline: [], layout: [], select: [], selectDrawn: [], open: [], open2: [], close: [] };
      for (let i = 0; i < opts.runs; i++) {
        log(`graph-view: ${name}: round ${i + 1}/${opts.runs}`);
        r.query.push(cli(['intel', 'query', 'hotspots', '--json'], root).ms);
        const w = cli(['intel', 'view', '--json'], root);
        r.write.push(w.ms);
        const report = JSON.parse(w.stdout);
        r.edges = report.edges;
        r.mb = report.bytes / 2 ** 20;
        const base = await loadPage(browser, empty);
        r.baseline.push(base.readyMs);
        await base.page.close();
        const loaded = await loadPage(browser, out);
        r.ready.push(loaded.readyMs);
        r.layout.push(loaded.layoutMs);
        r.drawn = loaded.drawnFiles;
        r.clusters = loaded.clusters;
        const { page } = loaded;
        // each step in its own evaluate, chromium's CPU time read around it: [call, until the next frame, CPU]
        const step = async (name, arg) => {
          const before = await cpuMs();
          const t = await page.evaluate(
            async ([name, arg]) => {
              const v = window.gsdView;
              // after the call returns, two animation frames (the one in which cytoscape redraws, then the next) begin
              const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
              const t0 = performance.now();
              if (name === 'select') v.selectFile(arg);
              else if (name === 'open') v.openFolder(arg);
              else v.closeFolder(arg);
              const call = performance.now() - t0;
              await frame();
              const next = performance.now() - t0;
              await new Promise((r) => setTimeout(r, 400)); // what the frame left for later (layers refined when idle)
              return [call, next];
            },
            [name, arg],
          );
          return [...t, (await cpuMs()) - before];
        };
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 400))))); // the first drawing on screen
        const steps = {};
        const drawn = await page.evaluate(() => window.gsdView.cy.nodes('[kind = "file"]').sort((a, b) => b.data('size') - a.data('size'))[0]?.data('path'));
        if (drawn) steps.selectDrawn = await step('select', drawn);
        if (hot) steps.select = await step('select', hot);
        await step('select', drawn ?? hot);
        const largest = () => page.evaluate(() => window.gsdView.clusters().sort((a, b) => b.count - a.count)[0]);
        const c = await largest();
        if (c) {
          steps.cluster = c;
          steps.open = await step('open', c.folder);
          steps.drawnAfterOpen = await page.evaluate(() => window.gsdView.cy.nodes().length);
          // the widest click: the closed cluster whose opening draws the most nodes (its files and sub-folders or groups)
          const inner = await page.evaluate(() => {
            const v = window.gsdView;
            return v.entries && v.clusters().sort((a, b) => v.entries(b.folder) - v.entries(a.folder))[0];
          });
          if (inner) {
            steps.inner = inner;
            const n = await page.evaluate(() => window.gsdView.cy.nodes().length);
            steps.open2 = await step('open', inner.folder);
            steps.addedByOpen2 = (await page.evaluate(() => window.gsdView.cy.nodes().length)) - n;
          }
          steps.close = await step('close', c.folder);
        }
        steps.layoutRuns = await page.evaluate(() => window.gsdView.layoutRuns());
        for (const k of ['select', 'selectDrawn', 'open', 'open2', 'close']) if (steps[k]) r[k].push(steps[k]);
        r.cluster = steps.cluster;
        r.inner = steps.inner;
        r.addedByOpen2 = steps.addedByOpen2;
        r.drawnAfterOpen = steps.drawnAfterOpen;
        r.layoutRuns = steps.layoutRuns;
        await page.close();
      }
      rows.push(r);
      log(`graph-view: ${name}: ${r.files} files, write ${fmtMs(median(r.write))}, interactive ${fmtMs(median(r.ready))}`);
    }
  } finally {
    await browser.close();
  }
  // a step as "call / to the next frame", medians
  const step = (xs) => (xs.length ? `${fmtMs(median(xs.map((x) => x[0])))} / ${fmtMs(median(xs.map((x) => x[1])))} / ${fmtMs(median(xs.map((x) => x[2])))}` : '—');
  const table = [
    '| code base | files | imports | page | clustered (files drawn / closed folders) | write (`intel view`, wall) | ÷ `intel query hotspots` | interactive (navigation → ready) | ÷ empty page | first layout |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.files.toLocaleString('en')} | ${r.edges.toLocaleString('en')} | ${r.mb.toFixed(2)} MB | ${r.clusters ? `yes (${r.drawn} / ${r.clusters})` : 'no'} | ${fmtMs(median(r.write))} | ${(median(r.write) / median(r.query)).toFixed(2)}× | ${fmtMs(median(r.ready))} | ${(median(r.ready) / median(r.baseline)).toFixed(2)}× | ${fmtMs(median(r.layout))} |`,
    ),
    '',
    '| code base | select the largest drawn file | select the top hotspot | open the largest cluster (files; nodes drawn after) | then open the widest cluster (files; nodes it added) | close the first again | full layouts after the first |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${step(r.selectDrawn)} | ${step(r.select)} | ${step(r.open)}${r.cluster ? ` (\`${r.cluster.folder}/\`, ${r.cluster.count.toLocaleString('en')}; ${r.drawnAfterOpen})` : ''} | ${step(r.open2)}${r.inner ? ` (\`${r.inner.folder}/\`, ${r.inner.count.toLocaleString('en')}; ${r.addedByOpen2})` : ''} | ${step(r.close)} | ${r.layoutRuns - 1} |`,
    ),
  ].join('\n');
  const section = `<!-- graph-view:start -->

### Writing, opening and clicking the page (bench/graph-view.mjs)

\`node bench/graph-view.mjs --runs ${opts.runs}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${machine.cpu}, ${machine.cores} cores, ${machine.memGiB} GiB, ${machine.os}, Node ${machine.node}; load average at the start ${machine.loadavg}, at the end ${machineInfo().loadavg} (read the ratios first: the machine may be shared). Medians of ${opts.runs} rounds; Chromium ${chromeVersion} headless (Debian's package, driven by playwright-core), viewport 1400×900.

${table}

- *write*: the built CLI's \`intel view\` from process start to exit (graph.db read through IntelReader, hotspot counts, page data, ~0.6 MB of inlined script, atomic write). The baseline, \`intel query hotspots\`, starts the same CLI and loads the same graph.db.
- *interactive*: \`performance.now()\` when the page has drawn its first layout and set \`gsdView.ready\` (navigation start = 0). The baseline is the same page script over an empty project: parsing and starting cytoscape and the bundle.
- Interaction, each as *the call / until the next frame is drawn / chromium's CPU time* (the call returns, then two animation frames begin: cytoscape redraws in the first; the CPU time of all chromium's processes from the call to 400 ms after that frame, read with CDP \`SystemInfo.getProcessInfo\`), after the first drawing is on screen. A group's path is its folder's + \`//\` + its index (a folder of more than 120 entries opens into groups of them by name). *select the largest drawn file*: its blast radius (the engine's blastRadius, bundled in the page) restyles the drawing, no layout. *select the top hotspot*: the same for the most depended-on file; when it lies inside a closed folder, that folder opens as below. *open*: the largest cluster opens (then the widest, the closed cluster whose opening draws the most nodes) (its contents laid out alone, by cytoscape's concentric and grid layouts, the box put in the nearest free place), other folders closing first past 500 drawn nodes; *close*: its cluster back where it stood. *full layouts after the first*: fcose runs over the drawing during these steps (0: none).
- The mixed code base is zod, lodash, webpack and date-fns (without \`locale/\`) side by side in one project, made under \`bench/.work/graph-view/\` (not committed).

<!-- graph-view:end -->`;
  process.stdout.write(`${section}\n`);
  if (!opts['no-results-md']) {
    const md = fs.readFileSync(RESULTS_MD, 'utf8');
    const re = /<!-- graph-view:start -->[\s\S]*<!-- graph-view:end -->/;
    fs.writeFileSync(RESULTS_MD, re.test(md) ? md.replace(re, section) : `${md.trimEnd()}\n\n${section}\n`);
    log(`graph-view: ${path.relative(ROOT, RESULTS_MD)} updated`);
  }
  return 0;
});
