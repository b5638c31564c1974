/**
 * guidance_load's answer: search the catalog at a focus level, load the best files (and their `@` references), list
 * the other matches numbered, and remember that list per MCP session so that a follow-up `query: "1,3"` loads those.
 */
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolInputError } from '../result.js';
import { type GuidanceFile, guidanceRoots, loadCatalog } from './catalog.js';
import { rankGuidance, type Ranked } from './rank.js';
import { ContentBudget, resolveReferences } from './references.js';
import { DEFAULT_AUTO_LOAD, type FocusLevel, type GuidanceSessions, type GuidanceSource, MAX_AUTO_LOAD } from './session.js';
import { queryStems } from './words.js';

/** characters of guidance text in one answer (loaded files and references): about 3,000 tokens */
export const ANSWER_CHARS = 12_000;
export const FILE_CHARS = 6_000;
const LISTED = 20;
const REMEMBERED = 50;
const UNTAGGED_LISTED = 20;

export interface LoadedGuidance {
  /** rank in the search (numbered matches); absent for a file loaded because a loaded file @references it */
  n?: number;
  path: string;
  source?: GuidanceSource;
  type?: string | null;
  category?: string | null;
  tags?: string[];
  focus_levels?: FocusLevel[] | null;
  score?: number;
  why?: string[];
  /** the file whose `@path` brought this one in, and how many references deep */
  from?: string;
  depth?: number;
  content: string;
  truncated: boolean;
}

export interface GuidanceIssue {
  kind: 'untagged' | 'reference' | 'skipped';
  path: string;
  /** for a reference: the file holding it */
  from?: string;
  problem: string;
}

export interface GuidanceAnswer {
  loaded: LoadedGuidance[];
  matches: { total: number; truncated: boolean; items: Array<{ n: number; path: string; source: GuidanceSource; type: string | null; score: number; why: string[] }> };
  issues: GuidanceIssue[];
  performanceMetrics: { filesScanned: number; filesMatched: number; searchMs: number };
  hint?: string;
}

export interface GuidanceRequest {
  query: string;
  focus: FocusLevel;
  maxAutoLoad?: number;
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  session: string;
  sessions: GuidanceSessions;
}

