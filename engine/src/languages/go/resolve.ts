/**
 * Go's import rules over the project's files. A package is a directory: an import path reaches every non-test `.go`
 * file of that directory (files of every OS and build tag; `_test.go` files, and files whose name starts with `_` or
 * `.`, are never part of an importable package), one exact target per file.
 *
 * Which directory an import path names, as the go command decides it:
 * - the importing file's module is the nearest `go.mod` above it (`module` path); a `go.work` above that module which
 *   `use`s it makes every module it uses visible; a `replace` of a module path by a local folder in `go.mod` makes
 *   that folder the module; the longest module path that prefixes the import path wins;
 * - with a `vendor/` folder at the module's root (and no workspace), a path outside the main module resolves into
 *   `vendor/<path>`;
 * - `internal/`: a path with an `internal` element is importable only from the tree rooted at internal's parent;
 * - a path whose first element has no dot and that no module provides is the standard library (builtin); any other
 *   path is an external module.
 *
 * A `same-package` record (parse.ts: the names a file uses without an import) reaches the other files of its folder
 * with the same package clause that declare one of those names at package level (their parse facts say: the
 * package clause and top-level names, ResolverHost.factsOf): a
 * `_test.go` file sees every file of its package, a non-test file only the non-test ones (`go build` leaves tests
 * out); an external test package (`x_test`) is a package of its own. Every file declaring a name is reached (files
 * for different OSes or build tags may each declare it). Exact, except the record of names the file also declares
 * locally (inferred: a local may shadow them where they are used), and names no file of the package declares while
 * one of its files was not parsed (too large: generated tables): those reach that file, inferred.
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, isOutsideRoot, joinDir, joinRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import type { ImportTarget, LanguageResolver } from '../types.js';
import { memoised } from '../memo.js';

export const GO_CONFIG_FILES = ['go.mod', 'go.work'] as const;

/** a folder relative to `dir` (`./a`, `../b`), normalised; null when it leaves the project */
function join(dir: string, rel: string): string | null {
  const out = joinRel(dir, rel);
  return isOutsideRoot(out) ? null : out;
}

/** A file that belongs to an importable package: not a test, not ignored by the go command (`_x.go`, `.x.go`). */
export const isPackageFile = (path: string): boolean => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return path.endsWith('.go') && !name.endsWith('_test.go') && !name.startsWith('_') && !name.startsWith('.');
};

interface GoModule {
  /** the folder of go.mod */
  dir: string;
  /** the `module` path */
  path: string;
  /** module path → folder, from `replace x => ./local` */
  replaces: Map<string, string>;
}

