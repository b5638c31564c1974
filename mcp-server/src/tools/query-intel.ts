import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { dependentCounts, searchIntel, type FileType } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { clip, SAFETY_CAP, withinBudget } from '../result.js';
import { defineTool } from './define.js';

export const FILE_TYPES = ['source', 'test', 'types', 'config', 'script'] as const;

export function registerQueryIntelTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'query_intel',
    input: {
      query: z.string().min(1).max(500).describe('keywords, e.g. "parse config"'),
      type_filter: z.enum(FILE_TYPES).optional().describe('file type'),
      max_results: z.number().int().min(1).max(SAFETY_CAP).optional().describe('default: all the budget holds'),
      include_purposes: z.boolean().default(true).describe('with purposes'),
      include_blast_radius: z.boolean().default(false).describe('with direct dependents'),
    },
    output: {
      query: z.string().describe('the query'),
      total: z.number().describe('all matching files'),
      truncated: z.boolean().describe('more than returned'),
      results: z
        .array(
          z.object({
            path: z.string().describe('file'),
            type: z.string().describe('file type'),
            score: z.number().describe('relevance'),
            matches: z.array(z.string()).describe('what matched'),
            exports: z.array(z.string()).describe('exported names (first 8)'),
            purpose: z.string().optional().describe('what it does'),
            dependents: z.object({ direct: z.number().describe('direct'), transitive: z.number().describe('transitive') }).describe('dependent counts'),
            direct_dependents: z.array(z.string()).optional().describe('first 5 direct dependents'),
          }),
        )
        .describe('ranked files'),
    },
    async run(project, args, call) {
      const reader = await project.intel.open();
      const r = searchIntel(reader, args.query, { limit: args.max_results ?? SAFETY_CAP, type: (args.type_filter ?? null) as FileType | null });
      const listed = withinBudget(r.results, call.maxTokens, (h) => {
          const node = reader.nodes.get(h.id)!;
          return {
            path: h.path,
            type: h.type,
            score: h.score,
            matches: h.matches,
            exports: node.exports.map((e) => e.name),
            ...(args.include_purposes ? { purpose: clip(h.purpose, 160) } : {}),
            dependents: dependentCounts(reader, h.id),
            ...(args.include_blast_radius
              ? { direct_dependents: [...new Set((reader.in.get(h.id) ?? []).map((e) => reader.nodes.get(e.source)!.path))].sort() }
              : {}),
          };
        });
      return { query: args.query, total: r.total, truncated: r.truncated || listed.truncated, results: listed.items };
    },
  });
}
