/**
 * C#'s rules over the project's files. A namespace spans files (and projects), so a `using` names no file: the
 * compiler binds each simple type name a file uses through the usings in scope and its own namespace (and that
 * namespace's parents) to the namespace that declares it. This resolver does the same over the project's files:
 *
 * - each `.cs` file's top-level types (a nested type is seen only through its container, which the file then names),
 *   their namespaces, its static classes' extension methods and its `global using`s are read from its
 *   parse facts (ResolverHost.factsOf: the symbols and imports parse.ts gives), never from its text; a plain
 *   `using N;` binds the names of the file's own-namespace record (parse.ts keeps them once, there);
 * - a file belongs to the project of the nearest `.csproj` above it; it sees the files of its own project and of the
 *   projects its `ProjectReference`s reach (transitively, as SDK-style projects do); without a `.csproj` every file;
 * - `using N;` (also `global using`) reaches the visible files of namespace N that declare a type the file uses: one
 *   exact target each, named by the types it declares; and the files of N whose static classes declare an extension
 *   method the file calls (`x.M(...)`), named by those methods: exact when no other file of the file's scope (its
 *   plain usings, its namespace and parents, its project's global usings) declares an extension method of that
 *   name, else inferred (the compiler picks by the receiver's type, and an instance method of the name wins). None
 *   of either: unresolved, an unused using as far as the file's text shows;
 * - the file's own namespace (`same-package`): the other visible files of it, of its parent namespaces and of the
 *   namespaces of its project's `global using`s that declare a type the file uses, exact, or an extension method it
 *   calls (as for `using N;`); when none does, no edge
 *   (a builtin entry: the scope every file has);
 * - `global using N;` binds nothing in its own file (no edge): every file of its project sees N through its
 *   own-namespace entry;
 * - `using static N.T;` and `using A = N.T;`: the files declaring type T in N, exact; an alias of a namespace is
 *   `using N`;
 * - a namespace no project file declares is the framework's (`System`, `Microsoft`: builtin) or a package's
 *   (external); so is a framework namespace the project adds types to (polyfills) when the file uses none of them.
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, isOutsideRoot, joinDir, normalizeRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import { memoised } from '../memo.js';
import type { ImportTarget, LanguageResolver } from '../types.js';

/** namespace → type name → files declaring it (partial classes: several) */
type Declarations = Map<string, Map<string, RelPath[]>>;

export class CsharpResolver implements LanguageResolver {
  private readonly csFiles: RelPath[];
  private readonly projects: RelPath[];
  private read: {
    declarations: Declarations;
    namespaces: Set<string>;
    projectOf: Map<RelPath, RelPath | null>;
    references: Map<RelPath, Set<RelPath>>;
    /** namespace → extension method name → files whose static classes in it declare one of that name */
    extensions: Declarations;
    /** project ('' without one) → the namespaces its `global using`s bring into every file */
    globalUsings: Map<RelPath, string[]>;
  } | null = null;
  private memo = new Map<string, ImportTarget[]>();
  /** file → extension method name → the files of its scope declaring one (extending), for the usings of one file */
  private candidates = new Map<RelPath, Map<string, number>>();

  constructor(private readonly host: ResolverHost) {
    this.csFiles = [...host.files].filter((f) => f.endsWith('.cs')).sort();
    this.projects = [...host.files].filter((f) => f.toLowerCase().endsWith('.csproj')).sort();
  }

