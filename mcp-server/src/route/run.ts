/**
 * Runs a plan through the server's tool registry (`ctx.handlers`, filled by defineTool): each step is the same call
 * a client would make, checks and audit included. A step that fails is reported; a step that needs it (`use`) is
 * reported as skipped; every other step still runs. A tool that is not registered is a failed step, not a crash.
 */
import { MAX_MAX_TOKENS } from '../budget.js';
import type { Project, ToolHandler } from '../context.js';
import type { Plan, PlanStep } from './plan.js';

export interface StepResult {
  id: string;
  tool: string;
  ok: boolean;
  data?: Record<string, unknown>;
  error?: string;
}

function at(value: unknown, field: string): unknown {
  let v = value;
  for (const k of field.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

function pick(data: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return data;
  const out: Record<string, unknown> = {};
  for (const f of [...fields, 'truncated']) if (f in data) out[f] = data[f];
  return out;
}

export async function runPlan(plan: Plan, project: Project, handlers: ReadonlyMap<string, ToolHandler>, maxTokens: number): Promise<StepResult[]> {
  const results = new Map<string, StepResult>();
  // each step's share of the answer; route shapes the whole answer again at the end
  const share = Math.max(300, Math.floor((maxTokens * 0.85) / Math.max(1, plan.steps.length)));
  for (const step of plan.steps) results.set(step.id, await runStep(step, results, project, handlers, share));
  return [...results.values()];
}

async function runStep(step: PlanStep, done: ReadonlyMap<string, StepResult>, project: Project, handlers: ReadonlyMap<string, ToolHandler>, share: number): Promise<StepResult> {
  const base = { id: step.id, tool: step.tool };
  // a step whose answer route picks fields from is asked whole (up to the largest budget): the fields it drops must not
  // take the room of the ones it keeps; route's own budget then cuts the picked answer (define.ts)
  const args: Record<string, unknown> = { ...step.args, max_tokens: step.pick ? MAX_MAX_TOKENS : share };
  if (step.use) {
    const dep = done.get(step.use.step);
    if (!dep?.ok) return { ...base, ok: false, error: `skipped: it needs step "${step.use.step}", which failed` };
    const value = at(dep.data, step.use.field);
    if (value === undefined || value === null || value === '') return { ...base, ok: false, error: `skipped: step "${step.use.step}" found nothing to use as ${step.use.as}` };
    args[step.use.as] = value;
    step.args = { ...step.args, [step.use.as]: value };
  }
  const handler = handlers.get(step.tool);
  if (!handler) return { ...base, ok: false, error: `${step.tool} is not a tool of this server` };
  try {
    const r = await handler(args, project);
    if (r.isError) return { ...base, ok: false, error: r.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').trim() };
    return { ...base, ok: true, data: pick((r.structuredContent ?? {}) as Record<string, unknown>, step.pick) };
  } catch (error) {
    return { ...base, ok: false, error: `internal error: ${(error as Error).message}` };
  }
}
