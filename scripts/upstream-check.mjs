#!/usr/bin/env node
// Installs the published upstream GSD packages and this build side by side in throwaway HOMEs, in every order, and
// checks byte for byte that neither loses anything to the other. Needs the npm registry (npm pack) and a build
// (npm run build). Usage: node scripts/upstream-check.mjs [spec ...]
// Prints one line per step and a summary; exit 1 when a check fails. docs/coexistence.md has the last result.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
