/**
 * `route`: one question in plain language → a plan of calls to this server's own tools (route/plan.ts), run through
 * the tool registry (route/run.ts) and answered in one result; `mode: "plan"` returns the plan without running it.
 * Answers are cached (route/cache.ts) until the intel or the GSD documents change.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hasPendingJournal, type IntelReader } from '../../../engine/src/index.js';
import type { Project, ServerContext } from '../context.js';
import { inputsSignature, ResultCache } from '../route/cache.js';
import { FAMILIES } from '../route/families.js';
import { planQuestion } from '../route/plan.js';
import { runPlan, type StepResult } from '../route/run.js';
import { defineTool } from './define.js';

/** route's default answer budget: a typical answer stays well under it */
export const ROUTE_MAX_TOKENS = 2000;

/** fields in order of importance: a budget cut empties the last lists first (budget.ts) */
const routeOutput = {
  query: z.string().describe('the question'),
  mode: z.enum(['execute', 'plan']).describe('execute|plan'),
  family: z.enum(FAMILIES).describe('kind of question; search = no family matched'),
  matched: z.string().describe('words that decided the family'),
  subject: z
    .object({
      how: z.enum(['path', 'symbol', 'search', 'none']).describe('how the subject was found'),
      path: z.string().nullable().describe('best file'),
      symbol: z.string().nullable().describe('exported symbol named'),
      why: z.string().describe('why it matched'),
    })
    .nullable()
    .describe('what the question is about (code questions)'),
  results: z
    .array(
      z.object({
        id: z.string().describe('step id'),
        tool: z.string().describe('tool'),
        ok: z.boolean().describe('step succeeded'),
        data: z.record(z.string(), z.unknown()).optional().describe("the tool's answer (fields the question needs)"),
        error: z.string().optional().describe('why it failed or was skipped'),
      }),
    )
    .describe('one per step (execute mode)'),
  candidates: z
    .array(z.object({ path: z.string().describe('file'), symbol: z.string().nullable().describe('symbol'), why: z.string().describe('why it matched') }))
    .describe('other matches when several did, best first'),
  notes: z.array(z.string()).describe('ambiguity, fallbacks, failures'),
  plan: z
    .array(
      z.object({
        id: z.string().describe('step id'),
        tool: z.string().describe('tool called'),
        args: z.record(z.string(), z.unknown()).describe('its arguments'),
        uses: z.string().optional().describe('argument taken from an earlier step'),
        why: z.string().describe('what it answers'),
      }),
    )
    .describe('calls, in order'),
  cached: z.boolean().describe('answer from the cache'),
};

type RouteAnswer = z.infer<z.ZodObject<typeof routeOutput>>;

async function readerOf(project: Project): Promise<{ reader: IntelReader | null; error: string | null }> {
  try {
    return { reader: await project.intel.open(), error: null };
  } catch (error) {
    return { reader: null, error: (error as Error).message };
  }
}

export function registerRouteTool(server: McpServer, ctx: ServerContext) {
  const cache = new ResultCache<RouteAnswer>();
  return defineTool(server, ctx, {
    name: 'route',
    alwaysLoad: true,
    maxTokens: ROUTE_MAX_TOKENS,
    input: {
      query: z.string().min(1).max(1000).describe('the question in plain words'),
      mode: z.enum(['execute', 'plan']).default('execute').describe('plan: only return the plan'),
    },
    output: routeOutput,
    async run(project, args, call) {
      // case kept: "tQueue.ts" and "TQueue.ts" can be two files
      const key = `${project.root}\u0000${args.mode}\u0000${call.maxTokens}\u0000${args.query.trim().replace(/\s+/g, ' ')}`;
      // apply what the hooks recorded first, so the signature below is the one this answer is made from
      if (hasPendingJournal(project.root)) await readerOf(project);
      const before = inputsSignature(project.root);
      const hit = cache.get(key, before);
      if (hit) return { ...hit, cached: true };
      const { reader, error } = await readerOf(project);
      const plan = planQuestion(args.query, { reader, readerError: error, has: (t) => ctx.handlers.has(t) });
      const results: StepResult[] = args.mode === 'execute' ? await runPlan(plan, project, ctx.handlers, call.maxTokens) : [];
      for (const r of results) if (!r.ok) plan.notes.push(`step ${r.id} (${r.tool}) failed: ${r.error}`);
      const best = plan.subject?.candidates[0];
      const answer: RouteAnswer = {
        query: args.query,
        mode: args.mode,
        family: plan.family,
        matched: plan.matched,
        subject: plan.subject && best ? { how: plan.subject.how, path: best.path, symbol: best.symbol, why: best.why } : null,
        results,
        candidates: (plan.subject?.candidates ?? []).slice(1).map((c) => ({ path: c.path, symbol: c.symbol, why: c.why })),
        notes: plan.notes,
        plan: plan.steps.map((s) => ({ id: s.id, tool: s.tool, args: s.args, ...(s.use ? { uses: `${s.use.as} = ${s.use.step}.${s.use.field}` } : {}), why: s.why })),
        cached: false,
      };
      // stored only when nothing it was made from changed meanwhile (the drain of a pending journal counts)
      if (inputsSignature(project.root) === before) cache.set(key, before, answer);
      return answer;
    },
  });
}
