/**
 * The GSD templates (`templates/*.md`) as rules and as the source of generated documents. What a document of a kind
 * must hold is read from its template, never kept by hand: every frontmatter key (non-empty unless the template's
 * value is `[]`, nested keys of a map too), every heading (its `{{PLACEHOLDER}}`s match any text, its numbers any
 * number; headings the template repeats — `Task 1`, `Task 2` — need at least one; a heading that is only a
 * placeholder needs only to exist at level 1), every `**Label:**` of a section (in each section of the document
 * that matches it), the columns of every table, every `<tag>` block, and no placeholder left over.
 */
import { parseDoc, parseYaml, sections, type Section, type Yaml } from './markdown.js';

export const DOC_TYPES = { plan: 'PLAN.md', project: 'PROJECT.md', requirements: 'REQUIREMENTS.md' } as const;
export type DocType = keyof typeof DOC_TYPES;

export interface HeadingRule {
  title: string;
  level: number;
  pattern: RegExp;
  repeated: boolean;
  labels: string[];
  columns: string[];
}

export interface TemplateRules {
  frontmatter: Array<{ key: string; mayBeEmpty: boolean; children: string[] }>;
  headings: HeadingRule[];
  tags: string[];
}

export const PLACEHOLDER = /\{\{\s*([A-Z0-9_]+)\s*\}\}/g;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `Task 1: {{TASK_1_NAME}}` → /^Task \d+(?:\.\d+)*: .+$/i */
export function headingPattern(title: string): RegExp {
  const parts = title.split(/\{\{\s*[A-Z0-9_]+\s*\}\}/);
  const src = parts.map((p) => escape(p.replace(/[*`]/g, '')).replace(/\d+/g, '\\d+(?:\\.\\d+)*').replace(/\s+/g, '\\s+')).join('.+');
  return new RegExp(`^${src}$`, 'i');
}

const clean = (title: string) => title.replace(/[*`]/g, '').trim();
/** a heading as the user reads it: placeholders shown as … */
const shown = (title: string) => title.replace(PLACEHOLDER, '…');

/** `**Files:**` / `**Action**:` labels of a block */
function labels(text: string): string[] {
  return [...new Set([...text.matchAll(/^[ \t]*\*\*([A-Za-z][A-Za-z ]{0,40}?)(?::\*\*|\*\*:)/gm)].map((m) => m[1].trim()))];
}

function tableHeader(text: string): string[] {
  const lines = text.split('\n').map((l) => l.trim());
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i].startsWith('|') && /^\|?\s*:?-{2,}/.test(lines[i + 1])) {
      return lines[i].replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim()).filter(Boolean);
    }
  }
  return [];
}

/** own text of a section: up to its first sub-heading */
function ownText(s: Section): string {
  return s.text.split(/\n#{1,6}\s/)[0];
}

function isEmpty(v: Yaml | undefined): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
}

export function templateRules(template: string): TemplateRules {
  const noComments = template.replace(/<!--[\s\S]*?-->/g, '');
  const { frontmatter, body } = parseDoc(noComments);
  const fm = Object.entries(frontmatter).map(([key, v]) => ({
    key,
    mayBeEmpty: Array.isArray(v) && v.length === 0,
    children: v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [],
  }));
  const headings: HeadingRule[] = [];
  for (const s of sections(body)) {
    const title = clean(s.title);
    const onlyPlaceholder = title.replace(PLACEHOLDER, '').trim() === '';
    if (onlyPlaceholder && s.level > 1) continue;
    const pattern = onlyPlaceholder ? /.+/ : headingPattern(title);
    const same = headings.find((h) => h.pattern.source === pattern.source && h.level === s.level);
    if (same) {
      same.repeated = true;
      continue;
    }
    const own = ownText(s);
    headings.push({ title, level: s.level, pattern, repeated: false, labels: labels(own), columns: tableHeader(own) });
  }
  const tags = [...new Set([...body.matchAll(/^<([a-z_]+)>\s*$/gm)].map((m) => m[1]))];
  return { frontmatter: fm, headings, tags };
}

