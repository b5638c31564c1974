/**
 * Where a Python project's import roots are (the folders Python would have on `sys.path` for it), read from the
 * packaging files the way their tools read them:
 *
 * - `pyproject.toml`: setuptools `[tool.setuptools] package-dir` (`"" = "src"`, or one package mapped to a folder)
 *   and `[tool.setuptools.packages.find] where`; poetry `[tool.poetry] packages = [{ include, from }]`; hatch
 *   `[tool.hatch.build.targets.wheel] packages = ["src/pkg"]`; pdm `[tool.pdm.build] package-dir`;
 * - `setup.cfg`: `[options] package_dir` and `[options.packages.find] where`;
 * - `setup.py`: `package_dir={"": "src"}` and `find_packages("src")` / `find_packages(where="src")`;
 * - setuptools' automatic discovery otherwise: a `src/` folder beside the packaging file is the root (src layout),
 *   else the packaging file's folder (flat layout).
 *
 * Every folder holding such a file counts, so several projects in one repository each get their roots. The
 * repository's root is always a root.
 */
import { parse as parseToml } from 'smol-toml';
import type { ResolverHost } from '../../resolve/host.js';
import type { RelPath } from '../../types.js';

export const PYTHON_CONFIG_FILES = ['pyproject.toml', 'setup.cfg', 'setup.py'] as const;

export interface PythonProject {
  /** folders (project-relative, `''` the root) searched for a top-level module, in order */
  roots: string[];
  /** the roots a packaging file declares (or implies by its place): `roots` but the repository's root when none does */
  declaredRoots: string[];
  /** top-level package name → its folder, from a package-dir mapping of one package (`{"pkg" = "lib/pkg"}`) */
  packageDirs: Map<string, string>;
  /** the packaging files read */
  configFiles: RelPath[];
}

const join = (dir: string, rel: string): string => {
  const parts = (dir ? `${dir}/${rel}` : rel).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return out.join('/');
};

type Table = Record<string, unknown>;
const table = (v: unknown): Table | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Table) : null);
const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

interface Found {
  roots: string[];
  packageDirs: Array<[string, string]>;
  /** the file said where packages are (no automatic discovery) */
  explicit: boolean;
}

function fromPyproject(text: string, dir: string, found: Found): void {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch {
    return; // a malformed pyproject.toml steers nothing; automatic discovery still applies
  }
  const tool = table(doc.tool) ?? {};
  const setuptools = table(tool.setuptools);
  if (setuptools) {
    packageDir(table(setuptools['package-dir']), dir, found);
    const find = table(table(setuptools.packages)?.find);
    for (const where of strings(find?.where)) addRoot(found, join(dir, where));
    if (Array.isArray(setuptools.packages)) found.explicit = true;
  }
  const poetry = table(tool.poetry);
  if (poetry && Array.isArray(poetry.packages)) {
    for (const p of poetry.packages) {
      const t = table(p);
      if (t && typeof t.include === 'string') addRoot(found, join(dir, typeof t.from === 'string' ? t.from : '.'));
    }
  }
  const wheel = table(table(table(table(tool.hatch)?.build)?.targets)?.wheel);
  for (const p of strings(wheel?.packages)) {
    const slash = p.replace(/\/+$/, '').lastIndexOf('/');
    addRoot(found, join(dir, slash < 0 ? '.' : p.slice(0, slash)));
  }
  const pdm = table(table(tool.pdm)?.build);
  if (pdm && typeof pdm['package-dir'] === 'string') addRoot(found, join(dir, pdm['package-dir']));
}

function packageDir(mapping: Table | null, dir: string, found: Found): void {
  if (!mapping) return;
  for (const [name, where] of Object.entries(mapping)) {
    if (typeof where !== 'string') continue;
    if (name === '') addRoot(found, join(dir, where));
    else {
      found.packageDirs.push([name.split('.')[0], join(dir, where)]);
      found.explicit = true;
    }
  }
}

