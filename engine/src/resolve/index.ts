/**
 * The resolve stage: turns an import specifier of a file into a project file, an asset, an external package, a Node
 * built-in, or an explained failure — the way the project's own toolchain (TypeScript, Node, the package manager's
 * workspaces) would. Works against the indexed file set and reads config files through the host only.
 *
 * Order for one specifier:
 *   relative (`./`, `../`, `.`) and absolute-in-root → file probing (see probeFile / probeDirectory)
 *   `#name` → package.json `imports` of the nearest package.json
 *   `scheme:` → `node:` built-in, `npm:` external, `file:` URL inside the root, anything else unresolved
 *   bare → tsconfig `paths`, `baseUrl`, Node built-in, self-reference by package name, workspace package, external
 *   `/// <reference path>` (kind triple-slash) → a path relative to the file
 *   `/// <reference types>` (kind triple-slash-types) → tsconfig typeRoots, then relative or a package (workspace,
 *   `@types/`, external), declaration files first
 */

import { fileURLToPath } from 'node:url';
import type { ImportKind, RelPath, Resolution } from '../types.js';
import { builtinModuleOf } from './builtins.js';
import {
  APPEND,
  Importer,
  extensionOf,
  importerOf,
  isSourceExtension,
  extensionMap,
  sourceExtensionsFor,
  splitOutputExtension,
} from './extensions.js';
import type { Resolver, ResolverHost } from './host.js';
import { isRecord } from './jsonc.js';
import {
  conditionsFor,
  entryFieldsFor,
  exportsMapOf,
  flattenTargets,
  importsMapOf,
  matchSubpath,
  type PackageInfo,
} from './package-json.js';
import { dirOf, isOutsideRoot, isValidPackageName, joinDir, joinRel, nearestUp, normalizeRel, splitPackageSpecifier } from './paths.js';
import { ConfigReader } from './reader.js';
import { TsconfigLoader, type PathsRule, type TsConfig } from './tsconfig.js';
import { discoverWorkspaces } from './workspaces.js';

export type { Resolver, ResolverHost } from './host.js';

/** Per-call facts about the importing file. */
interface Ctx {
  spec: string;
  /** the importing file as it appears in reasons: the FROM placeholder, since results are shared per directory */
  from: string;
  dir: RelPath;
  importer: Importer;
  kind: ImportKind;
  /** lazily: condition names in order of preference */
  conds: readonly string[] | null;
}

const URL_SCHEMES = new Set(['http', 'https', 'data', 'blob', 'ftp', 'ws', 'wss']);

/** Memoised results for the files of one directory with one importer kind (TS, declaration, JS). */
interface DirMemo {
  dir: RelPath;
  importer: Importer;
  /** by import kind: [import-like, require, triple-slash path, triple-slash types] → specifier → result */
  byKind: (Map<string, Resolution> | null)[];
}

/** Top-level directories of build output that usually mirror a `src/` tree. */
const OUT_DIRS = new Set(['dist', 'lib', 'build', 'out', 'esm', 'cjs', 'types', 'dts']);
/** Flavour sub-directories inside build output (`dist/esm/x.js` ← `src/x.ts`). */
const FLAVOUR_DIRS = new Set(['esm', 'cjs', 'es', 'mjs', 'types', 'dts', 'lib', 'node', 'browser', 'umd', 'src']);

function file(path: RelPath): Resolution {
  return { kind: 'file', path };
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}

/** Stands for the importing file in memoised reasons (results are shared by the files of a directory). */
const FROM = '\u0000from\u0000';

function withImporter(r: Resolution & { kind: 'unresolved' }, from: RelPath): Resolution {
  return r.reason.indexOf(FROM) === -1 ? r : { kind: 'unresolved', reason: r.reason.split(FROM).join(from) };
}

/** Strips a `?query` or `#hash` suffix (`./x.svg?raw`); a leading `#` is a package import, not a hash. */
function stripQuery(spec: string): string {
  const q = spec.indexOf('?');
  const h = spec.indexOf('#', 1);
  let cut = q;
  if (h !== -1 && (cut === -1 || h < cut)) cut = h;
  return cut === -1 ? spec : spec.slice(0, cut);
}

