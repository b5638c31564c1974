/**
 * C#'s rules over the project's files. A namespace spans files (and projects), so a `using` names no file: the
 * compiler binds each simple type name a file uses through the usings in scope and its own namespace (and that
 * namespace's parents) to the namespace that declares it. This resolver does the same over the project's files:
 *
 * - each `.cs` file's declared types and their namespaces are read from its text (`namespace A.B;` or blocks, nested
 *   blocks joined: `class`, `struct`, `interface`, `enum`, `record`, `delegate`);
 * - a file belongs to the project of the nearest `.csproj` above it; it sees the files of its own project and of the
 *   projects its `ProjectReference`s reach (transitively, as SDK-style projects do); without a `.csproj` every file;
 * - `using N;` (also `global using`) reaches the visible files of namespace N that declare a type the file uses: one
 *   exact target each, named by the types it declares. When the file uses none of them, it can matter only for the
 *   extension methods it brings: it reaches the visible files of N that declare a static class, inferred (none:
 *   unresolved, an unused using as far as the file's text shows);
 * - the file's own namespace (`same-package`): the other visible files of it, of its parent namespaces and of the
 *   namespaces of its project's `global using`s that declare a type the file uses, exact; when none does, no edge
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
import { ownStrings } from '../../parse/own-strings.js';
import type { ImportTarget, LanguageResolver } from '../types.js';

/** namespace → type name → files declaring it (partial classes: several) */
type Declarations = Map<string, Map<string, RelPath[]>>;

const TOKEN = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|@?"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\bnamespace\s+([\w.]+)\s*([;{])|\b(?:(static)\s+(?:(?:partial|public|internal|unsafe)\s+)*)?(?:class|struct|interface|enum|record)\s+(?:(?:class|struct)\s+)?([A-Za-z_]\w*)|\bdelegate\s+[\w.<>[\],?\s]+?\s([A-Za-z_]\w*)\s*[<(]|[{}]/g;

/** The types a C# source declares, each with its namespace and whether it is a static class (extension methods). */
export function declaredTypes(text: string): Array<[string, string, boolean]> {
  const out: Array<[string, string, boolean]> = [];
  const stack: Array<{ name: string; depth: number }> = [];
  let fileScoped = '';
  let depth = 0;
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    if (t === '{') depth++;
    else if (t === '}') {
      depth--;
      while (stack.length && stack[stack.length - 1].depth > depth) stack.pop();
    } else if (m[1] !== undefined) {
      if (m[2] === ';') fileScoped = m[1];
      else {
        const outer = stack.length ? stack[stack.length - 1].name : fileScoped;
        depth++;
        stack.push({ name: outer ? `${outer}.${m[1]}` : m[1], depth });
      }
    } else if (m[4] !== undefined || m[5] !== undefined) {
      out.push([stack.length ? stack[stack.length - 1].name : fileScoped, (m[4] ?? m[5])!, m[3] !== undefined]);
    }
  }
  return out;
}

interface FileFacts {
  stamp: string;
  types: Array<[string, string, boolean]>;
  globalUsings: string[];
}

/**
 * What was read of each .cs file (root + path → its facts and stamp), for the process: a cold update (a new resolver
 * after the file set changed, or in a new process of the same worker) reads only the files whose stamp moved.
 */
const FACTS = new Map<string, FileFacts>();

export class CsharpResolver implements LanguageResolver {
  private readonly csFiles: RelPath[];
  private readonly projects: RelPath[];
  private read: {
    declarations: Declarations;
    namespaces: Set<string>;
    projectOf: Map<RelPath, RelPath | null>;
    references: Map<RelPath, Set<RelPath>>;
    /** namespace → files declaring a static class in it (where extension methods live) */
    statics: Map<string, Set<RelPath>>;
    /** project ('' without one) → the namespaces its `global using`s bring into every file */
    globalUsings: Map<RelPath, string[]>;
  } | null = null;
  private memo = new Map<string, ImportTarget[]>();

  constructor(private readonly host: ResolverHost) {
    this.csFiles = [...host.files].filter((f) => f.endsWith('.cs')).sort();
    this.projects = [...host.files].filter((f) => f.toLowerCase().endsWith('.csproj')).sort();
  }

