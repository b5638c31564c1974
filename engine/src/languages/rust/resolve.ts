/**
 * Rust's module rules over the project's files.
 *
 * `mod x;` (parse.ts: `x`, `a::b::x` inside inline modules, `x=path` with `#[path]`) goes where rustc loads it: from
 * a crate root or a `mod.rs` file, `x.rs` or `x/mod.rs` beside it; from any other file `f.rs`, `f/x.rs` or
 * `f/x/mod.rs`; inside inline modules their names are folders in between; `#[path]` is relative to the file's folder
 * (and, inside inline modules, to the folders they add). A file `#[path]` loads is a mod.rs to rustc (its children
 * beside it): a non-mod-rs file whose children are not under `f/` is taken for one.
 *
 * A `use` path names a module and maybe an item in it: the edge goes to the file that defines the module the path
 * names. The path's start is the crate root (`crate::`; any path in edition 2015), the file's module (`self::`; parse.ts
 * makes paths relative to it), a parent (`super::`), or another crate: a dependency named in Cargo.toml (`-` → `_`,
 * a `package =` rename by its key), the package's own lib from its other targets, a crate of the project (a path or
 * workspace dependency: resolved into its lib), the sysroot (`std`, `core`, `alloc`, `proc_macro`, `test`: builtin),
 * or an external crate. From there each segment is a module file while one exists (`a.rs` / `a/mod.rs` under the
 * module's folder, also under inline modules' folders), then an item (or inline module) of the last file found.
 * Which crate a file belongs to comes from Cargo's targets (cargo.ts): the target whose root's folder holds it, the
 * lib before the bins. Without a Cargo.toml the nearest `lib.rs`/`main.rs` up the folders is taken as the root, and
 * the edges it gives are inferred.
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, isOutsideRoot, joinDir, joinRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import type { ImportTarget, LanguageResolver } from '../types.js';
import { Cargo, type CargoPackage, type CrateTarget } from './cargo.js';
import { memoised } from '../memo.js';

export const RUST_CONFIG_FILES = ['Cargo.toml'] as const;

const SYSROOT = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

const stemOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1).replace(/\.rs$/, '');

interface Crate {
  /** the crate root file */
  root: RelPath;
  /** the folder of the root: where the root module's child modules are */
  dir: string;
  pkg: CargoPackage | null;
  edition: number;
}

export class RustResolver implements LanguageResolver {
  private readonly rsDirs = new Set<string>();
  private readonly cargo: Cargo;
  private readonly crateMemo = new Map<RelPath, Crate | null>();
  private memo = new Map<string, ImportTarget[]>();

  constructor(private readonly host: ResolverHost) {
    for (const f of host.files) {
      if (!f.endsWith('.rs')) continue;
      for (let d = dirOf(f); !this.rsDirs.has(d); d = dirOf(d)) {
        this.rsDirs.add(d);
        if (d === '') break;
      }
    }
    this.cargo = new Cargo(this.rsDirs, host.files, (rel) => host.readFile(rel));
  }

  configFiles(): RelPath[] {
    return this.cargo.all().configFiles;
  }

  forgetResults(): void {
    this.memo.clear();
  }

  private has(path: string): boolean {
    return this.host.files.has(path);
  }

  /** The package of a file: the nearest folder above it with a Cargo.toml that has a `[package]`. */
  private packageOf(path: RelPath): CargoPackage | null {
    for (let d = dirOf(path); ; d = dirOf(d)) {
      const p = this.cargo.packageAt(d);
      if (p) return p;
      if (d === '') return null;
    }
  }

  /** The crate a file belongs to: the target whose root's folder holds it (deepest first, the lib before others). */
  private crateOf(path: RelPath): Crate | null {
    if (this.crateMemo.has(path)) return this.crateMemo.get(path)!;
    let crate: Crate | null = null;
    const pkg = this.packageOf(path);
    if (pkg) {
      let best: CrateTarget | null = pkg.targets.find((t) => t.root === path) ?? null;
      if (!best) {
        for (const t of pkg.targets) {
          const d = dirOf(t.root);
          if (t.kind === 'build' || !(d === '' || path.startsWith(`${d}/`))) continue;
          if (!best || d.length > dirOf(best.root).length) best = t;
        }
      }
      if (best) crate = { root: best.root, dir: dirOf(best.root), pkg, edition: pkg.edition };
    } else {
      // no Cargo.toml: the nearest lib.rs / main.rs up the folders
      for (let d = dirOf(path); ; d = dirOf(d)) {
        const root = ['lib.rs', 'main.rs'].map((n) => joinDir(d, n)).find((f) => this.has(f));
        if (root) {
          crate = { root, dir: d, pkg: null, edition: 2021 };
          break;
        }
        if (d === '') break;
      }
    }
    this.crateMemo.set(path, crate);
    return crate;
  }