  private get config(): NonNullable<CsharpResolver['read']> {
    if (this.read) return this.read;
    const declarations: Declarations = new Map();
    const namespaces = new Set<string>();
    const globals: Array<[RelPath, string]> = [];
    const extensions: Declarations = new Map();
    for (const f of this.csFiles) {
      const facts = this.host.factsOf?.(f);
      if (!facts) continue;
      // the imports of a stored record are decoded only for a file with a `global using` (most have none)
      if (facts.importsMayHave?.('global') !== false) for (const i of facts.imports) if (i.global && i.kind === 'import' && i.names.length === 1 && i.names[0] === '*') globals.push([f, i.specifier]);
      for (const symbol of facts.symbols) {
        if (symbol.kind === 'namespace') continue;
        const ns = symbol.namespace ?? '';
        for (let n = ns; n; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : '') namespaces.add(n);
        for (const m of symbol.extensions ?? []) declare(extensions, ns, m, f);
        // a nested type is seen through its container (or a subclass of it): never as a simple name of the namespace
        if (!symbol.container) declare(declarations, ns, symbol.name, f);
      }
    }
    const projectDirs = new Map(this.projects.map((p) => [dirOf(p), p]));
    const projectOf = new Map<RelPath, RelPath | null>();
    for (const f of this.csFiles) {
      let found: RelPath | null = null;
      for (let d = dirOf(f); ; d = dirOf(d)) {
        const p = projectDirs.get(d);
        if (p) {
          found = p;
          break;
        }
        if (d === '') break;
      }
      projectOf.set(f, found);
    }
    // ProjectReference, transitively
    const direct = new Map<RelPath, RelPath[]>();
    for (const p of this.projects) {
      const text = this.host.readFile(p) ?? '';
      const refs: RelPath[] = [];
      for (const m of text.matchAll(/<ProjectReference\s+Include\s*=\s*"([^"]+)"/gi)) {
        const rel = normalizeRel(joinDir(dirOf(p), m[1].replace(/\\/g, '/')));
        if (!isOutsideRoot(rel)) refs.push(rel);
      }
      direct.set(p, refs);
    }
    const references = new Map<RelPath, Set<RelPath>>();
    for (const p of this.projects) {
      const seen = new Set<RelPath>([p]);
      const queue = [p];
      while (queue.length) for (const r of direct.get(queue.pop()!) ?? []) if (!seen.has(r)) (seen.add(r), queue.push(r));
      references.set(p, seen);
    }
    const globalUsings = new Map<RelPath, string[]>();
    for (const [f, ns] of globals) {
      const p = projectOf.get(f) ?? '';
      const list = globalUsings.get(p) ?? [];
      if (!list.includes(ns)) list.push(ns);
      globalUsings.set(p, list);
    }
    this.read = { declarations, namespaces, projectOf, references, globalUsings, extensions };
    return this.read;
  }

  /** The file's own-namespace record (parse.ts: the type names it uses, the members it calls), from its parse facts. */
  private ownScope(from: RelPath): ImportRecord | undefined {
    return this.host.factsOf?.(from)?.imports.find((i) => i.kind === 'same-package');
  }

  configFiles(): RelPath[] {
    return [...this.projects];
  }

  forgetResults(): void {
    this.memo.clear();
    this.candidates.clear();
  }

  /** Whether `file` is visible from `from`: same project or a referenced one (no project: everything). */
  private visible(from: RelPath, file: RelPath): boolean {
    const { projectOf, references } = this.config;
    const own = projectOf.get(from);
    if (!own) return true;
    const other = projectOf.get(file);
    return other === null || other === undefined || references.get(own)!.has(other);
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    // a plain `using N;` keeps no names of its own: it binds the type names the file uses and, by the member names
    // the file calls, extension methods; both on the file's own-namespace record
    const own = imp.kind === 'import' && !imp.names.length ? this.ownScope(from) : undefined;
    const names = own ? (own.names ?? []) : imp.names;
    const calls = imp.kind === 'same-package' ? (imp.calls ?? []) : (own?.calls ?? []);
    // which of its extension methods a call binds exactly depends on the file's other usings, and a file is never its
    // own target (declaring): the file is in the key then; otherwise files of one project share the answer
    const fileMatters = imp.kind === 'same-package' || calls.length > 0 || this.declaresAny(from, imp.specifier, names);
    const key = `${this.config.projectOf.get(from) ?? ''}\u0000${imp.kind}\u0000${imp.specifier}\u0000${names.join(',')}\u0000${fileMatters ? from : ''}\u0000${calls.join(',')}`;
    return memoised(this.memo, key, () => this.compute(imp, names, calls, from));
  }

  /** Whether `from` declares one of `names` in namespace `spec`, or type T of `spec` = `N.T` (a using static or alias). */
  private declaresAny(from: RelPath, spec: string, names: readonly string[]): boolean {
    const { declarations } = this.config;
    const declares = (ns: string, name: string): boolean => declarations.get(ns)?.get(name)?.includes(from) ?? false;
    const dot = spec.lastIndexOf('.');
    return names.some((n) => declares(spec, n)) || (dot > 0 && declares(spec.slice(0, dot), spec.slice(dot + 1)));
  }

  /** The namespaces whose extension methods are in scope in `from`: its plain usings, its namespace and parents, its project's global usings. */
  private extensionScope(from: RelPath): string[] {
    const imports = this.host.factsOf?.(from)?.imports ?? [];
    const own = imports.find((i) => i.kind === 'same-package')?.specifier ?? '(global namespace)';
    const scope = new Set(this.chainOf(own, from));
    for (const i of imports) if (i.kind === 'import' && !i.names.length) scope.add(i.specifier);
    return [...scope];
  }

  /** A file's own namespace, its parents, then its project's global usings: where simple names bind without a using. */
  private chainOf(spec: string, from: RelPath): string[] {
    const own = spec === '(global namespace)' ? [''] : spec.split('.').map((_, i, all) => all.slice(0, all.length - i).join('.')).concat('');
    return own.concat(this.config.globalUsings.get(this.config.projectOf.get(from) ?? '') ?? []);
  }

  /**
   * The visible files of namespace `ns` whose static classes declare an extension method `from` calls, each with
   * those names and whether the binding is exact: some name of it is declared by this one file of the file's scope
   * (else the call may bind another candidate, or an instance method of that name: inferred).
   */
  private extending(ns: string, calls: readonly string[], from: RelPath, into: Hits): void {
    const methods = this.config.extensions.get(ns);
    if (!methods) return;
    let counts = this.candidates.get(from);
    for (const m of calls) {
      for (const f of methods.get(m) ?? []) {
        if (f === from || !this.visible(from, f)) continue;
        if (!counts) this.candidates.set(from, (counts = new Map()));
        let count = counts.get(m);
        if (count === undefined) {
          const candidates = new Set<RelPath>();
          for (const n of this.extensionScope(from)) for (const c of this.config.extensions.get(n)?.get(m) ?? []) if (c === from || this.visible(from, c)) candidates.add(c);
          counts.set(m, (count = candidates.size));
        }
        const hit = into.get(f) ?? { names: [], inferred: true };
        if (!hit.names.includes(m)) hit.names.push(m);
        if (count === 1) hit.inferred = false;
        into.set(f, hit);
      }
    }
  }

  /** The visible files of namespace `ns` declaring one of `names`, each with the names it declares. */
  private declaring(ns: string, names: readonly string[], from: RelPath): Map<RelPath, string[]> {
    const out = new Map<RelPath, string[]>();
    const types = this.config.declarations.get(ns);
    if (!types) return out;
    for (const name of names) {
      for (const f of types.get(name) ?? []) {
        if (f === from || !this.visible(from, f)) continue;
        out.set(f, [...(out.get(f) ?? []), name]);
      }
    }
    return out;
  }

  private compute(imp: ImportRecord, names: readonly string[], calls: readonly string[], from: RelPath): ImportTarget[] {
    const { declarations, namespaces } = this.config;
    const spec = imp.specifier;
    const targets = (hits: Hits): ImportTarget[] =>
      [...hits].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([path, { names, inferred }]) => ({ resolved: { kind: 'file', path }, names, ...(inferred ? { inferred } : {}) }));
    const typed = (found: Map<RelPath, string[]>, into: Hits): void => {
      for (const [f, names] of found) {
        const hit = into.get(f) ?? { names: [], inferred: false };
        hit.names.push(...names.filter((n) => !hit.names.includes(n)));
        hit.inferred = false;
        into.set(f, hit);
      }
    };
    if (imp.kind === 'same-package') {
      const hits: Hits = new Map();
      // the namespace and its parents, then the project's global usings
      const chain = this.chainOf(spec, from);
      const left = new Set(names);
      for (const ns of chain) {
        const found = this.declaring(ns, [...left], from);
        typed(found, hits);
        for (const names of found.values()) for (const n of names) left.delete(n);
      }
      for (const ns of new Set(chain)) this.extending(ns, calls, from, hits);
      // nothing bound this way is no failure: the scope the language gives every file (builtin), no edge
      return hits.size ? targets(hits) : [{ resolved: { kind: 'builtin', module: spec } }];
    }
    const first = spec.split('.')[0];
    const framework = first === 'System' || first === 'Microsoft' || first === 'Windows';
    if (declarations.has(spec)) {
      // a global using binds nothing in its own file: every file of the project sees it through its own-namespace entry
      if (names.includes('*')) return [{ resolved: { kind: 'builtin', module: spec } }];
      // the types of N the file names, and the static classes of N declaring an extension method the file calls
      const hits: Hits = new Map();
      typed(this.declaring(spec, names, from), hits);
      this.extending(spec, calls, from, hits);
      if (hits.size) return targets(hits);
      // a framework namespace the project adds a few types to (polyfills): the framework's, when none is used
      if (!framework) {
        const files = [...(declarations.get(spec)?.values() ?? [])].flat();
        if (!files.some((f) => f !== from && this.visible(from, f))) return [{ resolved: unresolved(`${spec}: no file of the namespace is visible from this project (ProjectReference)`) }];
        return [{ resolved: unresolved(`${spec}: the file uses no type of it and calls none of its extension methods (an unused using?)`) }];
      }
    }
    // `using static N.T` / `using A = N.T`: a type
    const dot = spec.lastIndexOf('.');
    if (dot > 0 && declarations.get(spec.slice(0, dot))?.has(spec.slice(dot + 1))) {
      const hits: Hits = new Map();
      typed(this.declaring(spec.slice(0, dot), [spec.slice(dot + 1)], from), hits);
      if (hits.size) return targets(hits).map((t) => ({ ...t, names: [...names] }));
      if (this.declaresAny(from, spec, [])) return [{ resolved: unresolved(`${spec}: declared in this file only (no other file to bind)`) }];
      return [{ resolved: unresolved(`${spec}: no file of ${spec.slice(0, dot)} that declares ${spec.slice(dot + 1)} is visible from this project (ProjectReference)`) }];
    }
    if (!framework && namespaces.has(spec)) return [{ resolved: unresolved(`${spec}: the project declares namespaces below it, no type in it`) }];
    return [{ resolved: framework ? { kind: 'builtin', module: spec } : { kind: 'external', package: spec.split('.').slice(0, 2).join('.') } }];
  }
}

/** file → the names bound in it, and whether only by inference */
type Hits = Map<RelPath, { names: string[]; inferred: boolean }>;

function declare(into: Declarations, ns: string, name: string, file: RelPath): void {
  const names = into.get(ns) ?? new Map<string, RelPath[]>();
  const list = names.get(name) ?? [];
  if (!list.includes(file)) list.push(file);
  names.set(name, list);
  into.set(ns, names);
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
