/** Which project a call is about: the client's roots first, then CLAUDE_PROJECT_DIR or cwd; `root` may name a git worktree. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { blastRadius, buildIntel, openIntel } from '../../engine/src/index.js';
import { SERVER_ENTRY, startServer } from '../helpers/mcp.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('mcp server: project roots', () => {
  let shop: string;
  let elsewhere: string;
  before(async () => {
    shop = copyProject('shop');
    await buildIntel(shop);
    elsewhere = mkdtempSync(path.join(os.tmpdir(), 'gsd-elsewhere-'));
  });
  after(() => {
    rmSync(elsewhere, { recursive: true, force: true });
    cleanupProjects();
  });

  it('uses the roots the client lists (roots/list)', async () => {
    const client = new Client({ name: 'roots-test', version: '0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(shop).href, name: 'shop' }] }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER_ENTRY], cwd: elsewhere, env: { PATH: process.env.PATH ?? '', GSD_MCP_MODE: 'in-process' } }));
    const r = (await client.callTool({ name: 'hotspots', arguments: { limit: 1 } })) as CallToolResult;
    assert.equal((r.structuredContent as { hotspots: Array<{ path: string }> }).hotspots[0].path, 'src/lib/money.ts');
    await client.close();
  });

  it('waits for a client that is slow to answer roots/list, asking it once for all the calls meanwhile', async () => {
    // a loaded machine: the client answers after 2.5 s, longer than the server once waited (it then answered for its
    // cwd, a folder without a project, and asked again at the next call)
    let asked = 0;
    const client = new Client({ name: 'roots-slow', version: '0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      await new Promise((resolve) => setTimeout(resolve, 2500));
      return { roots: [{ uri: pathToFileURL(shop).href, name: 'shop' }] };
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER_ENTRY], cwd: elsewhere, env: { PATH: process.env.PATH ?? '', GSD_MCP_MODE: 'in-process' } }));
    try {
      const answers = (await Promise.all([1, 2, 3].map(() => client.callTool({ name: 'hotspots', arguments: { limit: 1 } })))) as CallToolResult[];
      for (const r of answers) assert.equal((r.structuredContent as { hotspots: Array<{ path: string }> } | undefined)?.hotspots[0].path, 'src/lib/money.ts', JSON.stringify(r.content));
      assert.equal(asked, 1, 'one roots/list for the session start and the three calls');
    } finally {
      await client.close();
    }
  });

  it('without roots it walks up from cwd, and says so when there is no project', async () => {
    const s = await startServer(path.join(shop, 'src', 'lib'));
    assert.equal((await s.ok('hotspots', { limit: 1 })).hotspots[0].path, 'src/lib/money.ts');
    await s.close();
    const none = await startServer(elsewhere);
    assert.match(await none.fails('hotspots'), /No \.planning\/ folder[\s\S]*\/gsd:new-project/);
    await none.close();
  });

  it('accepts a git worktree of the same repository as root, refuses another repository', { skip: !hasGit && 'git is not installed' }, async () => {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    const repo = copyProject('shop');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'init');
    const wt = path.join(elsewhere, 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    await buildIntel(repo);
    await buildIntel(wt);
    const other = copyProject('shop');
    git(other, 'init', '-q');
    await buildIntel(other);
    const reader = await openIntel(wt);
    const expected = blastRadius(reader, 'src/lib/money.ts').total;
    reader.close();
    const s = await startServer(repo);
    try {
      assert.equal((await s.ok('blast_radius', { file: 'src/lib/money.ts', root: wt, max_depth: 10 })).total, expected);
      assert.match(await s.fails('hotspots', { root: other }), /not part of this session's project/);
    } finally {
      await s.close();
    }
  });
});
