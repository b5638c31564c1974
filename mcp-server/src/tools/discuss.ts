/**
 * `discuss`: what /gsd:discuss-phase needs to talk a phase through: its goal and success criteria, its requirements,
 * the open questions (the phase's CONTEXT.md, and what the roadmap leaves open), the decisions so far (CONTEXT.md,
 * PROJECT.md, summaries of similar past phases) and the files the intelligence ranks for the goal (and topic).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { contentWords, findSection, listItems, parseDoc, plain, readText, sections, similarity } from '../adapters/markdown.js';
import { requirementState } from '../adapters/requirements.js';
import type { Project, ServerContext } from '../context.js';
import { phaseFolder, roadmapPhase } from '../planning-files.js';
import { clip, SAFETY_CAP } from '../result.js';
import { defineTool } from './define.js';
import { phaseGoalText, relevantFiles } from './phase-relevant-files.js';
import { rankPastWork } from './similar-past-work.js';

const real = (items: string[]) => items.map(plain).filter((x) => x && !/^\{\{.*\}\}$/.test(x) && !/^(none|n\/a|-)\.?$/i.test(x));

/** The phase's `NN-CONTEXT.md` (or `CONTEXT.md`): file, decisions, open questions, deferred items. */
export function phaseContext(project: Project, folderRel: string) {
  const dir = path.join(project.root, '.planning', folderRel);
  let name: string | undefined;
  try {
    name = readdirSync(dir).find((f) => /CONTEXT\.md$/i.test(f));
  } catch {
    // no folder yet
  }
  const text = name ? readText(path.join(dir, name)) : null;
  if (!name || text === null) return { file: null, decisions: [], questions: [], deferred: [] };
  const secs = sections(parseDoc(text).body);
  const items = (re: RegExp) => real(listItems(findSection(secs, re)?.text ?? ''));
  return { file: `.planning/${folderRel}/${name}`, decisions: items(/decision/i), questions: items(/open question|question/i), deferred: items(/deferred/i) };
}

export function registerDiscussTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'discuss',
    input: {
      phase: z.string().min(1).max(20).describe('ROADMAP phase, e.g. 2'),
      topic: z.string().max(500).optional().describe('narrow to a topic'),
    },
    output: {
      phase: z
        .object({
          number: z.string().describe('number'),
          name: z.string().describe('name'),
          goal: z.string().describe('goal'),
          success_criteria: z.array(z.string()).describe('criteria'),
          requirements: z.array(z.object({ id: z.string().describe('id'), text: z.string().describe('text'), state: z.string().describe('state') })).describe('its requirements'),
          context_file: z.string().nullable().describe('its CONTEXT.md, or null'),
        })
        .describe('the phase'),
      questions: z.array(z.string()).describe('open questions'),
      decisions: z.array(z.string()).describe('decisions so far'),
      files: z.array(z.object({ path: z.string().describe('file'), purpose: z.string().describe('purpose') })).describe('relevant files'),
    },
    async run(project, args) {
      const p = roadmapPhase(project, args.phase);
      const topic = args.topic?.trim() ?? '';
      const folder = phaseFolder(project, p);
      const context = phaseContext(project, folder.rel);
      let reqs: Array<{ id: string; text: string; state: string }> = [];
      const questions = [...context.questions];
      try {
        const all = project.requirements.read();
        reqs = all.filter((r) => p.requirements.includes(r.id) || r.phase === p.number).map((r) => ({ id: r.id, text: clip(r.text, 200), state: requirementState(r) }));
        for (const id of p.requirements) if (!all.some((r) => r.id === id)) questions.push(`${id} is named by the roadmap but not in REQUIREMENTS.md: what does it require?`);
      } catch {
        questions.push('There is no REQUIREMENTS.md: what must this phase deliver, testably?');
      }
      if (!p.goal) questions.push('The roadmap states no goal for this phase: what is it?');
      if (!p.successCriteria.length) questions.push('The roadmap lists no success criteria: what must be true when this phase is done?');
      const dep = /(\d+(?:\.\d+)*)/.exec(p.dependsOn)?.[1];
      if (dep) {
        const d = project.roadmap.phases().find((x) => x.number === dep);
        if (d && d.status !== 'complete') questions.push(`It depends on phase ${dep} (${d.name}), which is ${d.status ?? 'not marked complete'}: plan around it or wait?`);
      }
      const dir = project.phases.list().find((d) => d.number === p.number);
      const truths = new Set((dir?.plans ?? []).flatMap((x) => x.mustHaves.truths.map((t) => t.toLowerCase())));
      if (dir?.plans.length) for (const c of p.successCriteria) if (!truths.has(c.toLowerCase())) questions.push(`No plan has "${clip(c, 100)}" as a must-have yet: which plan covers it?`);
      const decisions = [...context.decisions];
      try {
        for (const d of project.project.read().decisions) decisions.push(`${d.decision}${d.rationale ? ` (${d.rationale})` : ''} — PROJECT.md`);
      } catch {
        // no PROJECT.md
      }
      const goal = `${phaseGoalText(project, p.number)} ${topic}`.trim();
      try {
        for (const w of rankPastWork(project, goal, { exclude: p.number }).filter((w) => w.kind === 'summary')) {
          for (const d of w.decisions) decisions.push(`${d} — phase ${w.phase}`);
        }
      } catch {
        // no past work
      }
      const q = contentWords(topic);
      const byTopic = <T extends string>(list: T[]) => (q.length ? [...list].sort((a, b) => similarity(q, contentWords(b)) - similarity(q, contentWords(a))) : list);
      let files: Array<{ path: string; purpose: string }> = [];
      try {
        files = (await relevantFiles(project, topic ? `${topic} ${goal}` : goal, { exclude: p.number, limit: SAFETY_CAP, purposes: true, blast: false })).files.map((f) => ({ path: f.path, purpose: f.purpose ?? '' }));
      } catch (error) {
        questions.push(`No codebase intelligence to ground this in (${(error as Error).message}).`);
      }
      return {
        phase: { number: p.number, name: p.name, goal: p.goal, success_criteria: p.successCriteria, requirements: reqs, context_file: context.file },
        questions: byTopic([...new Set(questions)]).map((x) => clip(x, 240)),
        decisions: byTopic([...new Set(decisions)]).map((x) => clip(x, 240)),
        files,
      };
    },
  });
}
