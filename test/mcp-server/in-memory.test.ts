/**
 * The fast path of the protocol tests: buildServer(ctx) in-process over InMemoryTransport (the app is independent
 * of stdio), plus the project cache (LRU) and the bounded audit log.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { blastRadius, buildIntel, openIntel } from '../../engine/src/index.js';
import { ServerContext } from '../../mcp-server/src/context.js';
import { buildServer } from '../../mcp-server/src/server.js';
import { cleanupProjects, copyProject, tempProject } from '../helpers/project.js';

describe('mcp server in-process', () => {
  let root: string;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
  });
  after(cleanupProjects);

  it('answers over InMemoryTransport exactly like the engine, reusing one reader', async () => {
    const ctx = new ServerContext({ cwd: root, env: {} });
    const server = buildServer(ctx);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'mem', version: '0' });
    await Promise.all([server.connect(a), client.connect(b)]);
    const reader = await openIntel(root);
    const engine = blastRadius(reader, 'src/lib/strings.ts', { maxDepth: 5 });
    reader.close();
    for (let i = 0; i < 3; i++) {
      const r = (await client.callTool({ name: 'blast_radius', arguments: { file: 'src/lib/strings.ts', max_depth: 5 } })) as CallToolResult;
      const out = r.structuredContent as { total: number; by_depth: Array<{ files: string[] }> };
      assert.equal(out.total, engine.total);
      assert.deepEqual(out.by_depth.map((l) => l.files), engine.byDepth.map((l) => l.files.map((f) => f.path)));
    }
    const project = await ctx.project();
    assert.equal(project.intel.opens, 1, 'graph.db is loaded once while it does not change');
    await client.close();
    await server.close();
    ctx.close();
  });

  it('blast_radius flags every affected entry point, not only the few summary.md shows', async () => {
    const files: Record<string, string> = { 'src/lib.ts': 'export const lib = 1;\n' };
    for (let i = 0; i < 12; i++) files[`tools/cli-${String(i).padStart(2, '0')}.ts`] = "import { lib } from '../src/lib';\nconsole.log(lib);\n";
    const project = tempProject(files);
    await buildIntel(project);
    const ctx = new ServerContext({ cwd: project, env: {} });
    const server = buildServer(ctx);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'mem', version: '0' });
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const r = (await client.callTool({ name: 'blast_radius', arguments: { file: 'src/lib.ts' } })) as CallToolResult;
      const out = r.structuredContent as { critical: { total: number; items: Array<{ path: string; why: string[] }> } };
      assert.equal(out.critical.total, 12);
      assert.ok(out.critical.items.every((c) => c.why.includes('entry point')), JSON.stringify(out.critical));
    } finally {
      await client.close();
      ctx.close();
    }
  });

  it('keeps a small LRU of projects and closes the evicted ones', async () => {
    const roots = [0, 1, 2].map((i) => tempProject({ [`src/f${i}.ts`]: 'export const x = 1;\n' }));
    const ctx = new ServerContext({ cwd: roots[0], env: {}, maxProjects: 2 });
    const p0 = await ctx.project();
    const p1 = await ctx.project(roots[1]).catch((e: Error) => e);
    // roots[1] is not inside the session project: refused, so the cache holds only allowed projects
    assert.ok(p1 instanceof Error && /not part of this session/.test(p1.message));
    const sub = tempProject({ 'a/.planning/x': '', 'b/.planning/x': '', 'c/.planning/x': '' });
    const ctx2 = new ServerContext({ cwd: sub, env: {}, maxProjects: 2 });
    const [pa, pb, pc] = [await ctx2.project(path.join(sub, 'a')), await ctx2.project(path.join(sub, 'b')), await ctx2.project(path.join(sub, 'c'))];
    assert.notEqual(pa, pb);
    assert.equal(await ctx2.project(path.join(sub, 'c')), pc);
    assert.notEqual(await ctx2.project(path.join(sub, 'a')), pa, 'a was evicted and is reopened');
    assert.equal(p0.root.endsWith(path.basename(roots[0])), true);
    ctx.close();
    ctx2.close();
  });

  it('rotates the audit log past its bound', async () => {
    const dir = tempProject({});
    const ctx = new ServerContext({ cwd: dir, env: {} });
    const p = await ctx.project();
    const big = 'x'.repeat(250);
    for (let i = 0; i < 3000; i++) p.audit({ tool: 't', args: { q: big, i } });
    const file = path.join(dir, '.planning', 'intel', 'mcp-audit.jsonl');
    assert.ok(existsSync(`${file}.1`));
    assert.ok(statSync(file).size <= 600 * 1024 && statSync(`${file}.1`).size <= 600 * 1024);
    assert.ok(readFileSync(file, 'utf8').trim().split('\n').every((l) => JSON.parse(l).tool === 't'));
    ctx.close();
  });
});
