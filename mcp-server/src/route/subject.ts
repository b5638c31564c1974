/**
 * What a question is about, matched against the real index: a path ("src/db.ts", "db.ts"), an exported symbol
 * ("getUser"), or a vague name ("the auth service", "the module that handles render targets") found by the engine's
 * own search over paths, exported symbols and purposes. Every candidate says why it matched; the best comes first.
 */
import path from 'node:path';
import { definitions, dependentCounts, searchIntel, type DefinitionHow, type IntelReader } from '../../../engine/src/index.js';
import { subjectWords } from './families.js';

export interface Candidate {
  path: string;
  /** the exported symbol the question names, if any */
  symbol: string | null;
  why: string;
  score: number;
}

export interface Subject {
  /** how it was found: a path or symbol named outright, or a search over the question's words */
  how: 'path' | 'symbol' | 'search' | 'none';
  /** the words the search used (how = search) */
  words: string;
  candidates: Candidate[];
}

interface NameIndex {
  stems: Map<string, string[]>;
  /** the file extensions of the project's files: "logging.py" names a file where .py files are indexed */
  exts: Set<string>;
}

/** a declaration is the definition; an export-only binding comes next, an import's local binding and a re-export last */
const HOW_SCORE: Record<DefinitionHow, number> = { declaration: 8, export: 4, 'import-binding': -8, reexport: -10 };
const WHY: Record<DefinitionHow, string> = { declaration: 'declares', export: 'exports', 'import-binding': 'imports', reexport: 're-exports' };

const CODE_EXT = /\.(?:[cm]?[jt]sx?|d\.ts)$/i;

/** a file's name without its extension, as written */
const nameOf = (p: string) => path.posix.basename(p).replace(/\.d\.ts$/i, '').replace(/\.[^.]+$/, '');
const stemOf = (p: string) => nameOf(p).toLowerCase();

function nameIndex(reader: IntelReader): NameIndex {
  return reader.memo('route-names', () => {
    const stems = new Map<string, string[]>();
    for (const n of reader.nodes.values()) {
      const s = stemOf(n.path);
      stems.set(s, [...(stems.get(s) ?? []), n.id]);
    }
    const exts = new Set([...reader.byPath.keys()].map((p) => /\.([A-Za-z0-9]+)$/.exec(p)?.[1]?.toLowerCase() ?? '').filter(Boolean));
    return { stems, exts };
  });
}

/** a name only code has (snake_case, camelCase, a capital, a digit) outranks a plain word ("source location of remove_input_defaults") */
const codeShaped = (w: string) => /[_$\d]|[a-z][A-Z]|^[A-Z]/.test(w);
const looksLikeIdentifier = (w: string) => /^[A-Za-z_$][\w$]*$/.test(w) && (/[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|_/.test(w) || /^[A-Z]/.test(w) || w.length >= 3);

/** Candidates for the subject of `text` (the question minus its family words), best first, at most `limit`. */
export function resolveSubject(reader: IntelReader, text: string, limit = 5): Subject {
  const words = subjectWords(text);
  const idx = nameIndex(reader);
  const looksLikePath = (w: string) => w.includes('/') || CODE_EXT.test(w) || idx.exts.has(/\.([A-Za-z0-9]+)$/.exec(w)?.[1]?.toLowerCase() ?? '');
  const found = new Map<string, Candidate>();
  const add = (id: string, symbol: string | null, why: string, score: number) => {
    const node = reader.nodes.get(id);
    if (!node) return;
    const key = `${node.path}\u0000${symbol ?? ''}`;
    const prev = found.get(key);
    if (!prev || prev.score < score) found.set(key, { path: node.path, symbol, why: prev && prev.why !== why ? `${why}; ${prev.why}` : why, score });
  };
  let how: Subject['how'] = 'none';
  for (const raw of words.filter(looksLikePath)) {
    const w = raw.replace(/^\.\//, '').replace(/\\/g, '/').replace(/\/$/, '');
    const lower = w.toLowerCase();
    if (reader.byPath.has(w)) {
      add(reader.byPath.get(w)!, null, 'exact path', 100);
      continue;
    }
    for (const [p, id] of reader.byPath) {
      const pl = p.toLowerCase();
      // the case as written beats a folded match ("tQueue.ts" beside "TQueue.ts")
      if (pl.endsWith(`/${lower}`)) add(id, null, `path ends with ${w}`, p.endsWith(`/${w}`) ? 91 : 90);
      else if (!CODE_EXT.test(w) && (pl.startsWith(`${lower}/index.`) || pl.includes(`/${lower}/index.`))) add(id, null, `index of folder ${w}`, 85);
      else if (CODE_EXT.test(w) && stemOf(pl) === stemOf(lower) && !w.includes('/')) add(id, null, `file name like ${w}`, nameOf(p) === nameOf(w) ? 71 : 70);
    }
  }
  if (found.size) how = 'path';
  else {
    for (const w of words.filter(looksLikeIdentifier)) {
      // a declaration (any language's top-level symbols) is the definition; an export-only binding comes next, a re-export last
      for (const d of definitions(reader, w, { folded: true })) {
        const score = (d.name === w ? 85 : 75) + (codeShaped(w) ? 4 : 0) + HOW_SCORE[d.how] + (d.exported ? 1 : 0) + Math.min(4, dependentCounts(reader, d.id).direct / 10) / 2;
        add(d.id, d.name, `${WHY[d.how]} ${d.kind} ${d.name} (line ${d.line})`, score);
      }
    }
    if (found.size) how = 'symbol';
    else {
      for (const w of words) for (const id of idx.stems.get(w.toLowerCase()) ?? []) add(id, null, `file named ${w}`, 80);
      if (found.size) how = 'path';
    }
  }
  // a path that matched nothing ("db.ts" in a project with src/db/client.ts) is searched for by its name
  const searchWords = words.map((w) => (looksLikePath(w) ? stemOf(w) : w)).filter((w) => w.length >= 2).join(' ');
  if (!found.size && searchWords) {
    how = 'search';
    const r = searchIntel(reader, searchWords, { limit });
    const top = r.results[0]?.score ?? 1;
    for (const h of r.results) add(h.id, null, `search "${searchWords}": ${h.matches.slice(0, 3).join(', ')}`, 30 + (20 * h.score) / top);
  }
  const candidates = [...found.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, limit);
  for (const c of candidates) c.score = Math.round(c.score * 10) / 10;
  return { how: candidates.length ? how : 'none', words: searchWords, candidates };
}
