import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { requirementState } from '../adapters/requirements.js';
import type { Project, ServerContext } from '../context.js';
import { cap, clip, ToolInputError } from '../result.js';
import { defineTool } from './define.js';

const STATES = ['complete', 'in_progress', 'pending', 'blocked', 'deferred'] as const;

export function requirementReport(project: Project, id?: string) {
  const reqs = project.requirements.read();
  const dirs = project.phases.list();
  const rows = reqs.map((r) => {
    const plans = dirs.flatMap((d) => d.plans.filter((p) => p.requirements.includes(r.id)).map((p) => p.file));
    const done = dirs.flatMap((d) => d.summaries.filter((s) => s.requirementsCompleted.includes(r.id)).map((s) => s.file));
    const phaseDir = r.phase ? dirs.find((d) => d.number === r.phase) : undefined;
    let state = requirementState(r);
    if (state === 'pending' && done.length) state = 'in_progress';
    return {
      id: r.id,
      text: clip(r.text, 200),
      state,
      checked: r.checked,
      phase: r.phase,
      traced_status: r.tracedStatus,
      plans,
      summaries: done,
      verification: phaseDir?.verification ? `${phaseDir.verification.status}${phaseDir.verification.score ? ` (${phaseDir.verification.score})` : ''}` : null,
    };
  });
  if (id) {
    const want = id.trim().toUpperCase();
    const one = rows.filter((r) => r.id === want);
    if (!one.length) {
      const prefix = want.split('-')[0];
      const near = rows.filter((r) => r.id.startsWith(prefix)).map((r) => r.id);
      throw new ToolInputError(`requirement ${id} is not in REQUIREMENTS.md`, `Known ids: ${(near.length ? near : rows.map((r) => r.id)).slice(0, 15).join(', ') || 'none'}.`);
    }
    return { rows, selected: one };
  }
  return { rows, selected: rows };
}

export function registerRequirementStatusTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'requirement_status',
    input: { requirement_id: z.string().max(40).optional().describe('e.g. AUTH-03; omit for all') },
    output: {
      counts: z.object(Object.fromEntries(STATES.map((s) => [s, z.number().describe(s)])) as Record<(typeof STATES)[number], z.ZodNumber>).describe('requirements by state'),
      total: z.number().describe('requirements listed'),
      truncated: z.boolean().describe('more than returned'),
      requirements: z
        .array(
          z.object({
            id: z.string().describe('id'),
            text: z.string().describe('requirement'),
            state: z.enum(STATES).describe('derived state'),
            checked: z.boolean().nullable().describe('checkbox, null if none'),
            phase: z.string().nullable().describe('phase from traceability'),
            traced_status: z.string().nullable().describe('status as written'),
            plans: z.array(z.string()).describe('plans naming it'),
            summaries: z.array(z.string()).describe('summaries completing it'),
            verification: z.string().nullable().describe('phase verification'),
          }),
        )
        .describe('requirements'),
    },
    run(project, args) {
      const { rows, selected } = requirementReport(project, args.requirement_id);
      const counts = Object.fromEntries(STATES.map((s) => [s, rows.filter((r) => r.state === s).length])) as Record<(typeof STATES)[number], number>;
      const c = cap(selected);
      return { counts, total: c.total, truncated: c.truncated, requirements: c.items };
    },
  });
}
