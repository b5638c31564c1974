/**
 * The published tools/list (tool-list.ts): `{name, description, inputSchema, annotations, _meta}` only, the whole
 * listing <= 4,000 tokens (characters / 4) with every tool planned for the server, every full output shape (which the
 * server enforces, not published) described field by field, and the input limits still enforced.
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
import { undescribedProperties } from '../helpers/mcp.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';
import { TOOL_TEXT } from '../../mcp-server/src/texts.js';

const OWN_TOOLS = ['route', 'query_intel', 'blast_radius', 'hotspots', 'file_context', 'phase_relevant_files', 'codebase_patterns', 'similar_past_work', 'verify_artifact', 'verify_behavior', 'requirement_status', 'phase_status'];

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

  it('publishes name, description, input schema, annotations and a search hint; no title, no output schema, no $schema', async () => {
    const { tools } = await client.listTools();
    assert.equal(tools.length, ctx.tools.size);
    for (const t of tools) {
      assert.deepEqual(Object.keys(t).sort(), ['_meta', 'annotations', 'description', 'inputSchema', 'name'], t.name);
      const full = z.toJSONSchema(ctx.tools.get(t.name)!.outputSchema as z.ZodType, { io: 'output' }) as any;
      assert.deepEqual(undescribedProperties(full, t.name), [], 'the full output shape documents every field');
      assert.ok(!JSON.stringify(t).includes('$schema'), t.name);
      assert.equal((t.inputSchema as any).type, 'object');
      const hint = (t._meta as Record<string, unknown>)['anthropic/searchHint'];
      assert.ok(typeof hint === 'string' && hint.length > 0 && hint.length <= 60, `${t.name} search hint: ${hint}`);
      assert.equal((t._meta as Record<string, unknown>)['anthropic/alwaysLoad'], t.name === 'route' ? true : undefined, t.name);
    }
  });

  it('keeps the whole listing <= 4,000 tokens (characters / 4), route and the eleven intel/plan tools <= 1,700', async () => {
    const { tools } = await client.listTools();
    const tokens = (list: unknown[]) => Math.ceil(JSON.stringify({ tools: list }).length / 4);
    const mine = tools.filter((t) => OWN_TOOLS.includes(t.name));
    assert.equal(mine.length, OWN_TOOLS.length);
    assert.ok(tokens(mine) <= 1700, `route + the eleven intel/plan tools list in ${tokens(mine)} tokens (share: 1,700)`);
    assert.equal(tools.length, Object.keys(TOOL_TEXT).length, 'every tool of the server is in this count');
    assert.ok(tokens(tools) <= 4000, `tools/list is ${tokens(tools)} tokens`);
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
