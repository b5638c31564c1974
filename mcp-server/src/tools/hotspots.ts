import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hotspots } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { clip, SAFETY_CAP, withinBudget } from '../result.js';
import { defineTool } from './define.js';

export function registerHotspotsTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'hotspots',
    input: { limit: z.number().int().min(1).max(SAFETY_CAP).optional().describe('default: all the budget holds') },
    output: {
      total: z.number().describe('files with dependents'),
      truncated: z.boolean().describe('more than returned'),
      hotspots: z
        .array(
          z.object({
            path: z.string().describe('file'),
            direct: z.number().describe('direct dependents'),
            transitive: z.number().describe('transitive dependents'),
            purpose: z.string().describe('what it does'),
          }),
        )
        .describe('most depended-on first'),
    },
    async run(project, args, call) {
      const reader = await project.intel.open();
      const h = hotspots(reader, { limit: args.limit ?? SAFETY_CAP });
      const listed = withinBudget(h.hotspots, call.maxTokens, (x) => ({ path: x.path, direct: x.direct, transitive: x.transitive, purpose: clip(reader.nodes.get(x.id)?.purpose ?? '', 120) }));
      return {
        total: h.total,
        truncated: h.truncated || listed.truncated,
        hotspots: listed.items,
      };
    },
  });
}
