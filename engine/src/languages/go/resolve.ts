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
 * with the same package clause that declare one of those names at package level (declarations.ts reads them): a
 * `_test.go` file sees every file of its package, a non-test file only the non-test ones (`go build` leaves tests
 * out); an external test package (`x_test`) is a package of its own. Every file declaring a name is reached (files
 * for different OSes or build tags may each declare it). Exact, except the record of names the file also declares
 * locally (inferred: a local may shadow them where they are used).
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, isOutsideRoot, joinDir, joinRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import type { ImportTarget, LanguageResolver } from '../types.js';
import { goDeclarations, type GoDeclarations } from './declarations.js';
import { memoised } from '../memo.js';
import { ownStrings } from '../../parse/own-strings.js';

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

/**
 * What was read of each .go file (root + path → its stamp and declarations), for the process: a new resolver (after
 * the file set or a declaration changed) reads again only the files whose stamp moved.
 */
const READ = new Map<string, GoDeclarations & { stamp: string }>();

export class GoResolver implements LanguageResolver {
  /** folder → its package files, sorted */
  private readonly packages = new Map<string, RelPath[]>();
  /** folder → every .go file of it the go command reads (not `_x.go`, `.x.go`), tests included */
  private readonly goFiles = new Map<string, RelPath[]>();
  /** every folder with a Go file in it or below it */
  private readonly goDirs = new Set<string>();
  private read: { modules: Map<string, GoModule>; workspaces: Map<string, string[]>; configFiles: RelPath[] } | null = null;
  private memo = new Map<string, ImportTarget[]>();
  /** folder → package name → declared name → the files declaring it */
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
    this.memo.clear();
    this.declared.clear();
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

  /** A file's package clause and package-level names, from its text; kept across resolvers while its stamp holds. */
  private declarationsOf(file: RelPath): GoDeclarations {
    const key = `${this.host.root}\u0000${file}`;
    const stamp = this.host.stampOf?.(file) ?? null;
    const known = stamp === null ? undefined : READ.get(key);
    if (known && known.stamp === stamp) return known;
    // own strings: a name cut out of the text is a view that would keep the whole file's text alive in READ
    const read = ownStrings(goDeclarations(this.host.readFile(file) ?? ''));
    if (stamp !== null) READ.set(key, { ...read, stamp });
    return read;
  }

  /** The package-level names of a folder's files, by package clause (files the go command ignores left out). */
  private packagesIn(dir: string): Map<string, Map<string, RelPath[]>> {
    let byPackage = this.declared.get(dir);
    if (byPackage) return byPackage;
    byPackage = new Map();
    for (const f of this.goFiles.get(dir) ?? []) {
      const { pkg, names } = this.declarationsOf(f);
      if (pkg === null) continue;
      const byName = byPackage.get(pkg) ?? new Map<string, RelPath[]>();
      byPackage.set(pkg, byName);
      for (const n of names) {
        const list = byName.get(n) ?? [];
        list.push(f);
        byName.set(n, list);
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
    for (const n of imp.names) {
      for (const f of byName?.get(n) ?? []) {
        if (f === from || (!fromTest && f.endsWith('_test.go'))) continue;
        const list = names.get(f) ?? [];
        list.push(n);
        names.set(f, list);
      }
    }
    const out: ImportTarget[] = [...names.keys()].sort().map((path) => {
      const t: ImportTarget = { resolved: { kind: 'file', path }, names: names.get(path)! };
      if (inferred) t.inferred = true;
      return t;
    });
    // no other file declares them: the names are the file's locals, fields or the universe's
    return out.length ? out : [{ resolved: { kind: 'builtin', module: pkg } }];
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
