/**
 * The one place where a tool call becomes a result: project resolution, the `mcp.disabledTools` switch, the rate
 * limit, the audit log, timing, the answer's token budget (`max_tokens`, budget.ts) and the mapping of errors to
 * `isError` results. A failing tool never throws out. Every tool's call path is also kept in `ctx.handlers`, so that
 * `route` runs its plans through exactly what a client's call would run.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { UnknownFileError } from '../../../engine/src/index.js';
import { DEFAULT_MAX_TOKENS, fitToBudget, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from '../budget.js';
import type { Project, ServerContext } from '../context.js';
import { logError } from '../log.js';
import { PolicyError, enforcePolicy } from '../policy.js';
import { AccessDeniedError, errorResult, okResult, ToolInputError } from '../result.js';
import { HINTS, SEARCH_HINTS, TOOL_TEXT } from '../texts.js';

export type ToolName = keyof typeof TOOL_TEXT;

export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: ToolName;
  /** load upfront in Claude Code (`_meta["anthropic/alwaysLoad"]`) instead of behind its tool search */
  alwaysLoad?: boolean;
  /** the answer budget when the call gives no max_tokens (default DEFAULT_MAX_TOKENS) */
  maxTokens?: number;
  /** how to ask for less when the whole answer is over the largest budget (budget.rest), e.g. 'max_depth: 1' */
  narrower?: string;
  input: I;
  output: O;
  run: (project: Project, args: z.infer<z.ZodObject<I>>, call: CallInfo) => Promise<z.infer<z.ZodObject<O>>> | z.infer<z.ZodObject<O>>;
  /** default READ_ONLY; tools that write pass their own (readOnlyHint: false, destructiveHint where they delete or overwrite) */
  annotations?: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
}

/** What a run gets besides its arguments: the answer's token budget, and the MCP session (HTTP transports pass
 * `extra.sessionId`; stdio has one session, undefined). */
export interface CallInfo {
  maxTokens: number;
  sessionId?: string;
}

/** Generic parameters every tool takes; undescribed on purpose (SERVER_INSTRUCTIONS explains them once). */
export const GENERIC_INPUT = {
  root: z.string().max(4096).optional(),
  max_tokens: z.number().int().min(MIN_MAX_TOKENS).max(MAX_MAX_TOKENS).optional(),
};

/** read-only and closed-world; `destructiveHint`/`idempotentHint` only mean something for tools that write (MCP spec) */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function describeError(error: unknown): { message: string; hint?: string } {
  if (error instanceof ToolInputError) return { message: error.message, hint: error.hint };
  if (error instanceof UnknownFileError) return { message: error.message, hint: HINTS.unknownFile };
  return { message: `internal error: ${(error as Error)?.message ?? String(error)}`, hint: 'This is a bug in the gsd MCP server; please report it.' };
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(server: McpServer, ctx: ServerContext, spec: ToolSpec<I, O>): RegisteredTool {
  const text = TOOL_TEXT[spec.name];
  const inputSchema = { ...spec.input, ...GENERIC_INPUT };
  const inputObject = z.object(inputSchema);
  const outputObject = z.object(spec.output);
  const call = async (args: Record<string, unknown>, given?: Project, sessionId?: string): Promise<CallToolResult> => {
    const started = performance.now();
    let project: Project | null = null;
    const { root, max_tokens, ...rest } = args as { root?: string; max_tokens?: number } & Record<string, unknown>;
    try {
      project = given ?? (await ctx.project(root));
      enforcePolicy(project.config(), project.root, spec.name, rest);
      const wait = ctx.rateLimited(project, spec.name);
      if (wait !== null) throw new PolicyError(`rate limit of ${spec.name} reached for this session; retry in ${wait} s`, 'See "mcp.rateLimitPerMinute" in .planning/config.json or the GSD config.json.', 'rate', wait);
      const maxTokens = max_tokens ?? spec.maxTokens ?? DEFAULT_MAX_TOKENS;
      const out = (await spec.run(project, rest as z.infer<z.ZodObject<I>>, { maxTokens, sessionId })) as Record<string, unknown>;
      let shaped = fitToBudget(out, maxTokens, { tool: spec.name, narrower: spec.narrower });
      if (shaped.truncated && !outputObject.safeParse(shaped.value).success) {
        logError(`${spec.name}: the answer shaped to ${maxTokens} tokens broke the output shape; sent whole`);
        shaped = { value: out, truncated: false, tokens: 0 };
      }
      const ms = performance.now() - started;
      project.audit({ tool: spec.name, args: rest, ok: true, ms: Math.round(ms * 100) / 100 });
      return okResult(shaped.value, ctx.timing ? { 'gsd/timing': { handlerMs: ms } } : undefined);
    } catch (error) {
      const { message, hint } = describeError(error);
      if (!(error instanceof ToolInputError) && !(error instanceof UnknownFileError)) logError(`${spec.name} failed`, error);
      // refusals are audited too: a `root` outside the session has no project of its own, so the session's records it
      const denied = error instanceof PolicyError ? error.denied : error instanceof AccessDeniedError ? 'outside' : undefined;
      if (!project && denied) project = await ctx.project().catch(() => null);
      project?.audit({ tool: spec.name, args, ok: false, error: message, ...(denied ? { denied } : {}), ms: Math.round((performance.now() - started) * 100) / 100 });
      return errorResult(message, hint);
    }
  };
  const handler = (args: Record<string, unknown>, extra?: { sessionId?: string }) => call(args, undefined, extra?.sessionId);
  // the registry: arguments checked as the SDK checks a client's, then the same call path
  ctx.handlers.set(spec.name, async (args, project) => {
    const parsed = inputObject.safeParse(args);
    if (!parsed.success) return errorResult(`invalid arguments for ${spec.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
    return call(parsed.data as Record<string, unknown>, project);
  });
  const tool = server.registerTool(
    spec.name,
    {
      title: text.title,
      description: text.description,
      inputSchema,
      outputSchema: spec.output,
      annotations: spec.annotations ?? READ_ONLY,
      _meta: { 'anthropic/searchHint': SEARCH_HINTS[spec.name] ?? text.title, ...(spec.alwaysLoad ? { 'anthropic/alwaysLoad': true } : {}) },
    },
    handler as never,
  );
  ctx.tools.set(spec.name, tool);
  return tool;
}
