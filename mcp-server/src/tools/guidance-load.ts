import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ServerContext } from '../context.js';
import { FOCUS_LEVELS, GuidanceSessions, MAX_AUTO_LOAD } from '../guidance/session.js';
import { defineTool } from './define.js';

const source = z.enum(['project', 'user', 'package']).describe('where the file lives');
const why = z.array(z.string()).describe('what matched: name:, content:, tag:, category:, project');

/** one memory per server context; sessions inside it by MCP session id */
const memories = new WeakMap<ServerContext, GuidanceSessions>();

export function registerGuidanceLoadTool(server: McpServer, ctx: ServerContext) {
  if (!memories.has(ctx)) memories.set(ctx, new GuidanceSessions());
  const sessions = memories.get(ctx) as GuidanceSessions;
  return defineTool(server, ctx, {
    name: 'guidance_load',
    input: {
      query: z.string().min(1).max(500).describe('keywords or "1,3"'),
      focus_level: z.enum(FOCUS_LEVELS).describe('work level'),
      max_auto_load: z.number().int().min(1).max(MAX_AUTO_LOAD).optional().describe('files to load (2)'),
    },
    output: {
      loaded: z
        .array(
          z.object({
            n: z.number().optional().describe('number in the search; absent for an @reference'),
            path: z.string().describe('project-relative or absolute'),
            source: source.optional(),
            type: z.string().nullable().optional().describe('frontmatter type'),
            category: z.string().nullable().optional().describe('frontmatter category'),
            tags: z.array(z.string()).optional().describe('frontmatter tags'),
            focus_levels: z.array(z.enum(FOCUS_LEVELS)).nullable().optional().describe('null: untagged'),
            score: z.number().optional().describe('match score'),
            why: why.optional(),
            from: z.string().optional().describe('file whose @reference loaded this one'),
            depth: z.number().optional().describe('references deep (1: referenced by a match)'),
            content: z.string().describe('the markdown after the frontmatter'),
            truncated: z.boolean().describe('content cut to fit'),
          }),
        )
        .describe('best matches, then the files they @reference'),
      matches: z
        .object({
          total: z.number().describe('matches not loaded'),
          truncated: z.boolean().describe('more than listed'),
          items: z
            .array(z.object({ n: z.number().describe('number to load'), path: z.string().describe('file'), source, type: z.string().nullable().describe('frontmatter type'), score: z.number().describe('match score'), why }))
            .describe('numbered, best first'),
        })
        .describe('other matches, numbered'),
      issues: z
        .array(
          z.object({
            kind: z.enum(['untagged', 'reference', 'skipped']).describe('untagged file, refused/missing/cyclic @reference, or skipped file'),
            path: z.string().describe('file, or the reference as written'),
            from: z.string().optional().describe('file holding the reference'),
            problem: z.string().describe('what is wrong'),
          }),
        )
        .describe('files not used as they are, and why'),
      performanceMetrics: z
        .object({ filesScanned: z.number().describe('guidance files seen'), filesMatched: z.number().describe('files matching'), searchMs: z.number().describe('time taken') })
        .describe('search figures'),
      hint: z.string().optional().describe('what to do next'),
    },
    async run(project, args, call) {
      // loaded on first use: the yaml library and the search stay out of the server's start-up
      const { loadGuidance } = await import('../guidance/load.js');
      return loadGuidance({
        query: args.query,
        focus: args.focus_level,
        maxAutoLoad: args.max_auto_load,
        projectRoot: project.root,
        env: ctx.env,
        session: call.sessionId ?? '',
        sessions,
      });
    },
  });
}