/** `"1,3"`, `"2 4"`, `"#1, #3"` → [1, 3]; anything else → null (a keyword search) */
export function parseNumbers(query: string): number[] | null {
  if (!/^\s*#?\d+(?:\s*[,\s]\s*#?\d+)*\s*$/.test(query)) return null;
  return [...new Set(query.match(/\d+/g)!.map(Number))];
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function loadedEntry(n: number, r: { file: GuidanceFile; score: number; why: string[] }, budget: ContentBudget): LoadedGuidance {
  const f = r.file;
  const { content, truncated } = budget.take(f.body);
  return { n, path: f.shown, source: f.source, type: f.type, category: f.category, tags: f.tags, focus_levels: f.focusLevels, score: r.score, why: r.why, content, truncated };
}

export function loadGuidance(req: GuidanceRequest): GuidanceAnswer {
  const started = performance.now();
  const home = req.env.HOME?.trim() || os.homedir();
  const roots = guidanceRoots(req.projectRoot, req.env);
  const catalog = loadCatalog(roots, req.projectRoot);
  const budget = new ContentBudget(ANSWER_CHARS, FILE_CHARS);
  const numbers = parseNumbers(req.query);
  const byAbs = new Map(catalog.files.map((f) => [f.abs, f]));
  let picked: Array<{ n: number; file: GuidanceFile; score: number; why: string[] }>;
  let listed: GuidanceAnswer['matches'] = { total: 0, truncated: false, items: [] };
  let filesMatched: number;
  const notes = [...catalog.notes];

  if (numbers) {
    const previous = req.sessions.get(req.session);
    if (!previous) throw new ToolInputError('no earlier guidance_load search in this session to pick numbers from', 'Search with keywords first; the answer numbers its matches.');
    const wrong = numbers.filter((n) => n < 1 || n > previous.length);
    if (wrong.length) {
      throw new ToolInputError(`no match numbered ${wrong.join(', ')} in the previous result (it has ${previous.length})`, `Pick numbers from 1 to ${previous.length}, or search again.`);
    }
    if (numbers.length > MAX_AUTO_LOAD) throw new ToolInputError(`at most ${MAX_AUTO_LOAD} files per call (got ${numbers.length})`);
    picked = [];
    for (const n of numbers) {
      const r = previous[n - 1];
      const file = byAbs.get(r.abs);
      if (file) picked.push({ n, file, score: r.score, why: r.why });
      else notes.push(`match ${n} (${r.abs}) is gone since the search`);
    }
    filesMatched = picked.length;
  } else {
    const keywords = queryStems(req.query);
    if (!keywords.length) throw new ToolInputError(`no keywords in query "${req.query}"`, 'Give a few words about the task (e.g. "api error handling"), or numbers from the previous answer ("1,3").');
    const { ranked, inFocus } = rankGuidance(catalog.files, keywords, req.focus);
    filesMatched = ranked.length;
    req.sessions.set(req.session, ranked.slice(0, REMEMBERED).map((r: Ranked) => ({ abs: r.file.abs, score: r.score, why: r.why })));
    // the tool's schema refuses anything but 1 to MAX_AUTO_LOAD; kept in range here for other callers
    const auto = Math.min(Math.max(1, Math.trunc(req.maxAutoLoad ?? DEFAULT_AUTO_LOAD)), MAX_AUTO_LOAD);
    picked = ranked.slice(0, auto).map((r, i) => ({ n: i + 1, ...r }));
    const rest = ranked.slice(auto, REMEMBERED);
    listed = {
      total: ranked.length - picked.length,
      truncated: ranked.length - picked.length > LISTED,
      items: rest.slice(0, LISTED).map((r, i) => ({ n: auto + i + 1, path: r.file.shown, source: r.file.source, type: r.file.type, score: r.score, why: r.why })),
    };
    if (!ranked.length) {
      notes.push(
        `Nothing matched at focus_level ${req.focus} (${inFocus} of ${catalog.files.length} files are at that level). Try other words or another focus level; add your own files to .planning/guidance/ or ${roots[1].dir} (see docs/guidance.md).`,
      );
    } else if (listed.items.length === 1) notes.push(`Match ${auto + 1} is not loaded: call again with query "${auto + 1}" to load it.`);
    else if (listed.items.length) notes.push(`Matches ${auto + 1}-${auto + listed.items.length} are not loaded: call again with their numbers (e.g. query "${auto + 1},${auto + 2}") to load them.`);
  }

  const loaded = picked.map((p) => loadedEntry(p.n, p, budget));
  const done = new Set(picked.map((p) => real(p.file.abs)));
  const allowed = [...roots.map((r) => r.dir), req.projectRoot].map((d) => ({ dir: real(d) }));
  const show = (abs: string) => {
    const rel = path.relative(req.projectRoot, abs);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
  };
  const { included, problems } = resolveReferences(
    picked.map((p) => ({ abs: p.file.abs, shown: p.file.shown, body: p.file.body })),
    done,
    { allowed, home, show, budget },
  );
  loaded.push(...included);
  if (loaded.some((l) => l.truncated)) notes.push('Some content was cut to fit the answer (truncated: true): Read the file for the rest.');
  const untagged = catalog.files.filter((f) => f.problem !== null);
  if (untagged.length > UNTAGGED_LISTED) notes.push(`${untagged.length} untagged files; the first ${UNTAGGED_LISTED} are listed.`);
  if (untagged.length) notes.push('Untagged files (no usable frontmatter) are searched at every focus level, by name and content only.');
  const issues: GuidanceIssue[] = [
    ...problems.map((p) => ({ kind: 'reference' as const, path: p.ref, from: p.from, problem: p.reason })),
    ...untagged.slice(0, UNTAGGED_LISTED).map((f) => ({ kind: 'untagged' as const, path: f.shown, problem: f.problem as string })),
    ...catalog.skipped.map((x) => ({ kind: 'skipped' as const, ...x })),
  ];
  return {
    loaded,
    matches: listed,
    issues,
    performanceMetrics: { filesScanned: catalog.scanned, filesMatched, searchMs: Math.round((performance.now() - started) * 100) / 100 },
    ...(notes.length ? { hint: notes.join(' ') } : {}),
  };
}
