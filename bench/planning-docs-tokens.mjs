#!/usr/bin/env node
// The tools/list share of the planning-document tools (vitals, plan, discuss, validate, dash, evolve): characters / 4
// of each tool's JSON in the real tools/list of the runtime bundle, through the SDK client. Budget: 1,050 tokens.
// Usage: node bench/planning-docs-tokens.mjs [project-dir]   (needs `npm run build`: dist/runtime/)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';
import { ROOT } from './lib/common.mjs';
import { SERVER, tokens } from './mcp-tokens.mjs';

const TOOLS = ['vitals', 'plan', 'discuss', 'validate', 'dash', 'evolve'];
const cwd = path.resolve(process.argv[2] ?? ROOT);
const client = new Client({ name: 'gsd-planning-tokens', version: '0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd }));
const { tools } = await client.listTools();
let chars = 0;
for (const t of tools.filter((x) => TOOLS.includes(x.name))) {
  const c = JSON.stringify(t).length;
  chars += c;
  process.stdout.write(`${t.name.padEnd(9)} ${String(c).padStart(5)} chars = ${tokens(c)} tokens\n`);
}
process.stdout.write(`share: ${chars} chars = ${tokens(chars)} tokens (budget 1050); whole tools/list: ${tokens(JSON.stringify({ tools }).length)} tokens of ${tools.length} tools\n`);
await client.close();
