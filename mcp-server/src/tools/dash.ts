/**
 * `dash`: one dashboard of the project: the current phase, progress (phases and plans), requirements by state, the
 * active leases, the pending spawn queue, the skills, and how fresh the intel is. `format: text` renders it as a
 * short Markdown page (what /gsd:dashboard and /gsd:progress show); `json` gives the fields.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { activeLeases } from '../../../engine/src/index.js';
import { requirementState } from '../adapters/requirements.js';
import type { Project, ServerContext } from '../context.js';
import { currentPhase, intelFreshness, roadmapOrEmpty, stateOrProblem } from '../planning-views.js';
import { clip, SAFETY_CAP } from '../result.js';
import { defineTool } from './define.js';

const MAX_ROWS = SAFETY_CAP;

export async function dashboard(project: Project, now = Date.now()) {
  const phases = roadmapOrEmpty(project);
  const dirs = project.phases.list();
  const cur = currentPhase(project, phases);
  const curPhase = phases.find((p) => p.number === cur.number);
  const plans = dirs.reduce((n, d) => n + d.plans.length, 0);
  const summaries = dirs.reduce((n, d) => n + d.summaries.length, 0);
  const curDir = dirs.find((d) => d.number === cur.number);
  const requirements: Record<string, number> = { complete: 0, in_progress: 0, pending: 0, blocked: 0, deferred: 0 };
  let reqProblem: string | null = null;
  try {
    for (const r of project.requirements.read()) requirements[requirementState(r)]++;
  } catch (error) {
    reqProblem = (error as Error).message;
  }
  const { state, problem } = await stateOrProblem(project);
  const leases = activeLeases(state, now).map((l) => ({ id: l.id, task: l.taskId, scope: l.scope, holder: l.holder, expires: l.expiresAt }));
  const queue = state.queue.filter((i) => i.status === 'pending').sort((a, b) => a.order - b.order).map((i) => ({ id: i.id, intent: i.intent, agent: i.agent, stage: i.stage, order: i.order }));
  const skills = Object.values(state.skills).map((s) => ({ id: s.id, agents: Object.entries(state.bindings).filter(([, ids]) => ids.includes(s.id)).map(([a]) => a) }));
  const intel = await intelFreshness(project, now);
  return {
    phase: { number: cur.number, name: cur.name, goal: curPhase?.goal ?? '', plans: curDir?.plans.length ?? 0, done: curDir?.summaries.length ?? 0, verification: curDir?.verification?.status ?? null },
    progress: { phases: phases.length, phases_complete: phases.filter((p) => p.status === 'complete').length, plans, summaries },
    requirements,
    leases: leases.slice(0, MAX_ROWS),
    queue: queue.slice(0, MAX_ROWS),
    skills: skills.slice(0, MAX_ROWS),
    intel,
    problems: [problem, reqProblem].filter((x): x is string => x !== null),
    totals: { leases: leases.length, queue: queue.length, skills: skills.length },
  };
}

export function dashText(d: Awaited<ReturnType<typeof dashboard>>): string {
  const out = [
    `# GSD dashboard`,
    '',
    `**Phase**: ${d.phase.number ?? '—'}${d.phase.name ? ` ${d.phase.name}` : ''} — plans ${d.phase.done}/${d.phase.plans} done${d.phase.verification ? `, verification ${d.phase.verification}` : ''}`,
    d.phase.goal ? `**Goal**: ${clip(d.phase.goal, 200)}` : '',
    `**Progress**: ${d.progress.phases_complete}/${d.progress.phases} phases complete, ${d.progress.summaries}/${d.progress.plans} plans summarised`,
    `**Requirements**: ${Object.entries(d.requirements).map(([k, v]) => `${k.replace('_', ' ')} ${v}`).join(', ')}`,
    `**Intel**: ${d.intel.present ? `${d.intel.files} files, updated ${d.intel.age_minutes} min ago${d.intel.pending ? ', edits pending' : ''}` : 'none — run `get-shit-done-cc intel build`'}`,
    '',
    `## Leases (${d.totals.leases} active)`,
    ...(d.leases.length ? d.leases.map((l) => `- ${l.task} (${l.id}) by ${l.holder} until ${l.expires}: ${l.scope.join(', ')}`) : ['- none']),
    '',
    `## Spawn queue (${d.totals.queue} pending)`,
    ...(d.queue.length ? d.queue.map((q) => `- ${q.order}. ${q.agent} (${q.intent}, ${q.stage}) ${q.id}`) : ['- empty']),
    '',
    `## Skills (${d.totals.skills})`,
    ...(d.skills.length ? d.skills.map((s) => `- ${s.id}${s.agents.length ? ` → ${s.agents.join(', ')}` : ''}`) : ['- none registered']),
    ...(d.problems.length ? ['', '## Problems', ...d.problems.map((p) => `- ${p}`)] : []),
  ];
  return `${out.filter((l, i) => l !== '' || out[i - 1] !== '').join('\n')}\n`;
}

const obj = (what: string) => z.record(z.string(), z.unknown()).describe(what);
const rows = (what: string) => z.array(z.record(z.string(), z.unknown())).describe(what);

export function registerDashTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'dash',
    input: { format: z.enum(['text', 'json']).default('text').describe('text|json') },
    output: {
      text: z.string().optional().describe('dashboard (format text)'),
      data: z
        .object({
          phase: obj('current phase: number, name, goal, plans, done, verification'),
          progress: obj('phases, phases_complete, plans, summaries'),
          requirements: obj('counts by state'),
          leases: rows('active leases (first 20)'),
          queue: rows('pending spawns in order (first 20)'),
          skills: rows('skills and their agents (first 20)'),
          intel: obj('present, files, updated_at, age_minutes, pending, problem'),
          problems: z.array(z.string()).describe('problems'),
          totals: obj('leases, queue, skills'),
        })
        .optional()
        .describe('dashboard (format json)'),
    },
    async run(project, args) {
      const d = await dashboard(project);
      if (args.format === 'text') return { text: dashText(d) };
      return { data: d };
    },
  });
}
