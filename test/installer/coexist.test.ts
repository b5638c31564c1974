/**
 * Living beside what is already in the Claude config folder: upstream GSD in each of its layouts, an older release
 * of ours in upstream's folder name, and a file of the user's at every path install writes. The built CLI against
 * a temporary HOME; upstream's layouts and installer rules come from test/helpers/upstream-gsd.ts (no network).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { snapshot } from '../helpers/tree-snapshot.js';
import { cliPath, repoRoot } from '../helpers/paths.js';
import { LAYOUTS, installUpstream, legacyCleanupCandidates, reinstallUpstream, uninstallUpstream, type Layout } from '../helpers/upstream-gsd.js';

const temps: string[] = [];
after(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

interface Home {
  home: string;
  config: string;
  runtime: string;
}

function newHome(): Home {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gsd coexist-'));
  temps.push(home);
  const config = path.join(home, '.claude');
  mkdirSync(config, { recursive: true });
  return { home, config, runtime: path.join(config, 'gsdcc') };
}

function cli(h: Home, args: string[]) {
  const r = spawnSync(process.execPath, [cliPath, ...args], { cwd: h.home, encoding: 'utf8', env: { PATH: path.dirname(process.execPath), HOME: h.home, NO_COLOR: '1' }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, all: `${r.stdout}\n${r.stderr}` };
}

const ok = (h: Home, args: string[]) => {
  const r = cli(h, args);
  assert.equal(r.code, 0, r.all);
  return r;
};

const manifestOf = (h: Home) => JSON.parse(readFileSync(path.join(h.runtime, 'manifest.json'), 'utf8'));
/** Paths (relative to the config folder) our manifest lists. */
function ourPaths(h: Home): Set<string> {
  const m = manifestOf(h);
  return new Set<string>([...m.files.filter((f: { aside?: boolean }) => !f.aside).map((f: { path: string }) => path.relative(h.config, f.path)), ...m.runtimeFiles.map((f: string) => path.join('gsdcc', f)), path.join('gsdcc', 'manifest.json')]);
}

/**
 * The files of `before` that are not ours must be in `h` byte for byte. settings.json and ~/.claude.json, which both
 * products edit, are compared by key apart; our runtime folder and our backups are ours.
 */
function assertKept(h: Home, before: Map<string, string>, label: string): void {
  const now = snapshot(h.home);
  const ours = (rel: string) => rel.endsWith('settings.json') || rel === '.claude.json' || rel.startsWith(path.join('.claude', 'gsdcc', '')) || rel.includes('.gsd-backup-');
  const diff = [...before].filter(([rel, v]) => !ours(rel) && now.get(rel) !== v).map(([rel]) => rel);
  assert.deepEqual(diff, [], `${label}: files that are not ours changed or gone`);
}

const settingsOf = (h: Home) => JSON.parse(readFileSync(path.join(h.config, 'settings.json'), 'utf8'));
const upstreamHooks = (s: { hooks?: unknown }) => (JSON.stringify(s.hooks ?? {}).match(/hooks[\\/]+gsd-[\w.-]+/g) ?? []).sort();
const ourHooks = (s: { hooks?: unknown }) => (JSON.stringify(s.hooks ?? {}).match(/gsdcc[\\/]+hooks[\\/]+[\w.-]+/g) ?? []).length;

