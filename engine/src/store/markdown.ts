/**
 * Pure Markdown renderers for the entity pages (entities/<id>.md) and summary.md, plus the reader that
 * detects a Purpose section written by a person or an agent. Output depends only on the input: same view,
 * same bytes.
 */
import { sha1Hex } from '../hash.js';
import type { Conventions, ExportRecord, FileRecord } from '../types.js';

export type { Conventions } from '../types.js';

/** Lists longer than this are cut with "… and N more". */
export const LIST_CAP = 50;

export interface EntityLink {
  path: string;
  id: string;
  /** edge kinds between the two files (import, type-import, reexport …) */
  kinds: string[];
}

export interface EntityView {
  record: FileRecord;
  dependencies: EntityLink[];
  dependents: EntityLink[];
  /** package names */
  externals: string[];
  unresolved: Array<{ specifier: string; reason: string }>;
  /** ISO timestamp of the build that wrote the page */
  updated: string;
}

export interface ManualPurpose {
  purpose: string;
  /** true when the Purpose section was written or edited by a person or an agent */
  manual: boolean;
}

export interface SummaryHotspot {
  path: string;
  /** entity id; when present the path links to entities/<id>.md */
  id?: string;
  direct: number;
  transitive: number;
}

export interface SummaryView {
  /** project name (the root folder's name) */
  root: string;
  fileCount: number;
  edgeCount: number;
  externalCount: number;
  unresolvedCount: number;
  skippedCount: number;
  syntaxErrorCount: number;
  builtAt: string;
  /** in the order given (the caller ranks them); at most 10 are shown */
  hotspots: SummaryHotspot[];
  /** at most 8 are shown */
  entryPoints: string[];
  conventions: Conventions;
}

// ---------------------------------------------------------------- text helpers

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Canonical form of a Purpose text: LF line ends, no trailing blanks on lines, trimmed. */
export function normalizePurpose(text: string): string {
  return normalizeNewlines(text)
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();
}

