import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { contentWords, similarity } from '../adapters/markdown.js';
import type { Project, ServerContext } from '../context.js';
import { cap, clip, MissingDocumentError, SAFETY_CAP } from '../result.js';
import { HINTS } from '../texts.js';
import { defineTool } from './define.js';

export interface PastWork {
  phase: string;
  kind: 'phase' | 'plan' | 'summary';
  file: string;
  title: string;
  words: string[];
  decisions: string[];
  lessons: string[];
  files: string[];
}

/** Every past phase, plan and summary of the project as comparable items. */
export function pastWork(project: Project): PastWork[] {
  const dirs = project.phases.list();
  let roadmap: ReturnType<Project['roadmap']['phases']> = [];
  try {
    roadmap = project.roadmap.phases();
  } catch {
    // phases without a roadmap still count
  }
  if (!dirs.length && !roadmap.length) throw new MissingDocumentError('no past work: .planning/phases/ and ROADMAP.md are missing', HINTS.noPhases);
  const items: PastWork[] = [];
  for (const p of roadmap) {
    const dir = dirs.find((d) => d.number === p.number);
    const files = dir ? [...new Set([...dir.plans.flatMap((x) => x.filesModified), ...dir.summaries.flatMap((s) => s.files)])] : [];
    items.push({
      phase: p.number,
      kind: 'phase',
      file: dir?.dir ?? '.planning/ROADMAP.md',
      title: `Phase ${p.number}: ${p.name}${p.goal ? ` — ${p.goal}` : ''}`,
      words: contentWords(`${p.name} ${p.goal} ${p.successCriteria.join(' ')} ${dir?.context ?? ''}`),
      decisions: dir?.summaries.flatMap((s) => s.decisions) ?? [],
      lessons: dir?.summaries.flatMap((s) => s.lessons) ?? [],
      files,
    });
  }
  for (const d of dirs) {
    for (const plan of d.plans) {
      items.push({ phase: d.number, kind: 'plan', file: plan.file, title: `Plan ${plan.plan}: ${plan.objective}`, words: contentWords(`${d.slug} ${plan.objective} ${plan.mustHaves.truths.join(' ')}`), decisions: [], lessons: [], files: plan.filesModified });
    }
    for (const s of d.summaries) {
      items.push({ phase: d.number, kind: 'summary', file: s.file, title: `Summary ${s.plan}: ${s.oneLiner}`, words: contentWords(`${d.slug} ${s.oneLiner} ${s.text}`), decisions: s.decisions, lessons: s.lessons, files: s.files });
    }
  }
  return items;
}

export function rankPastWork(project: Project, goal: string, options: { exclude?: string } = {}): Array<PastWork & { score: number }> {
  const q = contentWords(goal);
  return pastWork(project)
    .filter((w) => w.phase !== options.exclude)
    .map((w) => ({ ...w, score: similarity(q, w.words) }))
    .filter((w) => w.score > 0)
    .sort((a, b) => b.score - a.score || (a.file < b.file ? -1 : 1));
}

export function registerSimilarPastWorkTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'similar_past_work',
    input: {
      current_goal: z.string().min(1).max(2000).describe('what you are about to do'),
      max_results: z.number().int().min(1).max(SAFETY_CAP).optional().describe('default: all the budget holds'),
    },
    output: {
      total: z.number().describe('matching items'),
      truncated: z.boolean().describe('more than returned'),
      items: z
        .array(
          z.object({
            phase: z.string().describe('phase number'),
            kind: z.enum(['phase', 'plan', 'summary']).describe('item kind'),
            file: z.string().describe('document'),
            title: z.string().describe('title'),
            score: z.number().describe('similarity 0-1'),
            decisions: z.array(z.string()).describe('decisions'),
            lessons: z.array(z.string()).describe('deviations, issues, lessons'),
            files: z.array(z.string()).describe('files touched'),
          }),
        )
        .describe('most similar first'),
    },
    run(project, args) {
      const ranked = cap(rankPastWork(project, args.current_goal), args.max_results ?? SAFETY_CAP);
      return {
        total: ranked.total,
        truncated: ranked.truncated,
        items: ranked.items.map((w) => ({
          phase: w.phase,
          kind: w.kind,
          file: w.file,
          title: clip(w.title, 200),
          score: w.score,
          decisions: w.decisions.map((d) => clip(d, 200)),
          lessons: w.lessons.map((d) => clip(d, 200)),
          files: w.files,
        })),
      };
    },
  });
}
