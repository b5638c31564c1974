/**
 * The plugin beside upstream GSD, with the real `claude` CLI (pinned 2.1.330, cached by test/hooks/e2e-claude.test.ts)
 * and a loopback mock of the Messages API: a HOME holding upstream's user-level `commands/gsd/` and `agents/gsd-*.md`
 * (test/helpers/upstream-gsd.ts), a session with this repository as `--plugin-dir`. Its init event lists upstream's
 * whole set and the plugin's whole set under its own names (`gsdcc:<command>`, `gsdcc:gsdcc-<agent>`,
 * `mcp__plugin_gsdcc_gsd__<tool>`), no name of one is a name of the other; a scripted tool call answers with a hint
 * naming `/gsdcc:new-project`; upstream's files are byte for byte what they were. Skipped with a message when the
 * binary is not cached.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLAUDE_BIN, claudeHome, ensureClaude, runProcess } from '../helpers/claude-cli.js';
import { E2eScratch } from '../helpers/e2e-scratch.js';
import { offlineClaudeEnv, startMessagesMock } from '../helpers/messages-mock.js';
import { repoRoot } from '../helpers/paths.js';
import { tempProject } from '../helpers/project.js';
import { snapshot } from '../helpers/tree-snapshot.js';
import { installUpstream } from '../helpers/upstream-gsd.js';

const scratch = new E2eScratch();
after(() => scratch.clear());

const mdNames = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort();

describe('the gsdcc plugin beside upstream GSD with the real claude CLI (end to end, offline)', () => {
  it('lists both whole sets under names of their own, names its own commands in hints, and changes nothing of upstream', async (t) => {
    const claude = ensureClaude();
    if ('skip' in claude) return t.skip(claude.skip);
    const { home, bin } = claudeHome('gsd-e2e-plugin-');
    scratch.homes.push(home);
    const config = path.join(home, '.claude');
    installUpstream(config, 'commands-1.28');
    const upstream = snapshot(config);
    const upstreamCommands = mdNames(path.join(config, 'commands', 'gsd')).map((c) => `gsd:${c}`);
    const upstreamAgents = mdNames(path.join(config, 'agents'));
    // a folder without .planning/: the server's answer carries the hint that starts a project
    const root = tempProject({ 'README.md': '# empty\n' }, { planning: false });
    const tool = 'mcp__plugin_gsdcc_gsd__hotspots';
    const mock = (scratch.mock = await startMessagesMock([{ name: tool, input: {} }]));
    const env: NodeJS.ProcessEnv = {
      ...offlineClaudeEnv({ home, mockUrl: mock.url, path: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin` }),
      ENABLE_TOOL_SEARCH: 'false',
      MCP_CONNECTION_NONBLOCKING: '0',
    };
    const session = await runProcess(
      CLAUDE_BIN,
      ['-p', 'SCRIPT: hotspots', '--plugin-dir', repoRoot, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'mcp__plugin_gsdcc_gsd__*'],
      root,
      env,
      240_000,
    );
    assert.equal(session.code, 0, `claude exited ${session.code}\n${session.stdout.slice(-2000)}\n${session.stderr.slice(-2000)}`);
    const events = session.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init') as {
      tools: string[];
      slash_commands: string[];
      agents: string[];
      mcp_servers: { name: string; status: string }[];
      plugins: { name: string }[];
    };
    assert.ok(init, 'an init event');
    assert.deepEqual(init.plugins.map((p) => p.name).filter((n) => n.startsWith('gsd')), ['gsdcc'], 'ours, under its name (Claude Code lists its own built-in plugins too)');

    const ourCommands = mdNames(path.join(repoRoot, 'dist', 'plugin', 'commands', 'gsd')).map((c) => `gsdcc:${c}`);
    const ourAgents = mdNames(path.join(repoRoot, 'dist', 'plugin', 'agents')).map((a) => `gsdcc:${a}`);
    for (const c of [...upstreamCommands, ...ourCommands]) assert.ok(init.slash_commands.includes(c), `${c} in ${init.slash_commands.join(', ')}`);
    for (const a of [...upstreamAgents, ...ourAgents]) assert.ok(init.agents.includes(a), `${a} in ${init.agents.join(', ')}`);
    assert.deepEqual(ourAgents, ['gsdcc:gsdcc-codebase-mapper', 'gsdcc:gsdcc-executor', 'gsdcc:gsdcc-plan-checker', 'gsdcc:gsdcc-planner', 'gsdcc:gsdcc-verifier']);
    // no name is both sets': nothing of ours is listed under upstream's names, so none can shadow or be shadowed
    const listed = new Set([...init.slash_commands, ...init.agents]);
    assert.deepEqual(ourCommands.filter((c) => upstreamCommands.includes(c)), []);
    assert.equal([...listed].filter((n) => n.startsWith('gsdcc:')).length, ourCommands.length + ourAgents.length);
    assert.equal(init.mcp_servers.find((s) => s.name === 'plugin:gsdcc:gsd')?.status, 'connected', JSON.stringify(init.mcp_servers));
    assert.ok(init.tools.includes(tool), init.tools.join(', '));

    // the tool's answer names the command as this plugin provides it
    type Block = { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown };
    const messages = (JSON.parse(mock.bodies.at(-1) ?? '{}').messages ?? []) as { role: string; content: Block[] | string }[];
    const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const call = blocks.find((b) => b.type === 'tool_use' && b.name === tool);
    const answer = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === call?.id);
    assert.ok(answer, 'the hotspots answer went back to the model');
    const text = JSON.stringify(answer.content);
    assert.match(text, /No \.planning\/ folder.*\/gsdcc:new-project/, text.slice(0, 500));
    assert.doesNotMatch(text, /\/gsd:/);

    // upstream's files: byte for byte (Claude Code's own session files aside)
    const after = snapshot(config);
    for (const [rel, bytes] of upstream) assert.deepEqual(after.get(rel), bytes, `${rel} unchanged`);
    assert.ok(readFileSync(path.join(config, 'settings.json'), 'utf8').includes('gsd-statusline.js'));
  });
});