  /** A crate root or a `mod.rs`: its child modules sit beside it, not in a folder named after it. */
  private isModRs(path: RelPath): boolean {
    return path.endsWith('/mod.rs') || path === 'mod.rs' || this.cargo.isTargetRoot(path) || (this.packageOf(path) === null && this.crateOf(path)?.root === path);
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const key = `${from}\u0000${imp.kind === 'mod' ? 'mod' : ''}\u0000${imp.specifier}\u0000${imp.reexports ? JSON.stringify(imp.reexports) : ''}`;
    return memoised(this.memo, key, () => imp.kind === 'mod' ? this.resolveMod(imp.specifier, from) : imp.kind === 'include' ? this.resolveInclude(imp.specifier, from) : this.resolveUse(imp, from));
  }

  private resolveMod(spec: string, from: RelPath): ImportTarget[] {
    const eq = spec.indexOf('=');
    const chain = (eq < 0 ? spec : spec.slice(0, eq)).split('::');
    const name = chain.pop()!;
    const modRs = this.isModRs(from);
    // rustc reads a file loaded by `#[path]` as a mod.rs: its children sit beside it. Which files `#[path]` loads is
    // not in this file's facts, but a non-mod-rs file whose child is not where a child of a normally loaded file is
    // (`f/x.rs`, `f/x/mod.rs`) compiles only as such a file: its children are looked for beside it then.
    const dirs = [chain.reduce((d, s) => joinDir(d, s), modRs ? dirOf(from) : joinDir(dirOf(from), stemOf(from)))];
    if (!modRs) dirs.push(chain.reduce((d, s) => joinDir(d, s), dirOf(from)));
    const inferred = this.packageOf(from) === null;
    if (eq >= 0) {
      // `#[path]` is relative to the file's folder, inside inline modules to the folders they add
      const targets = chain.length ? dirs.map((d) => joinRel(d, spec.slice(eq + 1))) : [joinRel(dirOf(from), spec.slice(eq + 1))];
      if (isOutsideRoot(targets[0])) return [{ resolved: unresolved(`mod ${name}: #[path] leaves the project`) }];
      const target = targets.find((t) => this.has(t));
      return [target ? { resolved: { kind: 'file', path: target } } : { resolved: unresolved(`mod ${name}: ${targets[0]} is not an indexed file`) }];
    }
    const candidates = dirs.flatMap((d) => [joinDir(d, `${name}.rs`), joinDir(d, `${name}/mod.rs`)]);
    const found = candidates.find((f) => this.has(f));
    if (!found) return [{ resolved: unresolved(`mod ${name}: neither ${candidates.slice(0, 2).join(' nor ')} is an indexed file`) }];
    return [{ resolved: { kind: 'file', path: found }, ...(inferred ? { inferred: true as const } : {}) }];
  }

  private resolveInclude(spec: string, from: RelPath): ImportTarget[] {
    const target = joinRel(dirOf(from), spec);
    if (isOutsideRoot(target)) return [{ resolved: unresolved(`include!(${spec}): outside the project`) }];
    return [this.has(target) ? { resolved: { kind: 'file', path: target }, names: ['*'] } : { resolved: unresolved(`include!(${spec}): ${target} is not an indexed file`) }];
  }

  /** The project crate (its lib) a crate name in `pkg` stands for, or how it is external. */
  private externCrate(name: string, crate: Crate): Crate | Resolution {
    const pkg = crate.pkg;
    if (pkg) {
      const dep = pkg.deps.get(name);
      if (dep) {
        const target = dep.dir !== null ? this.cargo.packageAt(dep.dir) : null;
        if (target?.lib) return { root: target.lib, dir: dirOf(target.lib), pkg: target, edition: target.edition };
        if (target) return unresolved(`${name}: the package in ${target.dir || 'the repository root'}/ has no lib target`);
        return { kind: 'external', package: dep.package };
      }
      for (const d of pkg.deps.values()) {
        const target = d.dir !== null ? this.cargo.packageAt(d.dir) : null;
        if (target?.lib && target.libName === name) return { root: target.lib, dir: dirOf(target.lib), pkg: target, edition: target.edition };
      }
      if (pkg.lib && pkg.libName === name) return { root: pkg.lib, dir: dirOf(pkg.lib), pkg, edition: pkg.edition };
    }
    if (SYSROOT.has(name)) return { kind: 'builtin', module: name };
    return pkg ? unresolved(`${name}: not a module of this crate nor a dependency in ${pkg.dir ? `${pkg.dir}/` : ''}Cargo.toml`) : { kind: 'external', package: name };
  }

