/**
 * `get-shit-done-cc install | uninstall | doctor`, the built CLI spawned against a temporary HOME (and
 * CLAUDE_CONFIG_DIR) and a temporary project. PATH holds node only, never `claude`, so the MCP server is
 * registered by editing ~/.claude.json. Needs dist/cli/ and dist/runtime/ (npm run build).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { snapshot } from '../helpers/tree-snapshot.js';
import { cliPath, repoRoot } from '../helpers/paths.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';
import { HOOKS, payload, presence, runHookProcess, waitForWorkers, everywhere } from '../helpers/hooks.js';

const CLI = cliPath;
const RUNTIME = path.join(repoRoot, 'dist', 'runtime', 'mcp-server.js');
const temps: string[] = [];
after(() => {
  for (const t of temps.splice(0)) {
    try {
      chmodSync(t, 0o755);
    } catch {
      // gone
    }
    rmSync(t, { recursive: true, force: true });
  }
  cleanupProjects();
});

/** A temp folder with a space in its name (hook commands must quote paths). */
function temp(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `gsd ${prefix}-`));
  temps.push(dir);
  return dir;
}

interface Sandbox {
  home: string;
  config: string;
  settings: string;
  claudeJson: string;
  project: string;
}

function sandbox(): Sandbox {
  const home = temp('home');
  const config = path.join(home, '.claude');
  const project = temp('project');
  return { home, config, settings: path.join(config, 'settings.json'), claudeJson: path.join(home, '.claude.json'), project };
}

