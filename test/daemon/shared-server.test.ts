/**
 * The shared server with real processes on loopback: the daemon started by the stdio shim in a temporary HOME,
 * sessions through the shim (as Claude Code's stdio registration) and straight over HTTP (as `install --shared`),
 * two git worktrees of one repository, the hooks writing while servers answer.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildIntel } from '../../engine/src/index.js';
import { daemonHealth } from '../../mcp-server/src/daemon/info.js';
import { HOOKS, everywhere, payload, presence, runHookProcess, waitForWorkers } from '../helpers/hooks.js';
import { git, hasGit, httpSession, shimSession, structured, tempHome, text, until, type McpSession, type TempHome } from '../helpers/daemon.js';
import { SERVER_ENTRY, startServer } from '../helpers/mcp.js';
import { cliPath } from '../helpers/paths.js';
import { cleanupProjects, tempProject, writeFile } from '../helpers/project.js';

const SECRETS = ['sk-live-4f9a8b7c6d5e4f3a2b1c0d9e', 'hunter2-correct-horse', 'AKIAIOSFODNN7EXAMPLE', 'ghp_abcdefghijklmnopqrstuvwxyz0123'];

function raw(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/gsd/health', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Writes `lines` to the shims' socket; collects the lines it answers until it closes or `enough` says so. */
function talk(socket: string, lines: string[], enough: (got: string[]) => boolean = () => false): Promise<{ lines: string[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket);
    const got: string[] = [];
    let buf = '';
    const timer = setTimeout(() => {
      conn.destroy();
      reject(new Error(`the socket neither closed nor answered enough: ${JSON.stringify(got).slice(0, 500)}`));
    }, 30_000);
    conn.setEncoding('utf8');
    conn.on('data', (d: string) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        got.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
      if (enough(got)) {
        clearTimeout(timer);
        conn.destroy();
        resolve({ lines: got, closed: false });
      }
    });
    conn.on('error', () => undefined);
    conn.on('close', () => {
      clearTimeout(timer);
      resolve({ lines: got, closed: true });
    });
    conn.write(lines.map((l) => `${l}\n`).join(''));
  });
}

