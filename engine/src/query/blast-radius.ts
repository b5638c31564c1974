import type { FileType, ImportKind, RelPath } from '../types.js';
import type { EdgeInfo, IntelReader } from './reader.js';

export interface AffectedFile {
  path: RelPath;
  id: string;
  type: FileType;
  depth: number;
  /** the file it depends on that brings it into the radius, and how */
  via: { path: RelPath; kinds: ImportKind[] };
}

export interface BlastRadius {
  file: { path: RelPath; id: string };
  symbol: string | null;
  maxDepth: number;
  total: number;
  byDepth: Array<{ depth: number; files: AffectedFile[] }>;
  /** true when dependents exist beyond maxDepth */
  truncated: boolean;
}

interface State {
  id: string;
  /** the exported name through which this file is reached; `*` = the whole module */
  symbol: string;
}

/**
 * The names under which `edge.source` can see `symbol` of `edge.target`, or null when it cannot see it.
 * Re-export edges map names (`export { a as b } from`, `export * from`, `export * as ns from`); any other edge
 * reaches the whole importer when it imports the name, the default, or the namespace.
 */
function follow(edge: EdgeInfo, symbol: string): string[] | null {
  if (symbol === '*') return ['*'];
  if (edge.reexports && edge.reexports.length) {
    const next: string[] = [];
    for (const b of edge.reexports) {
      if (b.imported === symbol) next.push(b.exported === '*' ? symbol : b.exported);
      else if (b.imported === '*' && b.exported === '*' && symbol !== 'default') next.push(symbol);
      else if (b.imported === '*' && b.exported !== '*') next.push(b.exported);
    }
    // a merged type-import edge can carry both `import type { X }` and `export type { Y } from`
    const importsIt = edge.names.includes(symbol) || edge.names.includes('*');
    if (importsIt && edge.kind !== 'reexport' && !next.includes('*')) next.push('*');
    return next.length ? next : null;
  }
  if (edge.kind === 'triple-slash' || edge.kind === 'triple-slash-types') return ['*'];
  if (edge.names.includes(symbol) || edge.names.includes('*')) return ['*'];
  return null;
}

/**
 * Files affected by a change to `file` (or to one exported `symbol` of it), by depth. Without a symbol every
 * dependent counts; with one, only files that really reach that symbol, through any chain of re-exports.
 */
export function blastRadius(reader: IntelReader, fileOrId: string, options: { maxDepth?: number; symbol?: string | null } = {}): BlastRadius {
  const start = reader.lookup(fileOrId);
  const maxDepth = Math.max(1, Math.min(options.maxDepth ?? 10, 50));
  const symbol = options.symbol?.trim() || null;
  const bestDepth = new Map<string, AffectedFile>();
  const seen = new Set<string>([`${start.id}\u0000${symbol ?? '*'}`]);
  let frontier: State[] = [{ id: start.id, symbol: symbol ?? '*' }];
  let truncated = false;
  for (let depth = 1; frontier.length; depth++) {
    const next: State[] = [];
    for (const state of frontier) {
      const via = reader.nodes.get(state.id)!;
      for (const edge of reader.in.get(state.id) ?? []) {
        if (edge.source === start.id) continue;
        const names = follow(edge, state.symbol);
        if (!names) continue;
        if (depth > maxDepth) {
          if (!bestDepth.has(edge.source)) truncated = true;
          continue;
        }
        const node = reader.nodes.get(edge.source)!;
        const existing = bestDepth.get(edge.source);
        if (!existing) {
          bestDepth.set(edge.source, { path: node.path, id: node.id, type: node.type, depth, via: { path: via.path, kinds: [edge.kind] } });
        } else if (existing.depth === depth && existing.via.path === via.path && !existing.via.kinds.includes(edge.kind)) {
          existing.via.kinds.push(edge.kind);
        }
        for (const n of names) {
          const key = `${edge.source}\u0000${n}`;
          if (seen.has(key)) continue;
          seen.add(key);
          next.push({ id: edge.source, symbol: n });
        }
      }
    }
    frontier = next;
    if (depth > maxDepth) break;
  }
  const files = [...bestDepth.values()].sort((a, b) => a.depth - b.depth || (a.path < b.path ? -1 : 1));
  const byDepth: BlastRadius['byDepth'] = [];
  for (const f of files) {
    f.via.kinds.sort();
    const last = byDepth[byDepth.length - 1];
    if (last && last.depth === f.depth) last.files.push(f);
    else byDepth.push({ depth: f.depth, files: [f] });
  }
  return { file: { path: start.path, id: start.id }, symbol, maxDepth, total: files.length, byDepth, truncated };
}