function cli(s: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: s.project,
    encoding: 'utf8',
    // node's own folder only: no `claude` on PATH
    env: { PATH: path.dirname(process.execPath), HOME: s.home, NO_COLOR: '1', ...env },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` };
}

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const ourHookCount = (settings: string) => (readFileSync(settings, 'utf8').match(/gsdcc\/hooks\//g) ?? []).length;

/** A user with their own settings, hook and MCP server, in the formatting they chose. */
function userState(s: Sandbox) {
  mkdirSync(s.config, { recursive: true });
  writeFileSync(
    s.settings,
    '{\n    "model": "opus",\n    "hooks": {\n        "PostToolUse": [\n            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo mine" } ] }\n        ]\n    }\n}\n',
  );
  writeFileSync(s.claudeJson, JSON.stringify({ numStartups: 7, mcpServers: { mine: { type: 'stdio', command: 'mine-server' } }, projects: {} }));
  chmodSync(s.claudeJson, 0o600);
  mkdirSync(path.join(s.config, 'agents'), { recursive: true });
  writeFileSync(path.join(s.config, 'agents', 'my-agent.md'), '---\nname: my-agent\n---\nmine\n');
}

describe('get-shit-done-cc install / uninstall / doctor (built CLI, temporary HOME)', () => {
  it('has a built runtime to install', () => {
    assert.ok(existsSync(RUNTIME), `${RUNTIME} is missing: run node scripts/bundle-runtime.mjs`);
  });

  it('fresh global install wires hooks, MCP server, runtime, commands and agents; doctor is happy', () => {
    const s = sandbox();
    userState(s);
    const r = cli(s, ['install', '--global', '--yes']);
    assert.equal(r.code, 0, r.all);
    const runtime = path.join(s.config, 'gsdcc');
    for (const f of ['hooks/post-tool-use.cjs', 'hooks/session-start.cjs', 'hooks/worker.js', 'mcp-server.js', 'sql-wasm.wasm', 'VERSION', 'manifest.json', 'guidance/planning.md', 'guidance/definition-of-done.md']) {
      assert.ok(existsSync(path.join(runtime, f)), `${f} installed`);
    }
    const settings = json(s.settings);
    assert.equal(settings.model, 'opus');
    assert.equal(settings.hooks.PostToolUse[0].hooks[0].command, 'echo mine', 'the user hook stays first');
    const post = settings.hooks.PostToolUse[1];
    assert.equal(post.matcher, 'Write|Edit|MultiEdit|NotebookEdit');
    assert.equal(post.hooks[0].command, `"${process.execPath}" -e "require(process.argv[1]).existsSync(process.argv[2])&&require(process.argv[2])" fs "${path.join(runtime, 'hooks', 'post-tool-use.cjs')}"`);
    assert.equal(settings.hooks.SessionStart[0].matcher, undefined);
    assert.match(settings.hooks.SessionStart[0].hooks[0].command, /^"\/.*node[^"]*" -e "[^"]*" fs ".*session-start\.cjs"$/);
    assert.equal(settings.mcpServers, undefined, 'never in settings.json');
    const claude = json(s.claudeJson);
    assert.equal(claude.numStartups, 7);
    assert.deepEqual(claude.mcpServers.mine, { type: 'stdio', command: 'mine-server' });
    assert.deepEqual({ ...claude.mcpServers.gsd, args: [claude.mcpServers.gsd.args[0], claude.mcpServers.gsd.args[2]] }, { type: 'stdio', command: process.execPath, args: ['-e', path.join(runtime, 'mcp-server.js')] });
    assert.equal(statSync(s.claudeJson).mode & 0o777, 0o600, '~/.claude.json keeps its mode');
    assert.ok(readdirSync(s.config).some((f) => f.startsWith('settings.json.gsd-backup-')), 'settings.json backed up');
    assert.ok(readdirSync(s.home).some((f) => f.startsWith('.claude.json.gsd-backup-')), '~/.claude.json backed up');
    const manifest = json(path.join(runtime, 'manifest.json'));
    assert.equal(manifest.version, json(path.join(repoRoot, 'package.json')).version);
    const shipped = existsSync(path.join(repoRoot, 'commands', 'gsd')) ? readdirSync(path.join(repoRoot, 'commands', 'gsd')).filter((f) => f.endsWith('.md')) : [];
    for (const f of shipped) assert.ok(existsSync(path.join(s.config, 'commands', 'gsd', f)), `command ${f} installed`);
    const doctor = cli(s, ['doctor', '--global']);
    assert.equal(doctor.code, 0, doctor.all);
    assert.match(doctor.stdout, /MCP server answers tools\/list: \d+ tools/);
  });

  it('re-install is idempotent: one copy of each hook and server entry, settings unchanged', () => {
    const s = sandbox();
    userState(s);
    assert.equal(cli(s, ['install', '--global', '--yes']).code, 0);
    const once = readFileSync(s.settings, 'utf8');
    const r = cli(s, ['install', '--global', '--yes']);
    assert.equal(r.code, 0, r.all);
    assert.equal(readFileSync(s.settings, 'utf8'), once);
    assert.equal(ourHookCount(s.settings), 2);
    assert.deepEqual(Object.keys(json(s.claudeJson).mcpServers), ['mine', 'gsd']);
  });

  it('honours CLAUDE_CONFIG_DIR (and keeps .claude.json inside it)', () => {
    const s = sandbox();
    const config = path.join(s.home, 'alt config');
    const r = cli(s, ['install', '--yes'], { CLAUDE_CONFIG_DIR: config });
    assert.equal(r.code, 0, r.all);
    assert.ok(existsSync(path.join(config, 'gsdcc', 'manifest.json')));
    assert.equal(ourHookCount(path.join(config, 'settings.json')), 2);
    assert.ok(json(path.join(config, '.claude.json')).mcpServers.gsd);
    assert.equal(statSync(path.join(config, '.claude.json')).mode & 0o777, 0o600, 'a new .claude.json is private');
    assert.ok(!existsSync(s.config));
    assert.equal(cli(s, ['doctor', '--no-spawn'], { CLAUDE_CONFIG_DIR: config }).code, 0);
    assert.equal(cli(s, ['uninstall'], { CLAUDE_CONFIG_DIR: config }).code, 0);
    assert.deepEqual(readdirSync(config), [], 'files the install created are gone');
  });

  it('uninstall leaves the user state byte-identical (own hooks, MCP servers, agents, .planning/)', () => {
    const s = sandbox();
    userState(s);
    mkdirSync(path.join(s.project, '.planning'), { recursive: true });
    writeFileSync(path.join(s.project, '.planning', 'STATE.md'), 'state\n');
    const before = snapshot(s.home);
    const planning = snapshot(s.project);
    const claudeBefore = json(s.claudeJson);
    assert.equal(cli(s, ['install', '--global', '--yes']).code, 0);
    const dry = cli(s, ['uninstall', '--dry-run']);
    assert.equal(dry.code, 0, dry.all);
    assert.match(dry.stdout, /restore .*settings\.json/);
    assert.ok(existsSync(path.join(s.config, 'gsdcc')), 'dry run removed nothing');
    const r = cli(s, ['uninstall', '--global']);
    assert.equal(r.code, 0, r.all);
    const after = snapshot(s.home);
    after.delete('.claude.json');
    before.delete('.claude.json');
    // uninstall backs up ~/.claude.json before removing our server from it (Claude Code rewrites that file itself)
    const extra = [...after.keys()].filter((k) => !before.has(k));
    assert.ok(extra.every((k) => k.startsWith('.claude.json.gsd-backup-')), extra.join(', '));
    for (const k of extra) after.delete(k);
    assert.deepEqual(after, before, 'settings, agents and folders byte-identical; no backups left behind');
    assert.deepEqual(json(s.claudeJson), claudeBefore, '~/.claude.json keeps every other key');
    assert.equal(statSync(s.claudeJson).mode & 0o777, 0o600);
    assert.deepEqual(snapshot(s.project), planning);
  });

  it('uninstall after the user changed settings.json removes only our hooks', () => {
    const s = sandbox();
    userState(s);
    assert.equal(cli(s, ['install', '--global', '--yes']).code, 0);
    const settings = json(s.settings);
    settings.theme = 'dark';
    writeFileSync(s.settings, JSON.stringify(settings, null, 2));
    assert.equal(cli(s, ['uninstall']).code, 0);
    const left = json(s.settings);
    assert.equal(left.theme, 'dark');
    assert.deepEqual(left.hooks, { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }] });
  });

  it('upgrade over an older manifest replaces our entries and touches nothing else', () => {
    const s = sandbox();
    userState(s);
    const original = readFileSync(s.settings, 'utf8');
    assert.equal(cli(s, ['install', '--global', '--yes']).code, 0);
    // make it look like 0.0.1 installed from another node with an extra command file
    const runtime = path.join(s.config, 'gsdcc');
    const manifestFile = path.join(runtime, 'manifest.json');
    const manifest = json(manifestFile);
    const stale = path.join(s.config, 'commands', 'gsd', 'old-command.md');
    mkdirSync(path.dirname(stale), { recursive: true });
    writeFileSync(stale, 'old\n');
    const oldSettings = readFileSync(s.settings, 'utf8').replaceAll(JSON.stringify(process.execPath).slice(1, -1), '/old/node/bin/node');
    writeFileSync(s.settings, oldSettings);
    writeFileSync(path.join(runtime, 'VERSION'), '0.0.1\n');
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, version: '0.0.1', node: '/old/node/bin/node', files: [...manifest.files, { path: stale }], settings: { ...manifest.settings, hashAfter: 'older' } }));
    const doctor = cli(s, ['doctor', '--no-spawn']);
    assert.equal(doctor.code, 1, 'doctor notices the mixed versions and the missing node');
    assert.match(doctor.stdout, /versions differ/);
    assert.match(doctor.stdout, /fix: run: npx get-shit-done-cc install/);
    const r = cli(s, ['install', '--global', '--yes']);
    assert.equal(r.code, 0, r.all);
    assert.match(r.stdout, /over 0\.0\.1/);
    assert.equal(ourHookCount(s.settings), 2);
    assert.ok(!readFileSync(s.settings, 'utf8').includes('/old/node'), 'our old entries replaced');
    assert.ok(!existsSync(stale), 'a file the old version installed and the new one does not is removed');
    assert.equal(readFileSync(path.join(runtime, 'VERSION'), 'utf8').trim(), json(path.join(repoRoot, 'package.json')).version);
    assert.equal(cli(s, ['doctor', '--no-spawn']).code, 0);
    assert.equal(cli(s, ['uninstall']).code, 0);
    assert.equal(json(s.settings).model, 'opus');
    assert.deepEqual(json(s.settings), JSON.parse(original), 'only our hooks were ever touched');
  });

  it('refuses a settings.json that does not parse: file untouched, message names file and line', () => {
    const s = sandbox();
    mkdirSync(s.config, { recursive: true });
    const broken = '{\n  "model": "opus",\n  "hooks": {\n    "PostToolUse": [,]\n  }\n}\n';
    writeFileSync(s.settings, broken);
    const before = snapshot(s.home);
    const r = cli(s, ['install', '--global', '--yes']);
    assert.equal(r.code, 1, r.all);
    assert.ok(r.stderr.includes(`${s.settings} line 4`), r.stderr);
    assert.deepEqual(snapshot(s.home), before, 'nothing written, nothing backed up');
  });

  it('refuses a ~/.claude.json that does not parse before changing anything', () => {
    const s = sandbox();
    writeFileSync(s.claudeJson, '{"numStartups": 1,\n"mcpServers": {\n');
    const before = snapshot(s.home);
    const r = cli(s, ['install', '--global', '--yes']);
    assert.equal(r.code, 1, r.all);
    assert.match(r.stderr, /\.claude\.json line \d+/);
    assert.deepEqual(snapshot(s.home), before);
  });

  it('--dry-run prints every file and setting and changes nothing', () => {
    const s = sandbox();
    userState(s);
    const before = snapshot(s.home);
    const r = cli(s, ['install', '--global', '--yes', '--dry-run']);
    assert.equal(r.code, 0, r.all);
    assert.match(r.stdout, /update .*settings\.json: PostToolUse \[Write\|Edit\|MultiEdit\|NotebookEdit\]/);
    assert.match(r.stdout, /update .*\.claude\.json: mcpServers\.gsd = /);
    assert.match(r.stdout, /copy \d+ runtime files/);
    assert.match(r.stdout, /Dry run: nothing was changed/);
    assert.deepEqual(snapshot(s.home), before);
  });

  it('--no-hooks and --no-mcp leave those parts alone', () => {
    const s = sandbox();
    userState(s);
    const settings = readFileSync(s.settings, 'utf8');
    const claude = readFileSync(s.claudeJson, 'utf8');
    const r = cli(s, ['install', '--global', '--yes', '--no-hooks', '--no-mcp']);
    assert.equal(r.code, 0, r.all);
    assert.equal(readFileSync(s.settings, 'utf8'), settings);
    assert.equal(readFileSync(s.claudeJson, 'utf8'), claude);
    assert.ok(existsSync(path.join(s.config, 'gsdcc', 'mcp-server.js')));
  });

  it('a config dir that cannot be written: clear error, nothing half-written', () => {
    const s = sandbox();
    userState(s);
    // root ignores file modes: then a file where the commands folder goes makes a later step fail instead
    const readOnly = process.getuid?.() !== 0;
    if (readOnly) chmodSync(s.config, 0o555);
    else writeFileSync(path.join(s.config, 'commands'), 'not a folder\n');
    const before = snapshot(s.home);
    const r = cli(s, ['install', '--global', '--yes']);
    if (readOnly) chmodSync(s.config, 0o755);
    assert.equal(r.code, 1, r.all);
    assert.match(r.stderr, /install failed: .*\n.*rolled back; nothing was changed/);
    if (readOnly) assert.match(r.stderr, /cannot write into/);
    assert.deepEqual(snapshot(s.home), before, 'the previous state is intact');
  });

  it('a failure late in the install rolls back what was done before it', () => {
    const s = sandbox();
    userState(s);
    // a "gsd" server of someone else: the install stops at the MCP step, after runtime, commands and hooks
    writeFileSync(s.claudeJson, JSON.stringify({ mcpServers: { gsd: { command: 'someone-else' } } }));
    const before = snapshot(s.home);
    const r = cli(s, ['install', '--global', '--yes']);
    assert.equal(r.code, 1, r.all);
    assert.match(r.stderr, /MCP server named "gsd" that is not ours/);
    assert.deepEqual(snapshot(s.home), before);
  });

  it('local install: $CLAUDE_PROJECT_DIR hooks, .mcp.json, doctor and uninstall', () => {
    const s = sandbox();
    mkdirSync(path.join(s.project, '.claude'), { recursive: true });
    writeFileSync(path.join(s.project, '.mcp.json'), JSON.stringify({ mcpServers: { db: { command: 'db-server' } } }, null, 2) + '\n');
    const before = snapshot(s.project);
    const homeBefore = snapshot(s.home);
    const r = cli(s, ['install', '--local', '--yes']);
    assert.equal(r.code, 0, r.all);
    assert.match(r.stdout, /approve/);
    const settings = json(path.join(s.project, '.claude', 'settings.json'));
    assert.equal(settings.hooks.PostToolUse[0].hooks[0].command, `"${process.execPath}" -e "require(process.argv[1]).existsSync(process.argv[2])&&require(process.argv[2])" fs "$CLAUDE_PROJECT_DIR/.claude/gsdcc/hooks/post-tool-use.cjs"`);
    const mcp = json(path.join(s.project, '.mcp.json'));
    assert.deepEqual(mcp.mcpServers.db, { command: 'db-server' });
    assert.equal(mcp.mcpServers.gsd.args[0], '-e');
    assert.equal(mcp.mcpServers.gsd.args[2], '${CLAUDE_PROJECT_DIR:-.}/.claude/gsdcc/mcp-server.js');
    assert.deepEqual(snapshot(s.home), homeBefore, 'a local install does not touch HOME');
    const doctor = cli(s, ['doctor', '--local']);
    assert.equal(doctor.code, 0, doctor.all);
    assert.equal(cli(s, ['uninstall', '--local']).code, 0);
    assert.deepEqual(snapshot(s.project), before);
  });

  it('doctor exits 1 with fixes when files are gone or nothing is installed', () => {
    const s = sandbox();
    const none = cli(s, ['doctor', '--global']);
    assert.equal(none.code, 1);
    assert.match(none.stdout, /not installed/);
    assert.equal(cli(s, ['install', '--global', '--yes']).code, 0);
    rmSync(path.join(s.config, 'gsdcc', 'hooks', 'post-tool-use.cjs'));
    const r = cli(s, ['doctor', '--global', '--no-spawn']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /FAIL .*missing/);
    assert.match(r.stdout, /PostToolUse hook points at missing/);
    // a lazily loaded chunk of the server: tools/list would still answer, so doctor compares with what the package ships
    assert.equal(cli(s, ['install', '--global', '--yes']).code, 0);
    const chunks = path.join(s.config, 'gsdcc', 'chunks');
    const chunk = readdirSync(chunks)[0];
    rmSync(path.join(chunks, chunk));
    const c = cli(s, ['doctor', '--global', '--no-spawn']);
    assert.equal(c.code, 1, c.all);
    assert.match(c.stdout, new RegExp(`missing: .*${chunk.replace(/[.]/g, '\\.')}`));
  });

  it('asks on a terminal: choosing "This project" makes a local install', async (t) => {
    const script = ['/usr/bin/script', '/bin/script'].find((f) => existsSync(f));
    if (!script || process.platform !== 'linux') return t.skip('util-linux `script` (a pseudo-terminal) is not available');
    const s = sandbox();
    const child = spawn(script, ['-qec', `"${process.execPath}" "${CLI}" install`, '/dev/null'], {
      cwd: s.project,
      env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: s.home, TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    const closed = new Promise<number | null>((r) => child.on('close', r));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const waitFor = async (re: RegExp) => {
      for (let i = 0; i < 200 && !re.test(output); i++) await sleep(50);
    };
    await waitFor(/Where should/);
    child.stdin.write('\x1b[B'); // down: "This project"
    await sleep(200);
    child.stdin.write('\r');
    await waitFor(/What should be installed/);
    await sleep(200);
    child.stdin.write('\r');
    await waitFor(/Installed|error/);
    await sleep(300);
    child.stdin.end();
    const code = await closed;
    assert.equal(code, 0, output);
    assert.match(output, /project install in/);
    assert.ok(existsSync(path.join(s.project, '.claude', 'gsdcc', 'manifest.json')));
    assert.ok(json(path.join(s.project, '.mcp.json')).mcpServers.gsd);
    assert.ok(!existsSync(s.config), 'nothing in HOME');
  });

  it('notices an enabled gsd plugin and installs nothing twice', () => {
    const s = sandbox();
    mkdirSync(s.config, { recursive: true });
    writeFileSync(s.settings, JSON.stringify({ enabledPlugins: { 'gsd@gsd-marketplace': true } }, null, 2));
    const before = snapshot(s.home);
    const r = cli(s, ['install', '--global', '--yes']);
    assert.equal(r.code, 0, r.all);
    assert.match(r.stdout, /Our plugin is enabled: gsd@gsd-marketplace/);
    assert.deepEqual(snapshot(s.home), before);
  });

  it('the installed hook and worker run from the runtime folder: a Write lands in graph.db', async () => {
    const s = sandbox();
    assert.equal(cli(s, ['install', '--global', '--yes']).code, 0);
    const root = copyProject('shop');
    const build = spawnSync(process.execPath, [CLI, 'intel', 'build', root], { encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const file = path.join(root, 'src', 'installed-hook.ts');
    writeFileSync(file, "import { formatMoney } from './lib/money';\nexport const x = formatMoney;\n");
    const hook = path.join(s.config, 'gsdcc', 'hooks', 'post-tool-use.cjs');
    assert.notEqual(hook, HOOKS.postToolUse);
    // the command line as registered (through its launcher), run by a shell as Claude Code does; a PATH without
    // node: the worker is started with the absolute node of the hook
    const command = json(s.settings).hooks.PostToolUse[0].hooks[0].command as string;
    assert.ok(command.includes(hook));
    const run = spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(payload.write(root, file, readFileSync(file, 'utf8'), 'create')), encoding: 'utf8', cwd: root, env: { PATH: '/nonexistent', HOME: s.home, CLAUDE_PROJECT_DIR: root } });
    assert.equal(run.status, 0, run.stderr);
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'src/installed-hook.ts'), everywhere);
  });
});
