/**
 * Cargo's view of a project: the packages (every `Cargo.toml` with a `[package]`), their targets and crate roots as
 * Cargo finds them, their edition, and the crates each can name (its dependencies, renames included).
 *
 * Targets: the lib (`[lib] path`, else `src/lib.rs`), bins (`[[bin]] path`, `src/main.rs`, `src/bin/*.rs`,
 * `src/bin/<name>/main.rs`), examples, tests and benches (`examples/`, `tests/`, `benches/` the same way, and their
 * `[[example]]`/`[[test]]`/`[[bench]]` paths), the build script (`build`, else `build.rs`). `autobins = false` (and the
 * others) turn discovery off, as Cargo does. A dependency with `path` (or `workspace = true` whose workspace entry
 * has one) (the workspace: the nearest `[workspace]` above whose `members` globs, minus `exclude`, hold the package), is a crate
 * of the project.
 */
import { parse as parseToml } from 'smol-toml';
import { dirOf, isOutsideRoot, joinDir, joinRel } from '../../resolve/paths.js';
import type { RelPath } from '../../types.js';
import { memoised } from '../memo.js';

export type TargetKind = 'lib' | 'bin' | 'example' | 'test' | 'bench' | 'build';

export interface CrateTarget {
  kind: TargetKind;
  /** the crate root file */
  root: RelPath;
}

export interface CargoPackage {
  /** the folder of Cargo.toml */
  dir: string;
  name: string;
  /** the lib crate's name (`[lib] name`, else the package name with `-` → `_`) */
  libName: string;
  edition: number;
  lib: RelPath | null;
  targets: CrateTarget[];
  /** the name code uses (`-` → `_`, a rename's key) → the dependency */
  deps: Map<string, { package: string; dir: string | null }>;
}

type Table = Record<string, unknown>;
const table = (v: unknown): Table => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Table) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

interface Workspace {
  dir: string;
  members: RegExp[];
  exclude: RegExp[];
  deps: Table;
  edition: number | null;
}

/** A Cargo `members` glob (`crates/*`, `a/b`) as a regular expression over project-relative folders. */
function globRegex(base: string, glob: string): RegExp | null {
  const full = joinRel(base, glob.replace(/\/+$/, ''));
  if (isOutsideRoot(full)) return null;
  const body = full
    .split('')
    .map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : /[.+^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch))
    .join('')
    .replace(/\[\^\/\]\*\[\^\/\]\*/g, '.*');
  return new RegExp(`^${body}$`);
}

/** Text a manifest holds when a path in it may climb out of its folder (Cargo.isTargetRoot). */
const MAY_LEAVE = /\.\.|\\[uUx\s]/;

/** What a package's targets are discovered in: each folder's `.rs` files, and each folder's child folders holding some. */
interface Layout {
  rsByDir: Map<string, RelPath[]>;
  subDirs: Map<string, Set<string>>;
}

function layoutOf(files: ReadonlySet<RelPath>): Layout {
  const rsByDir = new Map<string, RelPath[]>();
  const subDirs = new Map<string, Set<string>>();
  for (const f of files) {
    if (!f.endsWith('.rs')) continue;
    const d = dirOf(f);
    const list = rsByDir.get(d) ?? [];
    list.push(f);
    rsByDir.set(d, list);
    if (d !== '') {
      const parent = dirOf(d);
      const set = subDirs.get(parent) ?? new Set<string>();
      set.add(d);
      subDirs.set(parent, set);
    }
  }
  return { rsByDir, subDirs };
}

/**
 * The Cargo.toml files in `dirs` (folders holding `.rs` files or above one), each read and parsed when first asked
 * for: a one-file update reads the manifests above the file and those of the crates it names, not every one of the
 * project (parsing them all was most of a fresh hook worker's resolution). `files` is the indexed file set (targets
 * are discovered in it); `read` returns a file's text or null.
 */
