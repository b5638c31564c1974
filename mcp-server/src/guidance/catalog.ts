/**
 * The guidance catalog: markdown files with YAML frontmatter (`type`, `category`, `focus_levels`, `tags`) from three
 * folders — the package's own `guidance/`, the user's `<claude config>/guidance/` and the project's
 * `.planning/guidance/`. A file of a more specific source shadows one with the same relative path in a broader one
 * (project > user > package). Parsed files are cached by size and mtime, so a warm search only lists and stats.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { FOCUS_LEVELS, type FocusLevel, type GuidanceSource } from './session.js';
import { type StemIndex, stemIndex, wordsOf } from './words.js';


/** files larger than this are not guidance (named in the answer as skipped, never read) */
export const MAX_GUIDANCE_BYTES = 256 * 1024;
/** per source folder; a folder with more is cut, and the answer says so */
const MAX_FILES_PER_SOURCE = 2000;
const MAX_DIR_DEPTH = 6;

export interface GuidanceRoot {
  source: GuidanceSource;
  dir: string;
}

export interface GuidanceFile {
  source: GuidanceSource;
  abs: string;
  /** path inside its source folder, `/` separators (what shadowing compares) */
  rel: string;
  /** what the answer shows: project files relative to the project root, others absolute */
  shown: string;
  type: string | null;
  category: string | null;
  tags: string[];
  /** null when the frontmatter gives no usable focus_levels: the file is untagged and searched at every level */
  focusLevels: FocusLevel[] | null;
  /** why the file is untagged (no frontmatter, a YAML error, no focus_levels …); null when tagged */
  problem: string | null;
  /** the markdown after the frontmatter */
  body: string;
  /** stems of the file name and its folders, of the body, of the tags and of the category (what the scoring reads) */
  index: { name: StemIndex; body: StemIndex; tags: StemIndex; category: StemIndex };
}

/** The package's guidance: `guidance/` beside the nearest package.json above this module (the repository, or the runtime copy). */
export function packageGuidanceDir(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'guidance');
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** `$CLAUDE_CONFIG_DIR/guidance`, else `~/.claude/guidance` (HOME from the server's environment). */
export function userGuidanceDir(env: NodeJS.ProcessEnv): string {
  const config = env.CLAUDE_CONFIG_DIR?.trim() || path.join(env.HOME?.trim() || os.homedir(), '.claude');
  return path.join(path.resolve(config), 'guidance');
}

export function guidanceRoots(projectRoot: string, env: NodeJS.ProcessEnv): GuidanceRoot[] {
  const pkg = packageGuidanceDir();
  return [
    { source: 'project', dir: path.join(projectRoot, '.planning', 'guidance') },
    { source: 'user', dir: userGuidanceDir(env) },
    ...(pkg ? [{ source: 'package' as const, dir: pkg }] : []),
  ];
}

const cache = new Map<string, { sig: string; file: GuidanceFile }>();

function listMarkdown(dir: string, out: string[], depth = 0, prefix = ''): void {
  if (depth > MAX_DIR_DEPTH || out.length >= MAX_FILES_PER_SOURCE) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // a missing or unreadable folder holds no guidance
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) listMarkdown(path.join(dir, e.name), out, depth + 1, rel);
    else if (e.isFile() && /\.md$/i.test(e.name)) {
      out.push(rel);
      if (out.length >= MAX_FILES_PER_SOURCE) return;
    }
  }
}

function asStrings(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string' || typeof v === 'number').map((v) => String(v).trim()).filter(Boolean);
  return null;
}

function asString(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() || null : null;
}

interface Frontmatter {
  data: Record<string, unknown> | null;
  body: string;
  problem: string | null;
}

/** Splits `---\n…\n---` off the text and parses it with the `yaml` library; never throws. */
export function splitFrontmatter(text: string): Frontmatter {
  const t = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!t.startsWith('---\n')) return { data: null, body: t, problem: 'no frontmatter' };
  const m = /\n---[ \t]*(?:\n|$)/.exec(t.slice(3));
  if (!m) return { data: null, body: t, problem: 'frontmatter not closed by a --- line' };
  const close = 3 + m.index;
  const yamlText = t.slice(4, close + 1);
  const body = t.slice(close + m[0].length).replace(/^\s*\n/, '');
  const doc = parseDocument(yamlText, { uniqueKeys: false });
  if (doc.errors.length) {
    const e = doc.errors[0];
    // linePos counts from the frontmatter's first line (1-based); the file has the opening --- above it
    const where = e.linePos?.[0] ? ` at line ${e.linePos[0].line + 1}` : '';
    return { data: null, body, problem: `YAML error${where}: ${e.message.split('\n')[0]}` };
  }
  const data = doc.toJS() as unknown;
  if (data === null || data === undefined) return { data: null, body, problem: 'empty frontmatter' };
  if (typeof data !== 'object' || Array.isArray(data)) return { data: null, body, problem: 'frontmatter is not a mapping' };
  return { data: data as Record<string, unknown>, body, problem: null };
}

