/** Stdout carries only JSON-RPC, even when tools fail; SIGTERM closes the server cleanly. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { SERVER_ENTRY } from '../helpers/mcp.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

describe('mcp server: stdout is the protocol', () => {
  let root: string;
  before(() => {
    root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
  });
  after(cleanupProjects);

  it('answers only JSON-RPC lines on stdout and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, GSD_MCP_MODE: 'in-process' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const send = (msg: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    send({ id: 3, method: 'tools/call', params: { name: 'blast_radius', arguments: { file: '../../etc/passwd' } } });
    send({ id: 4, method: 'tools/call', params: { name: 'query_intel', arguments: { query: 'a' } } });
    send({ id: 5, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && out.split('\n').filter(Boolean).length < 5) await new Promise((r) => setTimeout(r, 50));
    const lines = out.split('\n').filter(Boolean);
    assert.equal(lines.length, 5, out);
    const msgs = lines.map((l) => JSON.parse(l));
    assert.ok(msgs.every((m) => m.jsonrpc === '2.0'));
    const byId = new Map(msgs.map((m) => [m.id, m]));
    assert.equal(byId.get(3).result.isError, true);
    assert.match(byId.get(4).result.content[0].text, /\/gsd:analyze-codebase/);
    assert.ok(byId.get(5).error || byId.get(5).result?.isError);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
  });
});
