/**
 * `intel view` through the built CLI and `graph_view` through the built MCP server (the SDK's real Client): where the
 * page goes, what it holds, errors, and --open starting a browser without a shell. The page's behaviour in a real
 * browser: graph-view-browser.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { startServer, type Session } from '../helpers/mcp.js';
import { cliPath } from '../helpers/paths.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

function cli(args: string[], cwd: string, env: Record<string, string | undefined> = {}) {
  const r = spawnSync(process.execPath, [cliPath, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The data island of a page (engine/src/view/page.ts). */
function pageData(file: string) {
  const html = readFileSync(file, 'utf8');
  const m = /<script id="gsd-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the page carries its data');
  return { html, data: JSON.parse(m[1]) };
}

describe('intel view (the built CLI)', () => {
  let root: string;
  const temps: string[] = [];
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
  });
  after(() => {
    cleanupProjects();
    for (const t of temps) rmSync(t, { recursive: true, force: true });
  });

  it('writes one self-contained page into .planning/intel/ and prints its path', () => {
    const r = cli(['intel', 'view'], path.join(root, 'src'));
    assert.equal(r.code, 0, r.stderr);
    const file = path.join(root, '.planning', 'intel', 'graph-view.html');
    assert.equal(r.stdout.split('\n')[0], file);
    const { html, data } = pageData(file);
    assert.equal(data.files.length, 12);
    assert.equal(data.focus, -1);
    // no external resource: every script and style is inline, and the page forbids any fetch
    assert.doesNotMatch(html, /<(script|link|img|iframe)[^>]+(src|href)=/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  });

  it('focuses a file given relative to the current folder, and writes where --out says', () => {
    const out = path.join(root, 'maps', 'shop map.html');
    const r = cli(['intel', 'view', 'money.ts', '--out', out, '--json'], path.join(root, 'src', 'lib'));
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.path, out);
    assert.equal(report.focus, 'src/lib/money.ts');
    assert.equal(report.opened, null);
    const { data } = pageData(out);
    assert.equal(data.files[data.focus][0], 'src/lib/money.ts');
    assert.ok(data.files[data.focus][5].includes('formatPrice'), 'exports travel with the file');
  });

  it('refuses an unknown file with suggestions, and extra arguments', () => {
    const r = cli(['intel', 'view', 'mony.ts'], root);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no indexed file matches "mony.ts"/);
    const two = cli(['intel', 'view', 'a.ts', 'b.ts'], root);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /at most one file/);
  });

  it('says so when there is no intel yet', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'gsd-view-empty-'));
    temps.push(empty);
    const r = cli(['intel', 'view', '--root', empty], empty);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no codebase intelligence found[\s\S]*intel build/);
  });

  it('--open without a display or $BROWSER says the page was not opened, and still writes it', () => {
    const r = cli(['intel', 'view', '--open'], root, { DISPLAY: undefined, WAYLAND_DISPLAY: undefined, BROWSER: undefined });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /not opened: no display .*open the file above in a browser yourself/);
  });

  it('--open hands the path to the browser as one argument, never through a shell', async () => {
    const bin = mkdtempSync(path.join(os.tmpdir(), 'gsd-view-browser-'));
    temps.push(bin);
    const record = path.join(bin, 'argv.json');
    const browser = path.join(bin, 'fake-browser');
    writeFileSync(browser, `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`);
    chmodSync(browser, 0o755);
    const hostile = path.join(root, 'out', '$(touch pwned) `id`; a&b.html');
    const r = cli(['intel', 'view', '--out', hostile, '--open'], root, { BROWSER: browser, DISPLAY: undefined });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /opened with fake-browser/);
    for (let i = 0; i < 100 && !existsSync(record); i++) await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')), [hostile]);
    assert.ok(!existsSync(path.join(root, 'pwned')) && !existsSync(path.join(root, 'out', 'pwned')), 'nothing in the path ran');
    assert.ok(statSync(hostile).size > 100_000);
  });
});

describe('graph_view (the built MCP server, SDK Client)', () => {
  let root: string;
  let s: Session;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
    s = await startServer(root);
  });
  after(async () => {
    await s?.close();
    cleanupProjects();
  });

  it('is listed as writing but not destructive, within its share of tools/list (120 tokens)', () => {
    const tool = s.tools.find((t) => t.name === 'graph_view');
    assert.ok(tool);
    assert.deepEqual(tool.annotations, { readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    const tokens = Math.ceil(JSON.stringify(tool).length / 4);
    assert.ok(tokens <= 120, `graph_view takes ${tokens} tokens of tools/list`);
  });

  it('writes a fresh page for a file and returns its path', async () => {
    const out = await s.ok<{ path: string }>('graph_view', { file: 'src/cart/cart.ts' });
    assert.equal(out.path, path.join(root, '.planning', 'intel', 'graph-view.html'));
    const { data } = pageData(out.path);
    assert.equal(data.files[data.focus][0], 'src/cart/cart.ts');
    const whole = await s.ok<{ path: string }>('graph_view', {});
    assert.equal(pageData(whole.path).data.focus, -1);
  });

  it('refuses unknown files and paths outside the project', async () => {
    assert.match(await s.fails('graph_view', { file: 'src/nope.ts' }), /no indexed file matches/);
    assert.match(await s.fails('graph_view', { file: '../../etc/passwd' }), /outside|inside/i);
  });
});
