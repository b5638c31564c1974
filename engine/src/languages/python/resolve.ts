/**
 * Python's import rules over the project's files. A statement's edge goes to the most specific module it names:
 * `import a.b` → `a/b.py` or `a/b/__init__.py`; `from a.b import c` → `a/b/c.py` when `c` is a submodule, else
 * `a/b/__init__.py` (the parent packages' `__init__.py` run too, but the statement does not name them).
 *
 * Finding a top-level module follows the path finder: each root in order (the importing file's own base folder, as
 * Python puts a script's folder and pytest a test's first folder without `__init__.py` first on `sys.path`; then the
 * roots the packaging files declare, project.ts; then the repository's root); in one root a regular package
 * (`n/__init__.py`) wins over a module (`n.py`), and a folder without `__init__.py` is a portion of a namespace
 * package, which may span roots. A submodule is looked for in its package's folders only. Relative imports count
 * folders up from the importing file. A `.pyi` stub is the target when no `.py` is there, and for a `.pyi` importer.
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, joinDir } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import type { ImportTarget, LanguageResolver } from '../types.js';
import { discoverProject, type PythonProject } from './project.js';
import { STDLIB } from './stdlib.js';
import { memoised } from '../memo.js';

/** A module as the import system finds it: a file (module or regular package), or a namespace package's folders. */
interface Found {
  /** the module's own file (`x.py`, `x/__init__.py`); null for a namespace package */
  file: RelPath | null;
  /** where its submodules are (a package's folder; a namespace package's portions); empty for a plain module */
  dirs: string[];
}


export class PythonResolver implements LanguageResolver {
  private readonly files: ReadonlySet<RelPath>;
  /** every folder with a Python file in it or below it */
  private readonly pyDirs = new Set<string>();
  private project: PythonProject | null = null;
  private memo = new Map<string, ImportTarget[]>();

  constructor(private readonly host: ResolverHost) {
    this.files = host.files;
    for (const f of host.files) {
      if (!f.endsWith('.py') && !f.endsWith('.pyi')) continue;
      let d = dirOf(f);
      while (!this.pyDirs.has(d)) {
        this.pyDirs.add(d);
        if (d === '') break;
        d = dirOf(d);
      }
    }
  }

  private get proj(): PythonProject {
    this.project ??= discoverProject(this.host, this.pyDirs, (dir) => this.pyDirs.has(dir));
    return this.project;
  }

  configFiles(): RelPath[] {
    return [...this.proj.configFiles];
  }

  forgetResults(): void {
    this.memo.clear();
  }

  /** The file of a module named `base` (no extension) in the file set: `.py` first, or `.pyi` first for a stub importer. */
  private moduleFile(base: string, stub: boolean): RelPath | null {
    const [first, second] = stub ? ['.pyi', '.py'] : ['.py', '.pyi'];
    if (this.files.has(base + first)) return base + first;
    if (this.files.has(base + second)) return base + second;
    return null;
  }

  /** One name in the given folders, as the path finder looks in each in turn. */
  private find(name: string, dirs: readonly string[], stub: boolean): Found | null {
    const portions: string[] = [];
    for (const dir of dirs) {
      const folder = joinDir(dir, name);
      const init = this.moduleFile(`${folder}/__init__`, stub);
      if (init) return { file: init, dirs: [folder] };
      const module = this.moduleFile(folder, stub);
      if (module) return { file: module, dirs: [] };
      if (this.pyDirs.has(folder)) portions.push(folder);
    }
    return portions.length ? { file: null, dirs: portions } : null;
  }

  /** A dotted name from the given search folders; null when some part is not there. */
  private findDotted(parts: readonly string[], dirs: readonly string[], stub: boolean): Found | null {
    let found: Found | null = null;
    let where = dirs;
    for (const part of parts) {
      if (found && found.dirs.length === 0) return null; // a plain module has no submodules
      found = this.find(part, where, stub);
      if (!found) return null;
      where = found.dirs;
    }
    return found;
  }

