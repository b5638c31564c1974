/** Prompts that build the context a GSD agent needs for one phase, from the same functions the tools use. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Project, ServerContext } from './context.js';
import { describeError } from './tools/define.js';
import { computeBlastRadius } from './tools/blast-radius.js';
import { phaseGoalText, relevantFiles } from './tools/phase-relevant-files.js';
import { phaseReport } from './tools/phase-status.js';
import { requirementReport } from './tools/requirement-status.js';
import { rankPastWork } from './tools/similar-past-work.js';
import { PROMPT_TEXT } from './texts.js';

type Role = 'planner' | 'executor' | 'verifier';

async function section(title: string, body: () => Promise<string[]> | string[]): Promise<string> {
  try {
    const lines = await body();
    return `## ${title}\n\n${lines.length ? lines.join('\n') : '_none_'}\n`;
  } catch (error) {
    const { message, hint } = describeError(error);
    return `## ${title}\n\n_${message}${hint ? ` ${hint}` : ''}_\n`;
  }
}

export async function buildAgentContext(project: Project, role: Role, phaseArg: string): Promise<string> {
  const parts: string[] = [];
  let phase = phaseArg;
  parts.push(
    await section(`Phase ${phaseArg}`, () => {
      const r = phaseReport(project, phaseArg);
      const d = r.rows.find((x) => x.phase === r.current)!;
      phase = d.phase;
      return [
        `**${d.name}** — ${d.status}; plans ${d.plans_done}/${d.plans_total}${d.verification ? `; verification ${d.verification}` : ''}`,
        `Goal: ${d.goal || '_not stated_'}`,
        ...(d.success_criteria.length ? ['Success criteria:', ...d.success_criteria.map((s, i) => `${i + 1}. ${s}`)] : []),
      ];
    }),
  );
  parts.push(
    await section('Requirements', () =>
      requirementReport(project)
        .rows.filter((r) => r.phase === phase)
        .map((r) => `- ${r.id} [${r.state}] ${r.text}`),
    ),
  );
  const dir = project.phases.list().find((d) => d.number === phase);
  if (role === 'planner') {
    parts.push(
      await section('Relevant files', async () => {
        const r = await relevantFiles(project, phaseGoalText(project, phase), { exclude: phase, limit: 12, purposes: true, blast: true });
        return r.files.map((f) => `- \`${f.path}\` — ${f.purpose ?? ''} (${f.dependents?.transitive ?? 0} dependents)`);
      }),
    );
    parts.push(
      await section('Similar past work', () =>
        rankPastWork(project, phaseGoalText(project, phase), { exclude: phase })
          .slice(0, 4)
          .map((w) => `- ${w.title} (${w.file}, similarity ${w.score})${w.decisions.length ? `; decisions: ${w.decisions.slice(0, 2).join('; ')}` : ''}`),
      ),
    );
  }
  if (role === 'executor') {
    parts.push(await section('Plans', () => (dir?.plans ?? []).map((p) => `- ${p.file}: ${p.objective} — modifies ${p.filesModified.join(', ') || '?'}`)));
    parts.push(
      await section('Blast radius of the files to modify', async () => {
        const reader = await project.intel.open();
        const files = [...new Set((dir?.plans ?? []).flatMap((p) => p.filesModified))].filter((f) => reader.byPath.has(f)).slice(0, 8);
        return files.map((f) => {
          const b = computeBlastRadius(project, reader, { file: f, max_depth: 3, change_type: 'any' });
          return `- \`${f}\`: ${b.total} dependents, risk ${b.risk}; tests: ${b.tests.items.slice(0, 3).join(', ') || 'none'}`;
        });
      }),
    );
  }
  if (role === 'verifier') {
    parts.push(
      await section('Must-haves', () =>
        (dir?.plans ?? []).flatMap((p) => [...p.mustHaves.truths.map((t) => `- truth: ${t}`), ...p.mustHaves.artifacts.map((a) => `- artifact: ${a}`), ...p.mustHaves.keyLinks.map((k) => `- link: ${k}`)]),
      ),
    );
    parts.push(
      '## How to verify\n\nFor each artifact call `verify_artifact`; for each truth call `verify_behavior` (status evidence_found|partial|no_evidence — lexical evidence, read the locations and run the tests before calling anything verified).\n',
    );
  }
  const intro = {
    planner: 'You are the GSD planner. Plan this phase from the context below; call the gsd tools (blast_radius, file_context) for detail.',
    executor: 'You are the GSD executor. Execute the plans of this phase; check blast_radius before editing shared files.',
    verifier: 'You are the GSD verifier. Verify this phase against its must-haves and success criteria, with evidence.',
  }[role];
  return `${intro}\n\n${parts.join('\n')}`;
}

export function registerPrompts(server: McpServer, ctx: ServerContext): void {
  for (const role of ['planner', 'executor', 'verifier'] as const) {
    server.registerPrompt(
      `spawn-${role}`,
      { title: `Spawn ${role}`, description: PROMPT_TEXT[role], argsSchema: { phase: z.string().max(20).describe(PROMPT_TEXT.phaseArg) } },
      async ({ phase }) => {
        let text: string;
        try {
          text = await buildAgentContext(await ctx.project(), role, phase);
        } catch (error) {
          const { message, hint } = describeError(error);
          text = `${message}${hint ? `\n${hint}` : ''}`;
        }
        return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
      },
    );
  }
}