/** First 12 hex digits of the sha1 of the (normalized) Purpose text. */
export function purposeHash(text: string): string {
  return sha1Hex(normalizePurpose(text)).slice(0, 12);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SECTION_HEADING = /^#{1,2}(\s|$)/;

/**
 * Calls `visit` for each line with whether it sits inside a fenced code block (fence lines count as inside): a fence
 * closes at a line of the same character at least as long. `opener`: the lines that open or close one, capturing the
 * marker (CommonMark's by default: ``` or ~~~ indented at most three spaces).
 */
export function mapOutsideFences<T>(lines: string[], visit: (line: string, inFence: boolean) => T, opener: RegExp = FENCE): T[] {
  let fence: string | null = null;
  return lines.map((line) => {
    const m = opener.exec(line);
    if (m) {
      const marker = m[1];
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return visit(line, true);
    }
    return visit(line, fence !== null);
  });
}

/** The purpose as written into the page: H1/H2 lines are demoted so that they cannot end the section early. */
function renderedPurpose(purpose: string): string {
  const lines = normalizePurpose(purpose).split('\n');
  return mapOutsideFences(lines, (l, inFence) => (!inFence && SECTION_HEADING.test(l) ? `###${l.replace(/^#+/, '')}` : l)).join('\n');
}

const YAML_RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;
const YAML_PLAIN = /^[A-Za-z_$/][A-Za-z0-9_$./@+-]*$/;

/** A YAML scalar for `value`: plain when unambiguous, otherwise a double-quoted (JSON-compatible) string. */
export function yamlString(value: string): string {
  if (YAML_PLAIN.test(value) && !YAML_RESERVED.test(value)) return value;
  return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function yamlFlowList(values: string[]): string {
  return `[${values.map(yamlString).join(', ')}]`;
}

/** Inline code span that survives backticks inside `text`. */
function code(text: string): string {
  const clean = text.replace(/\s*\n\s*/g, ' ');
  const runs = clean.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** Escape Markdown punctuation in plain inline text (link labels, prose built from data). */
function mdText(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/([\\`*_[\]<>|#])/g, '\\$1');
}

/** Link target relative to the current page; angle brackets when it holds spaces or parentheses. */
function linkTarget(target: string): string {
  return /[\s()<>]/.test(target) ? `<${target.replace(/[<>]/g, encodeURIComponent)}>` : target;
}

function capped<T>(items: readonly T[], cap: number, line: (item: T) => string, bullet = '- '): string[] {
  const out = items.slice(0, cap).map((i) => `${bullet}${line(i)}`);
  if (items.length > cap) out.push(`${bullet}… and ${items.length - cap} more`);
  return out;
}

/** Shorten a long display string in the middle, keeping its start and its (more telling) end: "packages/ui/…/file.ts". */
function clip(text: string, max: number): string {
  const chars = [...text]; // never split a surrogate pair
  if (chars.length <= max) return text;
  const head = Math.floor((max - 1) * 0.4);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

// ---------------------------------------------------------------- entity pages

function exportLine(e: ExportRecord): string {
  return `${code(e.name)} — ${e.kind}, line ${e.line}`;
}

function linkLine(l: EntityLink): string {
  const kinds = [...new Set(l.kinds)].sort(cmp);
  const label = l.id ? `[${mdText(l.path)}](${linkTarget(`${l.id}.md`)})` : mdText(l.path);
  return kinds.length ? `${label} — ${kinds.join(', ')}` : label;
}

function sortLinks(links: readonly EntityLink[]): EntityLink[] {
  return [...links].sort((a, b) => cmp(a.path, b.path) || cmp(a.id, b.id));
}

/** The entity page of one file. */
export function renderEntity(view: EntityView): string {
  const { record } = view;
  const purpose = renderedPurpose(record.purpose);
  const exports = [...record.exports].sort((a, b) => a.line - b.line || cmp(a.name, b.name) || cmp(a.kind, b.kind));
  const exportNames = [...new Set(exports.map((e) => e.name))];
  const dependencies = sortLinks(view.dependencies);
  const dependents = sortLinks(view.dependents);
  const externals = [...new Set(view.externals)].sort(cmp);
  const unresolved = [...view.unresolved].sort((a, b) => cmp(a.specifier, b.specifier) || cmp(a.reason, b.reason));

  const out: string[] = [
    '---',
    `path: ${yamlString(record.path)}`,
    `id: ${yamlString(record.id)}`,
    `type: ${yamlString(record.type)}`,
    ...(record.language ? [`language: ${yamlString(record.language)}`] : []),
    `exports: ${yamlFlowList(exportNames.slice(0, LIST_CAP))}`,
    `dependencies: ${dependencies.length}`,
    `dependents: ${dependents.length}`,
    `updated: ${yamlString(view.updated)}`,
    `purpose_source: ${record.purposeSource === 'manual' ? 'manual' : 'generated'}`,
    `purpose_hash: ${yamlString(purposeHash(purpose))}`,
    '---',
    '',
    `# ${code(record.path)}`,
    '',
  ];
  const notes: string[] = [];
  if (record.skipped) notes.push(`> Not parsed: ${record.skipped}. Imports and exports are unknown.`);
  if (record.syntaxError) {
    notes.push(`> Syntax error at line ${record.syntaxError.line}: ${mdText(record.syntaxError.message)}. The facts below may be incomplete.`);
  }
  if (notes.length) out.push(notes.join('\n>\n'), '');

  out.push('## Purpose', '');
  if (purpose) out.push(purpose, '');

  out.push('## Exports', '');
  out.push(...(exports.length ? capped(exports, LIST_CAP, exportLine) : ['_None._']), '');

  out.push('## Dependencies', '');
  const depLines = [
    ...capped(dependencies, LIST_CAP, linkLine),
    ...capped(externals, LIST_CAP, (x) => `external: ${code(x)}`),
    ...capped(unresolved, LIST_CAP, (u) => `unresolved: ${code(u.specifier)} — ${mdText(u.reason)}`),
  ];
  out.push(...(depLines.length ? depLines : ['_None._']), '');

  out.push('## Used By', '');
  out.push(...(dependents.length ? capped(dependents, LIST_CAP, linkLine) : ['_None._']), '');

  return out.join('\n');
}

// ---------------------------------------------------------------- reading a page back

function unquoteYaml(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) {
    try {
      return String(JSON.parse(v));
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  return v.replace(/\s+#.*$/, ''); // plain scalar with a trailing comment
}

/**
 * The Purpose section of an entity page and whether it was written by hand: the text no longer matches the
 * frontmatter's `purpose_hash`, or the frontmatter says `purpose_source: manual`. Without frontmatter any
 * non-empty text counts as manual. An empty section is never manual (clear it to get the generated text back).
 * Returns null when there is no Purpose section.
 */
export function readEntityPurpose(markdown: string): ManualPurpose | null {
  const lines = normalizeNewlines(markdown.replace(/^\uFEFF/, '')).split('\n');
  let bodyStart = 0;
  let frontmatter: Map<string, string> | null = null;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (end > 0) {
      frontmatter = new Map();
      for (const l of lines.slice(1, end)) {
        const m = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(l);
        if (m) frontmatter.set(m[1], unquoteYaml(m[2]));
      }
      bodyStart = end + 1;
    }
  }
  const heading = lines.findIndex((l, i) => i >= bodyStart && /^##\s+Purpose\s*#*\s*$/i.test(l.trim()));
  if (heading < 0) return null;
  const rest = lines.slice(heading + 1);
  const marks = mapOutsideFences(rest, (l, inFence) => (!inFence && SECTION_HEADING.test(l) ? 'end' : ''));
  // a fence never closed runs to the end of the page in Markdown; here the page's own next section ends it (a purpose
  // line that opened one, as a doc comment's code example did, must not swallow the sections after it)
  let stop = marks.indexOf('end');
  if (stop < 0) stop = rest.findIndex((l) => SECTION_HEADING.test(l));
  const end = stop >= 0 ? heading + 1 + stop : lines.length;
  const purpose = normalizePurpose(lines.slice(heading + 1, end).join('\n'));
  if (!purpose) return { purpose, manual: false };
  if (!frontmatter) return { purpose, manual: true };
  const manual = frontmatter.get('purpose_source') === 'manual' || frontmatter.get('purpose_hash') !== purposeHash(purpose);
  return { purpose, manual };
}

// ---------------------------------------------------------------- summary.md

/** `style (NN%)`, or the bare style when nothing was measured */
function styleShare(s: { style: string; share: number }): string {
  const pct = Math.round(Math.max(0, Math.min(1, s.share)) * 100);
  return s.share > 0 ? `${mdText(s.style)} (${pct}%)` : mdText(s.style);
}

/** 1234567 → "1,234,567" (locale-independent) */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

function tableCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

const HOTSPOT_CAP = 10;
const ENTRY_CAP = 8;
const FOLDER_CAP = 10;

/** Character budget of summary.md; long names are clipped harder (and links dropped) until the page fits. */
export const SUMMARY_BUDGET = 3_800;

interface SummaryLayout {
  /** longest path shown */
  pathMax: number;
  /** longest folder role shown */
  roleMax: number;
  /** link hotspots to their entity pages */
  links: boolean;
}

const SUMMARY_LAYOUTS: SummaryLayout[] = [
  { pathMax: 90, roleMax: 60, links: true },
  { pathMax: 60, roleMax: 40, links: false },
  { pathMax: 36, roleMax: 24, links: false },
];

/** summary.md: a compact overview meant to be read at the start of a session (well under 4,000 characters). */
/** Each language's module system: a language module's own (Python, Go …), the measured one for JS/TS files. */
function moduleSystems(c: SummaryView['conventions']): string {
  if (!c.languages) return styleShare(c.moduleSystem);
  const measured = c.languages.filter((l) => !l.moduleSystem).map((l) => mdText(l.name));
  const parts = c.languages.filter((l) => l.moduleSystem).map((l) => `${mdText(l.name)}: ${mdText(l.moduleSystem!)}`);
  if (measured.length) parts.push(`${measured.join(', ')}: ${styleShare(c.moduleSystem)}`);
  return parts.join('; ');
}

export function renderSummary(view: SummaryView): string {
  let text = '';
  for (const layout of SUMMARY_LAYOUTS) {
    text = renderSummaryWith(view, layout);
    if (text.length <= SUMMARY_BUDGET) break;
  }
  return text;
}

function renderSummaryWith(view: SummaryView, layout: SummaryLayout): string {
  const c = view.conventions;
  const out: string[] = [
    `# Codebase intel: ${mdText(clip(view.root, 80))}`,
    '',
    `${plural(view.fileCount, 'file')} · ${plural(view.edgeCount, 'internal dependency', 'internal dependencies')} · ${plural(view.externalCount, 'external package')} · ` +
      `${count(view.unresolvedCount)} unresolved · ${count(view.skippedCount)} skipped · ${plural(view.syntaxErrorCount, 'syntax error')} — built ${view.builtAt}`,
    '',
    '## Hotspots',
    '',
  ];
  if (view.hotspots.length) {
    out.push('Files with the most dependents: changes here ripple furthest.', '');
    out.push('| File | Direct | Transitive |', '| --- | ---: | ---: |');
    for (const h of view.hotspots.slice(0, HOTSPOT_CAP)) {
      const shown = clip(h.path, layout.pathMax);
      // mdText escapes `|` already; inside a code span it must be escaped for the table too
      const cell = h.id && layout.links ? `[${mdText(shown)}](${linkTarget(`entities/${h.id}.md`)})` : tableCell(code(shown));
      out.push(`| ${cell} | ${h.direct} | ${h.transitive} |`);
    }
    if (view.hotspots.length > HOTSPOT_CAP) out.push('', `… and ${view.hotspots.length - HOTSPOT_CAP} more.`);
  } else {
    out.push('_No file is imported by another one yet._');
  }
  out.push('', '## Entry points', '');
  out.push(...(view.entryPoints.length ? capped(view.entryPoints, ENTRY_CAP, (p) => code(clip(p, layout.pathMax))) : ['_None found._']));

  out.push('', '## Conventions', '');
  if (c.languages) {
    const each = c.languages.map((l) => `${mdText(l.name)} ${plural(l.files, 'file')} (naming ${styleShare(l.naming)}${l.expected ? `; its guide: ${mdText(l.expected)}` : ''})`);
    out.push(`- Languages: ${each.join(', ')}`);
  }
  out.push(`- File naming: ${styleShare(c.fileNaming)}`);
  out.push(`- Module system: ${moduleSystems(c)}`);
  out.push(`- Export style: ${styleShare(c.exportStyle)}`);
  if (c.tests.count) {
    const pattern = c.tests.pattern ? `, pattern ${code(clip(c.tests.pattern, 60))}` : '';
    out.push(`- Tests: ${plural(c.tests.count, 'file')}, ${mdText(c.tests.layout)}${pattern}`);
  } else {
    out.push('- Tests: none found');
  }
  if (c.folderRoles.length) {
    out.push('- Folder roles:');
    out.push(
      ...capped(
        c.folderRoles,
        FOLDER_CAP,
        (f) => `${code(clip(f.folder, layout.pathMax))} — ${mdText(clip(f.role, layout.roleMax))} (${plural(f.files, 'file')})`,
        '  - ',
      ),
    );
  }

  out.push(
    '',
    '## How to query more',
    '',
    '- `get-shit-done-cc intel query blast-radius <file>`: everything that depends on a file, directly or not',
    '- `get-shit-done-cc intel query hotspots`: the most depended-on files',
    '- `get-shit-done-cc intel query search <text>`: files and symbols by name',
    '- `get-shit-done-cc intel query deps <file>`: what a file imports',
    '- `get-shit-done-cc intel query path <from> <to>`: how one file reaches another',
    '- MCP tools: `mcp__gsd__query_intel`, `mcp__gsd__blast_radius`',
    '- Per-file detail: `.planning/intel/entities/<id>.md`',
    '',
  );
  return out.join('\n');
}
