import { buildAdjacency, reachCounts } from '../graph/adjacency.js';
import type { Hotspot } from '../types.js';
import type { IntelReader } from './reader.js';

function allCounts(reader: IntelReader): Hotspot[] {
  return reader.memo('hotspots', () => {
    const ids = [...reader.nodes.keys()];
    const edges: Array<{ source: string; target: string }> = [];
    for (const list of reader.out.values()) for (const e of list) edges.push(e);
    const adj = buildAdjacency(ids, edges);
    const transitive = reachCounts(ids.length, adj.in);
    return ids
      .map((id, i) => ({ path: reader.nodes.get(id)!.path, id, direct: adj.in[i].length, transitive: transitive[i] }))
      .sort((a, b) => b.transitive - a.transitive || b.direct - a.direct || (a.path < b.path ? -1 : 1));
  });
}

/** Files ranked by how many files depend on them, transitively first, then directly. */
export function hotspots(reader: IntelReader, options: { limit?: number } = {}): { total: number; hotspots: Hotspot[]; truncated: boolean } {
  const limit = Math.max(1, Math.min(options.limit ?? 10, 500));
  const ranked = allCounts(reader).filter((h) => h.direct > 0);
  return { total: ranked.length, hotspots: ranked.slice(0, limit), truncated: ranked.length > limit };
}

/** Direct and transitive dependent counts of one file. */
export function dependentCounts(reader: IntelReader, id: string): { direct: number; transitive: number } {
  const h = allCounts(reader).find((x) => x.id === id);
  return { direct: h?.direct ?? 0, transitive: h?.transitive ?? 0 };
}
