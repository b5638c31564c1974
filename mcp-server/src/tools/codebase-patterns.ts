import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import path from 'node:path';
import { z } from 'zod';
import { folderConventions, searchIntel } from '../../../engine/src/index.js';
import { listItems, plain } from '../adapters/markdown.js';
import type { ServerContext } from '../context.js';
import { cappedSchema, SAFETY_CAP, withinBudget } from '../result.js';
import { excerpt } from '../views.js';
import { defineTool } from './define.js';

export function registerCodebasePatternsTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'codebase_patterns',
    input: {
      query: z.string().max(500).default('').describe('area, e.g. "api routes"; empty: all'),
      include_examples: z.boolean().default(true).describe('with excerpts'),
    },
    output: {
      project: z.array(z.string()).describe('project-wide conventions'),
      areas: cappedSchema(
        z.object({
          folder: z.string().describe('folder'),
          role: z.string().describe('role'),
          files: z.number().describe('files'),
          naming: z.string().describe('file naming'),
          exports: z.string().describe('export style'),
          tests: z.string().describe('tests'),
          examples: z.array(z.object({ path: z.string().describe('file'), line: z.number().describe('line'), excerpt: z.string().describe('code') })).describe('1-3 examples'),
        }),
        'matching folders',
      ),
    },
    async run(project, args, call) {
      const reader = await project.intel.open();
      const summary = project.intel.summary();
      const global = listItems(summary?.conventions ?? '')
        .map(plain)
        .filter((l) => !/^folder roles/i.test(l) && !/^\S+\s+—/.test(l) && !l.startsWith('…'))
        .slice(0, 6);
      const hits = args.query.trim() ? searchIntel(reader, args.query, { limit: SAFETY_CAP }).results.map((h) => h.path) : [...reader.byPath.keys()];
      const byFolder = new Map<string, string[]>();
      for (const p of hits) {
        const f = path.posix.dirname(p);
        byFolder.set(f, [...(byFolder.get(f) ?? []), p]);
      }
      // with a query, folders in the order of their best hit (the search ranks); without, the largest first
      const folders = args.query.trim() ? [...byFolder.entries()] : [...byFolder.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
      return {
        project: global,
        areas: {
          ...withinBudget(folders, call.maxTokens, ([folder, files]) => {
            const conv = folderConventions(reader, folder);
            const examples = args.include_examples
              ? files
                  .filter((p) => reader.nodes.get(reader.byPath.get(p)!)!.type !== 'types')
                  .slice(0, 3)
                  .map((p) => {
                    const node = reader.nodes.get(reader.byPath.get(p)!)!;
                    const line = node.exports[0]?.line ?? 1;
                    return { path: p, line, excerpt: excerpt(project, p, line, 2) ?? '' };
                  })
                  .filter((e) => e.excerpt)
              : [];
            return { ...conv, examples };
          }),
        },
      };
    },
  });
}
