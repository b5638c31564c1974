/**
 * Tolerant Markdown and frontmatter reading for GSD documents. Nothing here throws on odd input: a document that does
 * not parse gives fewer facts, never an exception.
 */
import { readFileSync, statSync } from 'node:fs';

export type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

export function readText(file: string): string | null {
  try {
    if (!statSync(file).isFile()) return null;
    return readFileSync(file, 'utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  } catch {
    return null;
  }
}

function scalar(raw: string): Yaml {
  const s = raw.replace(/\s+#.*$/, '').trim();
  if (s === '' || s === '~' || s === 'null') return null;
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(s) && !/^0\d/.test(s)) return Number(s);
  if ((s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'"))) return s.slice(1, -1);
  if (s.startsWith('[') && s.endsWith(']')) {
    const inner = s.slice(1, -1).trim();
    return inner ? splitFlow(inner).map(scalar) : [];
  }
  return s;
}

function splitFlow(s: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote = '';
  let depth = 0;
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = '';
      cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      cur += ch;
    } else if (ch === '[' || ch === '{') {
      depth++;
      cur += ch;
    } else if (ch === ']' || ch === '}') {
      depth--;
      cur += ch;
    } else if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur);
  return parts;
}

interface Line {
  indent: number;
  text: string;
}

/** A YAML subset: nested maps, block lists (of scalars or maps), flow lists, quoted strings, comments. */
function parseBlock(lines: Line[], start: number, indent: number): [Yaml, number] {
  let i = start;
  if (i < lines.length && lines[i].text.startsWith('- ')) {
    const list: Yaml[] = [];
    while (i < lines.length && lines[i].indent === indent && (lines[i].text.startsWith('- ') || lines[i].text === '-')) {
      const rest = lines[i].text.slice(1).trim();
      const kv = /^([A-Za-z0-9_.-]+):(\s+.*|$)/.exec(rest);
      if (kv) {
        // a map inside a list item: its first key is on the dash line
        const sub: Line[] = [{ indent: indent + 2, text: rest }];
        let j = i + 1;
        while (j < lines.length && lines[j].indent > indent) sub.push(lines[j++]);
        list.push(parseBlock(sub, 0, indent + 2)[0]);
        i = j;
      } else {
        list.push(scalar(rest));
        i++;
      }
    }
    return [list, i];
  }
  const map: { [key: string]: Yaml } = {};
  while (i < lines.length && lines[i].indent === indent) {
    const m = /^("[^"]*"|'[^']*'|[^:]+):(\s+.*|$)/.exec(lines[i].text);
    if (!m) {
      i++;
      continue;
    }
    const key = m[1].replace(/^["']|["']$/g, '').trim();
    const value = m[2].trim();
    i++;
    if (value && value !== '|' && value !== '>' && value !== '|-' && value !== '>-') {
      map[key] = scalar(value);
    } else if (i < lines.length && lines[i].indent > indent) {
      if (value) {
        const parts: string[] = [];
        while (i < lines.length && lines[i].indent > indent) parts.push(lines[i++].text);
        map[key] = parts.join(value.startsWith('|') ? '\n' : ' ');
      } else {
        const [v, next] = parseBlock(lines, i, lines[i].indent);
        map[key] = v;
        i = next;
      }
    } else if (i < lines.length && lines[i].indent === indent && lines[i].text.startsWith('- ')) {
      const [v, next] = parseBlock(lines, i, indent);
      map[key] = v;
      i = next;
    } else map[key] = null;
  }
  return [map, i];
}

export function parseYaml(text: string): Record<string, Yaml> {
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    lines.push({ indent: raw.length - raw.trimStart().length, text: raw.trim() });
  }
  if (!lines.length) return {};
  try {
    const [v] = parseBlock(lines, 0, lines[0].indent);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export interface Doc {
  frontmatter: Record<string, Yaml>;
  body: string;
  /** 1-based line of the body's first line in the file */
  bodyLine: number;
}

export function parseDoc(text: string): Doc {
  const m = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(\n|$)/.exec(text);
  if (!m) return { frontmatter: {}, body: text, bodyLine: 1 };
  return { frontmatter: parseYaml(m[1]), body: text.slice(m[0].length), bodyLine: m[0].split('\n').length };
}

export interface Section {
  level: number;
  title: string;
  /** text below the heading up to the next heading of the same or a higher level */
  text: string;
}

export function sections(body: string): Section[] {
  const lines = body.split('\n');
  const heads: Array<{ level: number; title: string; line: number }> = [];
  let fence = false;
  lines.forEach((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    const m = !fence && /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(l);
    if (m) heads.push({ level: m[1].length, title: m[2].trim(), line: i });
  });
  return heads.map((h, k) => {
    let end = lines.length;
    for (const next of heads.slice(k + 1)) {
      if (next.level <= h.level) {
        end = next.line;
        break;
      }
    }
    return { level: h.level, title: h.title, text: lines.slice(h.line + 1, end).join('\n').trim() };
  });
}

export function findSection(list: Section[], pattern: RegExp): Section | undefined {
  return list.find((s) => pattern.test(s.title.replace(/[*_`]/g, '')));
}

/** Plain text of Markdown (emphasis, links, code ticks removed). */
export function plain(md: string): string {
  return md
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]*)\*\*/g, '$1')
    .replace(/__([^_]*)__/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/** List items (`-`, `*`, `1.`) of a block, continuation lines folded in. */
export function listItems(text: string): string[] {
  const items: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (m) items.push(m[1].trim());
    else if (items.length && /^\s{2,}\S/.test(line)) items[items.length - 1] += ` ${line.trim()}`;
  }
  return items;
}

/** Rows of the first Markdown table in a block, keyed by lower-case header. */
export function tableRows(text: string): Array<Record<string, string>> {
  const lines = text.split('\n').map((l) => l.trim());
  const rows: Array<Record<string, string>> = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].startsWith('|') || !/^\|?\s*:?-{2,}/.test(lines[i + 1])) continue;
    const cells = (l: string) => l.replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
    const header = cells(lines[i]).map((h) => plain(h).toLowerCase());
    for (let j = i + 2; j < lines.length && lines[j].startsWith('|'); j++) {
      const c = cells(lines[j]);
      const row: Record<string, string> = {};
      header.forEach((h, k) => (row[h] = plain(c[k] ?? '')));
      rows.push(row);
    }
    break;
  }
  return rows;
}

/** `**Key**: value` / `Key: value` fields of a block, keyed by lower-case key. */
export function fields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[-*]\s+)?\*{0,2}([A-Za-z][A-Za-z /-]{0,40}?)\*{0,2}\s*(?:\([^)]*\))?\s*:\*{0,2}\s*(.*)$/.exec(line);
    if (m && !(m[1].toLowerCase() in out)) out[m[1].trim().toLowerCase()] = plain(m[2]);
  }
  return out;
}

export function asStrings(v: Yaml | undefined): string[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'object' && x !== null ? asStrings(Object.values(x)[0] as Yaml) : [String(x)]));
  if (typeof v === 'object') return Object.values(v).flatMap((x) => asStrings(x));
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const STOP = new Set(
  'a an and are as at be by can do does for from has have in into is it its of on or our should so that the their then this to up use used user users using via we when which will with without must all any each every new add make able also more than'.split(' '),
);

/** Content words of a text, lower-case, for similarity and search. */
export function contentWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOP.has(w) && !/^\d+$/.test(w));
}

/** Similarity of two texts in [0, 1]: share of the query's content words (and their stems) found in the other text. */
export function similarity(query: string[], other: string[]): number {
  if (!query.length || !other.length) return 0;
  const stem = (w: string) => w.replace(/(ing|ed|es|s|ation|ions?)$/, '');
  const bag = new Set(other.flatMap((w) => [w, stem(w)]));
  const q = [...new Set(query)];
  let hit = 0;
  for (const w of q) if (bag.has(w) || bag.has(stem(w))) hit++;
  return Math.round((hit / q.length) * 100) / 100;
}
