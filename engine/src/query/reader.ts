import path from 'node:path';
import { looksLikeEntityId, toRelPath } from '../ids.js';
import { intelPaths } from '../paths.js';
import { collectGarbage } from '../memory.js';
import type { GraphDb } from '../store/index.js';
import type { ExportRecord, FileType, ImportKind, ReexportBinding, RelPath, StoreMeta } from '../types.js';

export interface NodeInfo {
  id: string;
  path: RelPath;
  type: FileType;
  /** the language module that read it (`typescript`, `python` …) */
  language: string;
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
  /** false when the language's rules could not decide and the edge is a best guess */
  exact: boolean;
}

export class UnknownFileError extends Error {
  override name = 'UnknownFileError';
  constructor(readonly query: string, readonly suggestions: RelPath[]) {
    super(`no indexed file matches "${query}"${suggestions.length ? `; did you mean ${suggestions.slice(0, 3).join(', ')}?` : ''}`);
  }
}

export interface SymbolInfo {
  id: string;
  name: string;
  kind: string;
  line: number;
  exported: boolean;
}

export interface ExternalInfo {
  package: string;
  kind: ImportKind;
}

export interface UnresolvedInfo {
  specifier: string;
  kind: ImportKind;
  reason: string;
  line: number;
}

/** SQLite's lower(): ASCII letters only, as LIKE folds case. */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());


