/**
 * End to end with the real `claude` CLI (pinned 2.1.330, cached at ~/.cache/get-shit-done-cc/claude-2.1.330 by
 * test/hooks/e2e-claude.test.ts) and a loopback mock of the Messages API: `install --global --yes` into a temporary
 * HOME with `claude` on PATH (so the server is registered through `claude mcp add-json`), then `claude mcp list`
 * shows gsd connected, a `claude -p` session's init event lists the /gsd: commands, the agents and the mcp__gsd__
 * tools, a scripted Write fires the installed hook and lands in graph.db, a scripted mcp__gsd__blast_radius names the
 * new dependent, and `uninstall` leaves settings.json
 * byte-identical. Skipped with a message when the binary is not cached.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { gsdHome } from '../../mcp-server/src/daemon/home.js';
import { readDaemonInfo } from '../../mcp-server/src/daemon/info.js';
import { everywhere, presence, waitForWorkers } from '../helpers/hooks.js';
import { CLAUDE_BIN, claudeHome, ensureClaude, runProcess } from '../helpers/claude-cli.js';
import { E2eScratch } from '../helpers/e2e-scratch.js';
import { offlineClaudeEnv, startMessagesMock } from '../helpers/messages-mock.js';
import { cliPath, repoRoot } from '../helpers/paths.js';
import { tempProject } from '../helpers/project.js';

const BIN = CLAUDE_BIN;
const run = runProcess;
const CLI = cliPath;
const scratch = new E2eScratch();
after(() => scratch.clear());

describe('install --global with the real claude CLI (end to end, offline)', () => {
  it('wires everything Claude Code reads, and uninstall puts settings back byte for byte', async (t) => {
    const claude = ensureClaude();
    if ('skip' in claude) return t.skip(claude.skip);
    const { home, bin } = claudeHome('gsd-e2e-install-');
    scratch.homes.push(home);
    const settingsFile = path.join(home, '.claude', 'settings.json');
    writeFileSync(settingsFile, '{\n  "theme": "dark"\n}\n');
    const settingsBefore = readFileSync(settingsFile);
    const root = tempProject({
      'src/money.ts': '/** Money helpers. */\nexport function addTax(c: number): number {\n  return Math.round(c * 1.2);\n}\n',
      'package.json': '{ "name": "e2e-install", "type": "module" }\n',
    });
    await buildIntel(root);
    const mock = (scratch.mock = await startMessagesMock([
      { name: 'Write', input: { file_path: path.join(root, 'src', 'cart.ts'), content: "import { addTax } from './money.js';\nexport const total = (c: number) => addTax(c);\n" } },
      { name: 'mcp__gsd__blast_radius', input: { file: 'src/money.ts' } },
    ]));
    const env: NodeJS.ProcessEnv = {
      ...offlineClaudeEnv({
        home,
        mockUrl: mock.url,
        path: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin`,
      }),
      // MCP tools in tools[] from the first request, so the mock can call one without a ToolSearch step
      ENABLE_TOOL_SEARCH: 'false',
      // wait for the MCP server before the session starts (../shared/claude-code.md): on a loaded machine a server that
      // starts in a few seconds is otherwise still `pending` in the init event, though it connects and answers later
      MCP_CONNECTION_NONBLOCKING: '0',
    };

    const install = spawnSync(process.execPath, [CLI, 'install', '--global', '--yes'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(install.status, 0, `${install.stdout}\n${install.stderr}`);
    assert.match(install.stdout, /claude mcp add-json/);

    const list = await run(BIN, ['mcp', 'list'], root, env, 120_000);
    assert.match(list.stdout, /gsd: .*mcp-server\.js - ✔ Connected/, list.stdout + list.stderr);

    const session = await run(
      BIN,
      ['-p', 'SCRIPT: write', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--allowedTools', 'Write', 'mcp__gsd__*'],
      root,
      env,
      240_000,
    );
    assert.equal(session.code, 0, `claude exited ${session.code}\n${session.stdout.slice(-2000)}\n${session.stderr.slice(-2000)}`);
    const events = session.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init') as { tools: string[]; slash_commands: string[]; agents: string[]; mcp_servers: { name: string; status: string }[] };
    assert.ok(init, 'an init event');
    assert.deepEqual(init.mcp_servers.find((s) => s.name === 'gsd')?.status, 'connected');
    assert.ok(init.tools.includes('mcp__gsd__blast_radius'), init.tools.join(', '));
    const shippedCommands = readdirSync(path.join(repoRoot, 'commands', 'gsd')).filter((f) => f.endsWith('.md')).map((f) => `gsd:${f.slice(0, -3)}`);
    for (const c of shippedCommands) assert.ok(init.slash_commands.includes(c), `${c} in ${init.slash_commands.join(', ')}`);
    const shippedAgents = readdirSync(path.join(repoRoot, 'agents')).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
    for (const a of shippedAgents) assert.ok(init.agents.includes(a), `${a} in ${init.agents.join(', ')}`);

    const result = events.find((e) => e.type === 'result') as { result?: string };
    assert.equal(result?.result, 'DONE: Write,mcp__gsd__blast_radius', 'the script ran to its end');
    // the server drained the hook's journal before answering: the new file is a dependent of money.ts
    type Block = { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown };
    const messages = (JSON.parse(mock.bodies.at(-1) ?? '{}').messages ?? []) as { role: string; content: Block[] | string }[];
    const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const call = blocks.find((b) => b.type === 'tool_use' && b.name === 'mcp__gsd__blast_radius');
    const answer = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === call?.id);
    assert.ok(answer, 'the blast_radius result went back to the model');
    const text = JSON.stringify(answer.content);
    assert.doesNotMatch(text, /is_error|MCP error/);
    assert.match(text, /src\/cart\.ts/, `blast_radius of src/money.ts names src/cart.ts: ${text.slice(0, 500)}`);
    // the default registration is the stdio shim: it started the shared daemon and the call went through it (a shim
    // that fell back to serving in-process would answer the same, with no daemon running)
    assert.ok(readDaemonInfo(gsdHome({ HOME: home })), 'the shim started the shared daemon');

    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'src/cart.ts'), everywhere, 'the installed PostToolUse hook captured the Write');

    // the runtime folder removed by someone else: Claude Code still spawns the registered entry, which answers the
    // handshake with the cause instead of crashing (put back afterwards)
    const runtime = path.join(home, '.claude', 'gsdcc');
    renameSync(runtime, `${runtime}.away`);
    const gone = await run(BIN, ['mcp', 'list'], root, env, 120_000);
    renameSync(`${runtime}.away`, runtime);
    assert.match(gone.stdout, /gsd: .*mcp-server\.js - ✘ Failed/, gone.stdout + gone.stderr);

    const uninstall = spawnSync(process.execPath, [CLI, 'uninstall'], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(uninstall.status, 0, `${uninstall.stdout}\n${uninstall.stderr}`);
    assert.deepEqual(readFileSync(settingsFile), settingsBefore, 'settings.json byte-identical');
    const after = await run(BIN, ['mcp', 'list'], root, env, 60_000);
    assert.doesNotMatch(after.stdout, /gsd:/);
    assert.ok(!existsSync(path.join(home, '.claude', 'gsdcc')));
  });
});