/** The text between the first `<tag>` and the `</tag>` after it, or null (indexOf: linear on any input). */
export function tagBlock(text: string, tag: string): string | null {
  const open = text.indexOf(`<${tag}>`);
  if (open < 0) return null;
  const close = text.indexOf(`</${tag}>`, open);
  return close < 0 ? null : text.slice(open + tag.length + 2, close);
}

export interface Finding {
  /** what is missing or wrong, e.g. `frontmatter files_modified`, `section "## Tasks"` */
  missing: string[];
  checked: number;
}

/** Everything `content` lacks against the rules of its template. */
export function checkAgainstTemplate(content: string, rules: TemplateRules): Finding {
  const missing: string[] = [];
  let checked = 0;
  const text = content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const { frontmatter, body } = parseDoc(text);
  for (const f of rules.frontmatter) {
    checked++;
    const v = frontmatter[f.key];
    if (!(f.key in frontmatter)) missing.push(`frontmatter ${f.key}`);
    else if (!f.mayBeEmpty && isEmpty(v)) missing.push(`frontmatter ${f.key} is empty`);
    for (const c of f.children) {
      checked++;
      const map = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Yaml>) : {};
      if (isEmpty(map[c])) missing.push(`frontmatter ${f.key}.${c}`);
    }
  }
  const bodyNoComments = body.replace(/<!--[\s\S]*?-->/g, '');
  const secs = sections(bodyNoComments);
  for (const h of rules.headings) {
    checked++;
    const hs = '#'.repeat(h.level);
    const matches = secs.filter((s) => (h.level === 1 ? s.level === 1 : true) && h.pattern.test(clean(s.title)));
    if (!matches.length) {
      missing.push(h.level === 1 && h.pattern.source === '.+' ? 'a "# title" heading' : `section "${hs} ${h.repeated ? shown(h.title).replace(/\d+/g, 'N') : shown(h.title)}"${h.repeated ? ' (at least one)' : ''}`);
      continue;
    }
    for (const s of matches) {
      const own = ownText(s);
      const have = new Set(labels(own).map((l) => l.toLowerCase()));
      for (const l of h.labels) {
        checked++;
        if (!have.has(l.toLowerCase())) missing.push(`"**${l}:**" in "${hs} ${clean(s.title)}"`);
      }
      if (h.columns.length) {
        const cols = new Set(tableHeader(own).map((c) => c.toLowerCase()));
        for (const c of h.columns) {
          checked++;
          if (!cols.has(c.toLowerCase())) missing.push(`table column "${c}" in "${hs} ${clean(s.title)}"`);
        }
      }
    }
  }
  for (const t of rules.tags) {
    checked++;
    const inner = tagBlock(bodyNoComments, t);
    if (inner === null) missing.push(`<${t}> block`);
    else if (!inner.trim()) missing.push(`<${t}> block is empty`);
  }
  const left = [...new Set([...text.replace(/<!--[\s\S]*?-->/g, '').matchAll(PLACEHOLDER)].map((m) => m[1]))];
  checked++;
  if (left.length) missing.push(`placeholders left: ${left.slice(0, 10).map((p) => `{{${p}}}`).join(', ')}`);
  return { missing, checked };
}

/** Replaces `{{NAME}}`; an array value repeats the line once per element (lines with two arrays zip them). */
export function fillPlaceholders(text: string, values: Record<string, string | string[]>): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const names = [...line.matchAll(PLACEHOLDER)].map((m) => m[1]);
    const arrays = names.filter((n) => Array.isArray(values[n]));
    const copies = arrays.length ? Math.max(...arrays.map((n) => (values[n] as string[]).length)) : 1;
    for (let i = 0; i < copies; i++) {
      out.push(line.replace(PLACEHOLDER, (all, n: string) => {
        const v = values[n];
        if (v === undefined) return all;
        return Array.isArray(v) ? (v[i] ?? v[v.length - 1] ?? '') : v;
      }));
    }
  }
  return out.join('\n');
}

