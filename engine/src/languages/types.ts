/**
 * What a language module provides (ARCHITECTURE.md, "What a language module provides"). A language is one folder,
 * `engine/src/languages/<id>/`, whose index.ts exports one LanguageModule, and one line in registry.ts.
 */
import type { ResolverHost } from '../resolve/host.js';
import type { FileType, ImportRecord, ParsedFile, ReexportBinding, RelPath, Resolution, SymbolRecord } from '../types.js';
import type { TsNode } from './runtime.js';

/** One file an import statement reaches (LanguageResolver.resolve). */
export interface ImportTarget {
  resolved: Resolution;
  /** the names this target sees when not the statement's (a module reached as a whole: `['*']`) */
  names?: string[];
  /** true when the language gives no exact rule and this target is a best guess */
  inferred?: boolean;
  /** a re-export's bindings as this target sees them, when not the statement's (Rust `pub use a::b`: module `b` as a whole) */
  reexports?: ReexportBinding[];
}

/**
 * Maps the imports of the language's files to project files by the language's own rules. Made once per file set
 * (createResolver) from what the host shows: the indexed files of every language and config files read from disk.
 */
export interface LanguageResolver {
  /**
   * Every file the statement reaches, at least one entry (an unresolved, external or builtin one when no project
   * file). Deterministic for the same file set and config files; never throws.
   */
  resolve(imp: ImportRecord, from: RelPath): ImportTarget[];
  /** project-relative paths of the config files read (pyproject.toml, go.mod …): a change to one re-resolves all */
  configFiles(): RelPath[];
  /** drops memoised results, keeping what was read of config files (the resolver is reused for an unchanged file set) */
  forgetResults(): void;
}

/** What the parse stage hands a tree-sitter language's fact reader. */
export interface ParseInput {
  path: RelPath;
  source: string;
  /** the tree's root; valid only during the call (the tree is freed after) */
  root: TsNode;
  /** the key the file's tree is kept under for its next parse, when it is (runtime.ts withTree): a reader that parses again keys its own text apart */
  keep?: string;
}

export interface LanguageModule {
  /** stored on every record (`FileRecord.language`) and in graph.db's node body: `python` */
  id: string;
  /** for people: `Python` */
  name: string;
  /** file name endings it reads, lower-case, with the dot (`.py`, `.pyi`); the longest match across modules wins */
  extensions: readonly string[];
  /**
   * The tree-sitter grammar in @vscode/tree-sitter-wasm (`tree-sitter-python.wasm`), loaded on first need; null for
   * the built-in JS/TS module, read by babel (engine/src/parse/).
   */
  grammar: string | null;
  /** facts of one file from its tree: imports with kinds, exports and top-level symbols with kind and line, doc comment */
  parse?(input: ParseInput): ParsedFile;
  /**
   * The text the grammar reads, when it is not the file's own (C/C++: declaration macros blanked): the same length
   * and lines, so that nodes keep the file's positions. `parse` still gets the file's own text as `source`.
   */
  grammarText?(source: string): string;
  /** file names (no folder) that steer resolution, looked for in every folder above an indexed file of the language */
  configFiles: readonly string[];
  /** the language's resolver over a file set; absent for the built-in JS/TS module (engine/src/resolve/) */
  createResolver?(host: ResolverHost): LanguageResolver;
  /**
   * For a resolver that reads other files' declarations (C#: which file declares a type): what of a file's facts it
   * reads. An update whose file changes it makes a new resolver and resolves every import again; absent, only the
   * file set, config files and import specifiers matter.
   */
  resolutionKey?(facts: { symbols: readonly SymbolRecord[]; imports: readonly ImportRecord[] }): string;
  /**
   * True when the resolver reads nothing but the file set, the config files it names (configFiles(), stamped) and
   * parse facts: a file's imports resolve as a function of its own imports and every file's resolutionKey (or, with
   * none, of the file set and config files alone). An update of a file whose imports did not change, while none of
   * those moved, then keeps its record's resolutions and asks no resolver (pipeline/update.ts). Absent: the file is
   * resolved again on every update (JS/TS and C/C++, whose resolvers also look on disk: assets, node_modules,
   * headers outside the indexed set).
   */
  resolvesFromFacts?: boolean;
  /** the file's type when the language has its own layout (`test_x.py`, `x_test.go`); null: the generic rule */
  fileType?(path: RelPath): FileType | null;
  /** globs no scan enters: where the language's tools put installed or generated files (`**\/__pycache__/**`) */
  exclude?: readonly string[];
  /** the naming style the language's own guide asks of file names (`snake_case`), shown beside the measured one */
  namingConvention?: string;
  /**
   * Whether a folder named like build output (`build`, `out`: skipped for every other language) holds this language's
   * source, as its own tools would compile it: Go compiles every folder; a Python `build` folder is source when it is
   * a package (`has(folder + '/__init__.py')`). Absent: such folders are skipped for the language's files.
   */
  sourceInOutputFolder?(folder: RelPath, has: (rel: RelPath) => boolean): boolean;
  /** how the language's files reach each other, for people: `packages and modules (import)`; summary.md's conventions */
  moduleSystem?: string;
}

/** A small helper for tree-sitter readers: the 1-based line of a node. */
export const lineOf = (node: TsNode): number => node.startPosition.row + 1;

/** The first syntax error in a tree-sitter tree (an ERROR or a missing node), or null when it parsed cleanly. */
export function firstSyntaxError(root: TsNode): { message: string; line: number } | null {
  if (!root.hasError) return null;
  const stack: TsNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'ERROR') return { message: `syntax error near ${JSON.stringify(n.text.slice(0, 40))}`, line: lineOf(n) };
    if (n.isMissing) return { message: `syntax error: missing ${n.type}`, line: lineOf(n) };
    if (!n.hasError) continue;
    const children = n.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return { message: 'syntax error', line: 1 };
}
