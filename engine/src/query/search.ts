import type { FileType, RelPath } from '../types.js';
import { baseStem } from '../graph/classify.js';
import type { IntelReader } from './reader.js';

export interface SearchHit {
  path: RelPath;
  id: string;
  type: FileType;
  score: number;
  purpose: string;
  /** why it matched: `path`, `export:Name`, `symbol:Name`, `purpose` */
  matches: string[];
}

export interface SearchResult {
  query: string;
  total: number;
  results: SearchHit[];
  truncated: boolean;
}

/** Splits a query into lower-case terms; camelCase and snake_case words are split too (`parseFile` → parse, file). */
export function queryTerms(query: string): string[] {
  const words = query
    .split(/[\s,;:/\\|()[\]{}"'`]+/)
    .flatMap((w) => [w, ...w.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_.-]+/)])
    .map((w) => w.toLowerCase().trim())
    .filter((w) => w.length >= 2);
  return [...new Set(words)].slice(0, 12);
}

/**
 * Keyword search over paths, exported symbols, top-level symbols and purposes. Candidates are the files whose path
 * or graph.db row contains a term, or one of whose symbols does (IntelReader, as SQL's LIKE matched them); the
 * ranking weighs exact names above partial ones and paths and exports above purposes.
 */
export function searchIntel(reader: IntelReader, query: string, options: { limit?: number; type?: FileType | null } = {}): SearchResult {
  const limit = Math.max(1, Math.min(options.limit ?? 10, 20_000));
  const terms = queryTerms(query);
  if (!terms.length) return { query, total: 0, results: [], truncated: false };
  const candidates = new Set<string>();
  const symbolHits = new Map<string, Set<string>>();
  for (const term of terms) {
    for (const id of reader.nodesContaining(term)) candidates.add(id);
    for (const { id, name } of reader.symbolsContaining(term)) {
      candidates.add(id);
      const set = symbolHits.get(id) ?? new Set();
      set.add(name);
      symbolHits.set(id, set);
    }
  }
  const hits: SearchHit[] = [];
  for (const id of candidates) {
    const node = reader.nodes.get(id);
    if (!node || (options.type && node.type !== options.type)) continue;
    const pathLower = node.path.toLowerCase();
    const stem = baseStem(pathLower);
    const purpose = node.purpose.toLowerCase();
    let score = 0;
    let matched = 0;
    const matches = new Set<string>();
    for (const term of terms) {
      let best = 0;
      if (stem === term) best = 10;
      else if (stem.includes(term)) best = 6;
      else if (pathLower.includes(term)) best = 3;
      if (best) matches.add('path');
      for (const e of node.exports) {
        const name = e.name.toLowerCase();
        const s = name === term ? 9 : name.includes(term) ? 4 : 0;
        if (s) matches.add(`export:${e.name}`);
        best = Math.max(best, s);
      }
      for (const name of symbolHits.get(id) ?? []) {
        if (name.toLowerCase().includes(term)) {
          if (!node.exports.some((e) => e.name === name)) matches.add(`symbol:${name}`);
          best = Math.max(best, 2);
        }
      }
      if (purpose.includes(term)) {
        matches.add('purpose');
        best = Math.max(best, new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(purpose) ? 3 : 1.5);
      }
      if (best) matched++;
      score += best;
    }
    if (!matched) continue;
    score *= matched / terms.length;
    if (node.type === 'test' || node.type === 'types') score *= 0.8;
    hits.push({ path: node.path, id, type: node.type, score: Math.round(score * 100) / 100, purpose: node.purpose, matches: [...matches].slice(0, 6) });
  }
  hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  return { query, total: hits.length, results: hits.slice(0, limit), truncated: hits.length > limit };
}
