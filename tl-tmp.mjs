import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const client = new Client({ name: 'x', version: '0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/mcp-server/src/index.js'] }));
const { tools } = await client.listTools();
const DEPTH = +process.argv[2];
function compact(s, depth, isOut) {
  if (!s || typeof s !== 'object') return s;
  const o = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$schema' || k === 'additionalProperties') continue;
    if (k === 'description' && isOut) continue;
    if (k === 'maxLength' && v >= 1000) continue;
    if (k === 'properties') { if (depth >= DEPTH) continue; o[k] = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, compact(ps, depth + 1, isOut)])); continue; }
    if (k === 'required' && depth >= DEPTH) continue;
    if (k === 'items') { if (depth >= DEPTH) continue; o[k] = compact(v, depth + 1, isOut); continue; }
    o[k] = v;
  }
  return o;
}
const out = tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: compact(t.inputSchema, 0, false), outputSchema: compact(t.outputSchema, 0, true), annotations: { readOnlyHint: true, openWorldHint: false } }));
const j = JSON.stringify({ tools: out });
console.log(DEPTH, j.length, Math.ceil(j.length / 4));
for (const t of out) console.log(' ', t.name, JSON.stringify(t).length, JSON.stringify(t.outputSchema).length);
if (process.argv[3]) for (const t of out) console.log(JSON.stringify(t));
await client.close();
