/**
 * The one place where a tool call becomes a result: project resolution, the `mcp.disabledTools` switch, the rate
 * limit, the audit log, timing, and the mapping of errors to `isError` results. A failing tool never throws out.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { UnknownFileError } from '../../../engine/src/index.js';
import type { Project, ServerContext } from '../context.js';
import { logError } from '../log.js';
import { errorResult, okResult, ToolInputError } from '../result.js';
import { HINTS, ROOT_ARG, TOOL_TEXT } from '../texts.js';

export type ToolName = keyof typeof TOOL_TEXT;

export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: ToolName;
  input: I;
  output: O;
  run: (project: Project, args: z.infer<z.ZodObject<I>>) => Promise<z.infer<z.ZodObject<O>>> | z.infer<z.ZodObject<O>>;
  /** default READ_ONLY; tools that write pass their own (readOnlyHint: false, destructiveHint where they delete or overwrite) */
  annotations?: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
}

/** read-only and closed-world; `destructiveHint`/`idempotentHint` only mean something for tools that write (MCP spec) */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function describeError(error: unknown): { message: string; hint?: string } {
  if (error instanceof ToolInputError) return { message: error.message, hint: error.hint };
  if (error instanceof UnknownFileError) return { message: error.message, hint: HINTS.unknownFile };
  return { message: `internal error: ${(error as Error)?.message ?? String(error)}`, hint: 'This is a bug in the gsd MCP server; please report it.' };
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(server: McpServer, ctx: ServerContext, spec: ToolSpec<I, O>): RegisteredTool {
  const text = TOOL_TEXT[spec.name];
  const inputSchema = { ...spec.input, root: z.string().max(4096).optional().describe(ROOT_ARG) };
  const handler = async (args: Record<string, unknown>): Promise<CallToolResult> => {
    const started = performance.now();
    let project: Project | null = null;
    const { root, ...rest } = args as { root?: string } & Record<string, unknown>;
    try {
      project = await ctx.project(root);
      if (project.config().disabledTools.includes(spec.name)) {
        throw new ToolInputError(`${spec.name} is disabled for this project`, 'See "mcp.disabledTools" in .planning/config.json.');
      }
      const wait = ctx.rateLimited(project, spec.name);
      if (wait !== null) throw new ToolInputError(`rate limit of ${spec.name} reached; retry in ${wait} s`, 'See "mcp.rateLimitPerMinute" in .planning/config.json.');
      const out = await spec.run(project, rest as z.infer<z.ZodObject<I>>);
      const ms = performance.now() - started;
      project.audit({ tool: spec.name, args: rest, ok: true, ms: Math.round(ms * 100) / 100 });
      return okResult(out as Record<string, unknown>, ctx.timing ? { 'gsd/timing': { handlerMs: ms } } : undefined);
    } catch (error) {
      const { message, hint } = describeError(error);
      if (!(error instanceof ToolInputError) && !(error instanceof UnknownFileError)) logError(`${spec.name} failed`, error);
      project?.audit({ tool: spec.name, args: rest, ok: false, error: message, ms: Math.round((performance.now() - started) * 100) / 100 });
      return errorResult(message, hint);
    }
  };
  const tool = server.registerTool(
    spec.name,
    { title: text.title, description: text.description, inputSchema, outputSchema: spec.output, annotations: spec.annotations ?? READ_ONLY },
    handler as never,
  );
  ctx.tools.set(spec.name, tool);
  return tool;
}