/**
 * The blocks of a repeated heading (`### Task 1: …`, `### Task 2: …`) reduced to the first one, which `render`
 * turns into one copy per item, its `_1` placeholders renamed per copy (TASK_1_NAME → TASK_NAME for each item).
 */
export function expandRepeated(body: string, rule: HeadingRule, items: Array<Record<string, string | string[]>>): string {
  const lines = body.split('\n');
  const starts: number[] = [];
  const levelRe = new RegExp(`^#{1,${rule.level}}\\s`);
  lines.forEach((l, i) => {
    const m = /^(#{1,6})\s+(.*?)\s*$/.exec(l);
    if (m && m[1].length === rule.level && rule.pattern.test(clean(m[2]))) starts.push(i);
  });
  if (!starts.length) return body;
  const endOf = (i: number) => {
    for (let j = i + 1; j < lines.length; j++) if (levelRe.test(lines[j])) return j;
    return lines.length;
  };
  const first = starts[0];
  const last = endOf(starts[starts.length - 1]);
  const proto = lines.slice(first, endOf(first)).join('\n').replace(/\{\{\s*([A-Z0-9]+)_1_([A-Z0-9_]+)\s*\}\}/g, '{{$1_$2}}');
  const copies = items.map((v, i) => fillPlaceholders(proto.replace(/(^#{1,6}\s+\D*?)\d+/, `$1${i + 1}`), v).replace(/\n+$/, ''));
  return [...lines.slice(0, first), copies.join('\n\n'), '', ...lines.slice(last)].join('\n');
}

/** A frontmatter value as YAML lines under `key:` (strings quoted when YAML would read them as something else). */
export function yamlEntry(key: string, value: Yaml, indent = ''): string[] {
  const q = (s: string) => (/^[\w./@-][\w ./@-]*$/.test(s) && !/^(true|false|null|~|-?\d+(\.\d+)?)$/i.test(s) && !/\s$/.test(s) ? s : JSON.stringify(s));
  if (Array.isArray(value)) {
    if (!value.length) return [`${indent}${key}: []`];
    if (value.every((v) => typeof v !== 'object' || v === null)) {
      if (value.every((v) => typeof v === 'string' && /^[A-Z][A-Z0-9]*-\d+$/.test(v))) return [`${indent}${key}: [${value.join(', ')}]`];
      return [`${indent}${key}:`, ...value.map((v) => `${indent}  - ${q(String(v))}`)];
    }
    const out = [`${indent}${key}:`];
    for (const v of value) {
      const entries = Object.entries(v as Record<string, Yaml>);
      entries.forEach(([k, x], i) => out.push(`${indent}  ${i === 0 ? '- ' : '  '}${k}: ${JSON.stringify(String(x))}`));
    }
    return out;
  }
  if (value && typeof value === 'object') return [`${indent}${key}:`, ...Object.entries(value).flatMap(([k, v]) => yamlEntry(k, v, `${indent}  `))];
  return [`${indent}${key}: ${typeof value === 'string' ? q(value) : String(value)}`];
}

/** The template's frontmatter keys in order, each either from `values` or as the template wrote it (placeholders filled). */
export function renderFrontmatter(template: string, values: Record<string, Yaml>, scalars: Record<string, string>): string {
  const m = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*\n/.exec(template);
  if (!m) return '';
  const out: string[] = [];
  let key: string | null = null;
  let raw: string[] = [];
  const flush = () => {
    if (key === null) return;
    out.push(...(key in values ? yamlEntry(key, values[key]) : fillPlaceholders(raw.join('\n'), scalars).split('\n')));
  };
  for (const line of m[1].split('\n')) {
    const k = /^([A-Za-z_][\w-]*):/.exec(line);
    if (k) {
      flush();
      key = k[1];
      raw = [line];
    } else raw.push(line);
  }
  flush();
  // sanity: the result must parse to the same keys
  parseYaml(out.join('\n'));
  return `---\n${out.join('\n')}\n---\n`;
}
