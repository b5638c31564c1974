/**
 * `evolve`: refinement candidates of the planning state, each applied with a recorded rollback (in the state
 * store's `evolve.applied`, under the project's lock) and undone on request. Detected:
 *
 * - `phase-without-plans:N` — the current (or next open) phase has no PLAN.md: apply writes its first plan (`plan`'s
 *   renderer); rollback deletes that file if it is unchanged.
 * - `state-behind:N` — STATE.md's "Plan: X of Y" is behind the phase's plans and summaries: apply rewrites that line
 *   and "Last activity"; rollback restores the previous STATE.md if nobody changed it since.
 * - `stale-leases` — leases that expired without being returned: apply returns them; rollback reopens them.
 * - `stuck-queue` — spawn items pending for more than a day: apply marks them skipped; rollback makes them pending.
 *
 * A rollback whose file changed since the apply is refused unless `force`. Everything written is inside `.planning/`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { newId, type GsdState } from '../../../engine/src/index.js';
import type { Project, ServerContext } from '../context.js';
import { padPhase, planningPath, writePlanningFile } from '../planning-files.js';
import { planning, stateStore } from '../planning.js';
import { currentPhase, roadmapOrEmpty, stateOrProblem } from '../planning-views.js';
import { ToolInputError } from '../result.js';
import { defineTool } from './define.js';
import { renderPlan } from './plan.js';

const STUCK_MS = 24 * 60 * 60 * 1000;
const MAX_STATE_MD = 256 * 1024;

export type Candidate = {
  id: string;
  kind: 'phase-without-plans' | 'state-behind' | 'stale-leases' | 'stuck-queue';
  phase: string | null;
  summary: string;
};

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function readPlanning(project: Project, rel: string): string | null {
  try {
    return readFileSync(planningPath(project, rel), 'utf8');
  } catch (error) {
    if (error instanceof ToolInputError) throw error;
    return null;
  }
}

/** STATE.md's "Plan: X of Y in current phase" line, and what it should say for the phase's plans and summaries. */
function statePlanLine(project: Project, phase: string) {
  const text = readPlanning(project, 'STATE.md');
  if (text === null || text.length > MAX_STATE_MD) return null;
  const m = /^Plan:\s*(\d+)\s+of\s+(\d+)(.*)$/m.exec(text);
  const dir = project.phases.list().find((d) => d.number === phase);
  if (!m || !dir) return null;
  const done = dir.summaries.length;
  const total = dir.plans.length;
  if (Number(m[1]) >= done && Number(m[2]) >= total) return null;
  return { text, line: m[0], want: `Plan: ${done} of ${total}${m[3] || ' in current phase'}`, done, total };
}

export async function detect(project: Project, now = Date.now()): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const phases = roadmapOrEmpty(project);
  const cur = currentPhase(project, phases);
  const dirs = project.phases.list();
  const open = phases.filter((p) => p.status !== 'complete');
  for (const p of [phases.find((x) => x.number === cur.number), open[0]].filter((x, i, a) => x && a.indexOf(x) === i)) {
    if (p && !dirs.find((d) => d.number === p.number)?.plans.length) {
      out.push({ id: `phase-without-plans:${p.number}`, kind: 'phase-without-plans', phase: p.number, summary: `phase ${p.number} (${p.name}) has no plan: write ${padPhase(p.number)}-01-PLAN.md from the roadmap and the intel` });
    }
  }
  if (cur.number) {
    const behind = statePlanLine(project, cur.number);
    if (behind) out.push({ id: `state-behind:${cur.number}`, kind: 'state-behind', phase: cur.number, summary: `STATE.md says "${behind.line.trim()}" but phase ${cur.number} has ${behind.done} summaries of ${behind.total} plans` });
  }
  const { state } = await stateOrProblem(project);
  const stale = state.leases.filter((l) => !l.returnedAt && Date.parse(l.expiresAt) <= now);
  if (stale.length) out.push({ id: 'stale-leases', kind: 'stale-leases', phase: null, summary: `${stale.length} lease(s) expired without being returned: ${stale.slice(0, 5).map((l) => l.taskId).join(', ')}` });
  const stuck = state.queue.filter((i) => i.status === 'pending' && now - Date.parse(i.enqueuedAt) > STUCK_MS);
  if (stuck.length) out.push({ id: 'stuck-queue', kind: 'stuck-queue', phase: null, summary: `${stuck.length} spawn item(s) pending for more than a day: ${stuck.slice(0, 5).map((i) => i.agent).join(', ')}` });
  return out;
}

type Applied = {
  id: string;
  appliedAt: string;
  candidateId: string;
  kind: Candidate['kind'];
  summary: string;
  file?: string;
  /** hash of the file as apply left it */
  afterSha?: string;
  /** the file before (STATE.md), to restore */
  before?: string;
  ids?: string[];
  rolledBackAt?: string;
};

