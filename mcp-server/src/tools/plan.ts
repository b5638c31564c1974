/**
 * `plan`: the first PLAN.md of a phase (`.planning/phases/NN-slug/NN-01-PLAN.md`), rendered from `templates/PLAN.md`
 * with the ROADMAP phase (goal, success criteria, requirements) and the intelligence: the files ranked for the goal
 * (phase_relevant_files' `relevantFiles`), their blast radius (`computeBlastRadius`), the conventions of their
 * folders (`folderConventions`, as codebase_patterns) and similar past work (`rankPastWork`). One task per success
 * criterion (at most 3), each on the ranked files that match it. A draft for gsd-planner to refine, valid by `validate`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import path from 'node:path';
import { z } from 'zod';
import { enqueuePlan, folderConventions, searchIntel, type IntelReader } from '../../../engine/src/index.js';
import { readTemplate } from '../adapters/assets.js';
import { contentWords, parseDoc, similarity, type Yaml } from '../adapters/markdown.js';
import { expandRepeated, fillPlaceholders, renderFrontmatter, templateRules } from '../adapters/templates.js';
import type { Project, ServerContext } from '../context.js';
import { padPhase, phaseFolder, roadmapPhase, writePlanningFile } from '../planning-files.js';
import { planning, stateStore } from '../planning.js';
import { clip, ToolInputError } from '../result.js';
import { computeBlastRadius } from './blast-radius.js';
import { defineTool } from './define.js';
import { phaseGoalText, relevantFiles } from './phase-relevant-files.js';
import { rankPastWork } from './similar-past-work.js';

const MAX_FILES = 5;
const MAX_TASKS = 3;

interface Ranked {
  path: string;
  purpose: string;
  exports: string[];
  dependents: number;
  tests: string[];
  risk: string;
}

function rankedFiles(project: Project, reader: IntelReader, files: Array<{ path: string; purpose?: string }>): Ranked[] {
  return files
    .filter((f) => reader.nodes.get(reader.byPath.get(f.path)!)?.type !== 'test')
    .slice(0, MAX_FILES)
    .map((f) => {
      const node = reader.nodes.get(reader.byPath.get(f.path)!)!;
      const br = computeBlastRadius(project, reader, { file: f.path, max_depth: 3, change_type: 'any' });
      return { path: f.path, purpose: f.purpose ?? node.purpose, exports: node.exports.map((e) => e.name), dependents: br.total, tests: br.tests.items, risk: br.risk };
    });
}

/** The ranked files a criterion is about (search hits among them), else the first one. */
function filesFor(reader: IntelReader, text: string, files: Ranked[]): Ranked[] {
  const hits = new Set(searchIntel(reader, text, { limit: 40 }).results.map((h) => h.path));
  const mine = files.filter((f) => hits.has(f.path));
  return mine.length ? mine.slice(0, 2) : files.slice(0, 1);
}