export class Cargo {
  private readonly texts = new Map<string, string | null>();
  private readonly tomls = new Map<string, Table | null>();
  private readonly workspaces = new Map<string, Workspace | null>();
  private readonly packages = new Map<string, CargoPackage | null>();
  private layout: Layout | null = null;
  /** packages a target of which may lie outside their folder: a path with `..` (or an escape) in their manifest */
  private escaping: CargoPackage[] | null = null;
  private readonly roots = new Map<RelPath, boolean>();

  constructor(
    private readonly dirs: ReadonlySet<string>,
    private readonly files: ReadonlySet<RelPath>,
    private readonly read: (rel: RelPath) => string | null,
  ) {}

  private text(dir: string): string | null {
    return memoised(this.texts, dir, () => (this.dirs.has(dir) ? this.read(joinDir(dir, 'Cargo.toml')) : null));
  }

  private toml(dir: string): Table | null {
    return memoised(this.tomls, dir, () => {
      const text = this.text(dir);
      if (text === null) return null;
      try {
        return parseToml(text) as Table;
      } catch {
        return {}; // a malformed Cargo.toml: its folder still bounds a package, with Cargo's defaults
      }
    });
  }

  private workspaceAt(dir: string): Workspace | null {
    return memoised(this.workspaces, dir, () => {
      const t = this.toml(dir);
      if (!t?.workspace) return null;
      const ws = table(t.workspace);
      const regexes = (v: unknown): RegExp[] => (Array.isArray(v) ? v.flatMap((g) => (typeof g === 'string' ? (globRegex(dir, g) ?? []) : [])) : []);
      const edition = Number(str(table(ws.package).edition));
      return { dir, members: regexes(ws.members), exclude: regexes(ws.exclude), deps: table(ws.dependencies), edition: Number.isFinite(edition) && edition > 0 ? edition : null };
    });
  }

  /** The workspace of the package in `dir`: the nearest one above (or in) it whose members hold it. */
  private workspaceOf(dir: string): Workspace | null {
    for (let d = dir; ; d = dirOf(d)) {
      const w = this.workspaceAt(d);
      if (w && (w.dir === dir || (w.members.some((m) => m.test(dir)) && !w.exclude.some((m) => m.test(dir))))) return w;
      if (d === '') return null;
    }
  }

  /** Whether `dir` holds a package's Cargo.toml (a virtual manifest, `[workspace]` without `[package]`, is none). */
  private isPackage(dir: string): boolean {
    const t = this.toml(dir);
    return t !== null && !(!t.package && t.workspace);
  }

  /** The package whose Cargo.toml is in `dir`, else null. */
  packageAt(dir: string): CargoPackage | null {
    return memoised(this.packages, dir, () => (this.isPackage(dir) ? this.readPackage(dir, this.toml(dir)!) : null));
  }

  /** Whether `file` is the root of a target of a package: one above it, or one whose manifest may point elsewhere. */
  isTargetRoot(file: RelPath): boolean {
    return memoised(this.roots, file, () => this.findTargetRoot(file));
  }

  private findTargetRoot(file: RelPath): boolean {
    for (let d = dirOf(file); ; d = dirOf(d)) {
      if (this.packageAt(d)?.targets.some((t) => t.root === file)) return true;
      if (d === '') break;
    }
    // a target path leaves its package's folder only through `..`, which the text then holds, or an escape that can
    // give a `.` (`\u002e`, `\x2e`) or join lines (a backslash ending a line of a multi-line string)
    this.escaping ??= [...this.dirs].sort().flatMap((d) => {
      const text = this.text(d);
      return text !== null && MAY_LEAVE.test(text) ? (this.packageAt(d) ?? []) : [];
    });
    return this.escaping.some((p) => p.targets.some((t) => t.root === file));
  }

  /** Every package, and every Cargo.toml read (all of them). */
  all(): { packages: Map<string, CargoPackage>; configFiles: RelPath[] } {
    const packages = new Map<string, CargoPackage>();
    const configFiles: RelPath[] = [];
    for (const dir of [...this.dirs].sort()) {
      if (this.text(dir) === null) continue;
      configFiles.push(joinDir(dir, 'Cargo.toml'));
      const p = this.packageAt(dir);
      if (p) packages.set(dir, p);
    }
    return { packages, configFiles };
  }

