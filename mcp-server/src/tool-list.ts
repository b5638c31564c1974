/**
 * What `tools/list` publishes. The SDK's default listing is the full JSON Schema of every zod shape (~6,800 tokens
 * for eleven tools), mostly output schemas, `$schema` URLs and field descriptions nobody reads. Claude Code forwards
 * only `{name, description, input_schema}` of a tool to the model (and reads `annotations` and `_meta`), so the
 * listing is those and nothing else:
 * - the input schema as zod derives it, minus `$schema`, `additionalProperties` and the guards (`maxLength`,
 *   `minLength: 1`, `minimum`, `maximum`): zod still enforces them on every call and refuses with a clear message;
 * - `annotations` (read-only, closed world, or the tool's own) and `_meta` (`anthropic/searchHint`, and
 *   `anthropic/alwaysLoad` for `route`);
 * - no `title` and no `outputSchema`: the full zod output shape stays the contract the server enforces (the SDK
 *   validates every `structuredContent` against it before it is sent, McpServer.validateToolOutput), documented
 *   field by field in `mcp-server/src/tools/*.ts`. The whole listing stays <= 4,000 tokens (test/mcp-server/tool-list).
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { GENERIC_INPUT } from './tools/define.js';

type Json = Record<string, unknown>;
function jsonSchema(schema: unknown, io: 'input' | 'output'): Json {
  return z.toJSONSchema(schema as z.ZodType, { target: 'draft-7', io }) as Json;
}

function strip(schema: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$schema' || k === 'additionalProperties') continue;
    if (k === 'maxLength' || k === 'minimum' || k === 'maximum' || (k === 'minLength' && v === 1)) continue; // guards; zod refuses with a clear message
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Record<string, Json>).map(([p, s]) => [p, strip(s)]));
    } else if (k === 'items' && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = strip(v as Json);
    } else out[k] = v;
  }
  return out;
}

/** The input schema; the generic parameters (root, max_tokens) by their type alone, SERVER_INSTRUCTIONS explains them. */
export function publishedInputSchema(schema: unknown): Json {
  const out = strip(jsonSchema(schema, 'input'));
  const props = out.properties as Record<string, Json> | undefined;
  for (const k of Object.keys(GENERIC_INPUT)) if (props?.[k]) props[k] = { type: props[k].type };
  return out;
}

export function toolDefinition(name: string, tool: RegisteredTool): Tool {
  return {
    name,
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: publishedInputSchema(tool.inputSchema) as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool._meta ? { _meta: tool._meta } : {}),
  };
}

/** Replaces the SDK's listing; call after every tool is registered. Disabled tools stay hidden. */
export function publishToolList(server: McpServer, tools: ReadonlyMap<string, RegisteredTool>): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools].filter(([, t]) => t.enabled).map(([name, t]) => toolDefinition(name, t)),
  }));
}