/** `https:`, `data:`, `node:` … → the scheme (without colon), else null. One-letter schemes are drive letters. */
function schemeOf(spec: string): string | null {
  const colon = spec.indexOf(':');
  if (colon < 2) return null;
  for (let i = 0; i < colon; i++) {
    const c = spec.charCodeAt(i);
    const alpha = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (!alpha && (i === 0 || !((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46))) return null;
  }
  return spec.slice(0, colon).toLowerCase();
}

/** `./x` or `../x` or `.` or `..` */
function isRelative(spec: string): boolean {
  if (spec.charCodeAt(0) !== 46) return false;
  if (spec.length === 1) return true;
  const c1 = spec.charCodeAt(1);
  if (c1 === 47) return true;
  return c1 === 46 && (spec.length === 2 || spec.charCodeAt(2) === 47);
}

/** Package name of a path that goes through node_modules (`node_modules/@types/react/index` → `@types/react`). */
function packageInNodeModules(path: string): string | null {
  const at = path.lastIndexOf('node_modules/');
  if (at === -1 || (at > 0 && path.charCodeAt(at - 1) !== 47)) return null;
  const rest = path.slice(at + 'node_modules/'.length);
  const { name } = splitPackageSpecifier(rest);
  return name === '' ? null : name;
}

function tried(exts: readonly string[]): string {
  return exts.length > 5 ? exts.slice(0, 5).join(', ') + ', …' : exts.join(', ');
}

class ProjectResolver implements Resolver {
  private readonly files: ReadonlySet<RelPath>;
  private readonly reader: ConfigReader;
  private readonly tsconfigs: TsconfigLoader;
  /** absolute root with a trailing `/` */
  private readonly rootSlash: string;
  private readonly packagesAt = new Map<RelPath, PackageInfo | null>();
  private readonly scopes = new Map<RelPath, PackageInfo | null>();
  private workspaceMap: Map<string, PackageInfo> | null = null;
  private workspaceFilesSize = -1;
  private readonly referenced = new Map<RelPath, TsConfig[]>();
  /** memoised results per (importer kind + directory); dropped when the size of host.files changes */
  private readonly memo = new Map<string, DirMemo>();
  private memoFilesSize = -1;
  private lastFrom: RelPath | null = null;
  private lastMemo: DirMemo | null = null;

  constructor(private readonly host: ResolverHost) {
    this.files = host.files;
    this.reader = new ConfigReader(host);
    let root = host.root.replace(/\\/g, '/');
    while (root.length > 1 && root.endsWith('/')) root = root.slice(0, -1);
    this.rootSlash = root.endsWith('/') ? root : root + '/';
    const depth = root.split('/').filter((s) => s !== '' && !s.endsWith(':')).length;
    this.tsconfigs = new TsconfigLoader(this.reader, (abs) => this.absToRel(abs), depth);
  }

  configFiles(): RelPath[] {
    return this.reader.files();
  }

  forgetResults(): void {
    this.memo.clear();
    this.lastFrom = null;
    this.lastMemo = null;
  }

  resolve(specifier: string, from: RelPath, kind: ImportKind): Resolution {
    const files = this.files;
    if (files.size !== this.memoFilesSize) {
      this.memo.clear();
      this.lastFrom = null;
      this.memoFilesSize = files.size;
    }
    let memo: DirMemo;
    if (from === this.lastFrom && this.lastMemo !== null) memo = this.lastMemo;
    else {
      const dir = dirOf(from);
      const importer = importerOf(from);
      const key = importer + dir;
      let m = this.memo.get(key);
      if (m === undefined) {
        m = { dir, importer, byKind: [null, null, null, null] };
        this.memo.set(key, m);
      }
      memo = m;
      this.lastFrom = from;
      this.lastMemo = m;
    }
    const slot = kind === 'require' ? 1 : kind === 'triple-slash' ? 2 : kind === 'triple-slash-types' ? 3 : 0;
    let byKind = memo.byKind[slot];
    if (byKind === null) byKind = memo.byKind[slot] = new Map();
    else {
      const hit = byKind.get(specifier);
      if (hit !== undefined) return hit.kind === 'unresolved' ? withImporter(hit, from) : hit;
    }
    let r: Resolution;
    try {
      // resolved on behalf of the whole directory: reasons name the importer by a placeholder, filled in on return
      r = this.resolveSpecifier(specifier, FROM, memo.dir, memo.importer, kind);
    } catch (err) {
      return unresolved(`resolver error: ${err instanceof Error ? err.message : String(err)}`);
    }
    byKind.set(specifier, r);
    return r.kind === 'unresolved' ? withImporter(r, from) : r;
  }

  // ------------------------------------------------------------------ dispatch

  private resolveSpecifier(specifier: string, from: RelPath, dir: RelPath, importer: Importer, kind: ImportKind): Resolution {
    const spec = stripQuery(specifier);
    if (spec === '') return unresolved('empty specifier');
    const ctx: Ctx = { spec, from, dir, importer, kind, conds: null };
    const c0 = spec.charCodeAt(0);

    if (kind === 'triple-slash') return this.resolveReferencePath(ctx);
    if (kind === 'triple-slash-types') return this.resolveTypeReference(ctx);
    if (c0 === 46 /* . */ && isRelative(spec)) return this.resolveRelative(ctx, joinRel(ctx.dir, spec));
    if (c0 === 47 /* / */) return this.resolveAbsolute(ctx);
    if (c0 === 35 /* # */) return this.resolvePackageImport(ctx);
    const scheme = schemeOf(spec);
    if (scheme !== null) {
      if (scheme === 'node') return { kind: 'builtin', module: builtinModuleOf(spec) ?? spec };
      if (scheme === 'npm') {
        const rest = spec.slice(4);
        const name = splitPackageSpecifier(rest).name;
        const at = name.lastIndexOf('@');
        return { kind: 'external', package: at > 0 ? name.slice(0, at) : name };
      }
      if (scheme === 'file') return this.resolveFileUrl(ctx);
      if (URL_SCHEMES.has(scheme)) return unresolved(`${scheme}: URL imports are not resolved`);
      return unresolved(`${scheme}: specifiers (virtual modules, loader prefixes) are not resolved`);
    }
    return this.resolveBare(ctx, spec);
  }

  /** `/// <reference path="…" />`: a file relative to this one, even without `./` (TypeScript's resolveTripleslashReference). */
  private resolveReferencePath(ctx: Ctx): Resolution {
    return ctx.spec.charCodeAt(0) === 47 ? this.resolveAbsolute(ctx) : this.resolveRelative(ctx, joinRel(ctx.dir, ctx.spec));
  }

  /**
   * `/// <reference types="…" />` as TypeScript's resolveTypeReferenceDirective resolves it, declaration files first:
   * each `typeRoots` folder of the tsconfig (`<root>/<name>.d.ts`, else the folder `<root>/<name>` with its package.json
   * types/typings or index.d.ts); then from the file: a relative name as a path, a package name the way node_modules
   * would find it (the workspace package, then `@types/<name>`), else the installed, external package. The default
   * typeRoots and typeRoots inside node_modules hold installed packages only. tsconfig `paths` do not apply.
   */
  private resolveTypeReference(ctx: Ctx): Resolution {
    ctx.importer = Importer.Decl;
    const spec = ctx.spec;
    const typeRoots = this.tsconfigs.forDir(ctx.dir)?.typeRoots;
    if (typeRoots) {
      for (const root of typeRoots) {
        if (isOutsideRoot(root) || `/${root}/`.includes('/node_modules/')) continue;
        const candidate = joinRel(root, spec);
        if (isOutsideRoot(candidate)) continue;
        const f = this.probeFile(candidate, ctx.importer);
        if (f !== null) return file(f);
        const d = this.probeDirectory(ctx, candidate, true);
        if (d !== null) return d;
      }
    }
    if (isRelative(spec) || spec.charCodeAt(0) === 47) return this.resolveReferencePath(ctx);
    const { name, subpath } = splitPackageSpecifier(spec);
    const atTypes = name.startsWith('@') ? `@types/${name.slice(1).replace('/', '__')}` : `@types/${name}`;
    let miss: Resolution | null = null;
    for (const pkgName of [name, atTypes]) {
      const ws = this.workspacePackage(pkgName);
      if (ws === null) continue;
      const r = this.resolvePackage(ctx, ws, subpath);
      if (r.kind !== 'unresolved') return r;
      miss ??= r;
    }
    return miss ?? { kind: 'external', package: name };
  }

  // ------------------------------------------------------------------ relative and absolute

  private resolveRelative(ctx: Ctx, target: string): Resolution {
    if (isOutsideRoot(target)) return unresolved(`${ctx.spec} from ${ctx.from} points outside the project root`);
    const dirOnly = ctx.spec.endsWith('/');
    if (!dirOnly) {
      const f = this.probeFile(target, ctx.importer);
      if (f !== null) return file(f);
    }
    const d = this.probeDirectory(ctx, target, true);
    if (d !== null) return d;
    const asset = this.assetAt(target);
    if (asset !== null) return asset;
    return unresolved(this.missReason(ctx, target));
  }

  private resolveFileUrl(ctx: Ctx): Resolution {
    let abs: string;
    try {
      abs = fileURLToPath(ctx.spec).replace(/\\/g, '/');
    } catch {
      return unresolved(`${ctx.spec} is not a valid file: URL`);
    }
    if (!abs.startsWith(this.rootSlash)) return unresolved(`${ctx.spec} is outside the project root`);
    return this.resolveRelative(ctx, normalizeRel(abs.slice(this.rootSlash.length)));
  }

  private resolveAbsolute(ctx: Ctx): Resolution {
    const spec = ctx.spec;
    if (spec.startsWith(this.rootSlash)) return this.resolveRelative(ctx, normalizeRel(spec.slice(this.rootSlash.length)));
    // not under the root: try it as root-relative (`/src/x`, the bundler convention), else it is outside
    const rel = normalizeRel(spec.slice(1));
    if (rel !== '' && !isOutsideRoot(rel)) {
      const r = this.resolveRelative(ctx, rel);
      if (r.kind === 'file' || r.kind === 'asset') return r;
    }
    return unresolved(`absolute path ${spec} is outside the project root`);
  }

  /** A non-source file that exists on disk (json, css, svg, an unindexed .js …). Only names with an extension. */
  private assetAt(path: string): Resolution | null {
    if (path === '' || extensionOf(path) === '') return null;
    let exists = false;
    try {
      exists = this.host.fileExists(path);
    } catch {
      exists = false;
    }
    return exists ? { kind: 'asset', path } : null;
  }

  private missReason(ctx: Ctx, target: string): string {
    const ext = extensionOf(target);
    const mapped = ext !== '' ? extensionMap(ctx.importer, ext) : undefined;
    const shown = target === '' ? '.' : target;
    const what = mapped
      ? `${target.slice(0, target.length - ext.length)} + ${mapped.join(', ')}`
      : `${shown} + ${tried(APPEND[ctx.importer])}`;
    return `no file ${ctx.spec} (tried ${what}, ${shown}/index.*) from ${ctx.from}`;
  }

  // ------------------------------------------------------------------ probing

  /**
   * The indexed file a path names: a source extension is mapped the TypeScript way (`x.js` → x.ts/x.tsx/x.d.ts before
   * x.js from TS; x.js first from JS; `x.ts` → x.ts/x.tsx/x.d.ts), any other name is taken as is if indexed, else
   * gets extensions appended (`./user.service` → user.service.ts).
   */
  private probeFile(path: string, importer: Importer): RelPath | null {
    if (path === '') return null;
    const files = this.files;
    const ext = extensionOf(path);
    if (ext !== '') {
      const map = extensionMap(importer, ext);
      if (map !== undefined) {
        const stem = path.slice(0, path.length - ext.length);
        for (let i = 0; i < map.length; i++) {
          const c = stem + map[i];
          if (files.has(c)) return c;
        }
        return null;
      }
      if (files.has(path)) return path;
    }
    const exts = APPEND[importer];
    for (let i = 0; i < exts.length; i++) {
      const c = path + exts[i];
      if (files.has(c)) return c;
    }
    return null;
  }

  /** `dir/package.json` entry (when `withPackage`), then `dir/index.*`. */
  /** `target` as a file (with probing), then as a folder (package.json, index), then as a non-source asset. */
  private probePath(ctx: Ctx, target: string): Resolution | null {
    const f = this.probeFile(target, ctx.importer);
    if (f !== null) return file(f);
    return this.probeDirectory(ctx, target, true) ?? this.assetAt(target);
  }

  private probeDirectory(ctx: Ctx, dir: string, withPackage: boolean): Resolution | null {
    if (withPackage) {
      const pkg = this.packageAt(dir);
      if (pkg !== null) {
        const r = this.resolvePackageEntry(ctx, pkg, false);
        if (r !== null) return r;
      }
    }
    const f = this.probeIndex(dir, ctx.importer);
    return f === null ? null : file(f);
  }

  private probeIndex(dir: string, importer: Importer): RelPath | null {
    const base = dir === '' ? 'index' : dir + '/index';
    const exts = APPEND[importer];
    for (let i = 0; i < exts.length; i++) {
      const c = base + exts[i];
      if (this.files.has(c)) return c;
    }
    return null;
  }

  /** A package target path: the file itself (TS-mapped) or a directory index, no package.json recursion. */
  private probeTarget(path: string, importer: Importer): RelPath | null {
    return this.probeFile(path, importer) ?? this.probeIndex(path, importer);
  }

  /**
   * Maps a build-output path that does not exist back to its source: the package tsconfig's outDir/declarationDir →
   * rootDir, else dist|lib|build|out/… → src/… (also dropping an esm/cjs flavour folder), else the package root;
   * with the output extension swapped for a source one.
   */
  private outputToSource(pkgDir: RelPath, path: string, importer: Importer): RelPath | null {
    const candidates: string[] = [];
    const cfg = this.tsconfigs.forDir(pkgDir);
    if (cfg !== null) {
      for (const out of [cfg.outDir, cfg.declarationDir]) {
        if (out === null || out === cfg.dir) continue;
        if (path.startsWith(out + '/') || path === out) {
          const rest = path.slice(out.length + 1);
          if (cfg.rootDir !== null) candidates.push(joinDir(cfg.rootDir, rest));
          else candidates.push(joinDir(joinDir(cfg.dir, 'src'), rest), joinDir(cfg.dir, rest));
        }
      }
    }
    const inPkg = pkgDir === '' ? path : path.startsWith(pkgDir + '/') ? path.slice(pkgDir.length + 1) : null;
    if (inPkg !== null) {
      const slash = inPkg.indexOf('/');
      const first = slash === -1 ? inPkg : inPkg.slice(0, slash);
      if (OUT_DIRS.has(first)) {
        const rest = slash === -1 ? '' : inPkg.slice(slash + 1);
        const src = joinDir(pkgDir, 'src');
        candidates.push(joinDir(src, rest));
        const slash2 = rest.indexOf('/');
        if (slash2 !== -1 && FLAVOUR_DIRS.has(rest.slice(0, slash2))) candidates.push(joinDir(src, rest.slice(slash2 + 1)));
        if (rest !== '') candidates.push(joinDir(pkgDir, rest));
      }
    }
    for (const c of candidates) {
      if (c === path) continue;
      const { stem, ext } = splitOutputExtension(c);
      for (const e of sourceExtensionsFor(ext)) if (this.files.has(stem + e)) return stem + e;
      if (ext === '') {
        const idx = this.probeIndex(c, importer);
        if (idx !== null) return idx;
      }
    }
    return null;
  }

  // ------------------------------------------------------------------ package.json

  /** The package.json in exactly this directory (parsed, cached), or null. */
  private packageAt(dir: RelPath): PackageInfo | null {
    let pkg = this.packagesAt.get(dir);
    if (pkg !== undefined) return pkg;
    const fileName = joinDir(dir, 'package.json');
    const json = this.reader.json(fileName);
    if (json === undefined) pkg = null;
    else {
      const obj = isRecord(json) ? json : {};
      pkg = { file: fileName, dir, name: typeof obj.name === 'string' && obj.name !== '' ? obj.name : null, json: obj };
    }
    this.packagesAt.set(dir, pkg);
    return pkg;
  }

  /** The nearest package.json at or above `dir`, within the root. */
  private packageScope(dir: RelPath): PackageInfo | null {
    return nearestUp(this.scopes, dir, (d) => this.packageAt(d));
  }

  private conditions(ctx: Ctx): readonly string[] {
    if (ctx.conds === null) {
      const cfg = this.tsconfigs.forDir(ctx.dir);
      ctx.conds = conditionsFor(ctx.importer, ctx.kind, cfg ? cfg.customConditions : []);
    }
    return ctx.conds;
  }

  /**
   * Picks among candidate targets (package-relative strings as written in package.json, preferred first): the first
   * that exists, else the first whose build output maps back to an existing source file. A bare target (allowed in
   * `imports`) is resolved as a package specifier.
   */
  private pickTarget(ctx: Ctx, pkg: PackageInfo, targets: readonly string[], allowBare: boolean): Resolution | null {
    const paths: string[] = [];
    for (const t of targets) {
      const c0 = t.charCodeAt(0);
      if (c0 === 46 || c0 === 47) {
        const p = c0 === 47 ? normalizeRel(t.slice(1)) : joinRel(pkg.dir, t);
        if (!isOutsideRoot(p)) paths.push(p);
      } else if (allowBare) {
        const r = this.resolveBare(ctx, t);
        if (r.kind !== 'unresolved') return r;
      } else {
        const p = joinRel(pkg.dir, t); // package.json fields like "main": "lib/index.js"
        if (!isOutsideRoot(p)) paths.push(p);
      }
    }
    for (const p of paths) {
      const f = this.probeTarget(p, ctx.importer);
      if (f !== null) return file(f);
      const ext = extensionOf(p);
      if (ext !== '' && !isSourceExtension(ext)) {
        const asset = this.assetAt(p);
        if (asset !== null) return asset;
      }
    }
    for (const p of paths) {
      const f = this.outputToSource(pkg.dir, p, ctx.importer);
      if (f !== null) return file(f);
    }
    return null;
  }

  /**
   * The entry of a package (`import 'pkg'`, or a directory import of a folder with a package.json): `exports` ".",
   * then types/typings/module/main (order by importer), then — for a package — src/index.*, index.*.
   */
  private resolvePackageEntry(ctx: Ctx, pkg: PackageInfo, asPackage: boolean): Resolution | null {
    const targets: string[] = [];
    const exp = exportsMapOf(pkg);
    if (exp !== null) {
      const m = matchSubpath(exp, '.');
      if (m !== null) flattenTargets(m.target, m, this.conditions(ctx), targets);
    }
    for (const field of entryFieldsFor(ctx.importer)) {
      const v = pkg.json[field];
      if (typeof v === 'string' && v !== '' && !targets.includes(v)) targets.push(v);
    }
    const picked = this.pickTarget(ctx, pkg, targets, false);
    if (picked !== null) return picked;
    if (!asPackage) return null;
    const src = this.probeIndex(joinDir(pkg.dir, 'src'), ctx.importer) ?? this.probeIndex(pkg.dir, ctx.importer);
    return src === null ? null : file(src);
  }

  /** `pkg` or `pkg/sub` inside a project package (self-reference or workspace). Unresolved with a reason if none. */
  private resolvePackage(ctx: Ctx, pkg: PackageInfo, subpath: string): Resolution {
    const name = pkg.name ?? pkg.dir;
    const where = `${name} (${pkg.dir === '' ? '.' : pkg.dir})`;
    if (subpath === '') {
      const r = this.resolvePackageEntry(ctx, pkg, true);
      if (r !== null) return r;
      return unresolved(`package ${where} has no entry file: exports/types/main targets, their src/ counterparts and src/index.* do not exist`);
    }
    const exp = exportsMapOf(pkg);
    if (exp !== null) {
      const m = matchSubpath(exp, './' + subpath);
      if (m !== null) {
        const targets: string[] = [];
        flattenTargets(m.target, m, this.conditions(ctx), targets);
        if (targets.length === 0) return unresolved(`${ctx.spec}: ./${subpath} is excluded by the exports of ${where}`);
        const r = this.pickTarget(ctx, pkg, targets, false);
        if (r !== null) return r;
      }
    }
    const p = joinRel(pkg.dir, subpath);
    if (isOutsideRoot(p)) return unresolved(`${ctx.spec} points outside the project root`);
    const found = this.probePath(ctx, p);
    if (found !== null) return found;
    const s = this.outputToSource(pkg.dir, p, ctx.importer);
    if (s !== null) return file(s);
    return unresolved(
      exp !== null
        ? `${ctx.spec}: no file for ./${subpath} in the exports of ${where}, nor ${p}.*`
        : `${ctx.spec}: no file ${p} (${tried(APPEND[ctx.importer])}) in package ${where}`,
    );
  }

  /** `#name` through the `imports` of the nearest package.json. */
  private resolvePackageImport(ctx: Ctx): Resolution {
    const pkg = this.packageScope(ctx.dir);
    if (pkg === null) return unresolved(`${ctx.spec}: no package.json above ${ctx.from} to define imports`);
    const map = importsMapOf(pkg);
    if (map === null) return unresolved(`${ctx.spec}: ${pkg.file} has no "imports" field`);
    const m = matchSubpath(map, ctx.spec);
    if (m === null) return unresolved(`${ctx.spec} is not defined in the "imports" of ${pkg.file}`);
    const targets: string[] = [];
    flattenTargets(m.target, m, this.conditions(ctx), targets);
    if (targets.length === 0) return unresolved(`${ctx.spec} is mapped to null in the "imports" of ${pkg.file}`);
    const r = this.pickTarget(ctx, pkg, targets, true);
    if (r !== null) return r;
    return unresolved(
      `${ctx.spec} (imports "${m.key}" of ${pkg.file}) → ${targets.join(' | ')}: no such file, and no source file maps to it`,
    );
  }

  // ------------------------------------------------------------------ bare specifiers

  private workspacePackage(name: string): PackageInfo | null {
    if (this.workspaceMap === null || this.workspaceFilesSize !== this.files.size) {
      this.workspaceMap = discoverWorkspaces(this.reader, this.files, (d) => this.packageAt(d));
      this.workspaceFilesSize = this.files.size;
    }
    return this.workspaceMap.get(name) ?? null;
  }

  private referencedConfigs(cfg: TsConfig): TsConfig[] {
    let list = this.referenced.get(cfg.file);
    if (list === undefined) {
      list = [];
      for (const ref of cfg.references) {
        const c = this.tsconfigs.load(ref);
        if (c !== null && (c.pathsExact !== null || c.pathsPatterns !== null || c.baseUrl !== null)) list.push(c);
      }
      this.referenced.set(cfg.file, list);
    }
    return list;
  }

  /** Bare specifier: paths, baseUrl, built-in, self-reference, workspace, external. */
  private resolveBare(ctx: Ctx, spec: string): Resolution {
    const cfg = this.tsconfigs.forDir(ctx.dir);
    let aliasMiss: string | null = null;
    if (cfg !== null) {
      const configs =
        cfg.pathsExact === null && cfg.pathsPatterns === null && cfg.baseUrl === null && cfg.references.length > 0
          ? this.referencedConfigs(cfg) // solution-style tsconfig: the referenced projects carry the options
          : [cfg];
      for (const c of configs) {
        const r = this.resolveWithConfig(ctx, c, spec);
        if (r === null) continue;
        if (typeof r === 'string') aliasMiss ??= r;
        else return r;
      }
    }

    const builtin = builtinModuleOf(spec);
    if (builtin !== null) return { kind: 'builtin', module: builtin };

    const { name, subpath } = splitPackageSpecifier(spec);
    const scope = this.packageScope(ctx.dir);
    // Node resolves a package's own name only through its "exports" (without them the name is looked up in
    // node_modules like any other: an installed copy, external here)
    if (scope !== null && scope.name === name && exportsMapOf(scope) !== null) return this.resolvePackage(ctx, scope, subpath);
    const ws = this.workspacePackage(name);
    if (ws !== null) return this.resolvePackage(ctx, ws, subpath);

    if (!isValidPackageName(name)) {
      return unresolved(aliasMiss ?? `${spec} is neither relative nor a configured alias nor a valid package name`);
    }
    if (aliasMiss !== null && !this.installed(ctx, name)) return unresolved(aliasMiss);
    return { kind: 'external', package: name };
  }

  /** Whether node_modules/<name> exists next to the importer's package or the root (only asked after an alias miss). */
  private installed(ctx: Ctx, name: string): boolean {
    const scope = this.packageScope(ctx.dir);
    const dirs = scope !== null && scope.dir !== '' ? [scope.dir, ''] : [''];
    return dirs.some((d) => this.reader.text(joinDir(d, `node_modules/${name}/package.json`)) !== null);
  }

  /**
   * tsconfig `paths` (exact key, else the longest-prefix pattern; targets in order), then `baseUrl`.
   * Returns a resolution, a reason string when a paths pattern matched but none of its targets exists, or null.
   */
  private resolveWithConfig(ctx: Ctx, cfg: TsConfig, spec: string): Resolution | string | null {
    let miss: string | null = null;
    let rule: PathsRule | undefined;
    let star = '';
    if (cfg.pathsExact !== null) rule = cfg.pathsExact.get(spec);
    if (rule === undefined && cfg.pathsPatterns !== null) {
      for (const p of cfg.pathsPatterns) {
        if (
          spec.length >= p.prefix.length + p.suffix.length &&
          spec.startsWith(p.prefix) &&
          (p.suffix === '' || spec.endsWith(p.suffix))
        ) {
          rule = p;
          star = spec.slice(p.prefix.length, spec.length - p.suffix.length);
          break;
        }
      }
    }
    if (rule !== undefined) {
      const attempted: string[] = [];
      for (const t of rule.targets) {
        const at = t.indexOf('*');
        let p = at === -1 ? t : t.slice(0, at) + star + t.slice(at + 1);
        if (star !== '' && star.indexOf('.') !== -1) p = normalizeRel(p);
        const nm = packageInNodeModules(p);
        if (nm !== null) return { kind: 'external', package: nm };
        attempted.push(p);
        if (isOutsideRoot(p)) continue;
        const found = this.probePath(ctx, p);
        if (found !== null) return found;
      }
      // a catch-all `*` pattern is a fallback layer (type overrides), not a claim on every specifier
      if (rule.prefix !== '' || rule.suffix !== '') {
        miss = `${spec}: tsconfig paths "${rule.key}" (${cfg.pathsFile ?? cfg.file}) matched, but no file exists at ${attempted.join(', ')} (+ ${tried(APPEND[ctx.importer])})`;
      }
    }
    if (cfg.baseUrl !== null) {
      const p = joinRel(cfg.baseUrl, spec);
      if (!isOutsideRoot(p)) {
        const f = this.probeFile(p, ctx.importer);
        if (f !== null) return file(f);
        const d = this.probeDirectory(ctx, p, true);
        if (d !== null) return d;
        const ext = extensionOf(p);
        if (ext !== '' && !isSourceExtension(ext)) {
          const asset = this.assetAt(p);
          if (asset !== null) return asset;
        }
      }
    }
    return miss;
  }

  private absToRel(abs: string): string | null {
    const a = abs.replace(/\\/g, '/');
    if (a.startsWith(this.rootSlash)) return normalizeRel(a.slice(this.rootSlash.length));
    if (a + '/' === this.rootSlash) return '';
    return null;
  }
}

/**
 * A resolver over the host's file set. Config files are read lazily and cached for the resolver's lifetime; results
 * are memoised per (directory, importer kind, import kind, specifier) and returned as shared objects (do not mutate).
 * The memo is dropped when `host.files.size` changes; a change that keeps the size (a rename applied in place), a new
 * config file or an edited one needs a new resolver — `configFiles()` lists what to watch for the latter.
 */
export function createResolver(host: ResolverHost): Resolver {
  return new ProjectResolver(host);
}
