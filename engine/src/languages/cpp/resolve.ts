/**
 * `#include` resolved as the compiler searches (gcc's and clang's order):
 * - `"x"`: the including file's own folder first (exact whatever the flags), then the `-iquote`, `-I`, `-isystem` and
 *   `-idirafter` folders; `<x>`: the `-I`, `-isystem` and `-idirafter` folders; a hit that is the including file
 *   itself is passed over (what `#include_next` asks for); an absolute path is itself.
 * - The folders come from the nearest `compile_commands.json` (clangd's search: the file's folder and every folder
 *   above it, each also in its `build/`): a translation unit the database lists uses its own command's folders, exact.
 *   A header (or any file the database does not list) is compiled only as part of translation units, with theirs: it
 *   uses the folders of the translation units nearest to it (those of its folder's tree, else of the nearest folder
 *   above whose tree has some), each search path tried; when they agree the target is exact, when they differ each
 *   target is an edge, inferred.
 * - Without a database, the folders are guessed, and every hit outside the including file's folder is inferred:
 *   folders CMakeLists.txt names (`include_directories`, `target_include_directories`), then, from the including
 *   file's folder up to the project root, each folder's `include/` and the folder itself; last, the only project file
 *   (or the nearest) whose path ends with the included path.
 * - Not in the project: a C, C++, POSIX or system header is a builtin; another `<x>` (or one found in a folder outside
 *   the project) is an external package (its first path element: `<openssl/ssl.h>` → `openssl`); a `"x"` found
 *   nowhere, or found only in a folder the scan does not index (`build/` output), is unresolved, with the reason.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, joinDir, normalizeRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import type { ImportTarget, LanguageResolver } from '../types.js';
import { isPlatformHeader } from './headers.js';
import { type CompileDb, cmakeIncludeDirs, readCompileDb, type SearchPath } from './project.js';
import { memoised } from '../memo.js';

export const CPP_CONFIG_FILES = ['compile_commands.json', 'CMakeLists.txt'] as const;

/** What a search finds at one folder: an indexed file, a file the scan does not index, or one outside the project. */
type Hit = { kind: 'file'; path: RelPath } | { kind: 'disk'; path: string } | { kind: 'outside'; path: string };

const hitKey = (h: Hit | null): string => (h ? `${h.kind}:${h.path}` : '');

const isOutside = (dir: string): boolean => dir.startsWith('/') || dir === '..' || dir.startsWith('../') || /^[A-Za-z]:\//.test(dir);

/** `<openssl/ssl.h>` → `openssl`, `<zlib.h>` → `zlib` */
const packageOf = (name: string): string => (name.includes('/') ? name.slice(0, name.indexOf('/')) : name.replace(/\.(h|hh|hpp|hxx)$/i, ''));

export class CppResolver implements LanguageResolver {
  private readonly roots: string[];
  /** every folder holding an indexed file, or above one */
  private readonly dirs = new Set<string>();
  /** file name → the indexed files of that name */
  private readonly byName = new Map<string, RelPath[]>();
  private readonly probes = new Map<string, Hit | null>();
  private readonly dbOfDir = new Map<string, CompileDb | null>();
  private readonly dbs = new Map<string, CompileDb | null>();
  /** per database: folder → the distinct search paths of the translation units in its tree */
  private readonly trees = new Map<CompileDb, Map<string, SearchPath[]>>();
  private readonly cmakeOfDir = new Map<string, string[]>();
  private readonly guessed = new Map<string, string[]>();
  private readonly read = new Set<RelPath>();
  private memo = new Map<string, ImportTarget[]>();
  /** answers by (search paths, including folder, directive), for the files that share them */
  private byContext = new Map<string, ImportTarget[]>();
  private readonly contextIds = new Map<readonly SearchPath[], number>();
  private readonly singles = new Map<SearchPath, SearchPath[]>();

  constructor(private readonly host: ResolverHost) {
    this.roots = [host.root];
    try {
      const real = realpathSync(host.root);
      if (real !== host.root) this.roots.push(real);
    } catch {
      // the root as given
    }
    for (const f of host.files) {
      const name = f.slice(f.lastIndexOf('/') + 1);
      const list = this.byName.get(name);
      if (list) list.push(f);
      else this.byName.set(name, [f]);
      for (let d = dirOf(f); !this.dirs.has(d); d = dirOf(d)) {
        this.dirs.add(d);
        if (d === '') break;
      }
    }
    // a database that appears later under build/ is noticed by its stamp (the others are looked for by name)
    this.read.add('build/compile_commands.json');
  }

  configFiles(): RelPath[] {
    return [...this.read].sort();
  }

  forgetResults(): void {
    this.memo.clear();
    this.byContext.clear();
    this.probes.clear();
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const key = `${from}\u0000${imp.specifier}`;
    return memoised(this.memo, key, () => this.compute(imp.specifier, from));
  }

