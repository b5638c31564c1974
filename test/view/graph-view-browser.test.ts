/**
 * The graph page in a real headless browser (Debian's chromium driven by playwright-core; test/helpers/browser.ts
 * installs the package when it can, or the tests skip saying why). The page is written by the built CLI; what it
 * highlights is compared with the engine's own blastRadius over graph.db.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { blastRadius, buildIntel, openIntel, type IntelReader } from '../../engine/src/index.js';
import { launchBrowser } from '../helpers/browser.js';
import { cliPath } from '../helpers/paths.js';
import { cleanupProjects, copyProject, tempProject } from '../helpers/project.js';

// the functions passed to page.evaluate run in the browser, where these exist
declare const window: any;
declare const document: any;

function writePage(root: string, args: string[] = []): string {
  const r = spawnSync(process.execPath, [cliPath, 'intel', 'view', ...args, '--json'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout).path;
}

interface Loaded {
  page: Page;
  problems: string[];
  requests: string[];
}

/** Opens a page, recording console errors and warnings, page errors, and every request that is not the file itself. */
async function load(browser: Browser, file: string): Promise<Loaded> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === `file://${file}`) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(`file://${file}`, { timeout: 120_000 });
  await page.waitForFunction(() => window.gsdView?.ready === true, null, { timeout: 60_000 });
  return { page, problems, requests };
}

/** A project's intel built, its reader opened and its page (written with `args`) loaded: what a group of tests works on. */
async function drawProject(browser: Browser, root: string, args: string[] = []): Promise<{ root: string; reader: IntelReader; loaded: Loaded }> {
  await buildIntel(root);
  const reader = await openIntel(root);
  return { root, reader, loaded: await load(browser, writePage(root, args)) };
}

/** The engine's answer as {path: depth}, the selected file at depth 0. */
function engineRadius(reader: IntelReader, file: string): Record<string, number> {
  const r = blastRadius(reader, file, { maxDepth: 50 });
  const out: Record<string, number> = { [r.file.path]: 0 };
  for (const level of r.byDepth) for (const f of level.files) out[f.path] = level.depth;
  return out;
}

async function drawnRadius(page: Page): Promise<Record<string, number>> {
  const list: Array<{ path: string; depth: number }> = await page.evaluate(() => window.gsdView.highlighted());
  return Object.fromEntries(list.map((x) => [x.path, x.depth]));
}

/** where each drawn file (by path) and cluster (by folder path + `/`) stands */
type Positions = Record<string, [number, number]>;
const pick = (p: Positions, keys: string[]): Positions => Object.fromEntries(keys.map((k) => [k, p[k]]));

/** A real mouse click on a drawn node (centred first, as a user would pan to it: not under the legend or off screen). */
async function clickNode(page: Page, id: string): Promise<void> {
  const at: { x: number; y: number } | null = await page.evaluate((id) => {
    const n = window.gsdView.cy.getElementById(id);
    if (n.empty()) return null;
    window.gsdView.cy.center(n);
    return n.renderedPosition();
  }, id);
  assert.ok(at, `${id} is drawn`);
  const box = (await page.locator('#graph').boundingBox())!;
  await page.mouse.click(box.x + at.x, box.y + at.y);
}

let browser: Browser | null = null;
let skip: string | null = null;

