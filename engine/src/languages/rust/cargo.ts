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

/**
 * Reads every Cargo.toml in `dirs` (folders holding `.rs` files or above one) into packages. `files` is the indexed
 * file set (targets are discovered in it); `read` returns a file's text or null.
 */
export function readCargo(dirs: Iterable<string>, files: ReadonlySet<RelPath>, read: (rel: RelPath) => string | null): { packages: Map<string, CargoPackage>; configFiles: RelPath[] } {
  const tomls = new Map<string, Table>();
  const configFiles: RelPath[] = [];
  for (const dir of [...dirs].sort()) {
    const rel = joinDir(dir, 'Cargo.toml');
    const text = read(rel);
    if (text === null) continue;
    configFiles.push(rel);
    try {
      tomls.set(dir, parseToml(text) as Table);
    } catch {
      tomls.set(dir, {}); // a malformed Cargo.toml: its folder still bounds a package, with Cargo's defaults
    }
  }
  const workspaces: Workspace[] = [];
  for (const [dir, t] of tomls) {
    const ws = table(t.workspace);
    if (!t.workspace) continue;
    const regexes = (v: unknown): RegExp[] => (Array.isArray(v) ? v.flatMap((g) => (typeof g === 'string' ? (globRegex(dir, g) ?? []) : [])) : []);
    const edition = Number(str(table(ws.package).edition));
    workspaces.push({ dir, members: regexes(ws.members), exclude: regexes(ws.exclude), deps: table(ws.dependencies), edition: Number.isFinite(edition) && edition > 0 ? edition : null });
  }
  const workspaceOf = (dir: string): Workspace | null => {
    let best: Workspace | null = null;
    for (const w of workspaces) {
      const inside = w.dir === dir || (w.dir === '' ? true : dir.startsWith(`${w.dir}/`));
      if (!inside) continue;
      if (w.dir !== dir && (!w.members.some((m) => m.test(dir)) || w.exclude.some((m) => m.test(dir)))) continue;
      if (!best || w.dir.length > best.dir.length) best = w;
    }
    return best;
  };

  // the .rs files of each folder, and each folder's child folders holding .rs files, for target discovery
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
  const packages = new Map<string, CargoPackage>();
  const pending: Array<[CargoPackage, Table, Workspace | null]> = [];
  for (const [dir, t] of tomls) {
    if (!t.package && t.workspace) continue; // a virtual manifest
    const pkg = table(t.package);
    const name = str(pkg.name) ?? (dir.slice(dir.lastIndexOf('/') + 1) || 'crate');
    const ws = workspaceOf(dir);
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
    packages.set(dir, p);
    pending.push([p, t, ws]);
  }

  // dependencies, once every package is known (a path or a workspace member makes one a crate of the project)
  for (const [p, t, ws] of pending) {
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
        const base = spec.workspace === true && ws ? ws.dir : p.dir;
        const path = str(spec.path);
        let dir: string | null = null;
        if (path !== null) {
          const d = joinRel(base, path.replace(/\/+$/, ''));
          if (!isOutsideRoot(d) && packages.has(d)) dir = d;
        }
        p.deps.set(key.replace(/-/g, '_'), { package: pkgName, dir });
      }
    }
  }
  return { packages, configFiles };
}
