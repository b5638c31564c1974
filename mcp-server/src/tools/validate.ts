/** `validate`: what a plan, PROJECT.md or REQUIREMENTS.md lacks against its template (adapters/templates.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { readTemplate } from '../adapters/assets.js';
import { checkAgainstTemplate, DOC_TYPES, templateRules, type DocType, type TemplateRules } from '../adapters/templates.js';
import type { ServerContext } from '../context.js';
import { cap, ToolInputError } from '../result.js';
import { defineTool } from './define.js';

const rulesCache = new Map<string, { text: string; rules: TemplateRules }>();

export function rulesFor(type: DocType): TemplateRules {
  const name = DOC_TYPES[type];
  const text = readTemplate(name);
  if (text === null) throw new ToolInputError(`templates/${name} of get-shit-done-cc was not found`, 'Reinstall get-shit-done-cc (the templates ship with it).');
  const hit = rulesCache.get(name);
  if (hit?.text === text) return hit.rules;
  const rules = templateRules(text);
  rulesCache.set(name, { text, rules });
  return rules;
}

export function validateDoc(content: string, type: DocType) {
  const r = checkAgainstTemplate(content, rulesFor(type));
  return { valid: r.missing.length === 0, checked: r.checked, missing: r.missing };
}

export function registerValidateTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'validate',
    input: {
      content: z.string().max(1_000_000).describe('document text'),
      type: z.enum(['plan', 'project', 'requirements']).describe('document kind'),
    },
    output: {
      valid: z.boolean().describe('nothing missing'),
      missing: z.object({ total: z.number().describe('all'), truncated: z.boolean().describe('cut'), items: z.array(z.string()).describe('what is missing') }).describe('what is missing'),
    },
    run(_project, args) {
      if (args.content.includes('\0')) throw new ToolInputError('content contains a NUL byte', 'Pass the Markdown text of the document.');
      const r = validateDoc(args.content, args.type);
      return { valid: r.valid, missing: cap(r.missing) };
    },
  });
}