const auditOf = (root: string): string => {
  const dir = path.join(root, '.planning', 'intel');
  return readdirSync(dir)
    .filter((f) => f.startsWith('mcp-audit.jsonl'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('');
};

describe('shared server: one daemon, many sessions and worktrees', { skip: !hasGit && 'git is not installed' }, () => {
  let h: TempHome;
  let repo: string;
  let wt: string;
  let wtParent: string;
  let a: McpSession;
  let b: McpSession;
  const sessions: McpSession[] = [];

  before(async () => {
    h = tempHome();
    repo = tempProject({
      '.gitignore': '.planning/intel/\n',
      '.planning/config.json': '{}\n',
      'src/money.ts': 'export const cents = (n: number) => Math.round(n * 100);\n',
      'src/cart.ts': "import { cents } from './money';\nexport const total = (xs: number[]) => cents(xs.reduce((s, x) => s + x, 0));\n",
    });
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'init');
    wtParent = mkdtempSync(path.join(os.tmpdir(), 'gsd-wt-'));
    wt = path.join(wtParent, 'feature');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', wt);
    writeFile(repo, 'src/only-main.ts', "import { total } from './cart';\nexport const main = total;\n");
    writeFile(wt, 'src/only-wt.ts', "import { cents } from './money';\nexport const feature = cents;\n");
    await buildIntel(repo);
    await buildIntel(wt);
    a = await shimSession(repo, h);
    b = await shimSession(wt, h);
    sessions.push(a, b);
  });
  after(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    await h.cleanup();
    rmSync(wtParent, { recursive: true, force: true });
    cleanupProjects();
  });

  it('serves two worktrees from one daemon, each session seeing only its own files', async () => {
    const info = h.info();
    assert.ok(info, 'the first shim started a daemon (daemon.json)');
    assert.equal((readFileSync(h.home.token, 'utf8').trim().length), 64);
    assert.equal((await import('node:fs')).statSync(h.home.token).mode & 0o777, 0o600, 'the token file is private');
    assert.equal(structured(await a.call('file_context', { file: 'src/only-main.ts' })).path, 'src/only-main.ts');
    assert.match(text(await a.call('file_context', { file: 'src/only-wt.ts' })), /no indexed file matches/);
    assert.equal(structured(await b.call('file_context', { file: 'src/only-wt.ts' })).path, 'src/only-wt.ts');
    assert.match(text(await b.call('file_context', { file: 'src/only-main.ts' })), /no indexed file matches/);
    const hotA = structured(await a.call('query_intel', { query: 'only' })).results.map((r: { path: string }) => r.path);
    const hotB = structured(await b.call('query_intel', { query: 'only' })).results.map((r: { path: string }) => r.path);
    assert.ok(hotA.includes('src/only-main.ts') && !hotA.includes('src/only-wt.ts'), JSON.stringify(hotA));
    assert.ok(hotB.includes('src/only-wt.ts') && !hotB.includes('src/only-main.ts'), JSON.stringify(hotB));
    // the http registration: bound by the roots its client declares
    const c = await httpSession(info, h.token(), { roots: [wt] });
    sessions.push(c);
    assert.equal(structured(await c.call('file_context', { file: 'src/only-wt.ts' })).path, 'src/only-wt.ts');
    const health = await daemonHealth(h.home, info);
    assert.ok(health.ok);
    assert.equal(health.pid, info.pid, 'one daemon for all sessions');
    assert.ok(health.sessions >= 3, `sessions: ${health.sessions}`);
    assert.deepEqual([...health.projects].sort(), [repo, wt].map((p) => (os.platform() === 'darwin' ? p : p)).sort(), 'one loaded project per root, shared');
  });

  it("relays the daemon's own requests to the client: a shim session bound to the roots its client declares", async () => {
    // started in a folder without a project: only the client's roots (roots/list, daemon → shim → client and back) name one
    const nowhere = mkdtempSync(path.join(os.tmpdir(), 'gsd-nowhere-'));
    try {
      const c = await shimSession(nowhere, h, {}, [repo]);
      sessions.push(c);
      assert.equal(structured(await c.call('file_context', { file: 'src/only-main.ts' })).path, 'src/only-main.ts');
      assert.equal((await c.call('file_context', { file: 'src/only-wt.ts' })).isError, true, 'the other worktree is not this session\'s');
    } finally {
      rmSync(nowhere, { recursive: true, force: true });
    }
  });

  it('an http client that opens its event stream after its first call: roots/list waits for the stream and the call is answered for its roots', async () => {
    // The daemon sends roots/list on the session's GET event stream; sent before the client opened it, the request
    // was dropped and the call went on without roots ("declared no project folder"). Here the client's GET is held
    // until its first tools/call has gone out, so the daemon always gets the call before the stream.
    let callSent!: () => void;
    const called = new Promise<void>((resolve) => (callSent = resolve));
    let asked = 0;
    const slowStream: typeof fetch = async (input, init) => {
      if ((init?.method ?? 'GET') === 'GET') await called;
      const response = fetch(input, init);
      // a moment after the call went out, so that it reaches the daemon first
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) setTimeout(callSent, 200);
      return response;
    };
    const client = new Client({ name: 'gsd-http-late-stream', version: '0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return { roots: [{ uri: pathToFileURL(wt).href }] };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.info()!.url), { requestInit: { headers: { authorization: `Bearer ${h.token()}` } }, fetch: slowStream }));
    try {
      const r = (await client.callTool({ name: 'file_context', arguments: { file: 'src/only-wt.ts' } })) as CallToolResult;
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      assert.equal((r.structuredContent as { path: string }).path, 'src/only-wt.ts');
      assert.ok(asked >= 1);
    } finally {
      await client.close();
    }
  });

  it('refuses traversal into the other worktree and audits it', async () => {
    const attempts = [
      { file: path.join(wt, 'src', 'only-wt.ts') },
      { file: path.relative(repo, path.join(wt, 'src', 'only-wt.ts')) },
      { file: 'src/money.ts', root: wt },
    ];
    for (const args of attempts) {
      const r = await a.call('file_context', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(text(r), /outside (the project root|this session's project)/);
    }
    const audit = auditOf(repo)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const denied = audit.filter((e) => e.denied === 'outside');
    assert.equal(denied.length, attempts.length, JSON.stringify(audit.slice(-5)));
    assert.ok(!existsSync(path.join(wt, '.planning', 'intel', 'mcp-audit.jsonl')) || !auditOf(wt).includes('outside'), "nothing is recorded in the other worktree's audit");
  });

  it('refuses a wrong or missing token and a foreign Origin or Host', async () => {
    const { port } = h.info()!;
    const token = h.token();
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    assert.equal((await raw(port, { method: 'POST', path: '/gsd/mcp', headers: mcpHeaders, body: init })).status, 401);
    assert.equal((await raw(port, { method: 'POST', path: '/gsd/mcp', headers: { ...mcpHeaders, authorization: `Bearer ${'0'.repeat(64)}` }, body: init })).status, 401);
    assert.equal((await raw(port, { headers: { authorization: 'Bearer' } })).status, 401);
    assert.equal((await raw(port, { headers: { authorization: `Bearer ${token}`, origin: 'http://evil.example' } })).status, 403);
    assert.equal((await raw(port, { headers: { authorization: `Bearer ${token}`, host: `evil.example:${port}` } })).status, 403);
    assert.equal((await raw(port, { headers: { authorization: `Bearer ${token}`, host: `localhost:${port + 1}` } })).status, 403);
    assert.equal((await raw(port, { headers: { authorization: `Bearer ${token}`, origin: `http://localhost:5173` } })).status, 200, 'a loopback page may');
    assert.equal((await raw(port, { headers: { authorization: `Bearer ${token}` } })).status, 200);
  });

  it("serves shims on a socket only the user reaches, refusing a wrong token, no handshake and garbage", async () => {
    const info = h.info()!;
    assert.ok(info.socket, "daemon.json names the shims' socket");
    if (process.platform !== 'win32') {
      assert.ok(statSync(info.socket).isSocket());
      if (path.dirname(info.socket) === h.home.dir) assert.equal(statSync(h.home.dir).mode & 0o077, 0, 'in a folder only the user can enter');
    }
    const wrong = await talk(info.socket, [JSON.stringify({ gsd: 'hello', token: SECRETS[0], root: repo })]);
    assert.deepEqual(JSON.parse(wrong.lines[0]), { gsd: 'refused', reason: 'wrong token' });
    assert.ok(wrong.closed);
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } };
    // JSON-RPC without the handshake, a line that is not JSON, a first line over 64 KB: closed, nothing served
    for (const first of [JSON.stringify(initialize), '\u0000\u0001 not json', 'x'.repeat(70 * 1024)]) {
      const r = await talk(info.socket, [first]);
      assert.ok(r.closed);
      assert.ok(!r.lines.some((l) => l.includes('"result"')), r.lines.join('\n'));
    }
    // the handshake with the token: one MCP session, newline-delimited JSON-RPC as on stdio
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'file_context', arguments: { file: 'src/money.ts' } } };
    const ok = await talk(
      info.socket,
      [JSON.stringify({ gsd: 'hello', token: h.token(), root: repo }), JSON.stringify(initialize), '{"jsonrpc":"2.0","method":"notifications/initialized"}', JSON.stringify(call)],
      (got) => got.some((l) => l.includes('"id":2')),
    );
    assert.equal(JSON.parse(ok.lines[0]).gsd, 'ready');
    const answer = JSON.parse(ok.lines.find((l) => l.includes('"id":2'))!);
    assert.equal(answer.result.structuredContent.path, 'src/money.ts');
    assert.match(readFileSync(h.home.log, 'utf8'), /refused a shim connection: wrong token/);
    assert.equal(structured(await a.call('hotspots', { limit: 1 })).total > 0, true, 'the shims still answer');
  });

  it('survives bad requests: one failing request never takes the daemon down', async () => {
    const { port } = h.info()!;
    const auth = { authorization: `Bearer ${h.token()}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    assert.equal((await raw(port, { method: 'POST', path: '/gsd/mcp', headers: auth, body: '{not json' })).status, 400);
    assert.equal((await raw(port, { method: 'POST', path: '/gsd/mcp', headers: auth, body: 'x'.repeat(5 * 1024 * 1024) })).status, 413);
    assert.equal((await raw(port, { method: 'POST', path: '/gsd/mcp', headers: { ...auth, 'mcp-session-id': 'nope' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).status, 404);
    assert.equal((await raw(port, { method: 'POST', path: '/gsd/mcp', headers: auth, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).status, 400);
    assert.equal((await a.call('file_context', { file: 'src/\u0000x.ts' })).isError, true);
    assert.equal(structured(await a.call('hotspots', { limit: 1 })).total > 0, true, 'still answering');
  });

  it('holds rate limits per session, with the retry time', async () => {
    writeFileSync(path.join(repo, '.planning', 'config.json'), JSON.stringify({ mcp: { rateLimitPerMinute: { hotspots: 2 } } }));
    try {
      const c = await shimSession(repo, h);
      sessions.push(c);
      for (const s of [a, c]) {
        assert.ok(!(await s.call('hotspots', { limit: 1 })).isError);
        assert.ok(!(await s.call('hotspots', { limit: 1 })).isError);
      }
      const third = await a.call('hotspots', { limit: 1 });
      assert.equal(third.isError, true);
      assert.match(text(third), /rate limit of hotspots reached for this session; retry in \d+ s/);
      assert.ok(!(await b.call('hotspots', { limit: 1 })).isError, 'the other worktree is not limited');
      assert.ok(!(await a.call('file_context', { file: 'src/money.ts' })).isError, 'other tools are not limited');
      assert.match(auditOf(repo), /"denied":"rate"/);
    } finally {
      writeFileSync(path.join(repo, '.planning', 'config.json'), '{}\n');
    }
  });

  it('applies the user and project policy: allowlist, denylist, denied paths', async () => {
    writeFileSync(h.home.config, JSON.stringify({ mcp: { deniedPaths: ['src/private/**'], disabledTools: ['verify_behavior'] } }));
    writeFileSync(path.join(repo, '.planning', 'config.json'), JSON.stringify({ mcp: { allowedTools: ['file_context', 'hotspots', 'verify_behavior'] } }));
    try {
      assert.match(text(await a.call('file_context', { file: 'src/private/keys.ts' })), /denied by policy/);
      assert.match(text(await a.call('verify_behavior', { must_have: 'rounds cents' })), /disabled/);
      assert.match(text(await a.call('query_intel', { query: 'money' })), /disabled/);
      assert.ok(!(await a.call('hotspots', { limit: 1 })).isError);
      assert.ok(!(await b.call('query_intel', { query: 'money' })).isError, 'the project policy is per project');
      assert.match(auditOf(repo), /"denied":"path"/);
      assert.match(auditOf(repo), /"denied":"tool"/);
    } finally {
      rmSync(h.home.config, { force: true });
      writeFileSync(path.join(repo, '.planning', 'config.json'), '{}\n');
    }
  });

  it('never writes secret values into the audit log or the server log', async () => {
    await a.call('query_intel', { query: `${SECRETS[0]} password=${SECRETS[1]}` });
    await a.call('file_context', { file: `src/${SECRETS[2]}.ts` });
    await a.call('query_intel', { query: `Authorization: Bearer ${h.token()} ${SECRETS[3]}` });
    // a refused request carries the secret in its header
    await raw(h.info()!.port, { headers: { authorization: `Bearer ${SECRETS[0]}` } });
    const logs = [auditOf(repo), readFileSync(h.home.log, 'utf8')].join('\n');
    assert.match(auditOf(repo), /\[redacted\]/);
    for (const secret of [...SECRETS, h.token()]) assert.ok(!logs.includes(secret), `a log holds ${secret}`);
  });

  it('keeps every session and every journal entry when the daemon is killed mid-call', async () => {
    const before = h.info()!;
    // hooks journal writes while the daemon dies
    const files = Array.from({ length: 6 }, (_, i) => `src/k${i}.ts`);
    const calls = [a, b, a, b, a, b].map((s, i) => s.call(i % 2 ? 'hotspots' : 'file_context', i % 2 ? { limit: 2 } : { file: 'src/money.ts' }));
    const hooks = files.map((f) => {
      const abs = path.join(repo, f);
      writeFileSync(abs, `export const k = '${f}';\n`);
      return runHookProcess(HOOKS.postToolUse, payload.write(repo, abs, `export const k = '${f}';\n`, 'create'), { cwd: repo });
    });
    process.kill(before.pid, 'SIGKILL');
    const results = await Promise.all(calls);
    for (const r of results) assert.ok(!r.isError, text(r));
    await Promise.all(hooks);
    // the next calls go to a new daemon started by a shim
    for (const f of files) assert.equal(structured(await a.call('file_context', { file: f })).path, f, `${f} reached the intel`);
    assert.equal(structured(await b.call('file_context', { file: 'src/only-wt.ts' })).path, 'src/only-wt.ts');
    const now = h.info()!;
    assert.notEqual(now.pid, before.pid, 'a new daemon');
    await waitForWorkers(repo, undefined, h.info()?.pid);
    for (const f of files) assert.deepEqual(await presence(repo, f), everywhere);
    assert.match(a.stderr() + b.stderr(), /lost the shared server/);
  });

  it('keeps the hooks\' guarantees with the daemon and an in-process stdio server on one project', async () => {
    // the planning state tools (leases, queue) side by side: side-by-side-planning.test.ts
    const stdio = await startServer(repo);
    try {
      const files = Array.from({ length: 12 }, (_, i) => `src/side/s${i}.ts`);
      const work = files.map(async (f, i) => {
        writeFile(repo, f, `export const s${i} = ${i};\n`);
        await runHookProcess(HOOKS.postToolUse, payload.write(repo, path.join(repo, f), `export const s${i} = ${i};\n`, 'create'), { cwd: repo });
        return (i % 2 ? a : stdio).call('hotspots', { limit: 1 });
      });
      for (const r of await Promise.all(work)) assert.ok(!r.isError);
      for (const f of files) {
        const r = await a.call('file_context', { file: f });
        assert.equal(structured(r)?.path, f, text(r));
        assert.equal((await stdio.ok('file_context', { file: f })).path, f);
      }
      await waitForWorkers(repo, undefined, [h.info()?.pid, stdio.pid]);
      for (const f of files) assert.deepEqual(await presence(repo, f), everywhere);
    } finally {
      await stdio.close();
    }
  });

  it('serve --status and --stop', async () => {
    const env = { ...h.env };
    const status = spawnSync(process.execPath, [cliPath, 'serve', '--status'], { env, encoding: 'utf8' });
    assert.equal(status.status, 0, status.stderr + status.stdout);
    assert.match(status.stdout, new RegExp(`pid ${h.info()!.pid}`));
    const json = JSON.parse(spawnSync(process.execPath, [cliPath, 'serve', '--status', '--json'], { env, encoding: 'utf8' }).stdout);
    assert.equal(json.running, true);
    const stop = spawnSync(process.execPath, [cliPath, 'serve', '--stop'], { env, encoding: 'utf8' });
    assert.equal(stop.status, 0, stop.stderr);
    assert.equal(h.info(), null);
    assert.equal(spawnSync(process.execPath, [cliPath, 'serve', '--status'], { env, encoding: 'utf8' }).status, 1);
    // the shims start a new one on their next call
    assert.ok(!(await a.call('hotspots', { limit: 1 })).isError);
    assert.ok(h.info());
  });
});

describe('shared server: lifecycle', () => {
  after(cleanupProjects);

  it('frees idle projects and exits when idle; the next session starts it again', async () => {
    const h = tempHome();
    try {
      const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
      await buildIntel(root);
      writeFileSync(path.join(h.dir, 'cfg.json'), '');
      (await import('node:fs')).mkdirSync(h.home.dir, { recursive: true });
      writeFileSync(h.home.config, JSON.stringify({ server: { idleMinutes: 0.05, projectIdleMinutes: 0.01 } }));
      const s = await shimSession(root, h);
      assert.ok(!(await s.call('hotspots')).isError);
      const info = h.info()!;
      await until(async () => {
        const health = await daemonHealth(h.home, info);
        return health.ok && health.projects.length === 0;
      }, 'the project to be freed');
      await s.close();
      await until(() => h.info() === null && !existsSync(h.home.daemonJson), 'the idle daemon to exit');
      const again = await shimSession(root, h);
      assert.ok(!(await again.call('hotspots')).isError);
      assert.notEqual(h.info()?.pid, info.pid);
      await again.close();
    } finally {
      await h.cleanup();
    }
  });

  it('answers a request sent before initialize (Claude Code\'s server/discover probe) as an uninitialized server does', async () => {
    const h = tempHome();
    try {
      const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
      const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: root, env: h.env, stdio: ['pipe', 'pipe', 'pipe'] });
      const lines: Record<string, any>[] = [];
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += d;
        for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
          lines.push(JSON.parse(buf.slice(0, nl)));
          buf = buf.slice(nl + 1);
        }
      });
      const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
      send({ id: 'probe', method: 'server/discover', params: {} });
      send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'claude-code', version: '2' } } });
      await until(() => lines.some((l) => l.id === 0), 'the initialize answer');
      assert.equal(lines.find((l) => l.id === 'probe')?.error?.code, -32601);
      assert.equal(lines.find((l) => l.id === 0)?.result?.serverInfo?.name, 'gsd');
      child.kill();
    } finally {
      await h.cleanup();
    }
  });

  it('resends the reads in flight when the daemon dies, never a write: a write gets an error saying it may have been applied', async () => {
    const h = tempHome();
    let s: McpSession | undefined;
    try {
      const root = tempProject({ 'src/a.ts': 'export const a = 1;\n', '.planning/config.json': '{}\n' });
      await buildIntel(root);
      s = await shimSession(root, h);
      assert.ok(!(await s.call('hotspots', { limit: 1 })).isError);
      const { pid } = h.info()!;
      // the shim answers a write it will not resend with a JSON-RPC error (the SDK Client throws it)
      const writes = Array.from({ length: 12 }, () =>
        s!.call('agent', { action: 'enqueue', intent: 'verify_work' }).then(
          (r) => ({ ok: !r.isError, text: text(r) }),
          (e: Error) => ({ ok: false, text: e.message }),
        ),
      );
      const reads = Array.from({ length: 12 }, () => s!.call('hotspots', { limit: 1 }));
      process.kill(pid, 'SIGKILL');
      for (const r of await Promise.all(reads)) assert.ok(!r.isError, text(r));
      const written = await Promise.all(writes);
      const refused = written.filter((r) => !r.ok);
      for (const r of refused) assert.match(r.text, /restarted during this agent call; it may or may not have been applied/);
      // a write resent after it was applied would show as one enqueue too many
      const { events } = (await s.ok('agent', { action: 'history', limit: 200, max_tokens: 25_000 })).result;
      const enqueued = events.filter((e: { type: string }) => e.type === 'enqueue').length;
      assert.ok(enqueued >= written.length - refused.length && enqueued <= written.length, `${enqueued} enqueued for ${written.length} calls, ${refused.length} refused`);
      assert.notEqual(h.info()?.pid, pid, 'a new daemon');
      assert.match(s.stderr(), /lost the shared server/);
    } finally {
      await s?.close();
      await h.cleanup();
    }
  });

  it('serves in-process when no daemon can be started', async () => {
    const h = tempHome();
    try {
      const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
      await buildIntel(root);
      const blocker = path.join(h.dir, 'not-a-folder');
      writeFileSync(blocker, 'x');
      const s = await shimSession(root, h, { GSD_HOME: blocker });
      assert.equal(structured(await s.call('file_context', { file: 'src/a.ts' })).path, 'src/a.ts');
      assert.match(s.stderr(), /serving in-process/);
      await s.close();
    } finally {
      await h.cleanup();
    }
  });
});