describe('the graph page in headless chromium', { timeout: 600_000 }, () => {
  before(async () => {
    const b = await launchBrowser();
    if ('skip' in b) skip = b.skip;
    else browser = b;
  });
  after(async () => {
    await browser?.close();
    cleanupProjects();
  });

  describe('a small project (the shop fixture), drawn whole', () => {
    let root: string;
    let reader: IntelReader;
    let loaded: Loaded;
    before(async () => {
      if (skip) return;
      ({ root, reader, loaded } = await drawProject(browser!, copyProject('shop'), ['src/lib/money.ts']));
    });
    after(async () => {
      await loaded?.page.close();
      reader?.close();
    });

    it('loads with no console error and no network request, every file drawn, nothing clustered', async (t) => {
      if (skip) return t.skip(skip);
      const { page, problems, requests } = loaded;
      assert.deepEqual(problems, []);
      assert.deepEqual(requests, []);
      assert.equal((await page.evaluate(() => window.gsdView.drawnFiles())).length, 12);
      assert.deepEqual(await page.evaluate(() => window.gsdView.clusters()), []);
      assert.equal(await page.locator('#notice').isVisible(), false);
    });

    it('highlights exactly the blast radius of the given file, by depth, and lists it beside the graph', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      const expected = engineRadius(reader, 'src/lib/money.ts');
      assert.equal(Object.keys(expected).length, 9);
      assert.deepEqual(await drawnRadius(page), expected);
      const r = blastRadius(reader, 'src/lib/money.ts', { maxDepth: 50 });
      for (const level of r.byDepth) {
        const listed = await page.locator(`ul.br-depth[data-depth="${level.depth}"] li`).allTextContents();
        assert.deepEqual(
          listed.map((l) => l.replace(/via .*$/, '')),
          level.files.map((f) => f.path),
        );
      }
      assert.deepEqual(await page.locator('#br-tests li').allTextContents().then((l) => l.map((x) => x.replace(/depth \d+$/, ''))), ['test/cart.test.ts']);
    });

    it('a click on another file shows its blast radius; hovering shows its Purpose', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      const cart = reader.lookup('src/cart/cart.ts');
      const id: string = await page.evaluate(() => window.gsdView.cy.nodes('[path = "src/cart/cart.ts"]').id());
      await clickNode(page, id);
      await page.waitForFunction(() => document.getElementById('sel-path')?.textContent === 'src/cart/cart.ts');
      assert.deepEqual(await drawnRadius(page), engineRadius(reader, 'src/cart/cart.ts'));
      assert.equal(await page.locator('#panel .purpose').textContent(), cart.purpose);
      await page.mouse.move(0, 0);
      const box = (await page.locator('#graph').boundingBox())!;
      const at = await page.evaluate((id) => window.gsdView.cy.getElementById(id).renderedPosition(), id);
      await page.mouse.move(box.x + at.x, box.y + at.y);
      await page.waitForSelector('#tip:not([hidden])');
      assert.match((await page.locator('#tip').textContent())!, new RegExp(`src/cart/cart\\.ts${cart.purpose.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    });

    it('search finds a file by an exported symbol, and Enter selects it', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      const owner = [...reader.nodes.values()].find((n) => n.exports.some((e) => e.name === 'addTax'))!;
      await page.locator('#search').fill('');
      await page.locator('#search').pressSequentially('addTax');
      const first = page.locator('#results li').first();
      assert.match((await first.textContent())!, new RegExp(`^${owner.path}exports addTax$`));
      await page.keyboard.press('Enter');
      await page.waitForFunction((p) => document.getElementById('sel-path')?.textContent === p, owner.path);
      assert.deepEqual(await drawnRadius(page), engineRadius(reader, owner.path));
      assert.deepEqual(loaded.problems, []);
    });
  });

  describe('a project too large to draw whole (420 files): clusters', () => {
    let root: string;
    let reader: IntelReader;
    let loaded: Loaded;
    before(async () => {
      if (skip) return;
      ({ root, reader, loaded } = await drawProject(browser!, tempProject(generatedProject())));
    });
    after(async () => {
      await loaded?.page.close();
      reader?.close();
    });

    it('draws folders as clusters, and says so', async (t) => {
      if (skip) return t.skip(skip);
      const { page, problems, requests } = loaded;
      assert.deepEqual(problems, []);
      assert.deepEqual(requests, []);
      const clusters: Array<{ folder: string; count: number }> = await page.evaluate(() => window.gsdView.clusters());
      const drawn: string[] = await page.evaluate(() => window.gsdView.drawnFiles());
      assert.ok(clusters.length > 0, 'some folders are clusters');
      assert.equal(drawn.length + clusters.reduce((n, c) => n + c.count, 0), reader.nodes.size, 'every file is drawn or inside a cluster');
      assert.match((await page.locator('#notice').textContent())!, /Too large to draw whole: 420 files, so folders are drawn as clusters/);
    });

    it('a click on a cluster opens it', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      const [cluster] = (await page.evaluate(() => window.gsdView.clusters())) as Array<{ folder: string; count: number }>;
      const runs: number = await page.evaluate(() => window.gsdView.changes());
      await clickNode(page, `c:${cluster.folder}`);
      await page.waitForFunction((n) => window.gsdView.changes() > n, runs);
      const clusters: Array<{ folder: string }> = await page.evaluate(() => window.gsdView.clusters());
      assert.ok(!clusters.some((c) => c.folder === cluster.folder), 'the cluster is open');
      const drawn: string[] = await page.evaluate(() => window.gsdView.drawnFiles());
      const inside = drawn.filter((p) => p.startsWith(`${cluster.folder}/`)).length;
      const sub = clusters.filter((c) => c.folder.startsWith(`${cluster.folder}/`)).length;
      assert.ok(inside + sub > 0, 'its files or sub-folders are drawn');
    });

    it('opening a cluster keeps every other node where it was, lays out nothing else, and closing it puts the cluster back', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      const [cluster] = (await page.evaluate(() => window.gsdView.clusters())) as Array<{ folder: string; count: number }>;
      const id = `${cluster.folder}/`;
      const before: Positions = await page.evaluate(() => window.gsdView.positions());
      const runs: number = await page.evaluate(() => window.gsdView.layoutRuns());
      await clickNode(page, `c:${cluster.folder}`);
      await page.waitForFunction((id) => window.gsdView.cy.getElementById(id).empty(), `c:${cluster.folder}`);
      const opened: Positions = await page.evaluate(() => window.gsdView.positions());
      const added = Object.keys(opened).filter((k) => !(k in before));
      assert.ok(added.length > 0 && added.every((k) => k.startsWith(id)), "what appeared is the folder's contents");
      assert.deepEqual(pick(opened, Object.keys(before).filter((k) => k !== id)), pick(before, Object.keys(before).filter((k) => k !== id)), 'nothing outside it moved');
      // closing (what a double click on its box calls; a synthetic double click is unreliable on a loaded machine)
      const box = `d:${cluster.folder}`;
      await page.evaluate((f) => window.gsdView.closeFolder(f), cluster.folder);
      await page.waitForFunction((box) => window.gsdView.cy.getElementById(box).empty(), box);
      assert.deepEqual(await page.evaluate(() => window.gsdView.positions()), before, 'the cluster is back where it stood, the rest unmoved');
      assert.equal(await page.evaluate(() => window.gsdView.layoutRuns()), runs, 'no layout over the drawing ran');
    });

    it('selecting a drawn file moves nothing; selecting a file inside a cluster opens only what holds it', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      const before: Positions = await page.evaluate(() => window.gsdView.positions());
      const runs: number = await page.evaluate(() => window.gsdView.layoutRuns());
      const drawn: string[] = await page.evaluate(() => window.gsdView.drawnFiles());
      await page.evaluate((p) => window.gsdView.selectFile(p), drawn[0]);
      assert.equal(await page.locator('#sel-path').textContent(), drawn[0]);
      assert.deepEqual(await page.evaluate(() => window.gsdView.positions()), before);
      const clusters: Array<{ folder: string }> = await page.evaluate(() => window.gsdView.clusters());
      const hidden = [...reader.nodes.values()].map((n) => n.path).find((p) => p.startsWith(`${clusters[0].folder}/`))!;
      await page.evaluate((p) => window.gsdView.selectFile(p), hidden);
      assert.ok((await page.evaluate(() => window.gsdView.drawnFiles())).includes(hidden), 'the file is revealed');
      const after: Positions = await page.evaluate(() => window.gsdView.positions());
      const outside = Object.keys(before).filter((k) => k !== `${clusters[0].folder}/`);
      assert.deepEqual(pick(after, outside), pick(before, outside), 'nothing outside the opened folder moved');
      assert.equal(await page.evaluate(() => window.gsdView.layoutRuns()), runs, 'no layout over the drawing ran');
      assert.deepEqual(await drawnRadius(page), Object.fromEntries(Object.entries(engineRadius(reader, hidden)).filter(([p]) => p in after)));
    });

    it('the blast radius of a hub: drawn files by depth, the rest marked on their clusters', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      const hub = 'packages/core/src/util/u0.ts';
      await page.evaluate((p) => window.gsdView.selectFile(p), hub);
      await page.waitForFunction((p) => document.getElementById('sel-path')?.textContent === p, hub);
      const expected = engineRadius(reader, hub);
      assert.ok(Object.keys(expected).length > 100, 'the hub reaches far');
      const drawn = new Set<string>(await page.evaluate(() => window.gsdView.drawnFiles()));
      assert.ok(drawn.has(hub), 'the selected file is revealed');
      const shown = await drawnRadius(page);
      assert.deepEqual(shown, Object.fromEntries(Object.entries(expected).filter(([p]) => drawn.has(p))));
      const hit = new Set<string>(await page.evaluate(() => window.gsdView.hitClusters()));
      const clusters: Array<{ folder: string }> = await page.evaluate(() => window.gsdView.clusters());
      for (const p of Object.keys(expected).filter((x) => !drawn.has(x))) {
        const holder = clusters.find((c) => p.startsWith(`${c.folder}/`));
        assert.ok(holder && hit.has(holder.folder), `${p} is inside a cluster marked as hit`);
      }
      for (const c of clusters) {
        if (hit.has(c.folder)) assert.ok(Object.keys(expected).some((p) => p.startsWith(`${c.folder}/`)), `${c.folder} is marked only when it holds part of the radius`);
      }
      assert.deepEqual(loaded.problems, []);
    });
  });

  describe('folders too large to open in one click (3,000 files in one folder and its sub-folder): groups by name', () => {
    const CAP = 120;
    let reader: IntelReader;
    let loaded: Loaded;
    /** the drawn node count, then a click (a real one) on a cluster; returns how many nodes the click added */
    async function open(page: Page, folder: string): Promise<number> {
      const before: number = await page.evaluate(() => window.gsdView.cy.nodes().length);
      await clickNode(page, `c:${folder}`);
      await page.waitForFunction((id) => window.gsdView.cy.getElementById(id).empty(), `c:${folder}`);
      return (await page.evaluate(() => window.gsdView.cy.nodes().length)) - before;
    }
    /** clicks the cluster marked as holding the selected file until the file is drawn; returns what each click added */
    async function openTowards(page: Page, file: string): Promise<number[]> {
      const added: number[] = [];
      for (let k = 0; k < 6; k++) {
        const holder: string | null = await page.evaluate((p) => window.gsdView.holder(p), file);
        if (holder === null) return added;
        assert.match(await page.evaluate((id) => window.gsdView.cy.getElementById(id).data('label'), `c:${holder}`), new RegExp(`holds ${path.posix.basename(file).replace('.', '\\.')}`));
        added.push(await open(page, holder));
      }
      assert.fail(`${file} is still not drawn after 6 clicks`);
    }
    async function collapseAll(page: Page) {
      const runs: number = await page.evaluate(() => window.gsdView.layoutRuns());
      await page.locator('#collapse').click();
      await page.waitForFunction((n) => window.gsdView.layoutRuns() > n && window.gsdView.cy.nodes('[kind = "file"]').length === 0, runs);
    }
    before(async () => {
      if (skip) return;
      const files: Record<string, string> = { 'core/hub.ts': '/** The hub. */\nexport const hub = 1;\n' };
      const pad = (i: number) => String(i).padStart(4, '0');
      for (let i = 0; i < 2000; i++) files[`big/b${pad(i)}.ts`] = `import { hub } from '../core/hub';\nexport const b${pad(i)} = hub + ${i};\n`;
      // big/deep/d0777.ts imports big/b0042.ts: a dependent two levels of groups down
      for (let i = 0; i < 1000; i++) files[`big/deep/d${pad(i)}.ts`] = `import { hub } from '../../core/hub';\n${i === 777 ? "import { b0042 } from '../b0042';\n" : ''}export const deepItem${pad(i)} = hub;\n`;
      ({ reader, loaded } = await drawProject(browser!, tempProject(files)));
    });
    after(async () => {
      await loaded?.page.close();
      reader?.close();
    });

    it('a big folder opens into groups by name of at most the cap, each opening the same way; the page says so', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      assert.deepEqual(loaded.problems, []);
      assert.match((await page.locator('#notice').textContent())!, new RegExp(`Folders of more than ${CAP} entries open into groups by name \\(b00–b0\\d+ in big/\\), so one click draws at most ${CAP}`));
      await collapseAll(page);
      assert.deepEqual(await page.evaluate(() => window.gsdView.clusters()), [
        { folder: 'big', count: 3000 },
        { folder: 'core', count: 1 },
      ]);
      const before: Positions = await page.evaluate(() => window.gsdView.positions());
      assert.ok((await open(page, 'big')) <= CAP, 'opening big/ draws at most the cap');
      const groups: Array<{ folder: string; count: number }> = await page.evaluate(() => window.gsdView.clusters());
      const labels: string[] = await page.evaluate(() => window.gsdView.cy.nodes('[kind = "cluster"]').map((n: any) => n.data('label')));
      assert.ok(labels.includes('deep/\n1000 files'), 'the sub-folder stays whole');
      assert.ok(labels.some((l) => /^b00–b0\d+\n\d+ files$/.test(l)), `groups are named by the range of names they hold: ${labels.join(' | ')}`);
      assert.equal(groups.filter((g) => g.folder !== 'core').reduce((n, g) => n + g.count, 0), 3000, 'the groups hold every file of big/');
      assert.ok(groups.every((g) => g.count <= CAP || g.folder === 'big/deep'), 'no group holds more than the cap');
      const after: Positions = await page.evaluate(() => window.gsdView.positions());
      assert.deepEqual(after['core/'], before['core/'], 'nothing outside it moved');
      const group = groups.find((g) => g.folder.startsWith('big//'))!;
      assert.ok((await open(page, group.folder)) <= CAP, 'opening a group draws at most the cap');
      assert.ok((await open(page, 'big/deep')) <= CAP, 'opening the large sub-folder draws at most the cap (its groups)');
      const deepGroup = ((await page.evaluate(() => window.gsdView.clusters())) as Array<{ folder: string }>).find((g) => g.folder.startsWith('big/deep//'))!;
      assert.ok((await open(page, deepGroup.folder)) <= CAP, "opening one of the sub-folder's groups draws at most the cap");
      assert.deepEqual(loaded.problems, []);
    });

    it('search finds a file deep in groups; each click on the cluster marked as holding it opens towards it', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      await collapseAll(page);
      await page.locator('#search').fill('');
      await page.locator('#search').pressSequentially('deepItem0777');
      assert.match((await page.locator('#results li').first().textContent())!, /^big\/deep\/d0777\.tsexports deepItem0777$/);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('sel-path')?.textContent === 'big/deep/d0777.ts');
      assert.equal(await page.evaluate(() => window.gsdView.holder('big/deep/d0777.ts')), 'big', 'opening big/, big/deep/ and a group at once would draw more than a click: big/ is marked');
      const added = await openTowards(page, 'big/deep/d0777.ts');
      assert.ok(added.length >= 1 && added.every((n) => n <= CAP), `each click draws at most the cap: ${added.join(', ')}`);
      assert.ok((await page.evaluate(() => window.gsdView.drawnFiles())).includes('big/deep/d0777.ts'));
      assert.deepEqual(await drawnRadius(page), { 'big/deep/d0777.ts': 0 });
      assert.deepEqual(loaded.problems, []);
    });

    it('the blast radius reaches a dependent inside a group of a sub-folder: its clusters are marked, opening them shows it by depth', async (t) => {
      if (skip) return t.skip(skip);
      const { page } = loaded;
      await collapseAll(page);
      await page.evaluate(() => window.gsdView.selectFile('big/b0042.ts'));
      const expected = engineRadius(reader, 'big/b0042.ts');
      assert.deepEqual(expected, { 'big/b0042.ts': 0, 'big/deep/d0777.ts': 1 });
      const check = async () => {
        const drawn = new Set<string>(await page.evaluate(() => window.gsdView.drawnFiles()));
        assert.deepEqual(await drawnRadius(page), Object.fromEntries(Object.entries(expected).filter(([p]) => drawn.has(p))));
        const hit = new Set<string>(await page.evaluate(() => window.gsdView.hitClusters()));
        for (const p of Object.keys(expected)) {
          const holder: string | null = await page.evaluate((p) => window.gsdView.holder(p), p);
          assert.ok(holder === null || hit.has(holder), `${p} is drawn or inside a cluster marked as hit`);
        }
        const clusters: Array<{ folder: string }> = await page.evaluate(() => window.gsdView.clusters());
        const holders = new Set(await Promise.all(Object.keys(expected).map((p) => page.evaluate((p) => window.gsdView.holder(p), p))));
        for (const c of clusters) assert.equal(hit.has(c.folder), holders.has(c.folder), `${c.folder} is marked only when it holds part of the radius`);
      };
      await check();
      // the dependent: two levels of groups down (big/ → big/deep/ → its group), each marked "1 affected"
      for (let k = 0; k < 4; k++) {
        const holder: string | null = await page.evaluate(() => window.gsdView.holder('big/deep/d0777.ts'));
        if (holder === null) break;
        assert.match(await page.evaluate((id) => window.gsdView.cy.getElementById(id).data('label'), `c:${holder}`), /1 affected/);
        assert.ok((await open(page, holder)) <= CAP);
        await check();
      }
      assert.equal(await page.evaluate(() => window.gsdView.holder('big/deep/d0777.ts')), null, 'the dependent is drawn');
      assert.equal((await drawnRadius(page))['big/deep/d0777.ts'], 1, 'at depth 1');
      assert.deepEqual(loaded.problems, []);
    });
  });
});

/** 6 packages × (4 folders × 15 files + 10 tests) = 420 files; every package's files import `core`'s util hub. */
function generatedProject(): Record<string, string> {
  const files: Record<string, string> = {};
  const packages = ['core', 'api', 'web', 'cli', 'jobs', 'auth'];
  const folders = ['util', 'model', 'service', 'view'];
  for (const pkg of packages) {
    for (let f = 0; f < folders.length; f++) {
      for (let i = 0; i < 15; i++) {
        const name = `${folders[f][0]}${i}`;
        const imports = [
          pkg === 'core' && f === 0 && i === 0 ? '' : `import { v as hub } from '${relative(`packages/${pkg}/src/${folders[f]}`, 'packages/core/src/util/u0')}';`,
          i > 0 ? `import { v as prev } from './${folders[f][0]}${i - 1}';` : '',
          f > 0 && i === 0 ? `import { v as below } from '../${folders[f - 1]}/${folders[f - 1][0]}14';` : '',
        ].filter(Boolean);
        files[`packages/${pkg}/src/${folders[f]}/${name}.ts`] = `/** ${pkg} ${folders[f]} number ${i}. */\n${imports.join('\n')}\nexport const v = ${i};\nexport function ${pkg}${folders[f]}${i}() { return v; }\n`;
      }
    }
    for (let i = 0; i < 10; i++) files[`packages/${pkg}/test/t${i}.test.ts`] = `import { v } from '../src/view/v${i}';\nexport const t = v;\n`;
  }
  return files;
}

function relative(from: string, to: string): string {
  const r = path.posix.relative(from, to);
  return r.startsWith('.') ? r : `./${r}`;
}
