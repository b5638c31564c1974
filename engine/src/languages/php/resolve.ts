/**
 * PHP's rules over the project's files.
 *
 * Class names (`use A\B;`, `new \A\B`, same-namespace references) go where Composer's autoloader would load them
 * from, read from every `composer.json` in the project (`autoload` and `autoload-dev`, as `composer dump-autoload`
 * writes them by default), in the order Composer's ClassLoader::findFile looks: the `classmap` (the classes declared
 * in the files under its paths), then `psr-4` (the longest namespace prefix first, each of its folders in order,
 * `<folder>/<rest of the name with \ as />.php`), then `psr-0` (`_` in the class name's last part is a folder too),
 * then the prefix-less fallback folders of both. Such an edge is exact.
 *
 * A class no project file has under a prefix an installed package declares (composer.lock) is that package's
 * (external). A class no autoload rule maps, but that a project file declares (a file `<Class>.php` whose `namespace` line is the
 * class's namespace: the PSR-4 habit without a composer.json, tests outside `autoload-dev`), is an inferred edge: PHP
 * finds it only if some autoloader or require does. A name under a project prefix with no file is unresolved; a
 * name of one segment is a global (builtin) class, any other an external package's.
 *
 * `use function A\f` / `use const A\X`: a `files` entry of composer.json that declares it (Composer always loads
 * those) is exact; another project file of the namespace's folder that declares it is inferred.
 *
 * `require`/`include`: `__DIR__/…` (from `__DIR__` or `dirname(__FILE__)`) is relative to the file, exact; a plain
 * relative literal is looked up in the include path, which PHP starts at the working directory and ends at the
 * calling file's folder: the file's folder then the project root, inferred. Into `vendor/`: external.
 *
 * What the resolver knows of other files' declarations (the classmap's classes, a file's namespace, the functions and
 * constants a file declares) it reads from their parse facts (ResolverHost.factsOf: parse.ts's symbols, each with its
 * namespace), never from their text.
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, isOutsideRoot, joinDir, normalizeRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import { memoised } from '../memo.js';
import type { ImportTarget, LanguageResolver } from '../types.js';

export const PHP_CONFIG_FILES = ['composer.json', 'composer.lock'] as const;

interface Autoload {
  /** namespace prefix (with trailing `\`, '' for the fallback) → folders, project-relative */
  psr4: Array<[string, string[]]>;
  psr0: Array<[string, string[]]>;
  /** files and folders whose declared classes Composer maps */
  classmap: string[];
  files: string[];
  /** namespace prefix → the installed package (composer.lock) whose psr-4 / psr-0 autoload declares it */
  installed: Array<[string, string]>;
}

/** the symbol kinds of a class-like declaration (parse.ts) */
const CLASS_LIKE = new Set(['class', 'interface', 'trait', 'enum']);

