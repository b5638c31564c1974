/**
 * The published tools/list (tool-list.ts) against the full zod shapes the server enforces: same fields, same
 * required set, every full output field described, and an answer that breaks the full shape is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { buildIntel } from '../../engine/src/index.js';
import { ServerContext } from '../../mcp-server/src/context.js';
import { buildServer } from '../../mcp-server/src/server.js';
import { publishedOutputSchema } from '../../mcp-server/src/tool-list.js';
import { undescribedProperties } from '../helpers/mcp.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

describe('mcp server: the published tool list', () => {
  let root: string;
  let ctx: ServerContext;
  let client: Client;
  before(async () => {
    root = copyProject('shop');
    await buildIntel(root);
    ctx = new ServerContext({ cwd: root, env: {} });
    const server = buildServer(ctx);
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'list', version: '0' });
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  after(async () => {
    await client.close();
    cleanupProjects();
  });

  it('publishes every field and required key of the full output shape, typed, without $schema', async () => {
    const { tools } = await client.listTools();
    assert.equal(tools.length, ctx.tools.size);
    for (const t of tools) {
      const full = z.toJSONSchema(ctx.tools.get(t.name)!.outputSchema as z.ZodType, { io: 'output' }) as any;
      assert.deepEqual(undescribedProperties(full, t.name), [], 'the full output shape documents every field');
      const published = t.outputSchema as any;
      assert.deepEqual(Object.keys(published.properties).sort(), Object.keys(full.properties).sort(), t.name);
      assert.deepEqual([...(published.required ?? [])].sort(), [...(full.required ?? [])].sort(), t.name);
      assert.ok(!JSON.stringify(t).includes('$schema'), t.name);
      assert.equal((t.inputSchema as any).type, 'object');
    }
  });

  it('turns nullable and union fields into a list of types', () => {
    const s = publishedOutputSchema(z.object({ a: z.string().nullable(), b: z.union([z.number(), z.array(z.string())]), c: z.enum(['x', 'y']) }));
    assert.deepEqual(s, {
      type: 'object',
      properties: { a: { type: ['string', 'null'] }, b: { type: ['number', 'array'] }, c: { type: 'string', enum: ['x', 'y'] } },
      required: ['a', 'b', 'c'],
    });
  });

  it('still enforces the input limits it does not publish', async () => {
    const r = (await client.callTool({ name: 'blast_radius', arguments: { file: '' } })) as CallToolResult;
    assert.equal(r.isError, true);
    const long = (await client.callTool({ name: 'query_intel', arguments: { query: 'x'.repeat(501) } })) as CallToolResult;
    assert.equal(long.isError, true);
    assert.match(JSON.stringify(long.content), /500|too big|too long/i);
  });

  it('hides a disabled tool from the list', async () => {
    const tool = ctx.tools.get('hotspots')!;
    tool.disable();
    try {
      const { tools } = await client.listTools();
      assert.ok(!tools.some((t) => t.name === 'hotspots'));
    } finally {
      tool.enable();
    }
  });
});