/** Strips `//` comments and reads the words of a go.mod / go.work directive (`use`, `module`, `replace`): one or a block. */
function directives(text: string, verb: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r?\n/).map((l) => l.replace(/\/\/.*$/, '').trim());
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l === `${verb} (` || l === `${verb}(`) {
      for (i++; i < lines.length && lines[i] !== ')'; i++) if (lines[i]) out.push(lines[i]);
    } else if (l.startsWith(`${verb} `) || l.startsWith(`${verb}\t`)) out.push(l.slice(verb.length).trim());
  }
  return out.map((s) => s.replace(/"/g, ''));
}

/** The `(also local)` suffix of a same-package record whose names the file also declares locally (parse.ts). */
const ALSO_LOCAL = ' (also local)';

export class GoResolver implements LanguageResolver {
  /** folder → its package files, sorted */
  private readonly packages = new Map<string, RelPath[]>();
  /** folder → every .go file of it the go command reads (not `_x.go`, `.x.go`), tests included */
  private readonly goFiles = new Map<string, RelPath[]>();
  /** every folder with a Go file in it or below it */
  private readonly goDirs = new Set<string>();
  private read: { modules: Map<string, GoModule>; workspaces: Map<string, string[]>; configFiles: RelPath[] } | null = null;
  private memo = new Map<string, ImportTarget[]>();
  /**
   * folder → package name → declared name → the files declaring it; `''` → the folder's files without facts (not
   * parsed: too large), whose package and names are unknown
   */
  private readonly declared = new Map<string, Map<string, Map<string, RelPath[]>>>();

  constructor(private readonly host: ResolverHost) {
    for (const f of [...host.files].sort()) {
      if (!f.endsWith('.go')) continue;
      let d = dirOf(f);
      const name = f.slice(f.lastIndexOf('/') + 1);
      if (!name.startsWith('_') && !name.startsWith('.')) {
        const list = this.goFiles.get(d) ?? [];
        list.push(f);
        this.goFiles.set(d, list);
      }
      if (isPackageFile(f)) {
        const list = this.packages.get(d) ?? [];
        list.push(f);
        this.packages.set(d, list);
      }
      while (!this.goDirs.has(d)) {
        this.goDirs.add(d);
        if (d === '') break;
        d = dirOf(d);
      }
    }
  }

  /** go.mod and go.work files in every folder holding Go files or above one. */
  private get config(): NonNullable<GoResolver['read']> {
    if (this.read) return this.read;
    const modules = new Map<string, GoModule>();
    const workspaces = new Map<string, string[]>();
    const configFiles: RelPath[] = [];
    for (const dir of [...this.goDirs].sort()) {
      const mod = this.host.readFile(joinDir(dir, 'go.mod'));
      if (mod !== null) {
        configFiles.push(joinDir(dir, 'go.mod'));
        const path = directives(mod, 'module')[0]?.split(/\s+/)[0];
        const replaces = new Map<string, string>();
        for (const r of directives(mod, 'replace')) {
          const m = /^(\S+)(?:\s+\S+)?\s*=>\s*(\.\.?\/\S*|\.\.?)$/.exec(r);
          const target = m ? join(dir, m[2]) : null;
          if (m && target !== null) replaces.set(m[1], target);
        }
        if (path) modules.set(dir, { dir, path, replaces });
      }
      const work = this.host.readFile(joinDir(dir, 'go.work'));
      if (work !== null) {
        configFiles.push(joinDir(dir, 'go.work'));
        workspaces.set(dir, directives(work, 'use').flatMap((u) => (join(dir, u.split(/\s+/)[0]) ?? []) as string[]));
      }
    }
    this.read = { modules, workspaces, configFiles };
    return this.read;
  }

  configFiles(): RelPath[] {
    return [...this.config.configFiles];
  }

  forgetResults(): void {
    // the declarations stay: a change to one makes a new resolver (index.ts resolutionKey)
    this.memo.clear();
  }

  /** The module of a folder: the nearest go.mod above it. */
  private moduleOf(dir: string): GoModule | null {
    for (let d = dir; ; d = dirOf(d)) {
      const m = this.config.modules.get(d);
      if (m) return m;
      if (d === '') return null;
    }
  }

  /** The modules in a workspace using `module`: the nearest go.work above it that lists it; null when none. */
  private workspaceOf(module: GoModule): GoModule[] | null {
    for (let d = module.dir; ; d = dirOf(d)) {
      const uses = this.config.workspaces.get(d);
      if (uses) return uses.includes(module.dir) ? uses.flatMap((u) => this.config.modules.get(u) ?? []) : null;
      if (d === '') return null;
    }
  }

  /** The package-level names of a folder's files, by package clause (files the go command ignores left out). */
  private packagesIn(dir: string): Map<string, Map<string, RelPath[]>> {
    let byPackage = this.declared.get(dir);
    if (byPackage) return byPackage;
    byPackage = new Map();
    for (const f of this.goFiles.get(dir) ?? []) {
      const facts = this.host.factsOf?.(f);
      if (!facts) {
        const unread = byPackage.get('') ?? new Map<string, RelPath[]>([['', []]]);
        unread.get('')!.push(f);
        byPackage.set('', unread);
        continue;
      }
      const pkg = facts.symbols.find((s) => s.kind === 'namespace')?.name;
      if (pkg === undefined) continue;
      const byName = byPackage.get(pkg) ?? new Map<string, RelPath[]>();
      byPackage.set(pkg, byName);
      for (const s of facts.symbols) {
        if (s.kind === 'namespace' || s.name.includes('.')) continue;
        const list = byName.get(s.name) ?? [];
        list.push(f);
        byName.set(s.name, list);
      }
    }
    this.declared.set(dir, byPackage);
    return byPackage;
  }

  /** The files of `from`'s package declaring the names it uses without an import (kind `same-package`). */
  private samePackage(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const inferred = imp.specifier.endsWith(ALSO_LOCAL);
    const pkg = inferred ? imp.specifier.slice(0, -ALSO_LOCAL.length) : imp.specifier;
    const byName = this.packagesIn(dirOf(from)).get(pkg);
    const fromTest = from.endsWith('_test.go');
    const names = new Map<RelPath, string[]>();
    const unbound: string[] = [];
    for (const n of imp.names) {
      let bound = false;
      for (const f of byName?.get(n) ?? []) {
        if (f === from || (!fromTest && f.endsWith('_test.go'))) continue;
        const list = names.get(f) ?? [];
        list.push(n);
        names.set(f, list);
        bound = true;
      }
      if (!bound) unbound.push(n);
    }
    // a file of the folder that was not parsed (too large: generated tables) may declare what no other file does, but
    // for the names of the packages the file imports: inferred (not for names the file also declares locally)
    const unread = new Set<RelPath>();
    const left = inferred || !unbound.length ? [] : this.withoutPackageNames(unbound, from);
    if (left.length) for (const f of this.packagesIn(dirOf(from)).get('')?.get('') ?? []) if (fromTest || !f.endsWith('_test.go')) (unread.add(f), names.set(f, left));
    const out: ImportTarget[] = [...names.keys()].sort().map((path) => {
      const t: ImportTarget = { resolved: { kind: 'file', path }, names: names.get(path)! };
      if (inferred || unread.has(path)) t.inferred = true;
      return t;
    });
    // no other file declares them: the names are the file's locals, fields or the universe's
    return out.length ? out : [{ resolved: { kind: 'builtin', module: pkg } }];
  }

  /** `names` but those that name a package `from` imports (its path's last element, a `/vN` major version skipped). */
  private withoutPackageNames(names: readonly string[], from: RelPath): string[] {
    const packages = new Set<string>();
    for (const i of this.host.factsOf?.(from)?.imports ?? []) {
      if (i.kind !== 'import') continue;
      const parts = i.specifier.split('/');
      const last = /^v\d+$/.test(parts[parts.length - 1]) && parts.length > 1 ? parts[parts.length - 2] : parts[parts.length - 1];
      packages.add(last.replace(/\.v\d+$/, '').replace(/^go-/, ''));
    }
    return names.filter((n) => !packages.has(n));
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    if (imp.kind === 'same-package') return this.samePackage(imp, from);
    const key = `${dirOf(from)}\u0000${imp.specifier}`;
    return memoised(this.memo, key, () => this.compute(imp.specifier, from));
  }

  private targets(dir: string, spec: string): ImportTarget[] {
    const files = this.packages.get(dir);
    if (!files) return [{ resolved: unresolved(`${spec}: no Go package files in ${dir || 'the repository root'}/`) }];
    return files.map((path) => ({ resolved: { kind: 'file', path }, names: ['*'] }));
  }

  private compute(spec: string, from: RelPath): ImportTarget[] {
    const fromDir = dirOf(from);
    if (spec === 'C') return [{ resolved: { kind: 'builtin', module: 'C' } }]; // cgo
    if (spec.startsWith('./') || spec.startsWith('../')) {
      const dir = join(fromDir, spec);
      return dir === null ? [{ resolved: unresolved(`${spec}: outside the project`) }] : this.targets(dir, spec);
    }
    const own = this.moduleOf(fromDir);
    const workspace = own ? this.workspaceOf(own) : null;
    const visible: Array<[string, string]> = [];
    for (const m of workspace ?? (own ? [own] : [])) visible.push([m.path, m.dir]);
    if (own) for (const [p, d] of own.replaces) visible.push([p, d]);
    let best: [string, string] | null = null;
    for (const [p, d] of visible) if ((spec === p || spec.startsWith(`${p}/`)) && (!best || p.length > best[0].length)) best = [p, d];
    let dir: string | null = null;
    if (best) dir = spec === best[0] ? best[1] : joinDir(best[1], spec.slice(best[0].length + 1));
    else if (own && !workspace && this.goDirs.has(joinDir(own.dir, `vendor/${spec}`))) dir = joinDir(own.dir, `vendor/${spec}`);
    if (dir === null) {
      const first = spec.split('/')[0];
      return [{ resolved: first.includes('.') ? { kind: 'external', package: spec } : { kind: 'builtin', module: spec } }];
    }
    // internal/: only the tree rooted at the parent of the (last) `internal` element may import it
    const parts = dir.split('/');
    const at = parts.lastIndexOf('internal');
    if (at >= 0) {
      const allowed = parts.slice(0, at).join('/');
      if (allowed !== '' && fromDir !== allowed && !fromDir.startsWith(`${allowed}/`)) return [{ resolved: unresolved(`${spec}: an internal package, importable only from ${allowed}/`) }];
    }
    return this.targets(dir, spec);
  }
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
