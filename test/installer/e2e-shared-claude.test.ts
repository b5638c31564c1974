/**
 * End to end with the real `claude` CLI (pinned 2.1.330, cached by test/hooks/e2e-claude.test.ts) and the loopback
 * Messages mock: `install --global --yes --shared` registers the shared daemon as a `type: "http"` server (through
 * `claude mcp add-json`, the token in its headers); `claude mcp list` shows it connected and a `claude -p` session
 * calls a gsd tool through it, answered for the session's own folder. (The stdio shim registration is the default
 * install: e2e-install-claude.test.ts drives it the same way.) Skipped with a message when the binary is not cached.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { gsdHome } from '../../mcp-server/src/daemon/home.js';
import { readDaemonInfo } from '../../mcp-server/src/daemon/info.js';
import { CLAUDE_BIN, claudeHome, ensureClaude, runProcess } from '../helpers/claude-cli.js';
import { E2eScratch } from '../helpers/e2e-scratch.js';
import { offlineClaudeEnv, startMessagesMock } from '../helpers/messages-mock.js';
import { cliPath } from '../helpers/paths.js';
import { tempProject } from '../helpers/project.js';

const BIN = CLAUDE_BIN;
const run = runProcess;
const scratch = new E2eScratch();
after(() => scratch.clear());

describe('install --global --shared with the real claude CLI (end to end, offline)', () => {
  it('lists the http server as connected and calls a tool through it', async (t) => {
    const claude = ensureClaude();
    if ('skip' in claude) return t.skip(claude.skip);
    const { home, bin } = claudeHome('gsd-e2e-shared-');
    scratch.homes.push(home);
    const root = tempProject({ 'src/money.ts': '/** Money helpers. */\nexport function addTax(c: number): number {\n  return Math.round(c * 1.2);\n}\n' });
    await buildIntel(root);
    const mock = (scratch.mock = await startMessagesMock([{ name: 'mcp__gsd__file_context', input: { file: 'src/money.ts' } }]));
    const env: NodeJS.ProcessEnv = {
      ...offlineClaudeEnv({ home, mockUrl: mock.url, path: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin` }),
      ENABLE_TOOL_SEARCH: 'false',
    };
    const install = spawnSync(process.execPath, [cliPath, 'install', '--global', '--yes', '--shared'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(install.status, 0, `${install.stdout}\n${install.stderr}`);
    assert.match(install.stdout, /registered at user scope \(claude mcp add-json\)/);
    const claudeJson = JSON.parse(readFileSync(path.join(home, '.claude.json'), 'utf8'));
    assert.equal(claudeJson.mcpServers.gsd.type, 'http');
    const info = readDaemonInfo(gsdHome({ HOME: home }));
    assert.ok(info, 'the daemon runs');

    const list = await run(BIN, ['mcp', 'list'], root, env, 120_000);
    assert.match(list.stdout, /gsd: http:\/\/127\.0\.0\.1:\d+\/gsd\/mcp \(HTTP\) - ✔ Connected/, list.stdout + list.stderr);

    const session = await run(BIN, ['-p', 'SCRIPT: context', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'mcp__gsd__*'], root, env, 240_000);
    assert.equal(session.code, 0, `claude exited ${session.code}\n${session.stdout.slice(-2000)}\n${session.stderr.slice(-2000)}`);
    const events = session.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init') as { tools: string[]; mcp_servers: { name: string; status: string }[] };
    assert.equal(init.mcp_servers.find((s) => s.name === 'gsd')?.status, 'connected');
    assert.ok(init.tools.includes('mcp__gsd__file_context'));
    type Block = { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown };
    const messages = (JSON.parse(mock.bodies.at(-1) ?? '{}').messages ?? []) as { role: string; content: Block[] | string }[];
    const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const call = blocks.find((b) => b.type === 'tool_use' && b.name === 'mcp__gsd__file_context');
    const answer = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === call?.id);
    assert.ok(answer, 'the file_context result went back to the model');
    const text = JSON.stringify(answer.content);
    assert.doesNotMatch(text, /is_error|MCP error|declared no project/, text.slice(0, 500));
    assert.match(text, /Money helpers/, text.slice(0, 500));

    const uninstall = spawnSync(process.execPath, [cliPath, 'uninstall'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(uninstall.status, 0, `${uninstall.stdout}\n${uninstall.stderr}`);
    assert.equal(readDaemonInfo(gsdHome({ HOME: home })), null);
  });
});
