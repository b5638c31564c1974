#!/usr/bin/env node
// Installs the published upstream GSD packages and this build side by side in throwaway HOMEs, in every order, and
// checks byte for byte that neither loses anything to the other; then runs the plugin form beside it in a real
// `claude -p` session (the pinned CLI cached by the tests, against the tests' loopback Messages API mock; skipped
// when the CLI is not cached). Needs the npm registry (npm pack) and a build (npm run build).
// Usage: node scripts/upstream-check.mjs [spec ...]
// Prints one line per step and a summary; exit 1 when a check fails. docs/coexistence.md has the last result.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist', 'cli', 'cli.js');
const specs = process.argv.slice(2).length ? process.argv.slice(2) : ['get-shit-done-cc@1.28.0', 'get-shit-done-cc@1.42.3', '@opengsd/gsd-core@1.14.0'];
const work = mkdtempSync(path.join(os.tmpdir(), 'gsd-upstream-'));
let failures = 0;
const say = (line) => process.stdout.write(`${line}\n`);
const fail = (line) => {
  failures++;
  say(`  FAIL ${line}`);
};

function run(cmd, args, home, cwd = home) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', input: '', timeout: 300_000, env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: '', NO_COLOR: '1', PATH: path.dirname(process.execPath) + path.delimiter + '/usr/bin:/bin' } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** every file under `dir` → sha256 (settings.json is compared by key instead) */
function snapshot(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(path.relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

function unpack(spec) {
  const dir = path.join(work, spec.replace(/[@/]/g, '_'));
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('npm', ['pack', spec, '--silent'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack ${spec}: ${r.stderr}`);
  const tgz = r.stdout.trim().split('\n').pop();
  spawnSync('tar', ['xzf', tgz], { cwd: dir });
  return path.join(dir, 'package', 'bin', 'install.js');
}

/** upstream's files (not ours) must be as `before` had them; settings keys other than hooks too, and its hooks kept */
function checkUpstreamKept(label, before, home, ours) {
  const now = snapshot(path.join(home, '.claude'));
  let changed = 0;
  for (const [rel, hash] of before) {
    if (ours.has(rel) || rel === 'settings.json' || rel.includes('.gsd-backup-')) continue;
    if (now.get(rel) !== hash) {
      if (changed++ < 5) fail(`${label}: ${rel} ${now.has(rel) ? 'changed' : 'gone'}`);
    }
  }
  if (!changed) say(`  ok   ${label}: all ${[...before.keys()].filter((r) => !ours.has(r) && r !== 'settings.json').length} upstream files byte for byte`);
  else fail(`${label}: ${changed} upstream file(s) changed or gone`);
}

const CLAUDE = path.join(process.env.GSD_CLAUDE_CACHE ?? path.join(os.homedir(), '.cache', 'get-shit-done-cc', 'claude-2.1.330'), 'node_modules', '.bin', 'claude');
const mockModule = path.join(repo, 'dist', 'test', 'helpers', 'messages-mock.js');

/**
 * The plugin (this repository as --plugin-dir) in a real session beside upstream: the init event must list every
 * command, skill and agent of upstream's and all of ours under gsdcc names, no name in both; install with the
 * plugin enabled and doctor change nothing; upstream's files stay byte for byte.
 */
async function pluginCheck(home) {
  if (!existsSync(CLAUDE) || !existsSync(mockModule)) return say(`  skip plugin beside upstream: no cached claude CLI at ${CLAUDE} (the tests install it)`);
  const config = path.join(home, '.claude');
  const before = snapshot(config);
  const { startMessagesMock, offlineClaudeEnv } = await import(pathToFileURL(mockModule).href);
  const mock = await startMessagesMock([]);
  const cwd = mkdtempSync(path.join(work, 'project-'));
  const env = { ...offlineClaudeEnv({ home, mockUrl: mock.url, path: `${path.dirname(process.execPath)}:/usr/bin:/bin` }), MCP_CONNECTION_NONBLOCKING: '0' };
  const r = spawnSync(CLAUDE, ['-p', 'hello', '--plugin-dir', repo, '--output-format', 'stream-json', '--verbose'], { cwd, env, encoding: 'utf8', timeout: 240_000 });
  await mock.close();
  const init = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === 'system' && e.subtype === 'init');
  if (!init) return fail(`plugin session: no init event (exit ${r.status}): ${(r.stderr || r.stdout).slice(-300)}`);
  const md = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)) : []);
  const theirs = [...md(path.join(config, 'commands', 'gsd')).map((c) => `gsd:${c}`), ...(existsSync(path.join(config, 'skills')) ? readdirSync(path.join(config, 'skills')).filter((d) => d.startsWith('gsd-')) : []), ...md(path.join(config, 'agents')).filter((a) => a.startsWith('gsd-') && !a.endsWith('.compact'))];
  const ours = [...md(path.join(repo, 'dist', 'plugin', 'commands', 'gsd')).map((c) => `gsdcc:${c}`), ...md(path.join(repo, 'dist', 'plugin', 'agents')).map((a) => `gsdcc:${a}`)];
  const listed = new Set([...init.slash_commands, ...init.agents]);
  const missing = [...theirs, ...ours].filter((n) => !listed.has(n));
  const shared = ours.filter((n) => theirs.includes(n));
  if (missing.length || shared.length) fail(`plugin session: ${missing.length} name(s) not listed (${missing.slice(0, 4).join(', ')}), ${shared.length} in both sets`);
  else say(`  ok   plugin gsdcc beside upstream in a real session: all ${theirs.length} of upstream's commands/skills/agents and all ${ours.length} of ours listed, none in both; server ${init.mcp_servers.find((m) => m.name === 'plugin:gsdcc:gsd')?.status}`);
  const settings = readFileSync(path.join(config, 'settings.json'), 'utf8');
  const enabled = JSON.stringify({ ...JSON.parse(settings), enabledPlugins: { 'gsdcc@gsd-marketplace': true } }, null, 2);
  writeFileSync(path.join(config, 'settings.json'), enabled);
  const i = run(process.execPath, [cli, 'install', '--global', '--yes'], home);
  const d = run(process.execPath, [cli, 'doctor', '--global'], home);
  if (i.code !== 0 || !/Our plugin is enabled/.test(i.out) || d.code !== 0) fail(`with the plugin enabled: install exit ${i.code}, doctor exit ${d.code}: ${d.out.slice(-300)}`);
  else say('  ok   with the plugin enabled: install installs nothing twice, doctor in order');
  if (readFileSync(path.join(config, 'settings.json'), 'utf8') !== enabled) fail('settings.json changed with the plugin enabled');
  writeFileSync(path.join(config, 'settings.json'), settings);
  checkUpstreamKept('plugin beside upstream', before, home, new Set());
}

const settingsOf = (home) => JSON.parse(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));
const theirHooks = (s) => JSON.stringify(s.hooks ?? {}).match(/hooks[\\/]+gsd-[\w.-]+/g)?.sort().join(',') ?? '';

for (const spec of specs) {
  say(`== ${spec}`);
  const installer = unpack(spec);
  const upstream = (home) => run(process.execPath, [installer, '--claude', '--global'], home, path.dirname(path.dirname(installer)));
  // order 1: upstream, ours, upstream again (its update), ours again, uninstall ours
  {
    const home = mkdtempSync(path.join(work, 'home-'));
    let r = upstream(home);
    if (r.code !== 0) fail(`upstream install exited ${r.code}: ${r.out.slice(-300)}`);
    const before = snapshot(path.join(home, '.claude'));
    const beforeSettings = settingsOf(home);
    say(`  upstream wrote ${before.size} files`);
    r = run(process.execPath, [cli, 'install', '--global', '--yes'], home);
    if (r.code !== 0) fail(`our install exited ${r.code}: ${r.out.slice(-400)}`);
    say(`  ours: ${r.out.split('\n').filter((l) => /Upstream GSD|^\s+- |stays as it is/.test(l)).map((l) => l.trim()).join(' | ')}`);
    const manifest = JSON.parse(readFileSync(path.join(home, '.claude', 'gsdcc', 'manifest.json'), 'utf8'));
    const ours = new Set([...manifest.files.map((f) => path.relative(path.join(home, '.claude'), f.path)), ...manifest.runtimeFiles.map((f) => path.join('gsdcc', f)), path.join('gsdcc', 'manifest.json')]);
    checkUpstreamKept('after our install', before, home, ours);
    const after = settingsOf(home);
    if (theirHooks(after) !== theirHooks(beforeSettings)) fail('its hooks are not all registered any more');
    if (JSON.stringify(after.statusLine) !== JSON.stringify(beforeSettings.statusLine)) fail('its statusLine changed');
    let d = run(process.execPath, [cli, 'doctor', '--global'], home);
    if (d.code !== 0) fail(`doctor after our install exited ${d.code}: ${d.out.slice(-400)}`);
    else say('  ok   doctor: everything in order beside upstream');
    r = upstream(home);
    if (r.code !== 0) fail(`upstream reinstall exited ${r.code}`);
    const reinstalled = snapshot(path.join(home, '.claude'));
    const lost = [...ours].filter((rel) => !existsSync(path.join(home, '.claude', rel)));
    if (lost.length) fail(`upstream's update removed ${lost.length} of our files: ${lost.slice(0, 3).join(', ')}`);
    else say(`  ok   upstream's update left all ${ours.size} of our files`);
    if (!findOurHooks(settingsOf(home))) fail('upstream\'s update removed our hooks');
    d = run(process.execPath, [cli, 'doctor', '--global'], home);
    say(`  doctor after upstream's update: exit ${d.code}${d.code ? `: ${d.out.split('\n').filter((l) => /FAIL/.test(l)).join(' ')}` : ''}`);
    r = run(process.execPath, [cli, 'uninstall', '--global'], home);
    if (r.code !== 0) fail(`our uninstall exited ${r.code}: ${r.out.slice(-300)}`);
    checkUpstreamKept('after our uninstall', reinstalled, home, ours);
    const left = [...snapshot(path.join(home, '.claude')).keys()].filter((rel) => ours.has(rel) || rel.startsWith('gsdcc'));
    if (left.length) fail(`uninstall left ${left.length} of ours: ${left.slice(0, 3).join(', ')}`);
    if (theirHooks(settingsOf(home)) !== theirHooks(beforeSettings)) fail('after uninstall its hooks differ');
    if (findOurHooks(settingsOf(home))) fail('after uninstall our hooks are still registered');
  }
  // the plugin form beside upstream
  {
    const home = mkdtempSync(path.join(work, 'home-'));
    const r = upstream(home);
    if (r.code !== 0) fail(`upstream install exited ${r.code}`);
    await pluginCheck(home);
  }
  // order 2: ours first, then upstream, then ours again, uninstall ours, then upstream's own uninstall
  {
    const home = mkdtempSync(path.join(work, 'home-'));
    let r = run(process.execPath, [cli, 'install', '--global', '--yes'], home);
    if (r.code !== 0) fail(`our install exited ${r.code}`);
    const oursBefore = snapshot(path.join(home, '.claude'));
    r = upstream(home);
    if (r.code !== 0) fail(`upstream install after ours exited ${r.code}: ${r.out.slice(-300)}`);
    const gone = [...oursBefore.keys()].filter((rel) => rel.startsWith('gsdcc') && !existsSync(path.join(home, '.claude', rel)));
    say(`  upstream after ours: ${gone.length} runtime file(s) of ours gone; ${findOurHooks(settingsOf(home)) ? 'our hooks still registered' : 'our hooks unregistered'}`);
    const d = run(process.execPath, [cli, 'doctor', '--global'], home);
    say(`  doctor: exit ${d.code}${d.code ? `: ${d.out.split('\n').filter((l) => /FAIL|fix:/.test(l)).map((l) => l.trim()).join(' ')}` : ''}`);
    const theirs = snapshot(path.join(home, '.claude'));
    r = run(process.execPath, [cli, 'install', '--global', '--yes'], home);
    if (r.code !== 0) fail(`our install over upstream exited ${r.code}: ${r.out.slice(-300)}`);
    const manifest = JSON.parse(readFileSync(path.join(home, '.claude', 'gsdcc', 'manifest.json'), 'utf8'));
    const ours = new Set([...manifest.files.map((f) => path.relative(path.join(home, '.claude'), f.path)), ...manifest.runtimeFiles.map((f) => path.join('gsdcc', f)), path.join('gsdcc', 'manifest.json')]);
    checkUpstreamKept('ours after upstream', new Map([...theirs].filter(([rel]) => !oursBefore.has(rel) || oursBefore.get(rel) !== theirs.get(rel))), home, ours);
    r = run(process.execPath, [cli, 'uninstall', '--global'], home);
    if (r.code !== 0) fail(`our uninstall exited ${r.code}`);
    r = run(process.execPath, [installer, '--claude', '--global', '--uninstall'], home, path.dirname(path.dirname(installer)));
    const left = [...snapshot(path.join(home, '.claude')).keys()];
    say(`  after both uninstalls: ${left.length} file(s) left (${left.slice(0, 4).join(', ')})`);
  }
}
function findOurHooks(s) {
  return /gsdcc[\\/]hooks[\\/]/.test(JSON.stringify(s.hooks ?? {}));
}
rmSync(work, { recursive: true, force: true });
say(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
