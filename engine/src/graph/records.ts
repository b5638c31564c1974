import { entityId } from '../ids.js';
import type { EdgeRow, FileRecord, GraphRows, ImportKind, ImportRecord, KnownFacts, LoadedFile, ReexportBinding, RelPath, ResolvedImport } from '../types.js';
import type { ParseFacts } from '../resolve/host.js';
import type { Resolver } from '../resolve/index.js';
import { fileType, generatedPurpose } from './classify.js';
import { languageOf } from '../languages/registry.js';
import { importRecordOf, resolvedEntry } from '../languages/resolver.js';

export interface ManualPurpose {
  purpose: string;
  manual: boolean;
}

/**
 * Folds what the loader found into a FileRecord. A file that no longer parses keeps its last good facts (from
 * `previous`) and is marked with the syntax error (`kept`); a file whose previous facts were read from a text with an
 * error too takes what the parser reads of the new text, as a build does (else such a file, one the grammar never
 * reads cleanly, would keep its first facts through every edit); a purpose written by a person or an agent is kept. With
 * `keepResolutions`, imports the same as `previous`'s (every parsed field, line included) keep its resolutions and
 * the resolver is not asked: for a caller that knows nothing else the file's resolution reads has moved
 * (LanguageModule.resolvesFromFacts).
 */
export function makeRecord(
  loaded: LoadedFile,
  previous: FileRecord | undefined,
  resolver: Resolver,
  manual: ManualPurpose | null,
  keepResolutions = false,
): FileRecord {
  const type = fileType(loaded.path);
  const base = {
    path: loaded.path,
    id: entityId(loaded.path),
    hash: loaded.hash,
    size: loaded.size,
    mtimeMs: loaded.mtimeMs,
    type,
    language: languageOf(loaded.path)?.id ?? 'unknown',
  };
  let facts: Pick<FileRecord, 'moduleSystem' | 'docComment' | 'exports' | 'symbols' | 'syntaxError' | 'skipped'> & {
    imports: Omit<ResolvedImport, 'resolved'>[];
  };
  if ('skipped' in loaded) {
    facts = { moduleSystem: 'none', docComment: null, exports: [], symbols: [], imports: [], syntaxError: null, skipped: loaded.skipped };
  } else {
    const p = loaded.parsed;
    const keepPrevious = keepsPreviousFacts(loaded, previous);
    const source = keepPrevious ? previous : p;
    facts = {
      moduleSystem: source.moduleSystem,
      docComment: source.docComment,
      exports: source.exports,
      symbols: source.symbols,
      // a previous record's further targets of a statement (`part`) are no parse facts: the statement makes them again
      imports: (keepPrevious ? previous.imports.filter((i) => i.part === undefined) : p.imports).map(importRecordOf),
      syntaxError: keepPrevious && p.syntaxError ? { message: p.syntaxError.message, line: p.syntaxError.line, kept: true } : p.syntaxError,
      skipped: null,
    };
  }
  const imports =
    keepResolutions && previous && sameImports(previous.imports, facts.imports) ? previous.imports : facts.imports.flatMap((i) => resolveOne(resolver, i, loaded.path));
  const purpose = manual?.manual
    ? { purpose: manual.purpose, purposeSource: 'manual' as const }
    : { purpose: generatedPurpose(loaded.path, type, facts.docComment, facts.exports, facts.imports), purposeSource: 'generated' as const };
  // written out field by field: a spread would give each record a hidden class of its own (resolvedEntry)
  return {
    path: base.path,
    id: base.id,
    hash: base.hash,
    size: base.size,
    mtimeMs: base.mtimeMs,
    type: base.type,
    language: base.language,
    moduleSystem: facts.moduleSystem,
    docComment: facts.docComment,
    purpose: purpose.purpose,
    purposeSource: purpose.purposeSource,
    exports: facts.exports,
    symbols: facts.symbols,
    imports,
    syntaxError: facts.syntaxError,
    skipped: facts.skipped,
  };
}

/** Whether a loaded file's record keeps the facts of its previous record: it no longer parses (makeRecord). */
function keepsPreviousFacts(loaded: LoadedFile, previous: FileRecord | undefined): previous is FileRecord {
  return (
    !('skipped' in loaded) &&
    loaded.parsed.syntaxError !== null &&
    previous !== undefined &&
    previous.skipped === null &&
    // facts worth keeping: from a text that parsed, or kept from one
    (previous.syntaxError === null || previous.syntaxError.kept === true)
  );
}