const asList = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export class PhpResolver implements LanguageResolver {
  private readonly phpFiles: RelPath[];
  private readonly phpDirs = new Set<string>();
  private read: { autoload: Autoload; configFiles: RelPath[]; classmap: Map<string, RelPath> | null } | null = null;
  private readonly namespaceOf = new Map<RelPath, string>();
  private byBasename: Map<string, RelPath[]> | null = null;
  private memo = new Map<string, ImportTarget[]>();

  constructor(private readonly host: ResolverHost) {
    this.phpFiles = [...host.files].filter((f) => f.endsWith('.php')).sort();
    for (const f of this.phpFiles) {
      for (let d = dirOf(f); !this.phpDirs.has(d); d = dirOf(d)) {
        this.phpDirs.add(d);
        if (d === '') break;
      }
    }
  }

  /** Every composer.json in a folder holding PHP files or above one, read in path order (the root's first). */
  private get config(): NonNullable<PhpResolver['read']> {
    if (this.read) return this.read;
    const autoload: Autoload = { psr4: [], psr0: [], classmap: [], files: [], installed: [] };
    const configFiles: RelPath[] = [];
    for (const dir of [...this.phpDirs].sort()) {
      const lockFile = joinDir(dir, 'composer.lock');
      const lock = this.host.readFile(lockFile);
      if (lock !== null) {
        configFiles.push(lockFile);
        try {
          const json = JSON.parse(lock) as { packages?: unknown; 'packages-dev'?: unknown };
          for (const p of [json.packages, json['packages-dev']].flatMap((l) => (Array.isArray(l) ? l : [])) as Array<{ name?: unknown; autoload?: Record<string, unknown> }>) {
            if (typeof p?.name !== 'string') continue;
            for (const key of ['psr-4', 'psr-0']) {
              const map = p.autoload?.[key];
              if (map && typeof map === 'object') for (const prefix of Object.keys(map)) if (prefix) autoload.installed.push([prefix, p.name]);
            }
          }
        } catch {
          // a malformed lock file names no installed package
        }
      }
      const file = joinDir(dir, 'composer.json');
      const text = this.host.readFile(file);
      if (text === null) continue;
      configFiles.push(file);
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue; // a malformed composer.json steers nothing (Composer refuses it too)
      }
      for (const section of [json.autoload, json['autoload-dev']]) {
        if (!section || typeof section !== 'object') continue;
        const s = section as Record<string, unknown>;
        const at = (p: string): string | null => {
          const out = normalizeRel(joinDir(dir, p.replace(/^\.\//, '')));
          return isOutsideRoot(out) ? null : out;
        };
        for (const [key, list] of [['psr-4', autoload.psr4], ['psr-0', autoload.psr0]] as const) {
          const map = s[key];
          if (!map || typeof map !== 'object') continue;
          for (const [prefix, dirs] of Object.entries(map as Record<string, unknown>)) list.push([prefix, asList(dirs).flatMap((d) => at(d) ?? [])]);
        }
        autoload.classmap.push(...asList(s.classmap).flatMap((p) => at(p) ?? []));
        autoload.files.push(...asList(s.files).flatMap((p) => at(p) ?? []));
      }
    }
    // Composer tries the longest prefix first
    const byLength = (a: [string, string[]], b: [string, string[]]) => b[0].length - a[0].length;
    autoload.psr4.sort(byLength);
    autoload.psr0.sort(byLength);
    this.read = { autoload, configFiles, classmap: null };
    return this.read;
  }

  configFiles(): RelPath[] {
    return [...this.config.configFiles];
  }

  forgetResults(): void {
    this.memo.clear();
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const key = imp.kind === 'require' || imp.kind === 'include' ? `${dirOf(from)}\u0000${imp.specifier}` : `\u0000${imp.specifier}`;
    return memoised(this.memo, key, () => this.compute(imp, from));
  }

  private compute(imp: ImportRecord, from: RelPath): ImportTarget[] {
    if (imp.kind === 'require' || imp.kind === 'include') return [this.includeTarget(imp.specifier, from)];
    const m = /^(function|const) (.+)$/.exec(imp.specifier);
    if (m) return [this.functionTarget(m[2], m[1] === 'const')];
    return [this.classTarget(imp.specifier)];
  }

  private file(path: string): ImportTarget | null {
    return this.host.files.has(path) ? { resolved: { kind: 'file', path } } : null;
  }

  private includeTarget(spec: string, from: RelPath): ImportTarget {
    const fromDir = dirOf(from);
    if (spec.startsWith('__DIR__/')) {
      const path = normalizeRel(joinDir(fromDir, spec.slice(8)));
      if (isOutsideRoot(path)) return { resolved: unresolved(`${spec}: outside the project`) };
      if (/(^|\/)vendor\//.test(path)) return { resolved: { kind: 'external', package: path.slice(path.indexOf('vendor/')) } };
      return this.file(path) ?? { resolved: unresolved(`${spec}: no such PHP file in the project`) };
    }
    if (spec.startsWith('/') || /^[a-z][a-z0-9+.-]*:\/\//i.test(spec) || /^[A-Za-z]:[\\/]/.test(spec)) return { resolved: unresolved(`${spec}: an absolute path or stream, outside the project`) };
    for (const base of [fromDir, '']) {
      const path = normalizeRel(joinDir(base, spec));
      if (isOutsideRoot(path)) continue;
      const hit = this.file(path);
      if (hit) return { ...hit, inferred: true };
    }
    return { resolved: unresolved(`${spec}: not found beside the file or at the project root (the include path is known only at run time)`) };
  }

  /** Composer's findFile for a class name, then a project file declaring it (inferred). */
  private classTarget(name: string): ImportTarget {
    const { autoload } = this.config;
    const classmap = this.classmap();
    const mapped = classmap.get(name.toLowerCase());
    if (mapped) return { resolved: { kind: 'file', path: mapped } };
    let covered = false;
    const logical = name.replace(/\\/g, '/');
    for (const [prefix, dirs] of autoload.psr4) {
      if (prefix && !name.startsWith(prefix)) continue;
      if (prefix) covered = true;
      for (const d of dirs) {
        const hit = this.file(joinDir(d, `${logical.slice(prefix.length)}.php`));
        if (hit) return hit;
      }
    }
    const last = name.lastIndexOf('\\');
    const psr0 = `${last >= 0 ? logical.slice(0, last + 1) : ''}${name.slice(last + 1).replace(/_/g, '/')}.php`;
    for (const [prefix, dirs] of autoload.psr0) {
      if (prefix && !name.startsWith(prefix)) continue;
      if (prefix) covered = true;
      for (const d of dirs) {
        const hit = this.file(joinDir(d, psr0));
        if (hit) return hit;
      }
    }
    // an installed package's prefix (composer.lock): vendor/, which is never indexed
    const installed = autoload.installed.filter(([prefix]) => name.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
    if (installed) return { resolved: { kind: 'external', package: installed[1] } };
    const declared = this.declaring(name);
    if (declared) return { resolved: { kind: 'file', path: declared }, inferred: true };
    if (covered) return { resolved: unresolved(`${name}: no file for it under the composer.json autoload folders`) };
    return { resolved: last < 0 ? { kind: 'builtin', module: name } : { kind: 'external', package: name.split('\\').slice(0, 2).join('\\') } };
  }

  /** class name (lower-case) → file, from the classes declared in the files under the classmap entries */
  private classmap(): Map<string, RelPath> {
    const read = this.config;
    if (read.classmap) return read.classmap;
    const map = new Map<string, RelPath>();
    for (const entry of read.autoload.classmap) {
      for (const f of this.phpFiles) {
        if (f !== entry && !f.startsWith(`${entry}/`) && entry !== '') continue;
        for (const symbol of this.host.factsOf?.(f)?.symbols ?? []) {
          if (!CLASS_LIKE.has(symbol.kind)) continue;
          const fq = `${symbol.namespace ? `${symbol.namespace}\\` : ''}${symbol.name}`.toLowerCase();
          if (!map.has(fq)) map.set(fq, f);
        }
      }
    }
    read.classmap = map;
    return map;
  }

  private declaredNamespace(file: RelPath): string {
    let ns = this.namespaceOf.get(file);
    if (ns === undefined) {
      // the file's first namespace (parse.ts: a symbol not exported)
      ns = this.host.factsOf?.(file)?.symbols.find((x) => x.kind === 'namespace')?.name ?? '';
      this.namespaceOf.set(file, ns);
    }
    return ns;
  }

  /** The one project file `<Class>.php` whose namespace is the class's, or null (none, or several). */
  private declaring(name: string): RelPath | null {
    if (!this.byBasename) {
      this.byBasename = new Map();
      for (const f of this.phpFiles) {
        const base = f.slice(f.lastIndexOf('/') + 1).toLowerCase();
        const list = this.byBasename.get(base) ?? [];
        list.push(f);
        this.byBasename.set(base, list);
      }
    }
    const last = name.lastIndexOf('\\');
    const ns = last >= 0 ? name.slice(0, last).toLowerCase() : '';
    const hits = (this.byBasename.get(`${name.slice(last + 1).toLowerCase()}.php`) ?? []).filter((f) => this.declaredNamespace(f).toLowerCase() === ns);
    return hits.length === 1 ? hits[0] : null;
  }

  /** `use function A\f` / `use const A\X`: the composer `files` entry declaring it, else a file of the namespace's folder. */
  private functionTarget(name: string, isConst: boolean): ImportTarget {
    const last = name.lastIndexOf('\\');
    const ns = last >= 0 ? name.slice(0, last) : '';
    const short = name.slice(last + 1);
    // a function's name is case-insensitive, a constant's is not
    const kind = isConst ? 'const' : 'function';
    const same = (a: string, b: string) => (isConst ? a === b : a.toLowerCase() === b.toLowerCase());
    const nsLower = ns.toLowerCase();
    const { autoload } = this.config;
    const check = (f: RelPath) =>
      this.host.files.has(f) && (this.host.factsOf?.(f)?.symbols ?? []).some((x) => x.kind === kind && same(x.name, short) && (x.namespace ?? '').toLowerCase() === nsLower);
    for (const f of autoload.files) if (check(f)) return { resolved: { kind: 'file', path: f }, names: [short] };
    let covered = false;
    const folders = new Set<string>();
    for (const [prefix, dirs] of autoload.psr4) {
      if (!prefix || !`${ns}\\`.startsWith(prefix)) continue;
      covered = true;
      for (const d of dirs) folders.add(normalizeRel(joinDir(d, ns.slice(prefix.length).replace(/\\/g, '/'))));
    }
    for (const f of this.phpFiles) if (folders.has(dirOf(f)) && check(f)) return { resolved: { kind: 'file', path: f }, names: [short], inferred: true };
    if (covered) return { resolved: unresolved(`${name}: no file of its namespace declares it`) };
    return { resolved: last < 0 ? { kind: 'builtin', module: name } : { kind: 'external', package: name.split('\\').slice(0, 2).join('\\') } };
  }
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
