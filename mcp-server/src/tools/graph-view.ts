import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { writeGraphView } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { lookupFile } from '../views.js';
import { defineTool } from './define.js';

/**
 * Writes `.planning/intel/graph-view.html` (the page of `intel view`) and returns its path, for the agent to hand to
 * the user. It writes one file, always the same one, replaced whole: not read-only, and destructive of nothing but
 * its own previous page. (idempotentHint is left out to stay inside the tool's share of tools/list, 120 tokens.)
 */
export function registerGraphViewTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'graph_view',
    input: { file: z.string().min(1).max(4096).optional().describe('file to focus') },
    output: { path: z.string().describe('the page') },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    async run(project, args) {
      const reader = await project.intel.open();
      const file = args.file ? lookupFile(project, reader, args.file).id : null;
      return { path: (await writeGraphView(reader, { file })).path };
    },
  });
}