/**
 * The parse facts the record made of a loaded file will hold (makeRecord), for a resolver that reads other files'
 * declarations (ResolverHost.factsOf) while the record is being made: null for a skipped file.
 */
export function loadedFacts(loaded: LoadedFile, previous: FileRecord | undefined): ParseFacts | null {
  if ('skipped' in loaded) return null;
  return keepsPreviousFacts(loaded, previous) ? previous : loaded.parsed;
}

/** The record entries of one parsed import: itself resolved, or one per file it reaches (Resolver.resolveImport). */
function resolveOne(resolver: Resolver, i: Omit<ResolvedImport, 'resolved'>, from: RelPath): ResolvedImport[] {
  return resolver.resolveImport ? resolver.resolveImport(i, from) : [resolvedEntry(i, resolver.resolve(i.specifier, from, i.kind))];
}

/** The parsed import behind a record entry: none for a further target of a statement (`part`). */
function parsedImport(i: ResolvedImport): Omit<ResolvedImport, 'resolved'> | null {
  if (i.part !== undefined) return null;
  const { resolved: _resolved, inferred: _inferred, targetNames: _targetNames, ...parsed } = i;
  return parsed;
}

/** Re-resolves every import of a record against the current file set; returns the same object when nothing changed. */
export function reresolve(record: FileRecord, resolver: Resolver): FileRecord {
  const imports = record.imports.flatMap((i) => {
    const parsed = parsedImport(i);
    return parsed ? resolveOne(resolver, parsed, record.path) : [];
  });
  const same = imports.length === record.imports.length && imports.every((i, k) => sameEntry(i, record.imports[k]));
  return same ? record : { ...record, imports };
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));

/**
 * Whether a record's imports were resolved from exactly these parsed imports: its statements (no `part`) the same in
 * every field a record keeps of a parsed import (importRecordOf, the one list of them).
 */
function sameImports(entries: readonly ResolvedImport[], parsed: readonly ImportRecord[]): boolean {
  const statements = entries.filter((e) => e.part === undefined);
  return statements.length === parsed.length && statements.every((e, k) => JSON.stringify(importRecordOf(e)) === JSON.stringify(importRecordOf(parsed[k]!)));
}

/** One record entry resolved the same way twice (its parse facts are the same by construction but for `names` of parts). */
function sameEntry(a: ResolvedImport, b: ResolvedImport): boolean {
  return (
    a.specifier === b.specifier &&
    a.kind === b.kind &&
    a.line === b.line &&
    a.part === b.part &&
    a.inferred === b.inferred &&
    sameList(a.names, b.names) &&
    sameList(a.targetNames, b.targetNames) &&
    JSON.stringify(a.resolved) === JSON.stringify(b.resolved)
  );
}

export interface FileEdge {
  source: string;
  target: string;
  kind: ImportKind;
  names: string[];
  reexports: ReexportBinding[] | null;
  specifier: string;
  line: number;
  /** false when every import behind the edge is inferred */
  exact: boolean;
}

/**
 * The parse facts a record was made from, for reuse when the file's bytes still hash the same (see KnownFacts).
 * None for a skipped file or one with a syntax error, whose record keeps the facts of an earlier content.
 */
export function knownFacts(record: FileRecord): KnownFacts | null {
  if (record.skipped !== null || record.syntaxError !== null || record.hash === null) return null;
  return {
    hash: record.hash,
    parsed: {
      imports: record.imports.flatMap((i) => parsedImport(i) ?? []),
      exports: record.exports,
      symbols: record.symbols,
      docComment: record.docComment,
      moduleSystem: record.moduleSystem,
      syntaxError: null,
    },
  };
}

/** knownFacts of the given paths that have a reusable record. */
export function knownFactsOf(records: { get(path: string): FileRecord | undefined }, paths: Iterable<string>): Map<string, KnownFacts> {
  const known = new Map<string, KnownFacts>();
  for (const p of paths) {
    const r = records.get(p);
    const k = r ? knownFacts(r) : null;
    if (k) known.set(p, k);
  }
  return known;
}

/**
 * How a project's imports resolved: `imports` that reached a project file, the `edges` they make (one per source,
 * target and kind, as graph.db and summary.md count them), and `unresolved` imports.
 */
