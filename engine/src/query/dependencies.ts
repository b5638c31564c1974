import type { ImportKind, RelPath } from '../types.js';
import type { IntelReader } from './reader.js';

export interface Dependencies {
  file: { path: RelPath; id: string };
  dependencies: Array<{ path: RelPath; id: string; kinds: ImportKind[]; names: string[] }>;
  dependents: Array<{ path: RelPath; id: string; kinds: ImportKind[]; names: string[] }>;
  externals: Array<{ package: string; kinds: ImportKind[] }>;
  unresolved: Array<{ specifier: string; kind: ImportKind; reason: string; line: number }>;
}

function group(reader: IntelReader, edges: Array<{ other: string; kind: ImportKind; names: string[] }>) {
  const byId = new Map<string, { kinds: Set<ImportKind>; names: Set<string> }>();
  for (const e of edges) {
    const g = byId.get(e.other) ?? { kinds: new Set(), names: new Set() };
    g.kinds.add(e.kind);
    for (const n of e.names) g.names.add(n);
    byId.set(e.other, g);
  }
  return [...byId.entries()]
    .map(([id, g]) => ({ path: reader.nodes.get(id)!.path, id, kinds: [...g.kinds].sort(), names: [...g.names].sort() }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** What a file imports (project files, packages, and what could not be resolved) and who imports it. */
export function dependencies(reader: IntelReader, fileOrId: string): Dependencies {
  const node = reader.lookup(fileOrId);
  const out = (reader.out.get(node.id) ?? []).map((e) => ({ other: e.target, kind: e.kind, names: e.names }));
  const inn = (reader.in.get(node.id) ?? []).map((e) => ({ other: e.source, kind: e.kind, names: e.names }));
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