describe('beside upstream GSD and the user\'s own files (built CLI, temporary HOME)', () => {
  it('sweep: a file of the user\'s at every path install writes, and every settings key, come back byte for byte', () => {
    // every path install writes, under either set of names
    const probe = newHome();
    ok(probe, ['install', '--global', '--yes', '--no-mcp']);
    const gsdNames = ourPaths(probe);
    const probe2 = newHome();
    ok(probe2, ['install', '--global', '--yes', '--no-mcp', '--names', 'gsdcc']);
    const every = new Set([...gsdNames, ...ourPaths(probe2)]);
    assert.ok(every.size > 60, `${every.size} paths`);

    for (const names of ['gsdcc', 'gsd']) {
      const h = newHome();
      for (const rel of every) {
        mkdirSync(path.dirname(path.join(h.config, rel)), { recursive: true });
        writeFileSync(path.join(h.config, rel), `the user's own ${rel}\n`);
      }
      writeFileSync(path.join(h.config, 'settings.json'), '{\n  "model": "opus",\n  "statusLine": { "type": "command", "command": "my-status" },\n  "hooks": {\n    "PostToolUse": [ { "matcher": "Write|Edit|MultiEdit|NotebookEdit", "hooks": [ { "type": "command", "command": "my-post" } ] } ],\n    "SessionStart": [ { "hooks": [ { "type": "command", "command": "my-start" } ] } ]\n  },\n  "enabledPlugins": { "other@x": true }\n}\n');
      writeFileSync(path.join(h.home, '.claude.json'), JSON.stringify({ numStartups: 3, mcpServers: { mine: { command: 'mine' } } }));
      const before = snapshot(h.home);
      const first = ok(h, ['install', '--global', '--yes', '--names', names]);
      assert.match(first.stdout, /exists and is not ours/, 'a gsdcc/ folder of the user\'s is set aside, not replaced');
      assertKept(h, new Map([...before].filter(([rel]) => !rel.startsWith(path.join('.claude', 'gsdcc')) && !every.has(path.relative('.claude', rel)))), `${names}: install`);
      const s = settingsOf(h);
      assert.equal(s.statusLine.command, 'my-status');
      assert.equal(ourHooks(s), 2);
      assert.deepEqual(s.hooks.PostToolUse[0].hooks[0].command, 'my-post', 'the user\'s hook stays first');
      ok(h, ['install', '--global', '--yes', '--names', names]); // upgrade over ourselves
      ok(h, ['uninstall', '--global']);
      assert.deepEqual(snapshot(h.home), before, `${names}: after install, upgrade and uninstall every seeded file and key is back byte for byte`);
    }
  });

  for (const layout of LAYOUTS) {
    it(`${layout}: upstream, ours, upstream's update, our upgrade, uninstall — upstream byte for byte, ours whole`, () => {
      const h = newHome();
      installUpstream(h.config, layout);
      const up = snapshot(h.home);
      const upSettings = settingsOf(h);
      const r = ok(h, ['install', '--global', '--yes']);
      assert.match(r.stdout, /Upstream GSD \S+ is installed/);
      assert.match(r.stdout, /gsd-file-manifest\.json/);
      assert.match(r.stdout, /its statusLine/);
      assert.match(r.stdout, /Our commands install as \/gsdcc:/);
      assertKept(h, up, 'our install');
      assert.deepEqual(upstreamHooks(settingsOf(h)), upstreamHooks(upSettings), 'its hooks stay registered');
      assert.deepEqual(settingsOf(h).statusLine, upSettings.statusLine, 'its statusLine stays');
      const ours = ourPaths(h);
      assert.ok([...ours].some((p) => p.startsWith(path.join('commands', 'gsdcc'))) && [...ours].some((p) => p.startsWith(path.join('agents', 'gsdcc-'))));
      const planner = readFileSync(path.join(h.config, 'agents', 'gsdcc-planner.md'), 'utf8');
      assert.ok(!/\bgsd-(planner|executor|verifier|plan-checker|codebase-mapper)\b/.test(planner) && !planner.includes('/gsd:'), 'the renamed set names only itself');
      assert.deepEqual(legacyCleanupCandidates(h.config, h.home).filter((f) => ours.has(path.relative(h.config, f))), [], 'nothing of ours matches gsd-core\'s legacy cleanup');
      assert.equal(cli(h, ['doctor', '--global']).code, 0);

      reinstallUpstream(h.config, layout, h.home);
      const up2 = snapshot(h.home);
      for (const rel of ours) assert.ok(existsSync(path.join(h.config, rel)), `${rel} survives upstream's update`);
      assert.equal(ourHooks(settingsOf(h)), 2);
      assert.equal(cli(h, ['doctor', '--global']).code, 0);

      ok(h, ['install', '--global', '--yes']);
      assertKept(h, up2, 'our upgrade');
      ok(h, ['uninstall', '--global']);
      assertKept(h, new Map([...up2].filter(([rel]) => !ours.has(path.relative('.claude', rel)))), 'our uninstall');
      for (const rel of ours) assert.ok(!existsSync(path.join(h.config, rel)), `${rel} removed`);
      assert.equal(ourHooks(settingsOf(h)), 0);
      assert.deepEqual(upstreamHooks(settingsOf(h)), upstreamHooks(upSettings));
    });

    it(`${layout}: ours first, then upstream (its wipe takes our gsd-named files), doctor, ours again, both uninstall`, () => {
      const h = newHome();
      ok(h, ['install', '--global', '--yes']);
      assert.ok(existsSync(path.join(h.config, 'commands', 'gsd', 'plan-phase.md')), 'without upstream, the /gsd: names');
      installUpstream(h.config, layout);
      reinstallUpstream(h.config, layout, h.home); // its installer wipes before it writes
      assert.ok(existsSync(path.join(h.runtime, 'mcp-server.js')), 'no upstream rule reaches our runtime folder');
      const doctor = cli(h, ['doctor', '--global', '--no-spawn']);
      assert.equal(doctor.code, 1);
      assert.match(doctor.stdout, /upstream GSD's installer deletes commands\/gsd\//);
      assert.match(doctor.stdout, /fix: run: npx get-shit-done-cc install --global --yes/);
      const theirs = snapshot(h.home);
      const again = ok(h, ['install', '--global', '--yes']);
      assert.match(again.stdout, /gsdcc/);
      assertKept(h, new Map([...theirs].filter(([rel]) => !rel.startsWith(path.join('.claude', 'gsdcc')))), 'ours again');
      assert.equal(cli(h, ['doctor', '--global', '--no-spawn']).code, 0);
      ok(h, ['uninstall', '--global']);
      assertKept(h, new Map([...theirs].filter(([rel]) => !rel.startsWith(path.join('.claude', 'gsdcc')))), 'our uninstall');
      uninstallUpstream(h.config, layout, h.home);
      const left = [...snapshot(h.config).keys()].filter((rel) => !rel.includes('.gsd-backup-') && rel !== 'settings.json');
      assert.deepEqual(left, [], 'nothing of either is left');
    });
  }

  it('--names gsd beside upstream: all of its /gsd: commands and same-named agents set aside, put back by uninstall', () => {
    const h = newHome();
    installUpstream(h.config, 'commands-1.28');
    const up = snapshot(h.home);
    ok(h, ['install', '--global', '--yes', '--names', 'gsd']);
    const commands = readdirSync(path.join(h.config, 'commands', 'gsd')).filter((f) => f.endsWith('.md'));
    const shipped = readdirSync(path.join(repoRoot, 'commands', 'gsd')).filter((f) => f.endsWith('.md'));
    assert.deepEqual(commands.sort(), shipped.sort(), 'the /gsd: set is ours alone, never mixed');
    assert.ok(readFileSync(path.join(h.config, 'get-shit-done', 'workflows', 'plan-phase.md'), 'utf8').includes('round 1'), 'its runtime stays');
    ok(h, ['uninstall', '--global']);
    assertKept(h, up, 'uninstall');
  });

  it('upgrade from an older release of ours in get-shit-done/: our files move out, upstream\'s stay', () => {
    const h = newHome();
    ok(h, ['install', '--global', '--yes', '--no-mcp']);
    // make it look like an older release: the runtime in upstream's folder name, hooks pointing there
    const legacy = path.join(h.config, 'get-shit-done');
    renameSync(h.runtime, legacy);
    for (const dir of ['commands', 'agents']) rmSync(path.join(legacy, dir), { recursive: true }); // not in older releases
    const m = manifestOf({ ...h, runtime: legacy });
    writeFileSync(path.join(legacy, 'manifest.json'), JSON.stringify({ ...m, runtimeDir: legacy, runtimeFiles: undefined, names: undefined }));
    const settingsFile = path.join(h.config, 'settings.json');
    writeFileSync(settingsFile, readFileSync(settingsFile, 'utf8').replaceAll(`${path.sep}gsdcc${path.sep}`, `${path.sep}get-shit-done${path.sep}`));
    // and upstream's own files in that folder, listed in its manifest
    mkdirSync(path.join(legacy, 'workflows'), { recursive: true });
    writeFileSync(path.join(legacy, 'workflows', 'plan-phase.md'), 'their workflow\n');
    writeFileSync(path.join(h.config, 'gsd-file-manifest.json'), JSON.stringify({ version: '1.28.0', files: {} }));
    const doctor = cli(h, ['doctor', '--global', '--no-spawn']);
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /older release/);
    const r = ok(h, ['install', '--global', '--yes', '--no-mcp']);
    assert.match(r.stdout, /moved our \d+ file\(s\) out of .*everything else/);
    assert.deepEqual(readdirSync(legacy), ['workflows'], 'only upstream\'s files are left in get-shit-done/');
    assert.equal(readFileSync(path.join(legacy, 'workflows', 'plan-phase.md'), 'utf8'), 'their workflow\n');
    assert.ok(!readFileSync(settingsFile, 'utf8').includes('get-shit-done/hooks'), 'the old hook entries are replaced');
    assert.equal(ourHooks(settingsOf(h)), 2);
    assert.equal(cli(h, ['doctor', '--global', '--no-spawn']).code, 0);
  });

  it('runtime removed: the registered hooks run silent, the MCP entry says why, doctor names cause and repair', async () => {
    const h = newHome();
    ok(h, ['install', '--global', '--yes']);
    const project = mkdtempSync(path.join(os.tmpdir(), 'gsd coexist-project-'));
    temps.push(project);
    rmSync(h.runtime, { recursive: true, force: true });
    const settings = settingsOf(h);
    const commands = [settings.hooks.PostToolUse[0].hooks[0].command, settings.hooks.SessionStart[0].hooks[0].command];
    const stdin = JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: path.join(project, 'a.ts'), content: 'x' } });
    for (const command of commands) {
      // as Claude Code runs it: the command line through a shell, JSON on stdin
      const run = spawnSync('/bin/sh', ['-c', command], { input: stdin, encoding: 'utf8', cwd: project, env: { PATH: path.dirname(process.execPath), HOME: h.home, CLAUDE_PROJECT_DIR: project } });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, '');
    }
    const entry = JSON.parse(readFileSync(path.join(h.home, '.claude.json'), 'utf8')).mcpServers.gsd;
    const answer = await new Promise<string>((resolve, reject) => {
      const child = spawn(entry.command, entry.args, { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) {
          child.stdin.end();
          resolve(out);
        }
      });
      child.on('error', reject);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    });
    const msg = JSON.parse(answer.split('\n')[0]);
    assert.equal(msg.id, 1);
    assert.match(msg.error.message, /runtime folder is gone .*Repair: npx get-shit-done-cc install --global --yes/);
    const doctor = cli(h, ['doctor', '--global']);
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /the runtime folder .*gsdcc is gone .*hooks stay silent/);
    assert.match(doctor.stdout, /fix: run: npx get-shit-done-cc install --global --yes/);
    const settingsBefore = readFileSync(path.join(h.config, 'settings.json'), 'utf8');
    // uninstall without a manifest removes the entries still registered, and nothing else
    const u = ok(h, ['uninstall', '--global', '--dry-run']);
    assert.match(u.stdout, /No manifest .*removing the entries of ours still registered/);
    assert.equal(readFileSync(path.join(h.config, 'settings.json'), 'utf8'), settingsBefore, 'dry run');
    ok(h, ['uninstall', '--global']);
    assert.equal(ourHooks(settingsOf(h)), 0, 'our dangling hook entries removed');
    assert.equal(JSON.parse(readFileSync(path.join(h.home, '.claude.json'), 'utf8')).mcpServers?.gsd, undefined, 'and our MCP entry');
    ok(h, ['install', '--global', '--yes', '--no-mcp']);
    assert.equal(cli(h, ['doctor', '--global', '--no-spawn']).code, 0, 'the one repair command repairs it');
  });

  it('plugin form beside upstream: named gsdcc, its set shares no name with upstream\'s, install and doctor change nothing, its hooks stay silent without their files', () => {
    // the plugin's commands are /gsdcc:<file name> and its agents gsdcc:<name> (Claude Code's plugin namespacing)
    const plugin = JSON.parse(readFileSync(path.join(repoRoot, '.claude-plugin', 'plugin.json'), 'utf8'));
    assert.equal(plugin.name, 'gsdcc');
    const pluginCommands = readdirSync(path.join(repoRoot, plugin.commands)).map((f) => `/gsdcc:${f.replace(/\.md$/, '')}`);
    const pluginAgents = (plugin.agents as string[]).map((f) => path.basename(f, '.md'));
    assert.ok(pluginAgents.every((a) => a.startsWith('gsdcc-')), pluginAgents.join(', '));
    for (const layout of LAYOUTS) {
      const h = newHome();
      installUpstream(h.config, layout);
      // upstream's names: /gsd:<file> for commands/gsd/, /gsd-<x> for skills/gsd-<x>/, agents by file name
      const theirs = new Set([
        ...(existsSync(path.join(h.config, 'commands', 'gsd')) ? readdirSync(path.join(h.config, 'commands', 'gsd')) : []).map((e) => `/gsd:${e.replace(/\.md$/, '')}`),
        ...(existsSync(path.join(h.config, 'skills')) ? readdirSync(path.join(h.config, 'skills')).map((d) => `/${d}`) : []),
        ...readdirSync(path.join(h.config, 'agents')).map((f) => f.replace(/\.md$/, '')),
      ]);
      assert.deepEqual([...pluginCommands, ...pluginAgents].filter((n) => theirs.has(n)), [], `${layout}: no name in both sets`);
      const settings = settingsOf(h);
      writeFileSync(path.join(h.config, 'settings.json'), JSON.stringify({ ...settings, enabledPlugins: { 'gsdcc@gsd-marketplace': true } }, null, 2));
      const before = snapshot(h.home);
      const r = ok(h, ['install', '--global', '--yes']);
      assert.match(r.stdout, /Our plugin is enabled: gsdcc@gsd-marketplace/);
      const d = cli(h, ['doctor', '--global']);
      assert.equal(d.code, 0, d.all);
      assert.match(d.stdout, /the plugin gsdcc@gsd-marketplace provides the commands, agents, hooks and MCP server/);
      assert.deepEqual(snapshot(h.home), before, `${layout}: nothing changed`);
    }
    const h = newHome();
    installUpstream(h.config, 'commands-1.28');
    writeFileSync(path.join(h.config, 'settings.json'), JSON.stringify({ ...settingsOf(h), enabledPlugins: { 'gsd@gsd-marketplace': true } }, null, 2));
    const before = snapshot(h.home);
    // the plugin under its old name: its /gsd: commands sit under upstream's, which Claude Code prefers
    const r = ok(h, ['install', '--global', '--yes']);
    assert.match(r.stdout, /Our plugin is enabled: gsd@gsd-marketplace/);
    assert.match(r.stdout, /half ours, half theirs.*claude plugin uninstall gsd@gsd-marketplace && claude plugin install gsdcc@gsd-marketplace/);
    const d = cli(h, ['doctor', '--global']);
    assert.equal(d.code, 1);
    assert.match(d.stdout, /FAIL our plugin is enabled under its old name gsd .*half ours, half theirs/);
    assert.match(d.stdout, /fix: run: claude plugin uninstall gsd@gsd-marketplace && claude plugin install gsdcc@gsd-marketplace/);
    assert.deepEqual(snapshot(h.home), before, 'nothing changed');
    const hooks = JSON.parse(readFileSync(path.join(repoRoot, 'hooks', 'hooks.json'), 'utf8')).hooks;
    const mcp = readFileSync(path.join(repoRoot, '.mcp.json'), 'utf8');
    const commands: string[] = [hooks.PostToolUse[0].hooks[0].command, hooks.SessionStart[0].hooks[0].command];
    for (const ref of [...commands, mcp].flatMap((t) => t.match(/\$\{CLAUDE_PLUGIN_ROOT\}[^"\\]*/g) ?? [])) assert.match(ref, /^\$\{CLAUDE_PLUGIN_ROOT\}\/dist\/(runtime\/|plugin$)/, 'only files inside the plugin');
    for (const command of commands) {
      // Claude Code substitutes ${CLAUDE_PLUGIN_ROOT}; a plugin folder an update removed mid-session must stay silent
      const run = spawnSync('/bin/sh', ['-c', command.replaceAll('${CLAUDE_PLUGIN_ROOT}', path.join(h.home, 'gone'))], { input: '{}', encoding: 'utf8', env: { PATH: path.dirname(process.execPath) } });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout + run.stderr, '');
    }
  });
});
