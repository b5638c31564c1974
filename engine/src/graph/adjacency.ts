import type { RelPath } from '../types.js';

/** File-level adjacency: node numbers, outgoing (dependencies) and incoming (dependents) neighbour lists, de-duplicated. */
export interface Adjacency {
  paths: RelPath[];
  indexOf: Map<RelPath, number>;
  out: number[][];
  in: number[][];
}

export function buildAdjacency(paths: RelPath[], edges: Iterable<{ source: RelPath; target: RelPath }>): Adjacency {
  const indexOf = new Map<RelPath, number>();
  paths.forEach((p, i) => indexOf.set(p, i));
  const outSets = paths.map(() => new Set<number>());
  for (const e of edges) {
    const s = indexOf.get(e.source);
    const t = indexOf.get(e.target);
    if (s === undefined || t === undefined || s === t) continue;
    outSets[s].add(t);
  }
  const out = outSets.map((set) => [...set].sort((a, b) => a - b));
  const inn: number[][] = paths.map(() => []);
  out.forEach((targets, s) => {
    for (const t of targets) inn[t].push(s);
  });
  return { paths, indexOf, out, in: inn };
}

/** Strongly connected components (iterative Tarjan), returned in reverse topological order of `next`. */
function components(n: number, next: number[][]): { comp: Int32Array; count: number } {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const comp = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  let counter = 0;
  let count = 0;
  const work: Array<[number, number]> = [];
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    work.push([root, 0]);
    while (work.length) {
      const frame = work[work.length - 1];
      const v = frame[0];
      if (frame[1] === 0 && index[v] === -1) {
        index[v] = low[v] = counter++;
        stack.push(v);
        onStack[v] = 1;
      }
      const edges = next[v];
      if (frame[1] < edges.length) {
        const w = edges[frame[1]++];
        if (index[w] === -1) work.push([w, 0]);
        else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = count;
        } while (w !== v);
        count++;
      }
    }
  }
  return { comp, count };
}

function popcount(words: Uint32Array): number {
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    let x = words[i];
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    total += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return total;
}

/**
 * For every node, how many other nodes reach it through `next` (with next = `in`, the number of transitive
 * dependents). Exact, through SCC condensation and bitsets: O(E · N/32) rather than a search from every node. A
 * component's bitset is dropped once every component that reads it has (its count is taken first), so memory follows
 * the widest frontier of the condensation, not N² bits.
 */
export function reachCounts(n: number, next: number[][]): number[] {
  const { comp, count } = components(n, next);
  const words = Math.ceil(n / 32);
  const members: number[][] = Array.from({ length: count }, () => []);
  for (let v = 0; v < n; v++) members[comp[v]].push(v);
  /** how many times each component's bitset is still to be read */
  const readers = new Int32Array(count);
  for (let v = 0; v < n; v++) for (const w of next[v]) if (comp[w] !== comp[v]) readers[comp[w]]++;
  const reach: Array<Uint32Array | undefined> = new Array(count);
  const totals = new Int32Array(count);
  // Tarjan numbers components in reverse topological order: successors of c have numbers < c.
  for (let c = 0; c < count; c++) {
    const bits = new Uint32Array(words);
    for (const v of members[c]) {
      bits[v >>> 5] |= 1 << (v & 31);
      for (const w of next[v]) {
        const d = comp[w];
        if (d === c) continue;
        const other = reach[d]!;
        for (let i = 0; i < words; i++) bits[i] |= other[i];
        if (--readers[d] === 0) reach[d] = undefined;
      }
    }
    totals[c] = popcount(bits);
    if (readers[c] > 0) reach[c] = bits;
  }
  const result = new Array<number>(n);
  for (let c = 0; c < count; c++) for (const v of members[c]) result[v] = totals[c] - 1;
  return result;
}

/**
 * Every node with its direct and transitive dependent counts, most depended-on first (transitive, then direct, then
 * path). Shared by summary.md and the hotspots query, so both rank alike.
 */
export function rankByDependents(
  nodes: Array<{ key: string; path: string; id: string }>,
  edges: Iterable<{ source: string; target: string }>,
): Array<{ path: string; id: string; direct: number; transitive: number }> {
  const adj = buildAdjacency(
    nodes.map((n) => n.key),
    edges,
  );
  const transitive = reachCounts(nodes.length, adj.in);
  return nodes
    .map((n, i) => ({ path: n.path, id: n.id, direct: adj.in[i].length, transitive: transitive[i] }))
    .sort((a, b) => b.transitive - a.transitive || b.direct - a.direct || (a.path < b.path ? -1 : 1));
}
