/**
 * tsconfig.json / jsconfig.json: the nearest config above a directory, its `extends` chain, and the options that
 * steer module resolution (baseUrl, paths, customConditions, outDir/rootDir for mapping build output to source,
 * typeRoots for `/// <reference types>`).
 */

import type { RelPath } from '../types.js';
import { isRecord } from './jsonc.js';
import { dirOf, joinDir, joinRel, nearestUp, splitPackageSpecifier } from './paths.js';
import type { ConfigReader } from './reader.js';

/** One `paths` entry, compiled. Targets are project-relative and still contain their `*`. */
export interface PathsRule {
  /** the key as written, e.g. `@/*` */
  key: string;
  prefix: string;
  suffix: string;
  targets: readonly string[];
}

export interface TsConfig {
  /** the config file this describes (the leaf of the extends chain) */
  file: RelPath;
  dir: RelPath;
  /** true when the file could not be parsed (treated as empty) */
  broken: boolean;
  baseUrl: RelPath | null;
  /** exact (wildcard-free) `paths` keys */
  pathsExact: ReadonlyMap<string, PathsRule> | null;
  /** wildcard `paths` keys, longest prefix first (ties keep declaration order, as TypeScript) */
  pathsPatterns: readonly PathsRule[] | null;
  /** config file that declared `paths` (for messages) */
  pathsFile: RelPath | null;
  customConditions: readonly string[];
  outDir: RelPath | null;
  declarationDir: RelPath | null;
  rootDir: RelPath | null;
  /** `typeRoots` in order (each relative to the config that declared it), or null when not set */
  typeRoots: readonly string[] | null;
  /** config files named by `references` (own, not inherited) */
  references: readonly RelPath[];
}

interface OptionEntry {
  value: unknown;
  /** directory of the config that declared the option */
  dir: RelPath;
  file: RelPath;
}

const OPTIONS = ['baseUrl', 'paths', 'customConditions', 'outDir', 'declarationDir', 'rootDir', 'typeRoots'] as const;
type OptionName = (typeof OPTIONS)[number];
type Options = Map<OptionName, OptionEntry>;

const CONFIG_DIR = '${configDir}';

export class TsconfigLoader {
  private readonly chains = new Map<RelPath, Options>();
  private readonly configs = new Map<RelPath, TsConfig | null>();
  private readonly byDir = new Map<RelPath, TsConfig | null>();

  /**
   * @param toRel maps an absolute path to a project-relative one (null when outside the root)
   * @param levelsAboveRoot how many directories above the root `extends` may look into for node_modules
   */
  constructor(
    private readonly reader: ConfigReader,
    private readonly toRel: (abs: string) => string | null,
    private readonly levelsAboveRoot: number,
  ) {}

  /** The nearest tsconfig.json (else jsconfig.json) in `dir` or above it, within the root. */
  forDir(dir: RelPath): TsConfig | null {
    return nearestUp(this.byDir, dir, (d) => this.configIn(d));
  }

  private configIn(dir: RelPath): TsConfig | null {
    const ts = joinDir(dir, 'tsconfig.json');
    if (this.reader.text(ts) !== null) return this.load(ts);
    const js = joinDir(dir, 'jsconfig.json');
    if (this.reader.text(js) !== null) return this.load(js);
    return null;
  }

  /** The effective options of one config file (with its extends chain), or null when the file does not exist. */
  load(file: RelPath): TsConfig | null {
    const cached = this.configs.get(file);
    if (cached !== undefined) return cached;
    const config = this.build(file);
    this.configs.set(file, config);
    return config;
  }

  private build(file: RelPath): TsConfig | null {
    const json = this.reader.json(file);
    if (json === undefined) return null;
    const dir = dirOf(file);
    const options = this.chain(file, new Set([file]));
    const resolveDir = (entry: OptionEntry | undefined): RelPath | null =>
      entry && typeof entry.value === 'string' ? this.resolveOptionPath(entry.value, entry.dir, dir) : null;

    const baseUrl = resolveDir(options.get('baseUrl'));
    let pathsExact: Map<string, PathsRule> | null = null;
    let pathsPatterns: PathsRule[] | null = null;
    let pathsFile: RelPath | null = null;
    const paths = options.get('paths');
    if (paths && isRecord(paths.value)) {
      pathsFile = paths.file;
      const base = baseUrl ?? paths.dir;
      for (const [key, rawTargets] of Object.entries(paths.value)) {
        if (!Array.isArray(rawTargets)) continue;
        const targets: string[] = [];
        for (const t of rawTargets) {
          if (typeof t !== 'string' || t === '') continue;
          const resolved = this.resolveOptionPath(t, base, dir);
          if (resolved !== null) targets.push(resolved);
        }
        if (targets.length === 0) continue;
        const star = key.indexOf('*');
        if (star === -1) {
          (pathsExact ??= new Map()).set(key, { key, prefix: key, suffix: '', targets });
        } else if (key.indexOf('*', star + 1) === -1) {
          (pathsPatterns ??= []).push({ key, prefix: key.slice(0, star), suffix: key.slice(star + 1), targets });
        }
      }
      // stable sort: longest prefix first; equal prefixes keep declaration order (TypeScript takes the first)
      pathsPatterns?.sort((a, b) => b.prefix.length - a.prefix.length);
    }

    const conditions = options.get('customConditions')?.value;
    const typeRootsEntry = options.get('typeRoots');
    let typeRoots: string[] | null = null;
    if (typeRootsEntry && Array.isArray(typeRootsEntry.value)) {
      typeRoots = [];
      for (const t of typeRootsEntry.value) {
        const p = typeof t === 'string' && t !== '' ? this.resolveOptionPath(t, typeRootsEntry.dir, dir) : null;
        if (p !== null) typeRoots.push(p);
      }
    }
    const references: RelPath[] = [];
    if (isRecord(json) && Array.isArray(json.references)) {
      for (const ref of json.references) {
        if (!isRecord(ref) || typeof ref.path !== 'string') continue;
        const p = this.resolveOptionPath(ref.path, dir, dir);
        if (p === null) continue;
        references.push(p.endsWith('.json') ? p : joinDir(p, 'tsconfig.json'));
      }
    }
    return {
      file,
      dir,
      broken: json === null || !isRecord(json),
      baseUrl,
      pathsExact,
      pathsPatterns,
      pathsFile,
      customConditions: Array.isArray(conditions) ? conditions.filter((c): c is string => typeof c === 'string') : [],
      outDir: resolveDir(options.get('outDir')),
      declarationDir: resolveDir(options.get('declarationDir')),
      rootDir: resolveDir(options.get('rootDir')),
      typeRoots,
      references,
    };
  }

