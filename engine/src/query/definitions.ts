/**
 * Where a name is defined, from the records every language module fills: its top-level declarations (symbols: a
 * class, function, const, enum, type, interface, namespace or `declare`d name, with kind and line) and its exports.
 * Best first: declarations (exported, then local; source before `.d.ts`; classes and types before plain bindings),
 * then names bound only by an export (`exports.x = …`, `module.exports = { x }`), then local bindings of an import
 * (`const { x } = require('./x')`, `const X = require('./X')`), re-exports last. A file that merely mentions the
 * name is not a definition. A bare name finds methods declared at top level too (Go's `Store.Add` for `Add`).
 */
import type { IntelReader } from './reader.js';

export type DefinitionHow = 'declaration' | 'export' | 'import-binding' | 'reexport';

export interface Definition {
  id: string;
  path: string;
  /** the name as declared (a folded lookup may differ in case from the question) */
  name: string;
  kind: string;
  line: number;
  exported: boolean;
  how: DefinitionHow;
}

const HOW_RANK: Record<DefinitionHow, number> = { declaration: 0, export: 1, 'import-binding': 2, reexport: 3 };
/** kinds that name a thing outright come before bindings that may hold anything */
const KIND_RANK: Record<string, number> = { class: 0, interface: 0, enum: 0, function: 1, type: 1, namespace: 2, const: 3, variable: 4 };
const isTypesFile = (p: string) => /\.d\.[cm]?ts$/.test(p);

/** The definitions of `name` (any case when `folded`), best first; `only` keeps one file's. */
export function definitions(reader: IntelReader, name: string, options: { folded?: boolean; only?: string | null } = {}): Definition[] {
  const only = options.only ?? null;
  const symbols = (options.folded ? reader.symbolsNamedFolded(name) : reader.symbolsNamed(name)).filter((s) => !only || s.id === only);
  const declaredIn = new Set(symbols.map((s) => s.id));
  // a bare name also finds the methods declared at top level under it (Go's `func (s *Store) Add` is `Store.Add`)
  if (!name.includes('.')) symbols.push(...reader.methodsNamed(name, options.folded).filter((s) => !only || s.id === only));
  const out: Definition[] = [];
  for (const s of symbols) {
    const path = reader.nodes.get(s.id)!.path;
    // a local const or variable holding what the file imports from a file that declares the name, or by that name
    const imported =
      !s.exported &&
      (s.kind === 'const' || s.kind === 'variable') &&
      (reader.out.get(s.id) ?? []).some((e) => e.names.includes(s.name) || (e.names.includes('*') && declaredIn.has(e.target) && e.target !== s.id));
    out.push({ id: s.id, path, name: s.name, kind: s.kind, line: s.line, exported: s.exported, how: imported ? 'import-binding' : 'declaration' });
  }
  const lower = name.toLowerCase();
  for (const n of reader.nodes.values()) {
    if ((only && n.id !== only) || declaredIn.has(n.id)) continue;
    for (const e of n.exports) {
      if (e.name === 'default' || (options.folded ? e.name.toLowerCase() !== lower : e.name !== name)) continue;
      out.push({ id: n.id, path: n.path, name: e.name, kind: e.kind, line: e.line, exported: true, how: e.kind === 'reexport' ? 'reexport' : 'export' });
    }
  }
  const rank = (d: Definition) => [HOW_RANK[d.how], d.exported ? 0 : 1, isTypesFile(d.path) ? 1 : 0, KIND_RANK[d.kind] ?? 5];
  return out.sort((a, b) => {
    const x = rank(a);
    const y = rank(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
  });
}
