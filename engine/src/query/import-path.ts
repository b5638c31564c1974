import type { ImportKind, RelPath } from '../types.js';
import type { IntelReader } from './reader.js';

export interface ImportPath {
  from: RelPath;
  to: RelPath;
  /** the chain of files from `from` to `to` (both included), with the edge kinds between them; null when unreachable */
  steps: Array<{ path: RelPath; id: string; kinds: ImportKind[] }> | null;
}

/** The shortest import chain from one file to another (breadth-first over dependencies, ties broken by path). */
export function importPath(reader: IntelReader, fromFile: string, toFile: string): ImportPath {
  const from = reader.lookup(fromFile);
  const to = reader.lookup(toFile);
  const previous = new Map<string, string | null>([[from.id, null]]);
  let frontier = [from.id];
  while (frontier.length && !previous.has(to.id)) {
    const next: string[] = [];
    for (const id of frontier) {
      const targets = [...new Set((reader.out.get(id) ?? []).map((e) => e.target))].sort((a, b) => (reader.nodes.get(a)!.path < reader.nodes.get(b)!.path ? -1 : 1));
      for (const t of targets) {
        if (previous.has(t)) continue;
        previous.set(t, id);
        next.push(t);
      }
    }
    frontier = next;
  }
  if (!previous.has(to.id)) return { from: from.path, to: to.path, steps: null };
  const chain: string[] = [];
  for (let id: string | null = to.id; id !== null; id = previous.get(id) ?? null) chain.unshift(id);
  const steps = chain.map((id, i) => {
    const kinds = i === 0 ? [] : [...new Set((reader.out.get(chain[i - 1]) ?? []).filter((e) => e.target === id).map((e) => e.kind))].sort();
    return { path: reader.nodes.get(id)!.path, id, kinds };
  });
  return { from: from.path, to: to.path, steps };
}