  private readPackage(dir: string, t: Table): CargoPackage {
    const { rsByDir, subDirs } = (this.layout ??= layoutOf(this.files));
    const files = this.files;
    const pkg = table(t.package);
    const name = str(pkg.name) ?? (dir.slice(dir.lastIndexOf('/') + 1) || 'crate');
    const ws = this.workspaceOf(dir);
    const editionValue = pkg.edition;
    const edition = typeof editionValue === 'string' ? Number(editionValue) : table(editionValue).workspace === true ? (ws?.edition ?? 2015) : 2015;
    const has = (rel: string): boolean => files.has(joinDir(dir, rel));
    // `<folder>/*.rs` and `<folder>/*/main.rs`
    const under = (folder: string): RelPath[] => {
      const base = joinDir(dir, folder);
      const out = [...(rsByDir.get(base) ?? [])];
      for (const sub of subDirs.get(base) ?? []) if (files.has(`${sub}/main.rs`)) out.push(`${sub}/main.rs`);
      return out.sort();
    };
    const targets: CrateTarget[] = [];
    const add = (kind: TargetKind, rel: string | null): void => {
      if (rel === null) return;
      const root = joinRel(dir, rel);
      if (!isOutsideRoot(root) && files.has(root) && !targets.some((x) => x.root === root)) targets.push({ kind, root });
    };
    const libTable = table(t.lib);
    const libPath = str(libTable.path) ?? (has('src/lib.rs') ? 'src/lib.rs' : null);
    add('lib', libPath);
    const lib = targets[0]?.kind === 'lib' ? targets[0].root : null;
    const explicit: Array<[TargetKind, string, string, string]> = [
      ['bin', 'bin', 'autobins', 'src/bin'],
      ['example', 'example', 'autoexamples', 'examples'],
      ['test', 'test', 'autotests', 'tests'],
      ['bench', 'bench', 'autobenches', 'benches'],
    ];
    for (const [kind, key, auto, folder] of explicit) {
      const list = Array.isArray(t[key]) ? (t[key] as unknown[]) : [];
      for (const entry of list) {
        const e = table(entry);
        const n = str(e.name);
        const p = str(e.path) ?? (n === null ? null : kind === 'bin' && n === name && has('src/main.rs') ? 'src/main.rs' : has(`${folder}/${n}.rs`) ? `${folder}/${n}.rs` : `${folder}/${n}/main.rs`);
        add(kind, p);
      }
      if (pkg[auto] === false) continue;
      if (kind === 'bin') add('bin', has('src/main.rs') ? 'src/main.rs' : null);
      for (const f of under(folder)) add(kind, f.slice(dir ? dir.length + 1 : 0));
    }
    const build = pkg.build;
    if (typeof build === 'string') add('build', build);
    else if (build !== false && has('build.rs')) add('build', 'build.rs');
    const p: CargoPackage = { dir, name, libName: (str(libTable.name) ?? name).replace(/-/g, '_'), edition: Number.isFinite(edition) ? edition : 2015, lib, targets, deps: new Map() };

    // dependencies: a path to a package of the project (or a workspace one with one) makes one a crate of the project
    const sections: Table[] = [t.dependencies, t['dev-dependencies'], t['build-dependencies']].map(table);
    for (const target of Object.values(table(t.target))) {
      const tt = table(target);
      sections.push(table(tt.dependencies), table(tt['dev-dependencies']), table(tt['build-dependencies']));
    }
    for (const section of sections) {
      for (const [key, value] of Object.entries(section)) {
        let spec = table(value);
        if (spec.workspace === true && ws) spec = { ...table(ws.deps[key]), ...spec };
        const pkgName = str(spec.package) ?? key;
        const base = spec.workspace === true && ws ? ws.dir : dir;
        const path = str(spec.path);
        let depDir: string | null = null;
        if (path !== null) {
          const d = joinRel(base, path.replace(/\/+$/, ''));
          if (!isOutsideRoot(d) && this.isPackage(d)) depDir = d;
        }
        p.deps.set(key.replace(/-/g, '_'), { package: pkgName, dir: depDir });
      }
    }
    return p;
  }
}