function addRoot(found: Found, root: string): void {
  found.explicit = true;
  if (!found.roots.includes(root)) found.roots.push(root);
}

/** The sections and keys of an INI file (setup.cfg), continuation lines joined with `\n`. */
function ini(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === '') continue;
    const head = /^\[([^\]]+)\]/.exec(raw);
    if (head) {
      section = new Map();
      sections.set(head[1].trim(), section);
      key = null;
      continue;
    }
    if (!section) continue;
    if (/^\s/.test(raw) && key !== null) {
      section.set(key, `${section.get(key)}\n${raw.trim()}`);
      continue;
    }
    const kv = /^([^=:]+)[=:](.*)$/.exec(raw);
    if (kv) {
      key = kv[1].trim();
      section.set(key, kv[2].trim());
    }
  }
  return sections;
}

function fromSetupCfg(text: string, dir: string, found: Found): void {
  const sections = ini(text);
  const options = sections.get('options');
  const pkgDir = options?.get('package_dir');
  if (pkgDir !== undefined) {
    const mapping: Table = {};
    for (const line of pkgDir.split('\n')) {
      const m = /^\s*([\w.]*)\s*=\s*(\S+)\s*$/.exec(line);
      if (m) mapping[m[1]] = m[2];
    }
    packageDir(mapping, dir, found);
  }
  const where = sections.get('options.packages.find')?.get('where');
  if (where) for (const w of where.split('\n').map((s) => s.trim()).filter(Boolean)) addRoot(found, join(dir, w));
}

function fromSetupPy(text: string, dir: string, found: Found): void {
  const pkgDir = /package_dir\s*=\s*\{([^}]*)\}/.exec(text);
  if (pkgDir) {
    const mapping: Table = {};
    for (const m of pkgDir[1].matchAll(/['"]([\w.]*)['"]\s*:\s*['"]([^'"]+)['"]/g)) mapping[m[1]] = m[2];
    packageDir(mapping, dir, found);
  }
  for (const m of text.matchAll(/find_(?:namespace_)?packages\s*\(\s*(?:where\s*=\s*)?['"]([^'"]+)['"]/g)) addRoot(found, join(dir, m[1]));
}

/**
 * Reads the packaging files in `dirs` (the folders of the project's Python files and every folder above them) and
 * returns the roots they declare, then the repository's root.
 */
export function discoverProject(host: ResolverHost, dirs: Iterable<string>, hasPythonUnder: (dir: string) => boolean): PythonProject {
  const project: PythonProject = { roots: [], declaredRoots: [], packageDirs: new Map(), configFiles: [] };
  for (const dir of [...dirs].sort()) {
    const found: Found = { roots: [], packageDirs: [], explicit: false };
    let any = false;
    const readers: Array<[string, (text: string, dir: string, found: Found) => void]> = [
      ['pyproject.toml', fromPyproject],
      ['setup.cfg', fromSetupCfg],
      ['setup.py', fromSetupPy],
    ];
    for (const [name, read] of readers) {
      const rel = dir ? `${dir}/${name}` : name;
      const text = host.readFile(rel);
      if (text === null) continue;
      any = true;
      project.configFiles.push(rel);
      read(text, dir, found);
    }
    if (!any) continue;
    if (!found.explicit) {
      // setuptools' automatic discovery: src layout when a src/ folder is there, else flat
      const src = dir ? `${dir}/src` : 'src';
      if (hasPythonUnder(src)) found.roots.push(src);
    }
    found.roots.push(dir);
    for (const r of found.roots) if (!project.roots.includes(r)) project.roots.push(r);
    for (const [name, where] of found.packageDirs) if (!project.packageDirs.has(name)) project.packageDirs.set(name, where);
  }
  project.declaredRoots = [...project.roots];
  if (!project.roots.includes('')) project.roots.push('');
  return project;
}
