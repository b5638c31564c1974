import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { normalizePhase, type RoadmapPhase } from '../adapters/roadmap.js';
import type { Project, ServerContext } from '../context.js';
import { cap, cappedSchema, clip, ToolInputError } from '../result.js';
import { HINTS } from '../texts.js';
import { defineTool } from './define.js';

export function phaseReport(project: Project, phaseArg?: string) {
  const roadmap = project.roadmap.phases();
  const dirs = project.phases.list();
  const state = project.roadmap.state();
  const missing: string[] = [];
  if (!state) missing.push(HINTS.noState);
  if (!dirs.length) missing.push(HINTS.noPhases);
  const numbers = [...new Set([...roadmap.map((p) => p.number), ...dirs.map((d) => d.number)])];
  const rows = numbers.map((n) => {
    const p: RoadmapPhase | undefined = roadmap.find((x) => x.number === n);
    const d = dirs.find((x) => x.number === n);
    const plans = d?.plans.length ?? 0;
    const done = d ? d.plans.filter((pl) => d.summaries.some((s) => s.plan === pl.plan)).length || Math.min(d.summaries.length, plans) : 0;
    const v = d?.verification ?? null;
    let status = p?.status ?? null;
    if (!status || status === 'not started') {
      if (v && /pass/i.test(v.status)) status = 'complete';
      else if (plans && done === plans) status = 'executed, not verified';
      else if (done) status = 'in progress';
      else if (plans) status = 'planned';
      else status = status ?? 'not started';
    }
    return {
      phase: n,
      name: p?.name ?? d?.slug ?? '',
      goal: clip(p?.goal ?? '', 240),
      status,
      plans_total: plans,
      plans_done: done,
      verification: v ? `${v.status}${v.score ? ` (${v.score})` : ''}` : null,
      requirements: p?.requirements ?? [],
      success_criteria: p?.successCriteria.map((s) => clip(s, 200)) ?? [],
      dir: d?.dir ?? null,
    };
  });
  const current = phaseArg ? normalizePhase(phaseArg) : state?.currentPhase ?? null;
  if (phaseArg && !rows.some((r) => r.phase === current)) {
    throw new ToolInputError(`phase ${phaseArg} is not in ROADMAP.md or .planning/phases/`, `Known phases: ${rows.map((r) => r.phase).join(', ') || 'none'}.`);
  }
  return { rows, current, state, missing };
}

const phaseRow = z.object({
  phase: z.string().describe('number'),
  name: z.string().describe('name'),
  goal: z.string().describe('goal'),
  status: z.string().describe('status'),
  plans_total: z.number().describe('plans'),
  plans_done: z.number().describe('plans with a summary'),
  verification: z.string().nullable().describe('VERIFICATION status'),
});

export function registerPhaseStatusTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'phase_status',
    input: { phase: z.string().max(20).optional().describe('phase number; default: current') },
    output: {
      current_phase: z.string().nullable().describe('current phase (STATE.md)'),
      state: z.record(z.string(), z.string()).describe('STATE.md fields'),
      detail: phaseRow
        .extend({
          requirements: z.array(z.string()).describe('requirement ids'),
          success_criteria: z.array(z.string()).describe('success criteria'),
          dir: z.string().nullable().describe('phase folder'),
        })
        .nullable()
        .describe('the asked or current phase'),
      phases: cappedSchema(phaseRow, 'all phases'),
      missing: z.array(z.string()).describe('missing documents and how to create them'),
    },
    run(project, args) {
      const r = phaseReport(project, args.phase);
      const detail = r.rows.find((x) => x.phase === r.current) ?? null;
      const stateFields: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.state?.fields ?? {})) stateFields[k] = clip(v, 160);
      for (const [k, v] of Object.entries(r.state?.frontmatter ?? {})) if ((typeof v !== 'object' || v === null) && !(k in stateFields)) stateFields[k] = clip(String(v), 160);
      const all = cap(r.rows.map(({ requirements: _r, success_criteria: _s, dir: _d, ...row }) => row));
      return { current_phase: r.current, state: stateFields, detail, phases: all, missing: r.missing };
    },
  });
}
