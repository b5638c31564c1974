/**
 * The native plugin layout at the repository root (.claude-plugin/plugin.json + marketplace.json, hooks/hooks.json,
 * .mcp.json): named gsdcc, its commands and agents the build's gsdcc set (dist/plugin/, made by the installer's own
 * rewrite) that names only itself, its server started as Claude Code starts it naming /gsdcc: commands and gsdcc-*
 * agents in its answers; `claude plugin validate . --strict` passes with the pinned CLI when it is cached
 * (~/.cache/get-shit-done-cc/claude-2.1.330, installed by test/hooks/e2e-claude.test.ts); otherwise that part is
 * skipped with a message. test/installer/e2e-plugin-claude.test.ts runs it beside upstream GSD in a real session.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ourAssets } from '../../installer/src/install/assets.js';
import { startServer } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';
import { cleanupProjects, copyProject, tempProject } from '../helpers/project.js';

const BIN = path.join(process.env.GSD_CLAUDE_CACHE ?? path.join(os.homedir(), '.cache', 'get-shit-done-cc', 'claude-2.1.330'), 'node_modules', '.bin', 'claude');
const json = (rel: string) => JSON.parse(readFileSync(path.join(repoRoot, rel), 'utf8'));

const PLUGIN_DIR = path.join(repoRoot, 'dist', 'plugin');
const OUR_AGENT = /\bgsd-(planner|executor|verifier|plan-checker|codebase-mapper)\b/;

describe('the gsdcc plugin layout', () => {
  it('is named gsdcc, one version with the package, and points at built files', () => {
    const plugin = json('.claude-plugin/plugin.json');
    assert.equal(plugin.name, 'gsdcc');
    assert.equal(plugin.version, json('package.json').version);
    const market = json('.claude-plugin/marketplace.json');
    assert.equal(market.plugins[0].name, 'gsdcc');
    assert.equal(plugin.commands, './dist/plugin/commands/gsd');
    // the validator takes agents as .md files only: the list is every agent the build wrote
    assert.deepEqual(plugin.agents, readdirSync(path.join(PLUGIN_DIR, 'agents')).sort().map((f) => `./dist/plugin/agents/${f}`));
    for (const f of [...plugin.agents, plugin.commands]) assert.ok(existsSync(path.join(repoRoot, f)), f);
    assert.equal(market.plugins[0].version, plugin.version);
    const hooks = json('hooks/hooks.json').hooks;
    assert.equal(hooks.PostToolUse[0].matcher, 'Write|Edit|MultiEdit|NotebookEdit');
    const commands = [hooks.PostToolUse[0].hooks[0].command, hooks.SessionStart[0].hooks[0].command];
    const args = json('.mcp.json').mcpServers.gsd.args as string[];
    for (const ref of [...commands.map((c: string) => /"\$\{CLAUDE_PLUGIN_ROOT\}\/([^"]+)"/.exec(c)![1]), ...args.map((a) => a.replace('${CLAUDE_PLUGIN_ROOT}/', ''))]) {
      assert.ok(existsSync(path.join(repoRoot, ref)), `${ref} exists after the build`);
    }
  });

  it('passes `claude plugin validate . --strict`', (t) => {
    if (!existsSync(BIN)) return t.skip(`the pinned claude CLI is not cached at ${BIN} (run test/hooks/e2e-claude.test.ts once to install it)`);
    const home = mkdtempSync(path.join(os.tmpdir(), 'gsd-validate-'));
    try {
      for (const target of ['.', '.claude-plugin/marketplace.json']) {
        const r = spawnSync(BIN, ['plugin', 'validate', target, '--strict', '--json'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000, env: { PATH: process.env.PATH, HOME: home, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } });
        assert.equal(r.status, 0, `${target}: ${r.stdout}\n${r.stderr}`);
        const report = JSON.parse(r.stdout);
        assert.equal(report.success, true);
        if (target === '.') {
          assert.deepEqual(report.provides.mcpServers.map((s: { name: string }) => s.name), ['gsd']);
          assert.deepEqual(report.provides.hooks.map((h: { event: string }) => h.event).sort(), ['PostToolUse', 'SessionStart']);
          assert.ok(report.provides.commands.length >= 13 && report.provides.commands.every((c: string) => c.startsWith('gsdcc:')), report.provides.commands.join(', '));
          assert.ok(report.provides.agents.length === 5 && report.provides.agents.every((a: string) => a.startsWith('gsdcc:gsdcc-')), report.provides.agents.join(', '));
        }
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('carries the gsdcc set of the installer byte for byte, which names only itself', () => {
    const assets = ourAssets(repoRoot, 'gsdcc');
    const built = new Map<string, Buffer>();
    const walk = (rel: string) => {
      for (const e of readdirSync(path.join(PLUGIN_DIR, rel), { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(rel, e.name));
        else built.set(path.join(rel, e.name), readFileSync(path.join(PLUGIN_DIR, rel, e.name)));
      }
    };
    walk('');
    assert.deepEqual([...built.keys()].sort(), assets.map((a) => a.runtimeRel).sort());
    for (const a of assets) {
      assert.deepEqual(built.get(a.runtimeRel), a.bytes, a.runtimeRel);
      const text = a.bytes.toString('utf8');
      assert.ok(!text.includes('/gsd:') && !OUR_AGENT.test(text) && !text.includes('mcp__plugin_gsd_'), `${a.runtimeRel} names only the gsdcc set`);
      if (/(allowed-tools|^tools):.*mcp__gsd__/m.test(text)) assert.match(text, /mcp__plugin_gsdcc_gsd__\*/, `${a.runtimeRel}: the plugin's own MCP tools`);
    }
  });

  it('its server, started as Claude Code starts it, names /gsdcc: commands and gsdcc-* agents', async () => {
    const entry = json('.mcp.json').mcpServers.gsd as { args: string[]; env: Record<string, string> };
    const sub = (v: string) => v.replaceAll('${CLAUDE_PLUGIN_ROOT}', repoRoot);
    const env = Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, sub(v)]));
    const empty = tempProject({ 'README.md': '# empty\n' }, { planning: false });
    const root = copyProject('gsd-app');
    const bare = await startServer(empty, { ...env, CLAUDE_PROJECT_DIR: empty }, sub(entry.args[0]));
    const s = await startServer(root, { ...env, CLAUDE_PROJECT_DIR: root }, sub(entry.args[0]));
    try {
      const hint = await bare.fails('hotspots');
      assert.match(hint, /No \.planning\/ folder[\s\S]*\/gsdcc:new-project/);
      assert.doesNotMatch(hint, /\/gsd:/);
      const plan = await s.ok('agent', { action: 'plan', intent: 'plan_phase' });
      const names = plan.result.steps.map((step: { agent: string }) => step.agent);
      assert.ok(names.length && names.every((n: string) => n.startsWith('gsdcc-')), names.join(', '));
      const vitals = await s.ok('vitals', { command: '/gsdcc:plan-phase' });
      assert.equal(vitals.command.file, path.join(PLUGIN_DIR, 'commands', 'gsd', 'plan-phase.md'));
      assert.match(await s.fails('vitals', { command: 'no-such' }), /no \/gsdcc:no-such command/);
    } finally {
      await Promise.all([bare.close(), s.close()]);
      cleanupProjects();
    }
  });
});
