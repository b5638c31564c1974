/**
 * The project's resolver: each import goes to the resolver of its file's language (a LanguageResolver, made on
 * first need over the same file set), JS/TS to engine/src/resolve/. One resolver for a mixed repository, so a
 * Python backend beside a TS front end is one graph.
 */
import { createResolver } from '../resolve/index.js';
import type { Resolver, ResolverHost } from '../resolve/host.js';
import type { ImportKind, ImportRecord, RelPath, Resolution, ResolvedImport } from '../types.js';
import { languageOf } from './registry.js';
import type { ImportTarget, LanguageModule, LanguageResolver } from './types.js';

/**
 * An import record's own fields (no resolution), written out field by field: an object spread gives each result a
 * hidden class of its own in V8 (some 300 bytes apiece, a large build makes one entry per import).
 */
export function importRecordOf(imp: ImportRecord): ImportRecord {
  const entry: ImportRecord = imp.reexports ? { specifier: imp.specifier, kind: imp.kind, names: imp.names, line: imp.line, reexports: imp.reexports } : { specifier: imp.specifier, kind: imp.kind, names: imp.names, line: imp.line };
  if (imp.global) entry.global = true;
  if (imp.reference) entry.reference = true;
  if (imp.calls) entry.calls = imp.calls;
  return entry;
}

/** An import's record entry resolved to `resolved` (importRecordOf's fields and the resolution). */
export function resolvedEntry(imp: ImportRecord, resolved: Resolution): ResolvedImport {
  // the common entry in one literal: its fields in the object, not in a second array added on the first new field
  if (!imp.reexports && !imp.global && !imp.reference && !imp.calls) return { specifier: imp.specifier, kind: imp.kind, names: imp.names, line: imp.line, resolved };
  const entry = importRecordOf(imp) as ResolvedImport;
  entry.resolved = resolved;
  return entry;
}

/** The record entries of one statement's targets (ResolvedImport: the first is the statement, the rest `part`s). */
export function importEntries(imp: ImportRecord, targets: readonly ImportTarget[]): ResolvedImport[] {
  const out: ResolvedImport[] = [];
  targets.forEach((t, i) => {
    // a further target (one file of a Go package) in one literal, as resolvedEntry
    const entry: ResolvedImport = i === 0 ? resolvedEntry(imp, t.resolved) : { specifier: imp.specifier, kind: imp.kind, names: t.names ?? imp.names, line: imp.line, resolved: t.resolved, part: i };
    if (t.inferred) entry.inferred = true;
    if (t.reexports) entry.reexports = t.reexports;
    if (i === 0 && t.names && !sameNames(t.names, imp.names)) entry.targetNames = [...t.names];
    out.push(entry);
  });
  return out;
}

const sameNames = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((n, i) => n === b[i]);

export function createProjectResolver(host: ResolverHost): Resolver {
  const js = createResolver(host);
  const byLanguage = new Map<LanguageModule, LanguageResolver>();
  const languageResolver = (from: RelPath): LanguageResolver | null => {
    const language = languageOf(from);
    if (!language?.createResolver) return null;
    let r = byLanguage.get(language);
    if (!r) {
      r = language.createResolver(host);
      byLanguage.set(language, r);
    }
    return r;
  };
  return {
    resolve(specifier: string, from: RelPath, kind: ImportKind): Resolution {
      const r = languageResolver(from);
      return r ? r.resolve({ specifier, kind, names: [], line: 0 }, from)[0].resolved : js.resolve(specifier, from, kind);
    },
    resolveImport(imp: ImportRecord, from: RelPath): ResolvedImport[] {
      const r = languageResolver(from);
      if (!r) return [resolvedEntry(imp, js.resolve(imp.specifier, from, imp.kind))];
      const targets = r.resolve(imp, from);
      return importEntries(imp, targets.length ? targets : [{ resolved: { kind: 'unresolved', reason: 'no target' } }]);
    },
    configFiles(): RelPath[] {
      return [...new Set([...js.configFiles(), ...[...byLanguage.values()].flatMap((r) => r.configFiles())])].sort();
    },
    forgetResults(): void {
      js.forgetResults();
      for (const r of byLanguage.values()) r.forgetResults();
    },
  };
}
