import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { dependentCounts, searchIntel } from '../../../engine/src/index.js';
import { contentWords } from '../adapters/markdown.js';
import { requirementState } from '../adapters/requirements.js';
import { normalizePhase } from '../adapters/roadmap.js';
import type { Project, ServerContext } from '../context.js';
import { clip, SAFETY_CAP, ToolInputError } from '../result.js';
import { defineTool } from './define.js';
import { rankPastWork } from './similar-past-work.js';

/** The goal text of a roadmap phase: name, goal, success criteria and the texts of its requirements. */
export function phaseGoalText(project: Project, phase: string): string {
  const n = normalizePhase(phase);
  const p = project.roadmap.phases().find((x) => x.number === n);
  if (!p) throw new ToolInputError(`phase ${phase} is not in ROADMAP.md`, 'Call phase_status for the list of phases.');
  let reqText = '';
  try {
    const reqs = project.requirements.read();
    reqText = reqs
      .filter((r) => p.requirements.includes(r.id) || r.phase === n)
      .filter((r) => requirementState(r) !== 'deferred')
      .map((r) => r.text)
      .join(' ');
  } catch {
    // requirements are optional here
  }
  return `${p.name} ${p.goal} ${p.successCriteria.join(' ')} ${reqText}`.trim();
}

export interface RelevantFile {
  path: string;
  score: number;
  reasons: string[];
  purpose?: string;
  dependents?: { direct: number; transitive: number };
}

export async function relevantFiles(project: Project, goal: string, options: { exclude?: string; limit: number; purposes: boolean; blast: boolean }) {
  const reader = await project.intel.open();
  const words = [...new Set(contentWords(goal))].slice(0, 12);
  const byPath = new Map<string, RelevantFile>();
  if (words.length) {
    for (const h of searchIntel(reader, words.join(' '), { limit: SAFETY_CAP }).results) {
      byPath.set(h.path, { path: h.path, score: h.score, reasons: [`matches ${h.matches.slice(0, 3).join(', ')}`] });
    }
  }
  const similar: Array<{ phase: string; score: number }> = [];
  try {
    const seen = new Set<string>();
    for (const w of rankPastWork(project, goal, { exclude: options.exclude })) {
      if (w.score < 0.2 || seen.size >= 3) break;
      if (seen.has(w.phase)) continue;
      seen.add(w.phase);
      similar.push({ phase: w.phase, score: w.score });
      for (const f of w.files) {
        if (!reader.byPath.has(f)) continue;
        const e = byPath.get(f) ?? { path: f, score: 0, reasons: [] };
        e.score += Math.round(w.score * 500) / 100;
        e.reasons.push(`touched by similar phase ${w.phase}`);
        byPath.set(f, e);
      }
    }
  } catch {
    // no past work yet
  }
  const ranked = [...byPath.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  const items = ranked.slice(0, options.limit).map((f) => {
    const id = reader.byPath.get(f.path)!;
    return {
      ...f,
      score: Math.round(f.score * 100) / 100,
      ...(options.purposes ? { purpose: clip(reader.nodes.get(id)?.purpose ?? '', 140) } : {}),
      ...(options.blast ? { dependents: dependentCounts(reader, id) } : {}),
    };
  });
  return { words, total: ranked.length, truncated: ranked.length > options.limit, files: items, similar_phases: similar };
}

export function registerPhaseRelevantFilesTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'phase_relevant_files',
    input: {
      phase_goal: z.string().max(4000).optional().describe('goal text; or give phase'),
      phase: z.string().max(20).optional().describe('ROADMAP phase number, e.g. 2'),
      include_purposes: z.boolean().default(true).describe('with purposes'),
      include_blast_radius: z.boolean().default(false).describe('with dependent counts'),
      max_results: z.number().int().min(1).max(SAFETY_CAP).optional().describe('default: all the budget holds'),
    },
    output: {
      goal: z.string().describe('goal text used'),
      terms: z.array(z.string()).describe('search terms'),
      total: z.number().describe('candidate files'),
      truncated: z.boolean().describe('more than returned'),
      files: z
        .array(
          z.object({
            path: z.string().describe('file'),
            score: z.number().describe('relevance'),
            reasons: z.array(z.string()).describe('why'),
            purpose: z.string().optional().describe('what it does'),
            dependents: z.object({ direct: z.number().describe('direct'), transitive: z.number().describe('transitive') }).optional().describe('dependent counts'),
          }),
        )
        .describe('ranked files'),
      similar_phases: z.array(z.object({ phase: z.string().describe('phase'), score: z.number().describe('similarity') })).describe('past phases used'),
    },
    async run(project, args) {
      if (!args.phase_goal?.trim() && !args.phase?.trim()) throw new ToolInputError('give phase_goal (text) or phase (a ROADMAP phase number)');
      const goal = args.phase_goal?.trim() || phaseGoalText(project, args.phase!);
      const r = await relevantFiles(project, goal, {
        exclude: args.phase ? normalizePhase(args.phase) : undefined,
        limit: args.max_results ?? SAFETY_CAP,
        purposes: args.include_purposes,
        blast: args.include_blast_radius,
      });
      return { goal: clip(goal, 300), terms: r.words, total: r.total, truncated: r.truncated, files: r.files, similar_phases: r.similar_phases };
    },
  });
}
