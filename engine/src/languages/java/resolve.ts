/**
 * Java's name rules over the project's files, as javac finds source on a source path: the top-level type `a.b.C`
 * is the file `<root>/a/b/C.java` of a source root, and a package is a folder `<root>/a/b` (a package may span
 * several roots: `src/main/java` and `src/test/java` of one module).
 *
 * Source roots: the build's layout where there is one: every `src/<set>/java` folder (Maven's `src/main/java` and
 * `src/test/java`, Gradle's source sets), a pom.xml's `<sourceDirectory>` / `<testSourceDirectory>`, a build.gradle's
 * `srcDir`/`srcDirs`; modules are the folders of pom.xml / build.gradle(.kts) files and those settings.gradle(.kts)
 * `include`s or a pom's `<modules>` name. Elsewhere a root is inferred from the path: `a/b/C.java` is looked for as
 * a path ending in `/a/b/C.java` (the package's folders below an unknown root); a file under a declared root is only
 * ever found by its path inside that root.
 *
 * A name resolves left to right as javac does (`a.b.C.Inner` → the first `a/…/C.java` that exists, shortest package
 * first), so nested types and static members (`import static a.b.C.m`) reach C's file. When several roots hold the
 * type, the importer's own root wins, then its module (test code sees its module's main code, main code does not see
 * test code), then the nearest folder; a choice between modules that none of these settles is marked inferred.
 * A type of the file's own package (`same-package`) is looked for in its folder, then in the same package in its
 * module's other roots, then in other modules (a package split over modules, all on javac's class path). An
 * on-demand import gives the files of the types it provides that the file uses and its own folder does not hold.
 * A name no project root holds is the JDK's (builtin: `java.`, `javax.`, `jdk.`, `sun.`, `com.sun.`, `org.w3c.`,
 * `org.xml.`, `org.ietf.`) or an external library's; a package the project holds without the named type is unresolved.
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, joinDir, normalizeRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution, SymbolRecord } from '../../types.js';
import type { ImportTarget, LanguageResolver } from '../types.js';
import { memoised } from '../memo.js';

export const JAVA_CONFIG_FILES = ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'] as const;

const JDK_PREFIXES = ['java.', 'javax.', 'jdk.', 'sun.', 'com.sun.', 'org.w3c.', 'org.xml.', 'org.ietf.', 'netscape.'];
const upper = (s: string): boolean => /^\p{Lu}/u.test(s);

/** A type of the project: its file and its path in the file (`Outer.Inner`). */
interface TypeRef {
  file: RelPath;
  path: string;
}

/**
 * What the resolver reads of a file to follow inherited member types (JLS 8.5: a class or interface inherits the
 * non-private member types of its superclass and superinterfaces), from its parse facts (ResolverHost.factsOf): the
 * package, the imports, and every type declared at top level or as a member (`Outer.Inner`) with its supertypes as
 * written and whether it is private. The strings are the record's own, not copies.
 */
interface TypeHeaders {
  pkg: string;
  /** single-type (and single-static) imports of the names the supertypes start with: simple name → qualified name */
  single: Map<string, string>;
  /** `a.b` of each `import a.b.*;` and `import static a.b.*;` (a package or a type) */
  onDemand: string[];
  /** `Outer.Inner` → its symbol (supertypes, private) */
  types: Map<string, SymbolRecord>;
}

/** What a file with no supertype and no member type gives the resolver (nothing to follow): shared, not kept per file. */
const NOTHING: TypeHeaders = { pkg: '', single: new Map(), onDemand: [], types: new Map() };
const NONE = new Map<string, TypeRef>();

interface Root {
  dir: string;
  /** the module folder it belongs to */
  module: string;
  test: boolean;
}

interface Candidate {
  dir: string;
  root: Root | null;
  rank: number[];
}

