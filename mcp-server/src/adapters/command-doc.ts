/**
 * The sections of a `/gsd:` command file: objective, context, process, constraints, tasks, success checks. Read from
 * `<objective>`-style blocks or headings of those names when the file has them, otherwise from its shape: the
 * frontmatter description is the objective, numbered `## N. Step` headings are the process (their titles the tasks),
 * "never/only/do not" sentences are constraints, and "next step/end with/report" sentences the success checks.
 */
import { parseDoc, plain, sections, type Section } from './markdown.js';
import { tagBlock } from './templates.js';

export interface CommandSections {
  objective: string;
  context: string[];
  process: string[];
  constraints: string[];
  tasks: string[];
  success: string[];
}

export interface CommandDoc {
  description: string;
  argumentHint: string;
  allowedTools: string[];
  sections: CommandSections;
}

const KINDS: Array<[keyof CommandSections, RegExp, string[]]> = [
  ['objective', /^(objective|goal|purpose)$/i, ['objective']],
  ['context', /^(context|inputs?|preconditions|load)/i, ['context', 'execution_context']],
  ['process', /^(process|steps|workflow)$/i, ['process']],
  ['constraints', /^(constraints|rules|guardrails)$/i, ['constraints']],
  ['tasks', /^tasks?$/i, ['tasks']],
  ['success', /^(success|done when|verification)/i, ['success_criteria', 'success_checks', 'success']],
];

const MAX = 12;
const clipLine = (s: string) => (s.length > 240 ? `${s.slice(0, 239)}…` : s);

/** `mcp__gsd__x` survives plain() (which reads `__` as emphasis) */
const unmd = (t: string) => plain(t.replace(/mcp__(\w+?)__(\w+)/g, 'mcp\u0000$1\u0000$2')).replace(/\u0000/g, '__');

/** the list items and paragraphs of a block, each folded to one line */
function lines(text: string): string[] {
  const blocks: string[] = [];
  for (const raw of text.split('\n')) {
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(raw);
    if (item) blocks.push(item[1]);
    else if (!raw.trim() || /^\s*(#|\|)/.test(raw)) blocks.push('');
    else if (blocks.length && blocks[blocks.length - 1]) blocks[blocks.length - 1] += ` ${raw.trim()}`;
    else blocks.push(raw.trim());
  }
  return blocks.map((b) => unmd(b).replace(/\s+/g, ' ')).filter(Boolean).map(clipLine).slice(0, MAX);
}

function sentences(body: string, re: RegExp): string[] {
  const out: string[] = [];
  for (const s of unmd(body.replace(/^#.*$/gm, '')).split(/(?<=[.!?])\s+|\n(?=\s*(?:[-*]|\d+\.)\s)/)) {
    const t = s.replace(/^\s*(?:[-*]|\d+\.)\s+/, '').replace(/\s+/g, ' ').trim();
    if (t && re.test(t)) out.push(clipLine(t));
  }
  return [...new Set(out)].slice(0, MAX);
}

export function parseCommandDoc(text: string): CommandDoc {
  const { frontmatter: fm, body } = parseDoc(text.replace(/\r\n?/g, '\n'));
  const secs = sections(body);
  const found: Partial<Record<keyof CommandSections, string>> = {};
  for (const [kind, heading, tags] of KINDS) {
    for (const t of tags) {
      const inner = tagBlock(body, t);
      if (inner !== null) {
        found[kind] = inner;
        break;
      }
    }
    if (found[kind] === undefined) {
      const s = secs.find((x: Section) => heading.test(plain(x.title).replace(/^\d+\.\s*/, '')));
      if (s) found[kind] = s.text;
    }
  }
  const steps = secs.filter((s) => /^\d+\.\s+/.test(s.title));
  const description = typeof fm.description === 'string' ? fm.description : '';
  const sectionsOut: CommandSections = {
    objective: found.objective !== undefined ? lines(found.objective).join(' ') : description,
    context:
      found.context !== undefined
        ? lines(found.context)
        : [...new Set([...body.matchAll(/`(\.planning\/[^`\s]+|templates\/[^`\s]+)`/g)].map((m) => m[1]))].slice(0, MAX),
    process: found.process !== undefined ? lines(found.process) : steps.map((s) => clipLine(`${plain(s.title)}: ${(lines(s.text)[0] ?? '').split(/(?<=[.!?])\s/)[0]}`)).slice(0, MAX),
    constraints: found.constraints !== undefined ? lines(found.constraints) : sentences(body, /\b(never|must not|do not|don't|only|at most|stop)\b/i),
    tasks: found.tasks !== undefined ? lines(found.tasks) : steps.map((s) => plain(s.title).replace(/^\d+\.\s*/, '')).slice(0, MAX),
    success: found.success !== undefined ? lines(found.success) : sentences(body, /\b(next step|end with|report|success|must exist|check that)\b/i),
  };
  return {
    description,
    argumentHint: typeof fm['argument-hint'] === 'string' ? fm['argument-hint'] : '',
    allowedTools: String(fm['allowed-tools'] ?? '')
      .split(/,\s*/)
      .map((t) => t.trim())
      .filter(Boolean),
    sections: sectionsOut,
  };
}