  /** What is at `dir`/`name`, or null. */
  private probe(dir: string, name: string): Hit | null {
    const key = `${dir}\u0000${name}`;
    let hit = this.probes.get(key);
    if (hit !== undefined) return hit;
    hit = null;
    if (isOutside(dir)) {
      const abs = dir.startsWith('/') || /^[A-Za-z]:\//.test(dir) ? path.join(dir, name) : path.join(this.host.root, dir, name);
      if (this.host.fileExists(path.relative(this.host.root, abs))) hit = { kind: 'outside', path: abs.split(path.sep).join('/') };
    } else {
      const rel = normalizeRel(joinDir(dir, name));
      if (this.host.files.has(rel)) hit = { kind: 'file', path: rel };
      else if (!rel.startsWith('..') && this.host.fileExists(rel)) hit = { kind: 'disk', path: rel };
      else if (rel.startsWith('..') && this.host.fileExists(rel)) hit = { kind: 'outside', path: rel };
    }
    this.probes.set(key, hit);
    return hit;
  }

  /** The first hit along `dirs`, passing over the including file itself. */
  private search(dirs: readonly string[], name: string, from: RelPath): Hit | null {
    for (const dir of dirs) {
      const hit = this.probe(dir, name);
      if (hit && !(hit.kind === 'file' && hit.path === from)) return hit;
    }
    return null;
  }

  /** The database that governs files of `dir`: the nearest compile_commands.json above, or in a build/ above. */
  private dbFor(dir: string): CompileDb | null {
    const known = this.dbOfDir.get(dir);
    if (known !== undefined) return known;
    let db: CompileDb | null = null;
    for (const file of [joinDir(dir, 'compile_commands.json'), joinDir(dir, 'build/compile_commands.json')]) {
      db = this.dbAt(file);
      if (db) break;
    }
    if (!db && dir !== '') db = this.dbFor(dirOf(dir));
    this.dbOfDir.set(dir, db);
    return db;
  }

  private dbAt(file: RelPath): CompileDb | null {
    let db = this.dbs.get(file);
    if (db !== undefined) return db;
    const text = this.host.readFile(file);
    if (text !== null) this.read.add(file);
    db = text === null ? null : readCompileDb(file, text, this.roots);
    // a database of another checkout (no translation unit inside this project) steers nothing
    if (db && ![...db.units.keys()].some((u) => this.host.files.has(u))) db = null;
    this.dbs.set(file, db);
    return db;
  }

  /** The search paths `from` is compiled with: its own command's, else those of the translation units nearest it. */
  private contexts(db: CompileDb, from: RelPath): SearchPath[] {
    const own = db.units.get(from);
    if (own) {
      let single = this.singles.get(own);
      if (!single) this.singles.set(own, (single = [own]));
      return single;
    }
    let tree = this.trees.get(db);
    if (!tree) {
      const sets = new Map<string, Map<string, SearchPath>>();
      for (const [unit, sp] of [...db.units].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        if (isOutside(unit)) continue;
        const key = JSON.stringify(sp);
        for (let d = dirOf(unit); ; d = dirOf(d)) {
          let set = sets.get(d);
          if (!set) sets.set(d, (set = new Map()));
          if (!set.has(key)) set.set(key, sp);
          if (d === '') break;
        }
      }
      tree = new Map([...sets].map(([d, s]) => [d, [...s.values()]]));
      this.trees.set(db, tree);
    }
    for (let d = dirOf(from); ; d = dirOf(d)) {
      const found = tree.get(d);
      if (found) return found;
      if (d === '') return [];
    }
  }

  /** Without a database: the folders CMakeLists.txt files name, then each folder's include/ and itself, nearest first. */
  private guessedDirs(dir: string): string[] {
    let dirs = this.guessed.get(dir);
    if (dirs) return dirs;
    const out: string[] = [];
    for (let d = dir; ; d = dirOf(d)) {
      out.push(...this.cmakeDirs(d));
      if (d === '') break;
    }
    for (let d = dir; ; d = dirOf(d)) {
      out.push(joinDir(d, 'include'), d);
      if (d === '') break;
    }
    dirs = [...new Set(out)].filter((d) => this.dirs.has(d));
    this.guessed.set(dir, dirs);
    return dirs;
  }

  private cmakeDirs(dir: string): string[] {
    let dirs = this.cmakeOfDir.get(dir);
    if (dirs) return dirs;
    const file = joinDir(dir, 'CMakeLists.txt');
    const text = this.dirs.has(dir) ? this.host.readFile(file) : null;
    if (text !== null) this.read.add(file);
    dirs = text === null ? [] : cmakeIncludeDirs(dir, text);
    this.cmakeOfDir.set(dir, dirs);
    return dirs;
  }