export class JavaResolver implements LanguageResolver {
  /** folder → the `.java` file names in it */
  private readonly folders = new Map<string, Set<string>>();
  /** package path's last segment → folders ending in it (a quick first cut for suffix matching) */
  private readonly byLast = new Map<string, string[]>();
  private layout: { roots: Root[]; modules: Set<string>; configFiles: RelPath[] } | null = null;
  private memo = new Map<string, ImportTarget[]>();
  /** `file\0type` → the member types the type inherits: name → the type declaring it */
  private inheritedMemo = new Map<string, Map<string, TypeRef>>();
  /** the type headers read by this resolver (read again after forgetResults: an edited file's imports may have moved) */
  private headersMemo = new Map<RelPath, TypeHeaders>();
  private rootMemo = new Map<string, Root | null>();

  constructor(private readonly host: ResolverHost) {
    for (const f of [...host.files].sort()) {
      if (!f.endsWith('.java')) continue;
      const d = dirOf(f);
      let set = this.folders.get(d);
      if (!set) {
        set = new Set();
        this.folders.set(d, set);
        const last = d.slice(d.lastIndexOf('/') + 1);
        const list = this.byLast.get(last) ?? [];
        list.push(d);
        this.byLast.set(last, list);
      }
      set.add(f.slice(f.lastIndexOf('/') + 1));
    }
  }

