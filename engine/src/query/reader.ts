import path from 'node:path';
import { looksLikeEntityId, toRelPath } from '../ids.js';
import { intelPaths } from '../paths.js';
import type { GraphDb } from '../store/index.js';
import type { ExportRecord, FileType, ImportKind, ReexportBinding, RelPath, StoreMeta } from '../types.js';

export interface NodeInfo {
  id: string;
  path: RelPath;
  type: FileType;
  purpose: string;
  exports: ExportRecord[];
  syntaxError: unknown;
  skipped: string | null;
}

export interface EdgeInfo {
  source: string;
  target: string;
  kind: ImportKind;
  names: string[];
  reexports: ReexportBinding[] | null;
}

export class UnknownFileError extends Error {
  override name = 'UnknownFileError';
  constructor(readonly query: string, readonly suggestions: RelPath[]) {
    super(`no indexed file matches "${query}"${suggestions.length ? `; did you mean ${suggestions.slice(0, 3).join(', ')}?` : ''}`);
  }
}

/** A read-only view of graph.db with adjacency maps, loaded once and shared by every query. */
export class IntelReader {
  readonly nodes = new Map<string, NodeInfo>();
  readonly byPath = new Map<RelPath, string>();
  readonly out = new Map<string, EdgeInfo[]>();
  readonly in = new Map<string, EdgeInfo[]>();
  private cache = new Map<string, unknown>();

  constructor(readonly root: string, readonly graph: GraphDb) {
    const nodes = graph.db.exec('SELECT id, path, body FROM nodes ORDER BY path')[0]?.values ?? [];
    for (const [id, p, body] of nodes as [string, string, string][]) {
      const b = JSON.parse(body);
      this.nodes.set(id, { id, path: p, type: b.type, purpose: b.purpose ?? '', exports: b.exports ?? [], syntaxError: b.syntaxError ?? null, skipped: b.skipped ?? null });
      this.byPath.set(p, id);
      this.out.set(id, []);
      this.in.set(id, []);
    }
    const edges = graph.db.exec('SELECT source, target, kind, names, reexports FROM edges ORDER BY source, target, kind')[0]?.values ?? [];
    for (const [rowSource, rowTarget, kind, names, reexports] of edges as [string, string, ImportKind, string | null, string | null][]) {
      // the node's own id strings: every later lookup by an edge's end then hashes and compares one string object
      // (strings fresh from sql.js made the maps of a 50,000-file graph several times slower to probe)
      const source = this.nodes.get(rowSource)?.id ?? rowSource;
      const target = this.nodes.get(rowTarget)?.id ?? rowTarget;
      const e: EdgeInfo = { source, target, kind, names: names ? JSON.parse(names) : [], reexports: reexports ? JSON.parse(reexports) : null };
      this.out.get(source)?.push(e);
      this.in.get(target)?.push(e);
    }
  }

  get meta(): StoreMeta {
    return this.graph.meta;
  }

  /** Finds a node by entity id, repo-relative path, absolute path or `./` path. */
  lookup(fileOrId: string): NodeInfo {
    const trimmed = fileOrId.trim();
    if (this.nodes.has(trimmed)) return this.nodes.get(trimmed)!;
    const rel = toRelPath(this.root, trimmed.replace(/\\/g, '/'));
    if (rel !== null && this.byPath.has(rel)) return this.nodes.get(this.byPath.get(rel)!)!;
    const needle = (rel ?? trimmed).toLowerCase();
    const base = path.posix.basename(needle);
    const suggestions = looksLikeEntityId(trimmed)
      ? []
      : [...this.byPath.keys()].filter((p) => p.toLowerCase().endsWith(needle) || path.posix.basename(p.toLowerCase()) === base).slice(0, 5);
    if (suggestions.length === 1 && suggestions[0].toLowerCase().endsWith(`/${needle}`)) return this.nodes.get(this.byPath.get(suggestions[0])!)!;
    throw new UnknownFileError(fileOrId, suggestions);
  }

  /** Memoises a derived value (hotspot counts, …) for the lifetime of this reader. */
  memo<T>(key: string, compute: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, compute());
    return this.cache.get(key) as T;
  }

  close(): void {
    this.graph.close();
  }
}

/** Opens a project's graph.db for queries. Throws the store's errors when it is missing, corrupt or of another format. */
export async function openIntel(root: string): Promise<IntelReader> {
  const { openGraphDb } = await import('../store/index.js');
  const graph = await openGraphDb(intelPaths(root).graph);
  return new IntelReader(root, graph);
}
