/**
 * What `tools/list` publishes. The SDK's default listing is the full JSON Schema of every zod shape, which for our
 * eleven tools is ~27 KB (~6,800 tokens) — mostly output schemas, `$schema` URLs and field descriptions nobody reads.
 *
 * Published here instead:
 * - the input schema as zod derives it, minus `$schema`, `additionalProperties` and the string-length guards
 *   (`maxLength`, `minLength: 1`): zod still enforces them on every call and refuses with a clear message;
 * - the output schema one level deep: every top-level field with its JSON type (and enum), and `required`. It is a
 *   true, weaker contract: anything that passes the full zod output shape passes it.
 * The full zod output shape stays the contract the server enforces: the SDK validates every `structuredContent`
 * against it before it is sent (McpServer.validateToolOutput), so a tool answering off-shape is an error, not a leak.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type Json = Record<string, unknown>;
function jsonSchema(schema: unknown, io: 'input' | 'output'): Json {
  return z.toJSONSchema(schema as z.ZodType, { target: 'draft-7', io }) as Json;
}

function strip(schema: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$schema' || k === 'additionalProperties') continue;
    if (k === 'maxLength' || (k === 'minLength' && v === 1)) continue; // guards; zod refuses with a clear message
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Record<string, Json>).map(([p, s]) => [p, strip(s)]));
    } else if (k === 'items' && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = strip(v as Json);
    } else out[k] = v;
  }
  return out;
}

/** `{type, enum?}` of one field; unions (`nullable`, `anyOf`) become a list of types */
function fieldType(s: Json): Json {
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (branches) {
    const types = [...new Set(branches.flatMap((b) => fieldType(b).type ?? []))];
    return types.length ? { type: types.length === 1 ? types[0] : types } : {};
  }
  const out: Json = {};
  if (s.type !== undefined) out.type = s.type;
  if (Array.isArray(s.enum)) out.enum = s.enum;
  return out;
}

export function publishedInputSchema(schema: unknown): Json {
  return strip(jsonSchema(schema, 'input'));
}

export function publishedOutputSchema(schema: unknown): Json {
  const full = jsonSchema(schema, 'output');
  const properties = Object.fromEntries(Object.entries((full.properties ?? {}) as Record<string, Json>).map(([p, s]) => [p, fieldType(s)]));
  return { type: 'object', properties, ...(Array.isArray(full.required) && full.required.length ? { required: full.required } : {}) };
}

export function toolDefinition(name: string, tool: RegisteredTool): Tool {
  const def: Tool = {
    name,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: publishedInputSchema(tool.inputSchema) as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
  if (tool.outputSchema) def.outputSchema = publishedOutputSchema(tool.outputSchema) as Tool['outputSchema'];
  return def;
}

/** Replaces the SDK's listing; call after every tool is registered. Disabled tools stay hidden. */
export function publishToolList(server: McpServer, tools: ReadonlyMap<string, RegisteredTool>): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools].filter(([, t]) => t.enabled).map(([name, t]) => toolDefinition(name, t)),
  }));
}
