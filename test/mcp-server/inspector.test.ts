/**
 * The MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`, pinned) lists and calls the built server's tools.
 * The inspector is installed on first use into a cache outside the tree (~/.cache/gsd-test-tools); when it cannot be
 * installed (offline), the test is skipped with a message.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { TOOL_TEXT } from '../../mcp-server/src/texts.js';
import { SERVER_ENTRY } from '../helpers/mcp.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

const VERSION = '2.12.0';
const CACHE = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gsd-test-tools', `inspector-${VERSION}`);
const BIN = path.join(CACHE, 'node_modules', '.bin', 'mcp-inspector');

function ensureInspector(): string | null {
  if (existsSync(BIN)) return null;
  try {
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(path.join(CACHE, 'package.json'), '{"private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `@modelcontextprotocol/inspector@${VERSION}`], { cwd: CACHE, stdio: 'ignore', timeout: 180_000 });
    return existsSync(BIN) ? null : 'installed, but no mcp-inspector bin';
  } catch (error) {
    return `cannot install @modelcontextprotocol/inspector@${VERSION}: ${(error as Error).message.split('\n')[0]}`;
  }
}

describe('mcp server: MCP Inspector CLI', () => {
  let root: string;
  let home: string;
  let skip: string | null = null;
  before(async () => {
    skip = ensureInspector();
    if (skip) return;
    root = copyProject('shop');
    await buildIntel(root);
    home = mkdtempSync(path.join(os.tmpdir(), 'gsd-inspector-home-'));
  });
  after(() => {
    if (home) rmSync(home, { recursive: true, force: true });
    cleanupProjects();
  });

  const inspect = (args: string[]) => {
    const r = spawnSync(BIN, ['--cli', process.execPath, SERVER_ENTRY, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: home, GSD_MCP_MODE: 'in-process', MCP_CATALOG_PATH: path.join(home, 'mcp.json') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, `inspector ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  it('lists the tools and calls blast_radius', (t) => {
    if (skip) return t.skip(skip);
    const list = inspect(['--method', 'tools/list']);
    assert.equal(list.tools.length, Object.keys(TOOL_TEXT).length);
    const writing = ['state', 'lease', 'agent', 'skill', 'plan', 'evolve', 'graph_view'];
    assert.ok(list.tools.every((x: { name: string; annotations?: { readOnlyHint?: boolean } }) => x.annotations?.readOnlyHint === !writing.includes(x.name)));
    const call = inspect(['--method', 'tools/call', '--tool-name', 'blast_radius', '--tool-arg', 'file=src/lib/money.ts', 'max_depth=2']);
    assert.equal(call.isError ?? false, false);
    assert.deepEqual(call.structuredContent.by_depth.map((l: { files: string[] }) => l.files), [
      ['src/cart/cart.ts', 'src/lib/index.ts'],
      ['src/cart/checkout.ts', 'src/catalog/product.ts', 'test/cart.test.ts'],
    ]);
    const routed = inspect(['--method', 'tools/call', '--tool-name', 'route', '--tool-arg', 'query=who imports src/lib/money.ts']);
    assert.deepEqual(routed.structuredContent.results[0].data.by_depth[0].files, ['src/cart/cart.ts', 'src/lib/index.ts']);
    const templates = inspect(['--method', 'resources/templates/list']);
    assert.equal(templates.resourceTemplates[0].uriTemplate, 'gsd://intel/entity/{id}');
    const prompt = inspect(['--method', 'prompts/get', '--prompt-name', 'spawn-verifier', '--prompt-args', 'phase=1']);
    assert.match(prompt.messages[0].content.text, /ROADMAP\.md is missing/);
  });
});