  /** The importing file's base folder: the first folder up from it without an `__init__`. */
  private baseDir(from: RelPath): string {
    let dir = dirOf(from);
    while (dir !== '' && (this.files.has(`${dir}/__init__.py`) || this.files.has(`${dir}/__init__.pyi`))) dir = dirOf(dir);
    return dir;
  }

  /** How many packages a file is inside: the folders from its root (the longest root holding it) to the file. */
  private packageDepth(from: RelPath): number {
    const dir = dirOf(from);
    let root: string | null = null;
    for (const r of this.proj.declaredRoots) if ((r === '' || dir === r || dir.startsWith(`${r}/`)) && (root === null || r.length > root.length)) root = r;
    root ??= this.baseDir(from);
    const rest = root === '' ? dir : dir.slice(root.length + 1);
    return rest === '' ? 0 : rest.split('/').length;
  }

  private topLevel(name: string, from: RelPath, stub: boolean): Found | null {
    const mapped = this.proj.packageDirs.get(name);
    if (mapped !== undefined) {
      const init = this.moduleFile(`${mapped}/__init__`, stub);
      if (init) return { file: init, dirs: [mapped] };
      if (this.pyDirs.has(mapped)) return { file: null, dirs: [mapped] };
    }
    const dirs = [this.baseDir(from), ...this.proj.roots.filter((r) => r !== this.baseDir(from))];
    return this.find(name, dirs, stub);
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    // what a statement reaches depends on the importing file's folder and whether it is a stub, not on its name:
    // the files of one package share the answers (fewer to compute and hold in a large build)
    const key = `${dirOf(from)}\u0000${from.endsWith('.pyi') ? 'i' : ''}\u0000${imp.specifier}\u0000${imp.names.join(',')}`;
    return memoised(this.memo, key, () => this.compute(imp, from));
  }

  private compute(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const spec = imp.specifier;
    const stub = from.endsWith('.pyi');
    if (spec === '__future__') return [{ resolved: { kind: 'builtin', module: '__future__' } }];
    const level = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(level);
    const parts = rest ? rest.split('.') : [];
    let module: Found | null;
    if (level > 0) {
      let dir = dirOf(from);
      // a relative import stays inside the file's top-level package: the folders between its root and the file
      if (level > this.packageDepth(from)) return [{ resolved: unresolved(`${spec}: a relative import beyond the top-level package`) }];
      for (let i = 1; i < level; i++) dir = dirOf(dir);
      if (parts.length === 0) {
        const init = this.moduleFile(`${dir}/__init__`, stub);
        module = { file: dir === '' ? null : init, dirs: [dir] };
      } else module = this.findDotted(parts, [dir], stub);
      if (!module) return [{ resolved: unresolved(`${spec}: no module ${parts.join('.') || '(package)'} in ${dir || 'the repository root'}/`) }];
    } else {
      const top = this.topLevel(parts[0], from, stub);
      if (!top) return [{ resolved: STDLIB.has(parts[0]) ? { kind: 'builtin', module: parts[0] } : { kind: 'external', package: parts[0] } }];
      module = parts.length === 1 ? top : this.findDotted(parts.slice(1), top.dirs, stub);
      if (!module) return [{ resolved: unresolved(`${spec}: ${parts[0]} is in the project but ${spec} is not`) }];
    }
    // `import a.b` (names `*`, as `from a.b import *`): the module itself; `from a.b import c`: c's own file when c
    // is a submodule, else a.b's file
    const targets: ImportTarget[] = [];
    const own: string[] = [];
    for (const name of imp.names) {
      if (name !== '*' && module.dirs.length > 0) {
        const sub = this.find(name, module.dirs, stub);
        if (sub?.file) {
          targets.push({ resolved: { kind: 'file', path: sub.file }, names: ['*'] });
          continue;
        }
      }
      own.push(name);
    }
    if (own.length > 0 || targets.length === 0) {
      if (module.file) targets.unshift({ resolved: { kind: 'file', path: module.file }, names: own });
      else if (targets.length === 0) targets.push({ resolved: unresolved(`${spec} is a namespace package (a folder without __init__.py): no file of its own`) });
    }
    return targets;
  }
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
