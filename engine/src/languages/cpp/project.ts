/**
 * Where a C/C++ project says its headers are: the include paths of `compile_commands.json` (a compilation database, as
 * CMake, Meson, Bear and Bazel write it), and, without one, the folders CMakeLists.txt names.
 */
import path from 'node:path';
import { joinDir, normalizeRel } from '../../resolve/paths.js';

/**
 * One compiler invocation's header search, as gcc and clang order it: `"x"` looks in the including file's folder,
 * then `quote`, then `angle`; `<x>` looks in `angle` only. A folder is project-relative (may start with `../`), or
 * absolute when it lies outside the project.
 */
export interface SearchPath {
  quote: string[];
  angle: string[];
}

/** A compilation database read: each translation unit (project-relative) with its search path. */
export interface CompileDb {
  /** project-relative path of the compile_commands.json */
  file: string;
  units: Map<string, SearchPath>;
}

/** The words of a shell command line (POSIX quoting: '…', "…", backslash escapes). */
export function shellWords(command: string): string[] {
  const out: string[] = [];
  let word = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) word += command[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || word) out.push(word);
      word = '';
      has = false;
    } else word += c;
  }
  if (has || word) out.push(word);
  return out;
}

/** The search path of one compiler command: `-iquote`, `-I`, `-isystem`, `-idirafter` (and MSVC's `/I`), in order. */
export function searchPathOf(args: readonly string[], toDir: (dir: string) => string): SearchPath {
  const quote: string[] = [];
  const user: string[] = [];
  const system: string[] = [];
  const after: string[] = [];
  const flags: Array<[string, string[]]> = [
    ['-iquote', quote],
    ['-isystem', system],
    ['-idirafter', after],
    ['--include-directory=', user],
    ['-I', user],
    ['/I', user],
  ];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    for (const [flag, list] of flags) {
      if (!a.startsWith(flag)) continue;
      let value = a.slice(flag.length);
      if (value === '' && !flag.endsWith('=')) value = args[++i] ?? '';
      if (value && value !== '-') list.push(toDir(value));
      break;
    }
  }
  const dedupe = (dirs: string[]): string[] => [...new Set(dirs)];
  return { quote: dedupe(quote), angle: dedupe([...user, ...system, ...after]) };
}

/** A path of the machine as a project path: relative when inside `roots[0]` (or its real path), else absolute. */
export function projectPath(roots: readonly string[], abs: string): string {
  for (const root of roots) {
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return normalizeRel(rel);
  }
  return path.resolve(abs).split(path.sep).join('/');
}

interface Entry {
  directory?: unknown;
  file?: unknown;
  arguments?: unknown;
  command?: unknown;
}

/** Reads a compile_commands.json's text; null when it is not a JSON array (a bad database steers nothing). */
export function readCompileDb(file: string, text: string, roots: readonly string[]): CompileDb | null {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(entries)) return null;
  const dbDir = path.join(roots[0], path.dirname(file));
  const units = new Map<string, SearchPath>();
  const distinct = new Map<string, SearchPath>();
  for (const e of entries as Entry[]) {
    if (!e || typeof e !== 'object' || typeof e.file !== 'string') continue;
    const directory = typeof e.directory === 'string' ? path.resolve(dbDir, e.directory) : dbDir;
    const args = Array.isArray(e.arguments) ? e.arguments.filter((a): a is string => typeof a === 'string') : typeof e.command === 'string' ? shellWords(e.command) : [];
    const unit = projectPath(roots, path.resolve(directory, e.file));
    if (units.has(unit)) continue; // the first command of a file, as clangd takes it
    const sp = searchPathOf(args, (dir) => projectPath(roots, path.resolve(directory, dir)));
    const key = JSON.stringify(sp);
    if (!distinct.has(key)) distinct.set(key, sp);
    units.set(unit, distinct.get(key)!); // units with the same search paths share one object
  }
  return { file, units };
}

/**
 * The folders a CMakeLists.txt names in `include_directories(…)` and `target_include_directories(…)`, project-relative:
 * relative ones from the file's folder, `${CMAKE_CURRENT_SOURCE_DIR}`/`${CMAKE_CURRENT_LIST_DIR}` as that folder,
 * `${PROJECT_SOURCE_DIR}`/`${CMAKE_SOURCE_DIR}` as the project root, `$<BUILD_INTERFACE:x>` as x; any other variable
 * or generator expression is not evaluated (skipped).
 */
export function cmakeIncludeDirs(cmakeDir: string, text: string): string[] {
  const out: string[] = [];
  const clean = text.replace(/#\[(=*)\[[\s\S]*?\]\1\]|#[^\n]*/g, ' ');
  for (const m of clean.matchAll(/\b(?:target_)?include_directories\s*\(([^)]*)\)/gi)) {
    const target = /^\s*target_/i.test(m[0]);
    const words = [...m[1].matchAll(/"([^"]*)"|([^\s"]+)/g)].map((w) => w[1] ?? w[2]);
    for (const [i, raw] of words.entries()) {
      if (target && i === 0) continue;
      if (/^(PUBLIC|PRIVATE|INTERFACE|SYSTEM|BEFORE|AFTER)$/.test(raw)) continue;
      const word = raw
        .replace(/^\$<BUILD_INTERFACE:(.*)>$/, '$1')
        .replace(/\$\{CMAKE_CURRENT_(SOURCE|LIST)_DIR\}/g, cmakeDir === '' ? '.' : cmakeDir)
        .replace(/\$\{(PROJECT|CMAKE)_SOURCE_DIR\}/g, '.');
      if (/\$[{<]/.test(word) || path.isAbsolute(word)) continue;
      const dir = /\$\{/.test(raw) ? normalizeRel(word) : normalizeRel(joinDir(cmakeDir, word));
      if (!dir.startsWith('..')) out.push(dir);
    }
  }
  return out;
}