  private compute(spec: string, from: RelPath): ImportTarget[] {
    const m = /^(["<])(.*)[">]$/.exec(spec);
    if (!m || !m[2].trim()) return [{ resolved: unresolved(`${spec}: a computed include (a macro the preprocessor expands)`) }];
    const quoted = m[1] === '"';
    const name = m[2].trim().replace(/\\/g, '/');
    const fromDir = dirOf(from);
    if (name.startsWith('/') || /^[A-Za-z]:\//.test(name)) {
      const rel = normalizeRel(path.relative(this.host.root, name).split(path.sep).join('/'));
      return [this.target(this.host.files.has(rel) ? { kind: 'file', path: rel } : { kind: 'outside', path: name }, name, quoted, false)];
    }
    if (quoted) {
      const own = this.search([fromDir], name, from);
      if (own) return [this.target(own, name, quoted, false)];
    }
    const db = this.dbFor(fromDir);
    if (db) {
      // files of one folder compiled with the same search paths share the answer (unless it is the file itself)
      const contexts = this.contexts(db, from);
      let id = this.contextIds.get(contexts);
      if (id === undefined) this.contextIds.set(contexts, (id = this.contextIds.size));
      const key = `${id}\u0000${fromDir}\u0000${spec}`;
      const shared = this.byContext.get(key);
      if (shared && !shared.some((t) => t.resolved.kind === 'file' && t.resolved.path === from)) return shared;
      const result = this.searchContexts(contexts, name, quoted, from);
      this.byContext.set(key, result);
      return result;
    }
    if (!quoted && isPlatformHeader(name)) return [this.notFound(name, quoted, false)];
    const guess = this.search(this.guessedDirs(fromDir), name, from);
    if (guess) return [this.target(guess, name, quoted, true)];
    const bySuffix = this.bySuffix(name, from);
    if (bySuffix) return [this.target({ kind: 'file', path: bySuffix }, name, quoted, true)];
    return [this.notFound(name, quoted, true)];
  }

  /** `name` searched along each of `contexts`: one answer is exact, differing answers are each inferred. */
  private searchContexts(contexts: readonly SearchPath[], name: string, quoted: boolean, from: RelPath): ImportTarget[] {
    const hits = new Map<string, Hit | null>();
    for (const sp of contexts) {
      const hit = this.search(quoted ? [...sp.quote, ...sp.angle] : sp.angle, name, from);
      hits.set(hitKey(hit), hit);
    }
    const found = [...hits.values()].filter((h): h is Hit => h !== null);
    if (hits.size === 1 && found.length === 1) return [this.target(found[0], name, quoted, false)];
    if (found.length) return found.map((h) => this.target(h, name, quoted, true));
    return [this.notFound(name, quoted, false)];
  }


  /** The project file whose path ends with `name` (the one sharing most folders with `from` when several do). */
  private bySuffix(name: string, from: RelPath): RelPath | null {
    const base = name.slice(name.lastIndexOf('/') + 1);
    const candidates = (this.byName.get(base) ?? []).filter((f) => f !== from && (f === name || f.endsWith(`/${name}`)));
    if (candidates.length <= 1) return candidates[0] ?? null;
    const shared = (f: string): number => {
      const a = f.split('/');
      const b = from.split('/');
      let i = 0;
      while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
      return i;
    };
    const scored = candidates.map((f) => [shared(f), f] as const).sort((x, y) => y[0] - x[0] || (x[1] < y[1] ? -1 : 1));
    return scored[0][0] > scored[1][0] ? scored[0][1] : null;
  }

  private target(hit: Hit, name: string, quoted: boolean, inferred: boolean): ImportTarget {
    let resolved: Resolution;
    if (hit.kind === 'file') resolved = { kind: 'file', path: hit.path };
    else if (hit.kind === 'disk') resolved = unresolved(`${quoted ? `"${name}"` : `<${name}>`}: found at ${hit.path}, which is not indexed (build output or excluded)`);
    else resolved = isPlatformHeader(name) ? { kind: 'builtin', module: name } : { kind: 'external', package: packageOf(name) };
    const t: ImportTarget = { resolved, names: ['*'] };
    if (inferred) t.inferred = true;
    return t;
  }

  private notFound(name: string, quoted: boolean, inferred: boolean): ImportTarget {
    let resolved: Resolution;
    if (isPlatformHeader(name)) resolved = { kind: 'builtin', module: name };
    else if (!quoted) resolved = { kind: 'external', package: packageOf(name) };
    else resolved = unresolved(`"${name}": in no folder searched (the including file's, the include paths); a generated header or one from outside the project`);
    const t: ImportTarget = { resolved };
    if (inferred && resolved.kind !== 'builtin') t.inferred = true;
    return t;
  }
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