/** Appends `value` to the list of `key` in `map`. */
function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Rows of a query, one array at a time (sql.js' exec would hold them all at once). */
function eachRow(graph: GraphDb, sql: string, row: (values: unknown[]) => void): void {
  const stmt = graph.db.prepare(sql);
  try {
    while (stmt.step()) row(stmt.get());
  } finally {
    stmt.free();
  }
}

/**
 * A read-only view of graph.db, loaded once and shared by every query: the nodes, adjacency maps, and the symbols,
 * external packages and unresolved imports, in compact form. The sql.js database is closed when they are read:
 * kept open it held the whole file in memory (100 MB at 50,000 files) for the few queries that read those tables.
 */
export class IntelReader {
  readonly nodes = new Map<string, NodeInfo>();
  readonly byPath = new Map<RelPath, string>();
  readonly out = new Map<string, EdgeInfo[]>();
  readonly in = new Map<string, EdgeInfo[]>();
  readonly meta: StoreMeta;
  private cache = new Map<string, unknown>();
  /** per node, `lower(path) + '\n' + lower(body)` as SQLite lowers them: what a keyword search matches */
  private readonly searchText = new Map<string, string>();
  /** symbols in table order (columns), the order a search met them in */
  private readonly symbolNode: string[] = [];
  private readonly symbolName: string[] = [];
  private readonly symbolKind: string[] = [];
  private readonly symbolLine: number[] = [];
  private readonly symbolExported: boolean[] = [];
  private readonly externalsBy = new Map<string, ExternalInfo[]>();
  private readonly unresolvedBy = new Map<string, UnresolvedInfo[]>();

  constructor(readonly root: string, graph: GraphDb) {
    this.meta = graph.meta;
    try {
      this.load(graph);
    } finally {
      graph.close();
    }
    // the rows decoded on the way are garbage: collected now, before the server's queries grow the heap past them
    collectGarbage(this.nodes.size);
  }

  private load(graph: GraphDb): void {
    // One object for each distinct value (kinds, names, the names and re-export lists of edges, export lists): the
    // copies of a package in a monorepo repeat them, and each row from sql.js is a fresh string. Read-only values, shared.
    const pool = new Map<string, unknown>();
    /** the one value of `text`: the string itself, or with `json` what it parses to (pooled apart) */
    const shared = <T,>(text: unknown, json = false): T => {
      const key = json ? `\0${text}` : (text as string);
      if (!pool.has(key)) pool.set(key, json ? JSON.parse(text as string) : text);
      return pool.get(key) as T;
    };
    eachRow(graph, 'SELECT id, path, body FROM nodes ORDER BY path', ([id, p, body]) => {
      const b = JSON.parse(body as string);
      const node: NodeInfo = { id: id as string, path: p as string, type: b.type, language: shared(b.language ?? 'unknown'), purpose: b.purpose ?? '', exports: b.exports ? shared(JSON.stringify(b.exports), true) : [], syntaxError: b.syntaxError ?? null, skipped: b.skipped ?? null };
      this.nodes.set(node.id, node);
      this.byPath.set(node.path, node.id);
      this.out.set(node.id, []);
      this.in.set(node.id, []);
      this.searchText.set(node.id, `${asciiLower(node.path)}\n${asciiLower(body as string)}`);
    });
    // the node's own id strings: every later lookup by an edge's end then hashes and compares one string object
    // (strings fresh from sql.js made the maps of a 50,000-file graph several times slower to probe)
    const own = (id: string) => this.nodes.get(id)?.id ?? id;
    eachRow(graph, 'SELECT source, target, kind, names, reexports, exact FROM edges ORDER BY source, target, kind', ([rowSource, rowTarget, kind, names, reexports, exact]) => {
      const source = own(rowSource as string);
      const target = own(rowTarget as string);
      const e: EdgeInfo = { source, target, kind: shared(kind), names: names ? shared(names, true) : [], reexports: reexports ? shared(reexports, true) : null, exact: exact !== 0 };
      this.out.get(source)?.push(e);
      this.in.get(target)?.push(e);
    });
    eachRow(graph, 'SELECT node_id, name, kind, line, exported FROM symbols ORDER BY rowid', ([id, name, kind, line, exported]) => {
      this.symbolNode.push(own(id as string));
      this.symbolName.push(shared(name));
      this.symbolKind.push(shared(kind));
      this.symbolLine.push(line as number);
      this.symbolExported.push(Boolean(exported));
    });
    eachRow(graph, 'SELECT node_id, package, kind FROM externals ORDER BY node_id, package, kind', ([id, pkg, kind]) => {
      addTo(this.externalsBy, own(id as string), { package: pkg as string, kind: kind as ImportKind });
    });
    eachRow(graph, 'SELECT node_id, specifier, kind, reason, line FROM unresolved ORDER BY node_id, line, specifier', ([id, specifier, kind, reason, line]) => {
      addTo(this.unresolvedBy, own(id as string), { specifier: specifier as string, kind: kind as ImportKind, reason: reason as string, line: line as number });
    });
  }

  /** Ids of the nodes whose path or body contains `term` (lower-cased), as `lower(path) LIKE` or `lower(body) LIKE` would. */
  nodesContaining(term: string): string[] {
    // `lower(x) LIKE '%term%'` with the wildcards escaped: a literal substring, ASCII letters folded on both sides
    const t = asciiLower(term);
    const ids: string[] = [];
    for (const [id, text] of this.searchText) if (text.includes(t)) ids.push(id);
    return ids;
  }

  /** Symbols (file id and name) whose name contains `term` (lower-cased), as `lower(name) LIKE` would, in table order. */
  symbolsContaining(term: string): Array<{ id: string; name: string }> {
    const lowered = this.memo('symbols:lower', () => this.symbolName.map(asciiLower));
    const t = asciiLower(term);
    const hits: Array<{ id: string; name: string }> = [];
    for (let i = 0; i < lowered.length; i++) if (lowered[i].includes(t)) hits.push({ id: this.symbolNode[i], name: this.symbolName[i] });
    return hits;
  }

  /** Top-level symbols named exactly `name`, by file id and line. */
  symbolsNamed(name: string): SymbolInfo[] {
    const byName = this.memo('symbols:byName', () => {
      const map = new Map<string, number[]>();
      this.symbolName.forEach((n, i) => addTo(map, n, i));
      return map;
    });
    const rows = (byName.get(name) ?? []).map((i) => ({ id: this.symbolNode[i], name, kind: this.symbolKind[i], line: this.symbolLine[i], exported: this.symbolExported[i] }));
    // ORDER BY node_id, line; ties in table order (a stable sort). Ids are ASCII, so JS order is SQLite's.
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.line - b.line));
  }

  /** Top-level symbols whose name is `name` in any case (ASCII letters folded), by file id and line. */
  symbolsNamedFolded(name: string): SymbolInfo[] {
    const folded = this.memo('symbols:folded', () => {
      const map = new Map<string, string[]>();
      for (const n of new Set(this.symbolName)) addTo(map, asciiLower(n), n);
      return map;
    });
    return (folded.get(asciiLower(name)) ?? []).flatMap((n) => this.symbolsNamed(n));
  }

  /**
   * Top-level symbols declared as `Type.name` (a Go method: top-level, qualified by its receiver type) for a bare
   * `name`, in any case when `folded`, by file id and line.
   */
  methodsNamed(name: string, folded = false): SymbolInfo[] {
    const byMethod = this.memo('symbols:byMethod', () => {
      const map = new Map<string, string[]>();
      for (const n of new Set(this.symbolName)) {
        const dot = n.lastIndexOf('.');
        if (dot <= 0 || dot === n.length - 1) continue;
        const k = asciiLower(n.slice(dot + 1));
        const list = map.get(k);
        if (list) list.push(n);
        else map.set(k, [n]);
      }
      return map;
    });
    return (byMethod.get(asciiLower(name)) ?? []).filter((n) => folded || n.slice(n.lastIndexOf('.') + 1) === name).flatMap((n) => this.symbolsNamed(n));
  }

  /** External packages a file imports, by package and kind. */
  externalsOf(id: string): readonly ExternalInfo[] {
    return this.externalsBy.get(id) ?? [];
  }

  /** A file's imports that did not resolve, by line and specifier. */
  unresolvedOf(id: string): readonly UnresolvedInfo[] {
    return this.unresolvedBy.get(id) ?? [];
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

  /** Nothing to release any more (graph.db is closed once read); kept for callers that close what they open. */
  close(): void {}
}

/** Opens a project's graph.db for queries. Throws the store's errors when it is missing, corrupt or of another format. */
export async function openIntel(root: string): Promise<IntelReader> {
  const { openGraphDb } = await import('../store/index.js');
  const graph = await openGraphDb(intelPaths(root).graph);
  return new IntelReader(root, graph);
}