function parseGuidance(root: GuidanceRoot, rel: string, abs: string, shown: string, text: string): GuidanceFile {
  const fm = splitFrontmatter(text);
  let problem = fm.problem;
  let focusLevels: FocusLevel[] | null = null;
  if (fm.data) {
    const raw = asStrings(fm.data.focus_levels);
    if (raw === null) problem = 'no focus_levels list';
    else {
      const known = raw.map((x) => x.toLowerCase()).filter((x): x is FocusLevel => (FOCUS_LEVELS as readonly string[]).includes(x));
      if (known.length) focusLevels = [...new Set(known)];
      else problem = `focus_levels has no known level (${FOCUS_LEVELS.join('|')})`;
    }
  }
  const tags = fm.data ? asStrings(fm.data.tags) ?? [] : [];
  const category = fm.data ? asString(fm.data.category) : null;
  return {
    source: root.source,
    abs,
    rel,
    shown,
    type: fm.data ? asString(fm.data.type) : null,
    category,
    tags,
    focusLevels,
    problem,
    body: fm.body,
    index: {
      name: stemIndex(wordsOf(rel.replace(/\.md$/i, ''))),
      body: stemIndex(wordsOf(fm.body)),
      tags: stemIndex(tags.flatMap(wordsOf)),
      category: stemIndex(category ? wordsOf(category) : []),
    },
  };
}

/** The text of a file of at most MAX_GUIDANCE_BYTES (its size from a stat), or why it is not read: too large, binary, unreadable. */
export function readSmallText(abs: string, size: number): { text: string } | { problem: string } {
  if (size > MAX_GUIDANCE_BYTES) return { problem: `${size} bytes, over the ${MAX_GUIDANCE_BYTES}-byte limit of a guidance file` };
  try {
    const buf = readFileSync(abs);
    return buf.includes(0) ? { problem: 'binary content' } : { text: buf.toString('utf8') };
  } catch (error) {
    return { problem: `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}

export interface Catalog {
  files: GuidanceFile[];
  scanned: number;
  /** files not searched: too large, binary or unreadable */
  skipped: Array<{ path: string; problem: string }>;
  /** folders cut at MAX_FILES_PER_SOURCE */
  notes: string[];
}

/** Every guidance file of the roots (shadowed ones dropped), parsed or taken from the cache. */
export function loadCatalog(roots: GuidanceRoot[], projectRoot: string): Catalog {
  const files: GuidanceFile[] = [];
  const notes: string[] = [];
  const skipped: Catalog['skipped'] = [];
  /** relative paths of the more specific sources already listed (compared case-insensitively, as on macOS and Windows) */
  const shadowing = new Set<string>();
  let scanned = 0;
  for (const root of roots) {
    const rels: string[] = [];
    listMarkdown(root.dir, rels);
    if (rels.length >= MAX_FILES_PER_SOURCE) notes.push(`${root.source} guidance: only the first ${MAX_FILES_PER_SOURCE} files were searched`);
    for (const rel of rels) {
      scanned++;
      const abs = path.join(root.dir, rel);
      const shown = root.source === 'project' ? path.relative(projectRoot, abs).split(path.sep).join('/') : abs;
      let st;
      try {
        st = statSync(abs);
      } catch {
        continue; // removed while listing
      }
      if (shadowing.has(rel.toLowerCase())) continue; // shadowed by a more specific source
      const sig = `${st.size}:${st.mtimeMs}:${root.source}:${shown}`;
      const hit = cache.get(abs);
      if (hit && hit.sig === sig) {
        files.push(hit.file);
        continue;
      }
      const read = readSmallText(abs, st.size);
      if ('problem' in read) {
        skipped.push({ path: shown, problem: read.problem });
        continue;
      }
      const text = read.text;
      const file = parseGuidance(root, rel, abs, shown, text);
      cache.set(abs, { sig, file });
      files.push(file);
    }
    for (const rel of rels) shadowing.add(rel.toLowerCase());
  }
  if (cache.size > 4 * MAX_FILES_PER_SOURCE) cache.clear();
  return { files, scanned, skipped, notes };
}