export async function renderPlan(project: Project, phase: string, extra = '') {
  const p = roadmapPhase(project, phase);
  const template = readTemplate('PLAN.md');
  if (!template) throw new ToolInputError('templates/PLAN.md of get-shit-done-cc was not found', 'Reinstall get-shit-done-cc (the templates ship with it).');
  const folder = phaseFolder(project, p);
  const goal = `${phaseGoalText(project, p.number)} ${extra}`.trim();
  const reader = await project.intel.open();
  const rel = await relevantFiles(project, goal, { exclude: p.number, limit: 12, purposes: true, blast: false });
  const files = rankedFiles(project, reader, rel.files);
  let past: ReturnType<typeof rankPastWork> = [];
  try {
    past = rankPastWork(project, goal, { exclude: p.number }).slice(0, 2);
  } catch {
    // no past work
  }
  const folders = [...new Set(files.map((f) => path.posix.dirname(f.path)))].slice(0, 3);
  const conventions = folders.map((d) => {
    const c = folderConventions(reader, d);
    return `\`${d}/\` (${c.role}): file names ${c.naming}, exports ${c.exports}; ${c.tests}`;
  });
  const criteria = p.successCriteria.length ? p.successCriteria : [p.goal || p.name];
  const groups: string[][] = criteria.slice(0, MAX_TASKS).map((c) => [c]);
  if (criteria.length > MAX_TASKS) groups[MAX_TASKS - 1].push(...criteria.slice(MAX_TASKS));
  let reqTexts: Array<{ id: string; words: string[] }> = [];
  try {
    reqTexts = project.requirements.read().filter((r) => p.requirements.includes(r.id)).map((r) => ({ id: r.id, words: contentWords(r.text) }));
  } catch {
    // no REQUIREMENTS.md: tasks name every id of the phase
  }
  /** the phase's requirements a criterion is about (the most similar ones), else all of them */
  const reqsFor = (text: string) => {
    const scored = reqTexts.map((r) => ({ id: r.id, s: similarity(contentWords(text), r.words) })).filter((r) => r.s >= 0.5);
    return (scored.length ? scored.map((r) => r.id) : p.requirements).join(', ');
  };
  const tasks = groups.map((g) => {
    const mine = files.length ? filesFor(reader, g.join(' '), files) : [];
    const tests = [...new Set(mine.flatMap((f) => f.tests))].slice(0, 4);
    const where = mine.map((f) => `\`${f.path}\`${f.purpose ? ` (${clip(f.purpose, 80)})` : ''}`).join(', ');
    const risky = mine.filter((f) => f.dependents > 0).map((f) => `\`${f.path}\` has ${f.dependents} dependent(s), risk ${f.risk}`);
    const reqs = reqsFor(g.join(' '));
    return {
      TASK_NAME: clip(g[0], 90),
      FILE_1: mine.map((f) => f.path).join(', ') || 'to be chosen by the planner',
      TASK_ACTION: `Make ${g.length > 1 ? 'these' : 'this'} true: ${g.map((c) => `"${c}"`).join('; ')}${reqs ? ` (${reqs})` : ''}.${where ? ` Start in ${where}.` : ''}${risky.length ? ` ${risky.join('; ')}: call blast_radius before changing an export.` : ''}`,
      TASK_VERIFY: tests.length ? `Run the tests that reach these files: ${tests.map((t) => `\`${t}\``).join(', ')}.` : `Add a test that shows ${clip(g[0], 80)}, and run it.`,
      TASK_DONE: `${g.map((c) => `"${clip(c, 80)}"`).join(' and ')} hold${g.length > 1 ? '' : 's'}, and the tests pass.`,
    };
  });
  const links: Array<Record<string, Yaml>> = [];
  const chosen = new Set(files.map((f) => f.path));
  for (const f of files) {
    for (const e of reader.out.get(reader.byPath.get(f.path)!) ?? []) {
      const to = reader.nodes.get(e.target)?.path;
      if (to && chosen.has(to) && !links.some((l) => l.from === f.path && l.to === to)) links.push({ from: f.path, to, via: e.names.length ? `import { ${e.names.slice(0, 3).join(', ')} }` : 'import' });
    }
  }
  const pad = padPhase(p.number);
  const planNo = '01';
  const frontmatter = renderFrontmatter(
    template,
    {
      phase: folder.name,
      plan: planNo,
      files_modified: files.map((f) => f.path),
      requirements: p.requirements,
      must_haves: {
        truths: criteria,
        artifacts: files.slice(0, 3).map((f) => ({ path: f.path, provides: f.exports.slice(0, 4).join(', ') || clip(f.purpose, 60) || 'changes for this phase' })),
        key_links: links.slice(0, 4),
      },
    },
    {},
  );
  const taskRule = templateRules(template).headings.find((h) => h.repeated);
  let body = parseDoc(template).body.replace(/<!--[\s\S]*?-->\n?/g, '');
  if (taskRule) body = expandRepeated(body, taskRule, tasks);
  const pastText = past.length
    ? past.map((w) => `phase ${w.phase} ${w.kind} \`${w.file}\`${w.decisions.length ? ` — decided: ${clip(w.decisions.slice(0, 2).join('; '), 140)}` : ''}${w.lessons.length ? ` — learned: ${clip(w.lessons[0], 100)}` : ''}`).join('; ')
    : 'none found';
  body = fillPlaceholders(body, {
    PHASE: p.number,
    PLAN: planNo,
    PLAN_TITLE: p.name || `Phase ${p.number}`,
    OBJECTIVE: [p.goal || p.name, extra ? `\n\n${extra.trim()}` : ''].join(''),
    RELEVANT_FILES: files.length ? files.map((f) => `\`${f.path}\` (${f.dependents} dependent(s))`).join(', ') : 'none ranked (no indexed file matches the goal yet)',
    PAST_WORK: pastText,
    CONVENTIONS: conventions.join('; ') || 'see `mcp__gsd__codebase_patterns`',
    PLAN_CHECK: criteria.map((c) => `"${c}" holds (check with verify_behavior)`),
    PHASE_DIR: folder.name,
    PHASE_PAD: pad,
  });
  return { phase: p, folder, file: `${folder.rel}/${pad}-${planNo}-PLAN.md`, text: `${frontmatter}${body.replace(/^\n+/, '\n').replace(/\n{3,}/g, '\n\n').replace(/\s*$/, '\n')}`, files, tasks: tasks.length };
}

export function registerPlanTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'plan',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    input: {
      phase: z.string().min(1).max(20).describe('ROADMAP phase, e.g. 2'),
      context: z.string().max(4000).optional().describe('extra guidance'),
      auto_spawn: z.boolean().optional().describe('queue plan_phase agents'),
      skip_research: z.boolean().optional().describe('spawn option'),
      skip_verify: z.boolean().optional().describe('spawn option'),
      has_research: z.boolean().optional().describe('spawn option'),
      overwrite: z.boolean().optional().describe('replace the plan'),
    },
    output: {
      file: z.string().describe('plan written'),
      replaced: z.boolean().describe('an old plan was replaced'),
      files: z.array(z.string()).describe('files_modified'),
      spawn: z.array(z.object({ order: z.number().describe('order'), stage: z.string().describe('stage'), mode: z.string().describe('mode'), agent: z.string().describe('agent'), id: z.string().describe('queue id') })).describe('queued agents'),
    },
    async run(project, args) {
      const r = await renderPlan(project, args.phase, args.context ?? '');
      const write = () => writePlanningFile(project, r.file, r.text, { overwrite: args.overwrite === true }).replaced;
      if (!args.auto_spawn) return { file: `.planning/${r.file}`, replaced: write(), files: r.files.map((f) => f.path), spawn: [] };
      // queue and file together: the plan is written inside the state update, so a refused enqueue writes no plan
      // and a failed write queues nothing
      const options = { skipResearch: args.skip_research === true, skipVerify: args.skip_verify === true, hasResearch: args.has_research === true };
      const { items, replaced } = (
        await planning(() =>
          stateStore(project).update((st) => {
            const queued = enqueuePlan(st, 'plan_phase', options, Date.now(), { phase: r.phase.number, plan: `.planning/${r.file}` });
            return { items: queued, replaced: write() };
          }),
        )
      ).result;
      const spawn = items.map((i) => ({ order: i.order, stage: i.stage, mode: i.mode, agent: i.agent, id: i.id }));
      return { file: `.planning/${r.file}`, replaced, files: r.files.map((f) => f.path), spawn };
    },
  });
}
