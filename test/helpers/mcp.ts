/** Starts the BUILT MCP server (dist/mcp-server/src/index.js) over stdio with the SDK's real Client. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { ServerContext } from '../../mcp-server/src/context.js';
import { buildServer } from '../../mcp-server/src/server.js';
import { after, before } from 'node:test';
import { buildIntel, openIntel, type IntelReader } from '../../engine/src/index.js';
import { repoRoot } from './paths.js';
import { cleanupProjects, copyProject } from './project.js';

export const SERVER_ENTRY = path.join(repoRoot, 'dist', 'mcp-server', 'src', 'index.js');

export interface Session {
  client: Client;
  tools: Tool[];
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** calls a tool, asserts it succeeded and its structuredContent matches the tool's full zod output shape */
  ok<T = Record<string, any>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** calls a tool and asserts an isError result; returns its text */
  fails(name: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
  /** the server process (startServer), which may hold its project's worker role while it runs */
  pid?: number | null;
}

let shapes: ServerContext | null = null;
/** The full output shape the server enforces (tools/list does not publish output schemas: tool-list.ts). */
export function outputShape(name: string): z.ZodType | undefined {
  if (!shapes) {
    shapes = new ServerContext({ cwd: repoRoot, env: {} });
    buildServer(shapes);
  }
  return shapes.tools.get(name)?.outputSchema as z.ZodType | undefined;
}

/** Tool calls through a connected Client: `call`, and `ok`/`fails` that check the result (ok: against the full output shape). */
export function toolCalls(client: Client, tools: Tool[]): Pick<Session, 'call' | 'ok' | 'fails'> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    call,
    async ok(name, args = {}) {
      const r = await call(name, args);
      assert.ok(!r.isError, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(r.content)}`);
      assert.ok(r.structuredContent, `${name}: no structuredContent`);
      assert.ok(byName.has(name), `${name}: not in tools/list`);
      const schema = outputShape(name);
      assert.ok(schema, `${name}: no output shape`);
      const v = schema.safeParse(r.structuredContent);
      assert.ok(v.success, `${name}: structuredContent does not match its output shape: ${v.success ? '' : v.error.message}`);
      const text = r.content.find((c) => c.type === 'text');
      assert.ok(text, `${name}: no text block`);
      return r.structuredContent as never;
    },
    async fails(name, args = {}) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail, got ${JSON.stringify(r.structuredContent)}`);
      return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    },
  };
}

export async function startServer(cwd: string, env: Record<string, string> = {}, entry = SERVER_ENTRY): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry],
    cwd,
    // the server itself, in this process: the shim and the shared daemon have their own tests (shared-server.test.ts)
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GSD_MCP_MODE: 'in-process', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'gsd-test', version: '0.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { client, tools, stderr: () => err, ...toolCalls(client, tools), close: () => client.close(), pid: transport.pid };
}

/** Paths of the properties of a JSON schema (nested objects, array items, unions) that carry no description. */
export function undescribedProperties(schema: any, where: string): string[] {
  const missing: string[] = [];
  for (const [k, v] of Object.entries<any>(schema?.properties ?? {})) {
    if (!v.description) missing.push(`${where}.${k}`);
    missing.push(...undescribedProperties(v, `${where}.${k}`));
    if (v.items) missing.push(...undescribedProperties(v.items, `${where}.${k}[]`));
    for (const alt of v.anyOf ?? []) missing.push(...undescribedProperties(alt, `${where}.${k}`));
  }
  return missing;
}

/**
 * For a describe block: a fresh copy of test/fixtures/projects/<name>, built, with an IntelReader on it and the built
 * server started over stdio in it (before); all closed and removed after. Read the fields inside the tests.
 */
export function fixtureServer(name: string): { root: string; s: Session; reader: IntelReader } {
  const it = {} as { root: string; s: Session; reader: IntelReader };
  before(async () => {
    it.root = copyProject(name);
    await buildIntel(it.root);
    it.reader = await openIntel(it.root);
    it.s = await startServer(it.root);
  });
  after(async () => {
    it.reader?.close();
    await it.s?.close();
    cleanupProjects();
  });
  return it;
}
