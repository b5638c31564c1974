import type { ImportKind, RelPath } from '../types.js';
import type { IntelReader } from './reader.js';

export interface Dependencies {
  file: { path: RelPath; id: string };
  /** `exact`: false when every edge between the two files is inferred (the language gave no exact rule) */
  dependencies: Array<{ path: RelPath; id: string; kinds: ImportKind[]; names: string[]; exact: boolean }>;
  dependents: Array<{ path: RelPath; id: string; kinds: ImportKind[]; names: string[]; exact: boolean }>;
  externals: Array<{ package: string; kinds: ImportKind[] }>;
  unresolved: Array<{ specifier: string; kind: ImportKind; reason: string; line: number }>;
}

function group(reader: IntelReader, edges: Array<{ other: string; kind: ImportKind; names: string[]; exact: boolean }>) {
  const byId = new Map<string, { kinds: Set<ImportKind>; names: Set<string>; exact: boolean }>();
  for (const e of edges) {
    const g = byId.get(e.other) ?? { kinds: new Set(), names: new Set(), exact: false };
    g.kinds.add(e.kind);
    if (e.exact) g.exact = true;
    for (const n of e.names) g.names.add(n);
    byId.set(e.other, g);
  }
  return [...byId.entries()]
    .map(([id, g]) => ({ path: reader.nodes.get(id)!.path, id, kinds: [...g.kinds].sort(), names: [...g.names].sort(), exact: g.exact }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** What a file imports (project files, packages, and what could not be resolved) and who imports it. */
export function dependencies(reader: IntelReader, fileOrId: string): Dependencies {
  const node = reader.lookup(fileOrId);
  const out = (reader.out.get(node.id) ?? []).map((e) => ({ other: e.target, kind: e.kind, names: e.names, exact: e.exact }));
  const inn = (reader.in.get(node.id) ?? []).map((e) => ({ other: e.source, kind: e.kind, names: e.names, exact: e.exact }));
  const externals = new Map<string, Set<ImportKind>>();
  for (const { package: pkg, kind } of reader.externalsOf(node.id)) {
    const kinds = externals.get(pkg) ?? new Set();
    kinds.add(kind);
    externals.set(pkg, kinds);
  }
  return {
    file: { path: node.path, id: node.id },
    dependencies: group(reader, out),
    dependents: group(reader, inn),
    externals: [...externals.entries()].map(([pkg, kinds]) => ({ package: pkg, kinds: [...kinds].sort() })),
    unresolved: reader.unresolvedOf(node.id).map(({ specifier, kind, reason, line }) => ({ specifier, kind, reason, line })),
  };
}
