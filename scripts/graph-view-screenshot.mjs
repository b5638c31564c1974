#!/usr/bin/env node
// Takes the screenshot of the graph page shown in docs/graph-view.md: the page of a project (default: this
// repository) with one file selected, zoomed onto that file and its direct dependents so that labels are legible.
// Usage: node scripts/graph-view-screenshot.mjs [--root DIR] [--file PATH] [--out docs/graph-view.png]
// Needs `npm run build` and intel built for the project (get-shit-done-cc intel build DIR); chromium as for the tests.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({ options: { root: { type: 'string', default: root }, file: { type: 'string', default: 'engine/src/query/reader.ts' }, out: { type: 'string', default: path.join(root, 'docs', 'graph-view.png') } } });
const page = path.join(values.root, '.planning', 'intel', 'graph-view.html');
const r = spawnSync(process.execPath, [path.join(root, 'dist', 'cli', 'cli.js'), 'intel', 'view', values.file, '--out', page], { cwd: values.root, encoding: 'utf8' });
if (r.status !== 0) throw new Error(r.stderr);
const { launchBrowser } = await import(pathToFileURL(path.join(root, 'dist', 'test', 'helpers', 'browser.js')).href);
const browser = await launchBrowser();
if ('skip' in browser) throw new Error(browser.skip);
const tab = await browser.newPage({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1 });
await tab.goto(pathToFileURL(page).href, { timeout: 300_000 });
await tab.waitForFunction(() => window.gsdView?.ready === true, null, { timeout: 300_000 });
await tab.evaluate(() => {
  const cy = window.gsdView.cy;
  const near = cy.nodes('.selected-file, .affected, .cluster-hit').filter((n) => n.hasClass('selected-file') || (n.data('depth') ?? 9) <= 2 || n.hasClass('cluster-hit'));
  cy.fit(near, 40);
  if (cy.zoom() < 0.75) cy.zoom({ level: 0.75, position: cy.nodes('.selected-file').position() });
});
await tab.waitForTimeout(300);
await tab.screenshot({ path: values.out });
await browser.close();
console.log(values.out);