  /** The build's source roots and modules, read once. */
  private get config(): NonNullable<JavaResolver['layout']> {
    if (this.layout) return this.layout;
    const modules = new Set<string>();
    const configFiles: RelPath[] = [];
    const rootDirs = new Map<string, boolean>();
    const above = new Set<string>();
    for (const d of this.folders.keys()) {
      for (let x = d; !above.has(x); x = dirOf(x)) {
        above.add(x);
        if (x === '') break;
      }
      // the first `src/<set>/java` of the path (a package may have folders named src and java further down)
      const m = /^(?:(.*?)\/)??src\/([^/]+)\/java(?:\/|$)/.exec(d);
      if (m) rootDirs.set(joinDir(m[1] ?? '', `src/${m[2]}/java`), m[2].toLowerCase().includes('test'));
    }
    const read = (rel: string): string | null => {
      const text = this.host.readFile(rel);
      if (text !== null) configFiles.push(rel);
      return text;
    };
    const addModule = (dir: string | null): void => {
      if (dir !== null && !dir.startsWith('..')) modules.add(dir);
    };
    for (const dir of [...above].sort()) {
      const pom = read(joinDir(dir, 'pom.xml'));
      if (pom !== null) {
        addModule(dir);
        const xml = pom.replace(/<!--[\s\S]*?-->/g, '');
        for (const m of xml.matchAll(/<module>\s*([^<]+?)\s*<\/module>/g)) addModule(rel(dir, m[1]));
        const build = /<build>[\s\S]*<\/build>/.exec(xml)?.[0] ?? '';
        for (const [tag, test] of [['sourceDirectory', false], ['testSourceDirectory', true]] as const) {
          const v = new RegExp(`<${tag}>\\s*([^<]+?)\\s*</${tag}>`).exec(build)?.[1]?.replace(/^\$\{(?:project\.)?basedir\}\/?/, '');
          const r = v && !v.includes('${') ? rel(dir, v) : null; // another property: not known without Maven
          if (r !== null) rootDirs.set(r, test);
        }
      }
      for (const name of ['build.gradle', 'build.gradle.kts']) {
        const gradle = read(joinDir(dir, name));
        if (gradle === null) continue;
        addModule(dir);
        for (const m of gradle.matchAll(/\bsrcDirs?\s*(?:\+?=\s*)?\(?\s*((?:\[?\s*(?:files\()?\s*["'][^"']+["']\)?\s*,?\s*)+)\]?/g)) {
          for (const s of m[1].matchAll(/["']([^"']+)["']/g)) {
            const r = rel(dir, s[1]);
            if (r !== null) rootDirs.set(r, /test/i.test(s[1]));
          }
        }
      }
      for (const name of ['settings.gradle', 'settings.gradle.kts']) {
        const settings = read(joinDir(dir, name));
        if (settings === null) continue;
        addModule(dir);
        for (const line of settings.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').matchAll(/\binclude\b\s*\(?((?:[^\n]*,[ \t]*\r?\n)*[^\n]*)/g)) {
          for (const s of line[1].matchAll(/["']:?([^"']+)["']/g)) addModule(rel(dir, s[1].replace(/:/g, '/')));
        }
      }
    }
    const moduleOf = (d: string): string => {
      for (let x = d; ; x = dirOf(x)) {
        if (modules.has(x)) return x;
        if (x === '') return /^(?:(.*)\/)?src\/[^/]+\/java$/.exec(d)?.[1] ?? '';
      }
    };
    const roots = [...rootDirs].map(([dir, test]) => ({ dir, test, module: moduleOf(dir) })).sort((a, b) => b.dir.length - a.dir.length || (a.dir < b.dir ? -1 : 1));
    this.layout = { roots, modules, configFiles: configFiles.sort() };
    return this.layout;
  }

  configFiles(): RelPath[] {
    return [...this.config.configFiles];
  }

  forgetResults(): void {
    this.memo.clear();
    this.inheritedMemo.clear();
    this.headersMemo.clear();
  }

  /** The declared source root holding `dir` (the deepest), or null. */
  private rootOf(dir: string): Root | null {
    let r = this.rootMemo.get(dir);
    if (r === undefined) {
      r = this.config.roots.find((x) => dir === x.dir || dir.startsWith(`${x.dir}/`) || x.dir === '') ?? null;
      this.rootMemo.set(dir, r);
    }
    return r;
  }

  /**
   * The folders that can be package `pkgPath` (`a/b`) for an importer in `fromDir`, best first. A folder under a
   * declared root is the package only when its path inside that root is `pkgPath`.
   */
  private packageDirs(pkgPath: string, fromDir: string): Candidate[] {
    const last = pkgPath.slice(pkgPath.lastIndexOf('/') + 1);
    const fromRoot = this.rootOf(fromDir);
    const out: Candidate[] = [];
    for (const dir of this.byLast.get(last) ?? []) {
      if (dir !== pkgPath && !dir.endsWith(`/${pkgPath}`)) continue;
      const base = dir === pkgPath ? '' : dir.slice(0, dir.length - pkgPath.length - 1);
      const root = this.rootOf(dir);
      if (root && root.dir !== base) continue;
      out.push({ dir, root, rank: this.rank(base, root, fromDir, fromRoot) });
    }
    return out.sort((a, b) => compareRank(a.rank, b.rank) || (a.dir < b.dir ? -1 : 1));
  }

  /** Lower is nearer: the importer's own root, its module (main before test for main code), then the common path. */
  private rank(base: string, root: Root | null, fromDir: string, fromRoot: Root | null): number[] {
    const ownRoot = fromRoot ? root === fromRoot : fromDir === base || fromDir.startsWith(base === '' ? '' : `${base}/`);
    const sameModule = !!(fromRoot && root && root.module === fromRoot.module);
    const testOnly = !!(root?.test && !fromRoot?.test);
    return [ownRoot ? 0 : 1, sameModule ? 0 : 1, testOnly ? 1 : 0, -commonPrefix(base, fromDir)];
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    // files of one folder share answers, except a same-package record, which never reaches the file itself
    const key = `${imp.kind === 'same-package' ? from : dirOf(from)}\u0000${imp.kind}\u0000${imp.specifier}\u0000${imp.names.join(',')}`;
    return memoised(this.memo, key, () => this.compute(imp, from));
  }

  private compute(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const fromDir = dirOf(from);
    const spec = imp.specifier;
    if (imp.kind === 'same-package') return this.samePackage(spec === '*' ? '' : spec.slice(0, -2), imp.names, from);
    if (spec.endsWith('.*')) return this.onDemand(spec.slice(0, -2), imp.names, from);
    return this.type(spec, fromDir) ?? [{ resolved: this.outside(spec) }];
  }

  /** `a.b.C[.Inner|.member]`: C's file, by the first split of the name into package and type that exists. */
  private type(name: string, fromDir: string): ImportTarget[] | null {
    const parts = name.split('.');
    for (let i = 1; i < parts.length; i++) {
      const hit = this.typeIn(parts.slice(0, i).join('/'), parts[i], fromDir);
      if (hit) return [hit];
    }
    return null;
  }

  /** Type `type` of package `pkgPath` for an importer in `fromDir`: its file, inferred when roots tie. */
  private typeIn(pkgPath: string, type: string, fromDir: string, names?: string[]): ImportTarget | null {
    const file = `${type}.java`;
    const hits = this.packageDirs(pkgPath, fromDir).filter((c) => this.folders.get(c.dir)!.has(file));
    if (!hits.length) return null;
    const target: ImportTarget = { resolved: { kind: 'file', path: joinDir(hits[0].dir, file) } };
    if (names) target.names = names;
    // several roots hold the type and neither the importer's root nor its module settles it
    if (hits.length > 1 && hits[0].rank[0] === hits[1].rank[0] && hits[0].rank[1] === hits[1].rank[1] && hits[0].rank[2] === hits[1].rank[2]) target.inferred = true;
    return target;
  }

  /** The folders of the importer's own package: its folder, and the same package in its module's other roots. */
  private ownPackageDirs(pkg: string, from: RelPath): string[] {
    const fromDir = dirOf(from);
    const out = [fromDir];
    const pkgPath = pkg.replace(/\./g, '/');
    const fromRoot = this.rootOf(fromDir);
    if (!pkgPath || !fromRoot || joinDir(fromRoot.dir, pkgPath) !== fromDir) return out;
    for (const c of this.packageDirs(pkgPath, fromDir)) {
      if (c.dir === fromDir) continue;
      // the module's other roots: declared ones (main code does not see test code), or undeclared ones inside the module
      if (c.root ? c.root.module === fromRoot.module && (fromRoot.test || !c.root.test) : fromRoot.module === '' || c.dir.startsWith(`${fromRoot.module}/`)) out.push(c.dir);
    }
    return out;
  }

  /** Types of the file's own package that it uses without an import (kind `same-package`). */
  private samePackage(pkg: string, names: string[], from: RelPath): ImportTarget[] {
    const dirs = this.ownPackageDirs(pkg, from);
    const out: ImportTarget[] = [];
    const self = from.slice(from.lastIndexOf('/') + 1);
    for (const n of names) {
      const file = `${n}.java`;
      if (file === self) continue;
      const dir = dirs.find((d) => this.folders.get(d)?.has(file));
      if (dir !== undefined) out.push({ resolved: { kind: 'file', path: joinDir(dir, file) }, names: [n] });
      else if (pkg) {
        // a package split over modules (on the class path, javac sees them all): another module's folder of it
        const hit = this.typeIn(pkg.replace(/\./g, '/'), n, dirOf(from), [n]);
        if (hit && hit.resolved.kind === 'file' && hit.resolved.path !== from) out.push(hit);
      }
    }
    // a name the package does not hold may be a member type the file's types inherit from a supertype (JLS 8.5)
    const found = new Set(out.flatMap((t) => t.names ?? []));
    out.push(...this.inheritedTargets(from, [...this.headersOf(from).types.keys()], names.filter((n) => !found.has(n))));
    // the rest are java.lang's
    return out.length ? out : [{ resolved: { kind: 'builtin', module: 'java.lang' } }];
  }

  /** `import a.b.*`: the files of package a.b whose types the file uses; a type's nested types for `a.b.C.*`. */
  private onDemand(name: string, names: string[], from: RelPath): ImportTarget[] {
    const fromDir = dirOf(from);
    const pkgPath = name.replace(/\./g, '/');
    const dirs = this.packageDirs(pkgPath, fromDir);
    if (dirs.length) {
      const own = this.folders.get(fromDir);
      const out: ImportTarget[] = [];
      for (const n of names) {
        if (n === '*' || own?.has(`${n}.java`)) continue; // the file's own package shadows on-demand imports
        const hit = this.typeIn(pkgPath, n, fromDir, [n]);
        if (hit) out.push(hit);
      }
      // no type the file names is here (the import is unused, or serves only Javadoc): javac takes nothing from the
      // package, so no file is an edge; the statement names the package's folder
      return out.length ? out : [{ resolved: { kind: 'asset', path: dirs[0].dir }, names: ['*'] }];
    }
    const type = this.type(name, fromDir);
    if (type) return type.map((t) => ({ ...t, names: ['*'] }));
    return [{ resolved: this.outside(`${name}.*`) }];
  }

  /** The type headers of a project file, read from its parse facts, once per resolver. */
  private headersOf(file: RelPath): TypeHeaders {
    return memoised(this.headersMemo, file, () => this.readHeaders(file));
  }

  private readHeaders(file: RelPath): TypeHeaders {
    const facts = this.host.factsOf?.(file);
    if (!facts) return NOTHING;
    const types = new Map<string, SymbolRecord>();
    let pkg = '';
    for (const s of facts.symbols) {
      if (s.kind === 'namespace') pkg = s.name;
      else types.set(s.name, s);
    }
    if (types.size <= 1 && ![...types.values()].some((t) => t.supertypes?.length)) return NOTHING;
    // the imports a supertype may be named through: those a supertype starts with (the rest would only hold memory)
    const firsts = new Set([...types.values()].flatMap((t) => (t.supertypes ?? []).map((x) => x.split('.')[0])));
    const single = new Map<string, string>();
    const onDemand: string[] = [];
    for (const i of facts.imports) {
      if (i.kind !== 'import' || i.reference) continue;
      if (i.specifier.endsWith('.*')) onDemand.push(i.specifier.slice(0, -2));
      else if (firsts.has(i.names[0])) single.set(i.names[0], i.specifier);
    }
    return { pkg, single, onDemand, types };
  }

  /** The files declaring the member types named in `names` that one of `types` (of `file`) inherits, with their names. */
  private inheritedTargets(file: RelPath, types: string[], names: string[]): ImportTarget[] {
    const byFile = new Map<RelPath, string[]>();
    const tables = types.map((t) => this.inheritedOf({ file, path: t }, new Set()));
    for (const n of names) {
      for (const table of tables) {
        const hit = table.get(n);
        if (hit && hit.file !== file) {
          byFile.set(hit.file, [...(byFile.get(hit.file) ?? []), n]);
          break;
        }
      }
    }
    return [...byFile].map(([path, n]) => ({ resolved: { kind: 'file', path }, names: n }));
  }

  /** The member types `type` inherits from its supertypes (JLS 8.5): name → the type declaring it, nearest first. */
  private inheritedOf(type: TypeRef, seen: Set<string>): Map<string, TypeRef> {
    const key = `${type.file}\u0000${type.path}`;
    const known = this.inheritedMemo.get(key);
    if (known) return known;
    const out = new Map<string, TypeRef>();
    if (seen.has(key)) return out; // cyclic inheritance: a compile error
    seen.add(key);
    for (const written of this.headersOf(type.file).types.get(type.path)?.supertypes ?? []) {
      const sup = this.writtenType(written, type, seen);
      if (!sup) continue;
      const prefix = `${sup.path}.`;
      for (const [path, t] of this.headersOf(sup.file).types) {
        const name = path.slice(prefix.length);
        if (path.startsWith(prefix) && !name.includes('.') && !t.private && !out.has(name)) out.set(name, { file: sup.file, path });
      }
      for (const [name, ref] of this.inheritedOf(sup, seen)) if (!out.has(name)) out.set(name, ref);
    }
    this.inheritedMemo.set(key, out.size ? out : NONE);
    return out;
  }

  /**
   * The project type a name written in `at`'s file means there (a supertype as written): a type of the file (`at`'s
   * own members and its enclosing types' first), a single-type import, the file's package, an on-demand import; then
   * each further part a member type, declared or inherited. Null for a type the project does not hold.
   */
  private writtenType(written: string, at: TypeRef, seen: Set<string>): TypeRef | null {
    const parts = written.split('.');
    const h = this.headersOf(at.file);
    let ref: TypeRef | null = null;
    if (!upper(parts[0]) && parts.length > 1) return this.member(this.typeRef(written, dirOf(at.file)), [], seen);
    const first = parts[0];
    for (let p = at.path; p && !ref; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') if (h.types.has(`${p}.${first}`)) ref = { file: at.file, path: `${p}.${first}` };
    if (!ref && h.types.has(first)) ref = { file: at.file, path: first };
    if (!ref && h.single.has(first)) ref = this.typeRef(h.single.get(first)!, dirOf(at.file));
    if (!ref) {
      const dir = this.ownPackageDirs(h.pkg, at.file).find((d) => this.folders.get(d)?.has(`${first}.java`));
      if (dir !== undefined) ref = { file: joinDir(dir, `${first}.java`), path: first };
    }
    for (const pkg of ref ? [] : h.onDemand) {
      const hit = this.typeOfPackage(pkg.replace(/\./g, '/'), first, dirOf(at.file)) ?? this.member(this.typeRef(pkg, dirOf(at.file)), [first], seen);
      if (hit) {
        ref = hit;
        break;
      }
    }
    return this.member(ref, parts.slice(1), seen);
  }

  /** Type `type` of package `pkgPath` as a TypeRef. */
  private typeOfPackage(pkgPath: string, type: string, fromDir: string): TypeRef | null {
    const hit = this.typeIn(pkgPath, type, fromDir);
    return hit && hit.resolved.kind === 'file' ? { file: hit.resolved.path, path: type } : null;
  }

  /** The member type `parts` names below `ref`, each part declared in the type's file or inherited. */
  private member(ref: TypeRef | null, parts: string[], seen: Set<string>): TypeRef | null {
    for (const part of parts) {
      if (!ref) return null;
      const path = `${ref.path}.${part}`;
      ref = this.headersOf(ref.file).types.has(path) ? { file: ref.file, path } : (this.inheritedOf(ref, seen).get(part) ?? null);
    }
    return ref;
  }

  /** `a.b.C[.Inner]` as a TypeRef: C's file (type() rules), and the path of the nested type in it. */
  private typeRef(name: string, fromDir: string): TypeRef | null {
    const parts = name.split('.');
    for (let i = 1; i < parts.length; i++) {
      const hit = this.typeOfPackage(parts.slice(0, i).join('/'), parts[i], fromDir);
      if (hit) return this.member(hit, parts.slice(i + 1), new Set());
    }
    return null;
  }

  /** A name no project root holds: the JDK's, a library's, or a hole in a package the project has. */
  private outside(spec: string): Resolution {
    const parts = spec.split('.');
    const typeAt = parts.findIndex(upper);
    const pkgParts = typeAt > 0 ? parts.slice(0, typeAt) : parts[parts.length - 1] === '*' ? parts.slice(0, -1) : parts.slice(0, -1);
    const pkg = pkgParts.join('.');
    if (typeAt > 0 && pkg && this.packageExists(pkgParts.join('/'))) return { kind: 'unresolved', reason: `${spec}: package ${pkg} has no ${parts[typeAt]}.java` };
    if (JDK_PREFIXES.some((p) => `${spec}.`.startsWith(p))) return { kind: 'builtin', module: pkg || spec };
    return { kind: 'external', package: pkg || spec };
  }

  private packageExists(pkgPath: string): boolean {
    const last = pkgPath.slice(pkgPath.lastIndexOf('/') + 1);
    return (this.byLast.get(last) ?? []).some((d) => {
      if (d !== pkgPath && !d.endsWith(`/${pkgPath}`)) return false;
      const root = this.rootOf(d);
      return !root || root.dir === (d === pkgPath ? '' : d.slice(0, d.length - pkgPath.length - 1));
    });
  }
}

/** A folder named in a build file, relative to the file's folder; null when it leaves the project. */
function rel(dir: string, p: string): string | null {
  const out = normalizeRel(joinDir(dir, p.trim().replace(/\/+$/, '')));
  return out.startsWith('..') || out.startsWith('/') ? null : out;
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function commonPrefix(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n] && x[n] !== '') n++;
  return n;
}
