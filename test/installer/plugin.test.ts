/**
 * The native plugin layout at the repository root (.claude-plugin/plugin.json + marketplace.json, hooks/hooks.json,
 * .mcp.json): its parts point at files the build makes, and `claude plugin validate . --strict` passes with the pinned
 * CLI when it is cached (~/.cache/get-shit-done-cc/claude-2.1.330, installed by test/hooks/e2e-claude.test.ts);
 * otherwise that part is skipped with a message.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/paths.js';

const BIN = path.join(process.env.GSD_CLAUDE_CACHE ?? path.join(os.homedir(), '.cache', 'get-shit-done-cc', 'claude-2.1.330'), 'node_modules', '.bin', 'claude');
const json = (rel: string) => JSON.parse(readFileSync(path.join(repoRoot, rel), 'utf8'));

describe('the gsd plugin layout', () => {
  it('is named gsd, one version with the package, and points at built files', () => {
    const plugin = json('.claude-plugin/plugin.json');
    assert.equal(plugin.name, 'gsd');
    assert.equal(plugin.version, json('package.json').version);
    const market = json('.claude-plugin/marketplace.json');
    assert.equal(market.plugins[0].name, 'gsd');
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
          assert.ok(report.provides.commands.every((c: string) => c.startsWith('gsd:')));
        }
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
