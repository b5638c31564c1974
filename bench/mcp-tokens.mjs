#!/usr/bin/env node
// Token count (characters / 4) of the MCP server's tools/list: what reaches the model and the full response,
// then a per-tool table (each tool's whole entry and its model-facing part).
// Usage: node bench/mcp-tokens.mjs [project-dir]   (needs `npm run build`: dist/runtime/)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';
import { ROOT } from './lib/common.mjs';

/** the server as `get-shit-done-cc install` and the plugin run it: the runtime bundle */
export const SERVER = path.join(ROOT, 'dist', 'runtime', 'mcp-server.js');
export const tokens = (chars) => Math.ceil(chars / 4);

/** Sizes of a tools/list result: model-facing ({name, description, input_schema}) and the full JSON. */
export function toolsListSize(tools) {
  const modelFacingChars = JSON.stringify(tools.map((t) => ({ name: `mcp__gsd__${t.name}`, description: t.description, input_schema: t.inputSchema }))).length;
  const fullChars = JSON.stringify({ tools }).length;
  const outputSchemaChars = tools.reduce((n, t) => n + JSON.stringify(t.outputSchema ?? {}).length, 0);
  return { modelFacingChars, modelFacing: tokens(modelFacingChars), fullChars, full: tokens(fullChars), outputSchemaChars };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cwd = path.resolve(process.argv[2] ?? ROOT);
  const client = new Client({ name: 'gsd-tokens', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd, env: { ...process.env, GSD_MCP_MODE: 'in-process' } }));
  const { tools } = await client.listTools();
  const s = toolsListSize(tools);
  process.stdout.write(`tools: ${tools.length}\nmodel-facing: ${s.modelFacingChars} chars = ${s.modelFacing} tokens\nfull tools/list: ${s.fullChars} chars = ${s.full} tokens (bar: ≤ 4000 with every planned tool, ≤ 1700 for route + the 11 intel/plan tools; outputSchemas ${s.outputSchemaChars} chars)\n`);
  // per tool: the JSON of its whole tools/list entry, and its model-facing part
  process.stdout.write('\n| tool | whole entry chars | tokens | model-facing tokens |\n|---|---:|---:|---:|\n');
  for (const t of tools) {
    const whole = JSON.stringify(t).length;
    const facing = JSON.stringify({ name: `mcp__gsd__${t.name}`, description: t.description, input_schema: t.inputSchema }).length;
    process.stdout.write(`| ${t.name} | ${whole} | ${tokens(whole)} | ${tokens(facing)} |\n`);
  }
  await client.close();
}
