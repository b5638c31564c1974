/**
 * `install --shared` (the http registration with the token in its headers) and the shared server's part of the
 * default install, doctor and uninstall: the built CLI against a temporary HOME, `claude` never on PATH.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel } from '../../engine/src/index.js';
import { gsdHome } from '../../mcp-server/src/daemon/home.js';
import { readDaemonInfo, stopDaemon } from '../../mcp-server/src/daemon/info.js';
import { httpSession, shimSessionWith, structured } from '../helpers/daemon.js';
import { cliPath as CLI } from '../helpers/paths.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

const homes: string[] = [];
after(async () => {
  for (const h of homes.splice(0)) {
    await stopDaemon(gsdHome({ HOME: h })).catch(() => undefined);
    rmSync(h, { recursive: true, force: true });
  }
  cleanupProjects();
});

function sandbox() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gsd shared-home-'));
  homes.push(home);
  const claudeJson = path.join(home, '.claude.json');
  writeFileSync(claudeJson, JSON.stringify({ numStartups: 3, mcpServers: { mine: { type: 'stdio', command: 'mine-server' } } }));
  chmodSync(claudeJson, 0o600);
  return { home, claudeJson, config: path.join(home, '.claude'), gsd: gsdHome({ HOME: home }) };
}

function cli(home: string, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: home, encoding: 'utf8', env: { PATH: path.dirname(process.execPath), HOME: home, NO_COLOR: '1' }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, all: `${r.stdout}\n${r.stderr}` };
}

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('install --shared / the shared server in install, doctor, uninstall', () => {
  it('registers the daemon as an http server with its token, starts it, and uninstall takes it all back', async () => {
    const s = sandbox();
    const before = readFileSync(s.claudeJson, 'utf8');
    const r = cli(s.home, ['install', '--global', '--yes', '--shared']);
    assert.equal(r.code, 0, r.all);
    const token = readFileSync(s.gsd.token, 'utf8').trim();
    assert.equal(statSync(s.gsd.token).mode & 0o777, 0o600);
    const entry = json(s.claudeJson).mcpServers.gsd;
    assert.equal(entry.type, 'http');
    assert.match(entry.url, /^http:\/\/127\.0\.0\.1:\d+\/gsd\/mcp$/);
    assert.deepEqual(entry.headers, { Authorization: `Bearer ${token}` });
    assert.ok(!r.all.includes(token), 'the token is never printed');
    assert.ok(!readFileSync(path.join(s.config, 'gsdcc', 'manifest.json'), 'utf8').includes(token), 'nor kept in the manifest');
    const port = Number(/:(\d+)\//.exec(entry.url)![1]);
    assert.equal(json(s.gsd.config).server.port, port, 'the port is fixed in config.json');
    const info = readDaemonInfo(s.gsd);
    assert.ok(info, 'install started the daemon');
    assert.equal(info.port, port);
    // a client as Claude Code would connect with this entry
    const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    const c = await httpSession(info, token, { roots: [root] });
    assert.equal(structured(await c.call('file_context', { file: 'src/a.ts' })).path, 'src/a.ts');
    await c.close();
    const doctor = cli(s.home, ['doctor', '--global']);
    assert.equal(doctor.code, 0, doctor.all);
    assert.match(doctor.stdout, /mode: shared server over http/);
    assert.match(doctor.stdout, /shared server healthy: pid \d+/);
    // re-install keeps the port and the token
    assert.equal(cli(s.home, ['install', '--global', '--yes', '--shared']).code, 0);
    assert.deepEqual(json(s.claudeJson).mcpServers.gsd, entry);
    assert.ok(readDaemonInfo(s.gsd), 'restarted from the new runtime');
    const un = cli(s.home, ['uninstall', '--global']);
    assert.equal(un.code, 0, un.all);
    assert.equal(readFileSync(s.claudeJson, 'utf8'), before, '~/.claude.json as it was');
    assert.equal(readDaemonInfo(s.gsd), null, 'the daemon is stopped');
    assert.ok(!existsSync(s.gsd.dir), 'the GSD home made by install is gone');
  });

  it('refuses --shared for a project install and doctor notices a stopped http server', () => {
    const s = sandbox();
    const local = cli(s.home, ['install', '--local', '--yes', '--shared']);
    assert.equal(local.code, 2, local.all);
    assert.match(local.all, /--shared .* global install/);
    assert.equal(cli(s.home, ['install', '--global', '--yes', '--shared']).code, 0);
    assert.equal(cli(s.home, ['serve', '--stop']).code, 0);
    const doctor = cli(s.home, ['doctor', '--global', '--no-spawn']);
    assert.equal(doctor.code, 1, doctor.all);
    assert.match(doctor.stdout, /the shared server is not running[\s\S]*fix: run: get-shit-done-cc serve --detach/);
    assert.equal(cli(s.home, ['uninstall', '--global']).code, 0);
  });

  it('default install: the stdio entry is a shim; doctor says so; uninstall stops the daemon its sessions started', async () => {
    const s = sandbox();
    mkdirSync(s.config, { recursive: true });
    assert.equal(cli(s.home, ['install', '--global', '--yes']).code, 0);
    const entry = json(s.claudeJson).mcpServers.gsd;
    assert.equal(entry.type, 'stdio');
    const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    const session = await shimSessionWith(entry.command, entry.args, root, { PATH: process.env.PATH ?? '', HOME: s.home });
    assert.equal(structured(await session.call('file_context', { file: 'src/a.ts' })).path, 'src/a.ts');
    assert.ok(readDaemonInfo(s.gsd), 'the installed shim started the daemon');
    const doctor = cli(s.home, ['doctor', '--global']);
    assert.equal(doctor.code, 0, doctor.all);
    assert.match(doctor.stdout, /mode: stdio shim to the shared server/);
    assert.match(doctor.stdout, /shared server healthy/);
    await session.close();
    assert.equal(cli(s.home, ['uninstall', '--global']).code, 0);
    assert.equal(readDaemonInfo(s.gsd), null);
    assert.ok(!existsSync(s.gsd.token));
  });
});