  private get config(): NonNullable<CsharpResolver['read']> {
    if (this.read) return this.read;
    const declarations: Declarations = new Map();
    const namespaces = new Set<string>();
    const globals: Array<[RelPath, string]> = [];
    const statics = new Map<string, Set<RelPath>>();
    for (const f of this.csFiles) {
      const { types, globalUsings } = this.factsOf(f);
      for (const g of globalUsings) globals.push([f, g]);
      for (const [ns, type, isStatic] of types) {
        if (isStatic) statics.set(ns, (statics.get(ns) ?? new Set<RelPath>()).add(f));
        for (let n = ns; n; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : '') namespaces.add(n);
        const types = declarations.get(ns) ?? new Map<string, RelPath[]>();
        const list = types.get(type) ?? [];
        if (!list.includes(f)) list.push(f);
        types.set(type, list);
        declarations.set(ns, types);
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
    this.read = { declarations, namespaces, projectOf, references, globalUsings, statics };
    return this.read;
  }

  /** A file's declared types and global usings, read from its text; kept across resolvers while its stamp holds. */
  private factsOf(file: RelPath): FileFacts {
    const key = `${this.host.root}\u0000${file}`;
    const stamp = this.host.stampOf?.(file) ?? null;
    const known = stamp === null ? undefined : FACTS.get(key);
    if (known && known.stamp === stamp) return known;
    const text = this.host.readFile(file) ?? '';
    const facts: FileFacts = {
      stamp: stamp ?? '',
      types: declaredTypes(text),
      globalUsings: [...text.matchAll(/^\s*global\s+using\s+([\w.]+)\s*;/gm)].map((m) => m[1].replace(/^global::/, '')),
    };
    // own strings: a name cut out of the text is a view that would keep the whole file's text alive in FACTS
    ownStrings(facts);
    if (stamp !== null) FACTS.set(key, facts);
    return facts;
  }

  configFiles(): RelPath[] {
    return [...this.projects];
  }

  forgetResults(): void {
    this.memo.clear();
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
    const key = `${this.config.projectOf.get(from) ?? ''}\u0000${imp.kind}\u0000${imp.specifier}\u0000${imp.names.join(',')}\u0000${imp.kind === 'same-package' ? from : ''}`;
    return memoised(this.memo, key, () => this.compute(imp, from));
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

  private compute(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const { declarations, namespaces } = this.config;
    const spec = imp.specifier;
    const targets = (hits: Map<RelPath, string[]>, inferred = false): ImportTarget[] =>
      [...hits].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([path, names]) => ({ resolved: { kind: 'file', path }, names, ...(inferred ? { inferred } : {}) }));
    if (imp.kind === 'same-package') {
      const hits = new Map<RelPath, string[]>();
      // the namespace and its parents, then the project's global usings
      const chain = (spec === '(global namespace)' ? [''] : spec.split('.').map((_, i, all) => all.slice(0, all.length - i).join('.')).concat('')).concat(this.config.globalUsings.get(this.config.projectOf.get(from) ?? '') ?? []);
      const left = new Set(imp.names);
      for (const ns of chain) {
        for (const [f, names] of this.declaring(ns, [...left], from)) {
          hits.set(f, [...(hits.get(f) ?? []), ...names]);
          for (const n of names) left.delete(n);
        }
      }
      // nothing bound this way is no failure: the scope the language gives every file (builtin), no edge
      return hits.size ? targets(hits) : [{ resolved: { kind: 'builtin', module: spec } }];
    }
    const first = spec.split('.')[0];
    const framework = first === 'System' || first === 'Microsoft' || first === 'Windows';
    if (declarations.has(spec)) {
      // a global using binds nothing in its own file: every file of the project sees it through its own-namespace entry
      if (imp.names.includes('*')) return [{ resolved: { kind: 'builtin', module: spec } }];
      const hits = this.declaring(spec, imp.names, from);
      if (hits.size) return targets(hits);
      // a framework namespace the project adds a few types to (polyfills): the framework's, when none is used
      if (!framework) {
        const files = [...(declarations.get(spec)?.values() ?? [])].flat();
        if (!files.some((f) => f !== from && this.visible(from, f))) return [{ resolved: unresolved(`${spec}: no file of the namespace is visible from this project (ProjectReference)`) }];
        // no type of it is used: it can matter only for the extension methods its static classes bring
        const extensions = new Map<RelPath, string[]>();
        for (const f of this.config.statics.get(spec) ?? []) if (f !== from && this.visible(from, f)) extensions.set(f, ['*']);
        if (extensions.size) return targets(extensions, true);
        return [{ resolved: unresolved(`${spec}: the file uses no type of it and it has no static class (an unused using?)`) }];
      }
    }
    // `using static N.T` / `using A = N.T`: a type
    const dot = spec.lastIndexOf('.');
    if (dot > 0 && declarations.get(spec.slice(0, dot))?.has(spec.slice(dot + 1))) {
      const hits = this.declaring(spec.slice(0, dot), [spec.slice(dot + 1)], from);
      if (hits.size) return targets(hits).map((t) => ({ ...t, names: imp.names }));
      return [{ resolved: unresolved(`${spec}: no file of ${spec.slice(0, dot)} that declares ${spec.slice(dot + 1)} is visible from this project (ProjectReference)`) }];
    }
    if (!framework && namespaces.has(spec)) return [{ resolved: unresolved(`${spec}: the project declares namespaces below it, no type in it`) }];
    return [{ resolved: framework ? { kind: 'builtin', module: spec } : { kind: 'external', package: spec.split('.').slice(0, 2).join('.') } }];
  }
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