  /** A path option: `${configDir}` is the leaf config's directory, absolute paths are mapped into the root. */
  private resolveOptionPath(value: string, declaringDir: RelPath, leafDir: RelPath): RelPath | null {
    if (value.startsWith(CONFIG_DIR)) return joinRel(leafDir, '.' + value.slice(CONFIG_DIR.length).replace(/^\/*/, '/'));
    if (value.charCodeAt(0) === 47 /* / */ || /^[A-Za-z]:[\\/]/.test(value)) return this.toRel(value);
    return joinRel(declaringDir, value);
  }

  /** Merged compilerOptions of `file` and everything it extends (later bases override earlier, own overrides all). */
  private chain(file: RelPath, seen: Set<RelPath>): Options {
    const cached = this.chains.get(file);
    if (cached) return cached;
    const merged: Options = new Map();
    const json = this.reader.json(file);
    if (isRecord(json)) {
      const dir = dirOf(file);
      const ext = json.extends;
      const bases = typeof ext === 'string' ? [ext] : Array.isArray(ext) ? ext : [];
      for (const base of bases) {
        if (typeof base !== 'string' || base === '') continue;
        const baseFile = this.resolveExtends(base, dir);
        if (baseFile === null || seen.has(baseFile)) continue;
        // `seen` holds the files on the current extends path only (cycle guard); diamonds merge normally
        seen.add(baseFile);
        for (const [k, v] of this.chain(baseFile, seen)) merged.set(k, v);
        seen.delete(baseFile);
      }
      const co = json.compilerOptions;
      if (isRecord(co)) {
        for (const name of OPTIONS) {
          if (Object.prototype.hasOwnProperty.call(co, name)) merged.set(name, { value: co[name], dir, file });
        }
      }
    }
    this.chains.set(file, merged);
    return merged;
  }

  /** The config file an `extends` entry names, or null when it cannot be found. */
  private resolveExtends(spec: string, dir: RelPath): RelPath | null {
    const c0 = spec.charCodeAt(0);
    if (c0 === 46 /* . */ || c0 === 47 /* / */ || spec.startsWith(CONFIG_DIR) || /^[A-Za-z]:[\\/]/.test(spec)) {
      const p = this.resolveOptionPath(spec, dir, dir);
      if (p === null) return null;
      return this.firstExisting(p.endsWith('.json') ? [p] : [p, p + '.json', joinDir(p, 'tsconfig.json')]);
    }
    // a package: node_modules/<name>[/<sub>] in this directory or any above it (also above the root)
    const { name, subpath } = splitPackageSpecifier(spec);
    let cur: string = dir;
    let above = 0;
    for (;;) {
      const pkgDir = joinDir(cur, 'node_modules/' + name);
      const hit = subpath ? this.subpathConfig(pkgDir, subpath) : this.packageConfig(pkgDir);
      if (hit !== null) return hit;
      if (cur === '' || cur === '..' || cur.endsWith('/..')) {
        if (above >= this.levelsAboveRoot) return null;
        above++;
        cur = cur === '' ? '..' : cur + '/..';
      } else {
        cur = dirOf(cur);
      }
    }
  }

  private subpathConfig(pkgDir: string, subpath: string): RelPath | null {
    const p = pkgDir + '/' + subpath;
    return this.firstExisting(p.endsWith('.json') ? [p] : [p, p + '.json', p + '/tsconfig.json']);
  }

  private packageConfig(pkgDir: string): RelPath | null {
    const pkg = this.reader.json(pkgDir + '/package.json');
    if (isRecord(pkg)) {
      const candidates: string[] = [];
      if (typeof pkg.tsconfig === 'string') candidates.push(joinRel(pkgDir, pkg.tsconfig));
      const exp = pkg.exports;
      const dot = isRecord(exp) && '.' in exp ? exp['.'] : exp;
      if (typeof dot === 'string' && dot.endsWith('.json')) candidates.push(joinRel(pkgDir, dot));
      candidates.push(pkgDir + '/tsconfig.json');
      return this.firstExisting(candidates);
    }
    return this.firstExisting([pkgDir + '/tsconfig.json']);
  }

  private firstExisting(candidates: string[]): RelPath | null {
    for (const c of candidates) if (this.reader.text(c) !== null) return c;
    return null;
  }
}