/** Applies one candidate inside a state update, so the change and its rollback record land together. */
async function apply(project: Project, candidateId: string, force: boolean): Promise<Applied> {
  const found = (await detect(project)).find((c) => c.id === candidateId);
  if (!found && !force) throw new ToolInputError(`no candidate "${candidateId}" now`, 'Call evolve with action detect for the current candidates.');
  const c = found ?? { id: candidateId, kind: candidateId.split(':')[0] as Candidate['kind'], phase: candidateId.split(':')[1] ?? null, summary: candidateId };
  const plan = c.kind === 'phase-without-plans' ? await renderPlan(project, c.phase ?? '') : null;
  return (
    await planning(() =>
      stateStore(project).update((st: GsdState) => {
        const now = Date.now();
        const rec: Applied = { id: newId('E'), appliedAt: new Date(now).toISOString(), candidateId: c.id, kind: c.kind, summary: c.summary };
        if (c.kind === 'phase-without-plans' && plan) {
          writePlanningFile(project, plan.file, plan.text, { overwrite: false });
          Object.assign(rec, { file: plan.file, afterSha: sha(plan.text) });
        } else if (c.kind === 'state-behind') {
          const b = statePlanLine(project, c.phase ?? '');
          if (!b) throw new ToolInputError('STATE.md is no longer behind', 'Nothing to apply.');
          const date = new Date(now).toISOString().slice(0, 10);
          const next = b.text.replace(b.line, b.want).replace(/^Last activity:.*$/m, `Last activity: ${date} — plan count brought up to date by evolve`);
          writePlanningFile(project, 'STATE.md', next, { overwrite: true });
          Object.assign(rec, { file: 'STATE.md', before: b.text, afterSha: sha(next) });
        } else if (c.kind === 'stale-leases') {
          const stale = st.leases.filter((l) => !l.returnedAt && Date.parse(l.expiresAt) <= now);
          for (const l of stale) Object.assign(l, { returnedAt: rec.appliedAt, result: 'expired; returned by evolve' });
          rec.ids = stale.map((l) => l.id);
        } else if (c.kind === 'stuck-queue') {
          const stuck = st.queue.filter((i) => i.status === 'pending' && now - Date.parse(i.enqueuedAt) > STUCK_MS);
          for (const i of stuck) Object.assign(i, { status: 'skipped', closedAt: rec.appliedAt, note: 'pending for more than a day; skipped by evolve' });
          rec.ids = stuck.map((i) => i.id);
        } else throw new ToolInputError(`unknown candidate kind in "${candidateId}"`);
        st.evolve.applied.push(rec as unknown as GsdState['evolve']['applied'][number]);
        return rec;
      }),
    )
  ).result;
}

async function rollback(project: Project, id: string, force: boolean): Promise<Applied> {
  return (
    await planning(() =>
      stateStore(project).update((st: GsdState) => {
        const rec = st.evolve.applied.find((a) => a.id === id || a.candidateId === id) as unknown as Applied | undefined;
        if (!rec) throw new ToolInputError(`no applied change "${id}"`, 'Call evolve with action report for the applied ones.');
        if (rec.rolledBackAt) throw new ToolInputError(`${rec.id} was rolled back at ${rec.rolledBackAt}`);
        const now = new Date().toISOString();
        if (rec.file) {
          const current = readPlanning(project, rec.file);
          if (current !== null && sha(current) !== rec.afterSha && !force) {
            throw new ToolInputError(`.planning/${rec.file} changed since ${rec.id} was applied; it is left as it is`, 'Pass force: true to roll back anyway.');
          }
          if (rec.before !== undefined) writePlanningFile(project, rec.file, rec.before, { overwrite: true });
          else rmSync(planningPath(project, rec.file), { force: true });
        }
        const ids = new Set(rec.ids ?? []);
        if (rec.kind === 'stale-leases') {
          for (const l of st.leases) if (ids.has(l.id) && l.result === 'expired; returned by evolve') {
            delete l.returnedAt;
            delete l.result;
          }
        }
        if (rec.kind === 'stuck-queue') {
          for (const i of st.queue) if (ids.has(i.id) && i.status === 'skipped') {
            i.status = 'pending';
            delete i.closedAt;
            delete i.note;
          }
        }
        rec.rolledBackAt = now;
        return { ...rec };
      }),
    )
  ).result;
}

const rec = z.object({ id: z.string().describe('id'), summary: z.string().describe('what') }).passthrough();

export function registerEvolveTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'evolve',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    input: {
      action: z.enum(['detect', 'apply', 'rollback', 'report']).describe('action'),
      scope: z.string().max(40).optional().describe('kind or phase'),
      candidateId: z.string().max(80).optional().describe('candidate/applied id'),
      force: z.boolean().optional().describe('despite changes'),
    },
    output: { items: z.array(rec).describe('detect: candidates; else applied changes') },
    async run(project, args) {
      const inScope = (c: { kind: string; phase?: string | null; candidateId?: string; id: string }) =>
        !args.scope || c.kind === args.scope || c.phase === args.scope || (c.candidateId ?? c.id).endsWith(`:${args.scope}`);
      if (args.action === 'detect') return { items: (await detect(project)).filter(inScope) };
      if (args.action === 'report') {
        const { state } = await stateOrProblem(project);
        const applied = (state.evolve.applied as unknown as Applied[]).filter(inScope).slice(-50).map(({ before: _b, ...a }) => a);
        return { items: applied };
      }
      if (!args.candidateId?.trim()) throw new ToolInputError(`${args.action} needs candidateId`, args.action === 'apply' ? 'Call evolve with action detect first.' : 'Call evolve with action report first.');
      const r = args.action === 'apply' ? await apply(project, args.candidateId.trim(), args.force === true) : await rollback(project, args.candidateId.trim(), args.force === true);
      const { before: _before, ...shown } = r;
      return { items: [shown] };
    },
  });
}
