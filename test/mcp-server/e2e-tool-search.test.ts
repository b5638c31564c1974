/**
 * End to end with the real `claude` CLI (pinned, offline against the loopback Messages mock) and the built server
 * over stdio: Claude Code loads `route` upfront (`_meta["anthropic/alwaysLoad"]`) while it defers the other gsd tools
 * behind its tool search, and a ToolSearch query in plain words finds the tool the question needs (its
 * `anthropic/searchHint`). Skipped when the CLI cannot be installed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { CLAUDE_VERSION, ensureClaude, runClaude } from '../helpers/claude-cli.js';
import { SERVER_ENTRY } from '../helpers/mcp.js';
import { E2eScratch } from '../helpers/e2e-scratch.js';
import { offlineClaudeEnv, startMessagesMock } from '../helpers/messages-mock.js';
import { copyProject } from '../helpers/project.js';

interface Body {
  tools?: Array<{ name: string }>;
  messages?: Array<{ role: string; content: unknown }>;
}
type Block = { type: string; name?: string; id?: string; tool_use_id?: string; content?: unknown };
const blocks = (b: Body): Block[] => (b.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));

const claude = ensureClaude();

describe('end to end: Claude Code tool search over the gsd server', () => {
  const scratch = new E2eScratch();
  after(() => scratch.clear());

  it(`route is upfront, the rest deferred, and a ToolSearch in plain words finds blast_radius (claude ${CLAUDE_VERSION})`, { skip: 'skip' in claude ? claude.skip : false, timeout: 300_000 }, async () => {
    if (!('bin' in claude)) return;
    const root = copyProject('shop');
    await buildIntel(root);
    const mock = (scratch.mock = await startMessagesMock([
      { name: 'mcp__gsd__route', input: { query: 'who imports src/lib/money.ts' } },
      { name: 'ToolSearch', input: { query: 'change impact dependents', max_results: 3 } },
      { name: 'mcp__gsd__blast_radius', input: { file: 'src/lib/money.ts' } },
    ]));
    const home = mkdtempSync(path.join(os.tmpdir(), 'gsd-e2e-search-'));
    scratch.homes.push(home);
    const mcpConfig = path.join(home, 'mcp.json');
    writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { gsd: { type: 'stdio', command: process.execPath, args: [SERVER_ENTRY] } } }));
    const r = await runClaude(
      claude.bin,
      ['-p', 'SCRIPT: route, search, blast radius', '--output-format', 'json', '--allowedTools', 'mcp__gsd__*', '--mcp-config', mcpConfig, '--strict-mcp-config'],
      { cwd: root, env: offlineClaudeEnv({ home, mockUrl: mock.url }), capMs: 240_000 },
    );
    assert.equal(r.code, 0, `claude exited ${r.code}: ${r.stdout.slice(-1500)} ${r.stderr.slice(-1500)}`);
    assert.equal((JSON.parse(r.stdout) as { result?: string }).result, 'DONE: mcp__gsd__route,ToolSearch,mcp__gsd__blast_radius');

    const main = mock.bodies.map((b) => JSON.parse(b) as Body).filter((b) => (b.tools ?? []).some((t) => t.name === 'Write'));
    const first = main[0];
    const names = (b: Body) => (b.tools ?? []).map((t) => t.name);
    // the first request: route in tools[], every other gsd tool deferred (named in the prompt, not in tools[])
    assert.ok(names(first).includes('mcp__gsd__route'), names(first).join(', '));
    const deferred = ['blast_radius', 'query_intel', 'file_context', 'hotspots', 'phase_status'].map((t) => `mcp__gsd__${t}`);
    for (const t of deferred) {
      assert.ok(!names(first).includes(t), `${t} is deferred`);
      assert.ok(JSON.stringify(first).includes(t), `${t} is announced by name`);
    }
    // route's answer reached the model: the direct dependents of money.ts
    const routeUse = blocks(main.at(-1)!).find((b) => b.type === 'tool_use' && b.name === 'mcp__gsd__route')!;
    const routeResult = blocks(main.at(-1)!).find((b) => b.type === 'tool_result' && b.tool_use_id === routeUse.id)!;
    assert.match(JSON.stringify(routeResult.content), /src\/cart\/cart\.ts/);
    // the plain-words search found blast_radius, and it was then callable
    const searchUse = blocks(main.at(-1)!).find((b) => b.type === 'tool_use' && b.name === 'ToolSearch')!;
    const searchResult = blocks(main.at(-1)!).find((b) => b.type === 'tool_result' && b.tool_use_id === searchUse.id)!;
    assert.match(JSON.stringify(searchResult.content), /mcp__gsd__blast_radius/, JSON.stringify(searchResult.content).slice(0, 1000));
    const blastResult = blocks(main.at(-1)!).find((b) => b.type === 'tool_result' && b.tool_use_id === blocks(main.at(-1)!).find((x) => x.name === 'mcp__gsd__blast_radius')?.id);
    assert.match(JSON.stringify(blastResult?.content ?? ''), /by_depth/);
  });
});
