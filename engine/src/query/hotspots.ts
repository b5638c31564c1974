import { rankByDependents } from '../graph/adjacency.js';
import type { Hotspot } from '../types.js';
import type { IntelReader } from './reader.js';

function allCounts(reader: IntelReader): Hotspot[] {
  return reader.memo('hotspots', () => {
    const nodes = [...reader.nodes.values()].map((n) => ({ key: n.id, path: n.path, id: n.id }));
    const edges: Array<{ source: string; target: string }> = [];
    for (const list of reader.out.values()) for (const e of list) edges.push(e);
    return rankByDependents(nodes, edges);
  });
}

/** Files ranked by how many files depend on them, transitively first, then directly. */
export function hotspots(reader: IntelReader, options: { limit?: number } = {}): { total: number; hotspots: Hotspot[]; truncated: boolean } {
  const limit = Math.max(1, Math.min(options.limit ?? 10, 20_000));
  const ranked = allCounts(reader).filter((h) => h.direct > 0);
  return { total: ranked.length, hotspots: ranked.slice(0, limit), truncated: ranked.length > limit };
}

/** Direct and transitive dependent counts of one file. */
export function dependentCounts(reader: IntelReader, id: string): { direct: number; transitive: number } {
  const h = reader.memo('hotspots-by-id', () => new Map(allCounts(reader).map((x) => [x.id, x]))).get(id);
  return { direct: h?.direct ?? 0, transitive: h?.transitive ?? 0 };
}