  private resolveUse(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const crate = this.crateOf(from);
    const glob = imp.specifier.endsWith('::*');
    const segments = (glob ? imp.specifier.slice(0, -3) : imp.specifier).split('::');
    let base: Crate | null = crate;
    let rest: string[];
    const first = segments[0];
    const inferred = this.packageOf(from) === null;
    if (first === 'crate') rest = segments.slice(1);
    else if (first === 'self' || first === 'super') {
      // from the file's own module by folders: it may sit outside its root's folder (`#[path]`)
      let file = from;
      let dir = this.isModRs(from) ? dirOf(from) : joinDir(dirOf(from), stemOf(from));
      let k = 0;
      for (; segments[k] === 'super'; k++) {
        if (this.cargo.isTargetRoot(file) || dir === '' || (crate && file === crate.root)) return [{ resolved: unresolved(`${imp.specifier}: super:: of the crate root`) }];
        dir = dirOf(dir);
        const parent = [`${dir}.rs`, joinDir(dir, 'mod.rs'), ...(crate && crate.dir === dir ? [crate.root] : []), joinDir(dir, 'lib.rs'), joinDir(dir, 'main.rs')].find((f) => this.has(f));
        if (!parent) return [{ resolved: unresolved(`${imp.specifier}: no module file for ${dir || 'the repository root'}/`) }];
        file = parent;
      }
      return this.targets(this.walkFrom(file, segments.slice(first === 'self' ? 1 : k), dir), imp, glob, inferred);
    } else {
      const name = first === '' ? segments[1] : first;
      rest = segments.slice(first === '' ? 2 : 1);
      const crateRelative = first !== '' && crate !== null && crate.edition < 2018;
      let other = crate ? this.externCrate(name, crate) : SYSROOT.has(name) ? ({ kind: 'builtin', module: name } as Resolution) : ({ kind: 'external', package: name } as Resolution);
      // `::x` (and a crate `extern crate` declares) is a crate for certain: one Cargo.toml does not name is external
      if (first === '' && !('root' in other) && other.kind === 'unresolved') other = { kind: 'external', package: name };
      if ('root' in other) base = other;
      else if (crateRelative && other.kind === 'unresolved') rest = segments; // edition 2015: a path from the crate root
      else return [{ resolved: other }];
    }
    if (!base) return [{ resolved: unresolved(`${imp.specifier}: the file's crate root is not known`) }];
    return this.targets(this.walkFrom(base.root, rest, base.dir), imp, glob, inferred);
  }

  /**
   * The file that defines the module `segments` names from a module (its file, the folder of its child modules),
   * and what of the path is left: items (or inline modules) in that file. Each segment is a module file while one
   * exists (`a.rs` / `a/mod.rs`), also below folders of inline modules.
   */
  private walkFrom(file: RelPath, segments: string[], from: string): { file: RelPath; rest: string[] } {
    let dir = from;
    let found = file;
    let at = 0;
    for (let i = 0; i < segments.length; i++) {
      dir = joinDir(dir, segments[i]);
      // a module is never its own child (`crate::lib::x` from src/lib.rs names an inline module `lib`)
      const f = [`${dir}.rs`, joinDir(dir, 'mod.rs')].find((c) => this.has(c) && c !== file);
      if (f) {
        found = f;
        at = i + 1;
      } else if (!this.rsDirs.has(dir)) break;
    }
    return { file: found, rest: segments.slice(at) };
  }

  /** The target of a walk: the module as a whole, or the item it names in its file. */
  private targets(walked: { file: RelPath; rest: string[] }, imp: ImportRecord, glob: boolean, inferred: boolean): ImportTarget[] {
    const whole = walked.rest.length === 0;
    const names = whole ? ['*'] : [walked.rest[0]];
    // a re-export's bindings say what its importers see (names are the statement's, as for a JS `export … from`)
    const target: ImportTarget = { resolved: { kind: 'file', path: walked.file }, names: imp.kind === 'reexport' ? imp.names : names };
    if (inferred) target.inferred = true;
    if (imp.kind === 'reexport' && imp.reexports?.length) {
      const exported = imp.reexports[0].exported;
      target.reexports = [{ imported: whole ? '*' : walked.rest[0], exported: glob && whole ? '*' : glob ? walked.rest[walked.rest.length - 1] : exported }];
    }
    return [target];
  }
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