export function importCounts<R extends Pick<FileRecord, 'path' | 'imports'>>(
  records: Iterable<R>,
  edgesFor?: (r: R) => readonly FileEdge[],
): { imports: number; edges: number; unresolved: number } {
  const counts = { imports: 0, edges: 0, unresolved: 0 };
  const keys = new Set<string>();
  for (const r of records) {
    for (const i of r.imports) {
      if (i.resolved.kind === 'file') counts.imports++;
      else if (i.resolved.kind === 'unresolved') counts.unresolved++;
    }
    if (edgesFor) {
      counts.edges += edgesFor(r).length;
      continue;
    }
    keys.clear();
    for (const i of r.imports) {
      const key = edgeKey(r.path, i);
      if (key !== null) keys.add(key);
    }
    counts.edges += keys.size;
  }
  return counts;
}

/** What makes an import one of its file's edges (edgesOf): one edge per key; null for an import that makes none. */
function edgeKey(source: RelPath, i: ResolvedImport): string | null {
  return i.resolved.kind === 'file' && i.resolved.path !== source ? `${i.resolved.path}\u0000${i.kind}` : null;
}

/** File-to-file edges of one record, one per (target, kind), names merged, first specifier and line kept. */
export function edgesOf(record: Pick<FileRecord, 'path' | 'imports'>): FileEdge[] {
  const byKey = new Map<string, FileEdge>();
  for (const i of record.imports) {
    const key = edgeKey(record.path, i);
    if (key === null || i.resolved.kind !== 'file') continue;
    const existing = byKey.get(key);
    const names = i.targetNames ?? i.names;
    // a further target of a statement (part) reaches a module as a whole: no re-export bindings of its own
    const reexports = i.part === undefined && i.targetNames === undefined ? i.reexports : undefined;
    if (existing) {
      for (const n of names) if (!existing.names.includes(n)) existing.names.push(n);
      if (reexports) existing.reexports = [...(existing.reexports ?? []), ...reexports];
      if (!i.inferred) existing.exact = true;
    } else {
      byKey.set(key, { source: record.path, target: i.resolved.path, kind: i.kind, names: [...names], reexports: reexports ? [...reexports] : null, specifier: i.specifier, line: i.line, exact: !i.inferred });
    }
  }
  const edges = [...byKey.values()];
  for (const e of edges) {
    e.names.sort();
    if (e.reexports) {
      const unique = new Map(e.reexports.map((b) => [`${b.imported}\u0000${b.exported}`, b]));
      e.reexports = [...unique.values()].sort((a, b) => (a.exported < b.exported ? -1 : a.exported > b.exported ? 1 : a.imported < b.imported ? -1 : 1));
    }
  }
  return edges.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

export function nodeBody(r: FileRecord): string {
  return JSON.stringify({
    type: r.type,
    language: r.language,
    purpose: r.purpose,
    purposeSource: r.purposeSource,
    exports: r.exports.map((e) => ({ name: e.name, kind: e.kind, line: e.line })),
    moduleSystem: r.moduleSystem,
    hash: r.hash,
    size: r.size,
    syntaxError: r.syntaxError,
    skipped: r.skipped,
  });
}

/**
 * The graph.db rows of a set of records. A caller that has the edges at hand already (a full build's edge index)
 * passes them in `edgesFor`, and the ids of their targets in `idOf`.
 */
export function rowsOf(
  records: Iterable<FileRecord>,
  edgesFor: (r: FileRecord) => readonly FileEdge[] = edgesOf,
  idOf: (path: RelPath) => string = entityId,
): GraphRows {
  const rows: GraphRows = { nodes: [], edges: [], symbols: [], externals: [], unresolved: [] };
  for (const r of records) {
    rows.nodes.push({ id: r.id, path: r.path, kind: 'file', body: nodeBody(r) });
    for (const e of edgesFor(r)) {
      const edge: EdgeRow = {
        source: r.id,
        target: idOf(e.target),
        kind: e.kind,
        names: JSON.stringify(e.names),
        reexports: e.reexports ? JSON.stringify(e.reexports) : null,
        specifier: e.specifier,
        line: e.line,
        exact: e.exact,
      };
      rows.edges.push(edge);
    }
    for (const s of r.symbols) rows.symbols.push({ nodeId: r.id, name: s.name, kind: s.kind, line: s.line, exported: s.exported });
    for (const i of r.imports) {
      if (i.resolved.kind === 'external') rows.externals.push({ nodeId: r.id, package: i.resolved.package, specifier: i.specifier, kind: i.kind, line: i.line });
      else if (i.resolved.kind === 'unresolved') rows.unresolved.push({ nodeId: r.id, specifier: i.specifier, kind: i.kind, reason: i.resolved.reason, line: i.line });
    }
  }
  return rows;
}
