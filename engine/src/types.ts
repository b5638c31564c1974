/**
 * Shared shapes of the intelligence pipeline: scan → parse → resolve → graph → store → query.
 * Paths called RelPath are relative to the project root and always use `/` separators.
 */

export type RelPath = string;

// ---------------------------------------------------------------- scan

export interface ScannedFile {
  /** repo-relative, `/` separators */
  path: RelPath;
  size: number;
  mtimeMs: number;
}

export interface IntelConfig {
  /** globs (relative to the root) of files to index */
  include: string[];
  /** globs excluded on top of .gitignore and the built-in exclusions */
  exclude: string[];
  /** files larger than this are recorded as skipped, never parsed */
  maxFileBytes: number;
  /** PostToolUse capture on/off (read by the hooks) */
  capture: boolean;
  /** write an entity page per file (default true); false: none, for very large projects (docs/configuration.md) */
  entityPages: boolean;
  /**
   * seconds the hooks' background worker stays alive after the journal is empty, waiting for the next edit with
   * the engine warm (default 120; 0: it exits at once)
   */
  workerIdleSeconds: number;
}

// ---------------------------------------------------------------- parse

/**
 * How a file reaches another. JS/TS: the first seven (`triple-slash`: `/// <reference path="…" />`;
 * `triple-slash-types`: `/// <reference types="…" />`). Kinds any language module may use: `import` (a statement run when
 * the file loads), `reexport` (names imported to be exported again: a barrel, a Python package's `__init__.py`),
 * `type-import` (only for the type checker: `import type`, Python's `if TYPE_CHECKING:`), `lazy-import` (runs only
 * when a function runs: an import inside a Python function), `conditional-import` (may not run, or may fail and be
 * caught: inside `try:` or an `if`), `include` (text inclusion: C/C++ `#include`, PHP `require`/`include`), `mod`
 * (a module declared into a module tree: Rust `mod x;`), `same-package` (a reference a language allows without an
 * import, between files of one package).
 */
export type ImportKind =
  | 'import'
  | 'require'
  | 'dynamic-import'
  | 'reexport'
  | 'type-import'
  | 'triple-slash'
  | 'triple-slash-types'
  | 'lazy-import'
  | 'conditional-import'
  | 'include'
  | 'mod'
  | 'same-package';

export interface ReexportBinding {
  /** name in the imported module; `*` for `export *` / `export * as ns` */
  imported: string;
  /** name under which this file exports it; `*` for `export * from` */
  exported: string;
}

export interface ImportRecord {
  specifier: string;
  kind: ImportKind;
  /**
   * Imported names: `default`, named imports by their name in the imported module, `*` for a namespace import,
   * `export *`, an untracked `require()` or `import()`. Empty for side-effect imports and triple-slash references.
   */
  names: string[];
  /** 1-based line of the statement */
  line: number;
  /** on kind `reexport`: how each name is exported again (also on a Rust `mod` declaration: the module as a namespace) */
  reexports?: ReexportBinding[];
  /** C#: a `global using`, in scope in every file of its project */
  global?: true;
  /** Java: a fully qualified type name written in the code (`a.b.C x;`), no import declaration: it imports nothing */
  reference?: true;
  /** C#, on the file's own-namespace record: the member names it calls (`x.M(...)`), which bind extension methods */
  calls?: string[];
}

export type ExportKind =
  | 'function'
  | 'class'
  | 'const'
  | 'variable'
  | 'type'
  | 'interface'
  | 'enum'
  | 'namespace'
  | 'default'
  | 'reexport'
  | 'cjs'
  | 'struct'
  | 'trait'
  | 'module'
  | 'macro';

export interface ExportRecord {
  /** exported name (`default` for the default export, `*` never appears here) */
  name: string;
  kind: ExportKind;
  line: number;
}

/** `struct`, `trait`, `module`, `macro`: for languages that have them (Go/Rust/C structs, Rust traits, Ruby modules, C macros). */
export type SymbolKind = 'function' | 'class' | 'const' | 'variable' | 'type' | 'interface' | 'enum' | 'namespace' | 'struct' | 'trait' | 'module' | 'macro';

export interface SymbolRecord {
  name: string;
  kind: SymbolKind;
  line: number;
  exported: boolean;
  /** a Java type's supertypes as written (`extends` / `implements`, type arguments left out): what its member types inherit */
  supertypes?: string[];
  /** C#: the namespace declaring the type, when not the global one (its resolver binds names through it) */
  namespace?: string;
  /** C#: a static class (where extension methods live) */
  static?: true;
  /** Java: a private member type (a subtype does not inherit it) */
  private?: true;
  /** C#: a top-level static class's extension methods (first parameter `this`), by name */
  extensions?: string[];
  /** C#: the type a nested type is declared in (dotted when deeper): the compiler sees it only through that type */
  container?: string;
}

export type ModuleSystem = 'esm' | 'cjs' | 'mixed' | 'none';

export interface SyntaxProblem {
  message: string;
  line: number;
  /**
   * The record's facts are those of the file's last version that parsed (the problem is the current text's): an edit
   * broke it. Absent when the facts are what the parser could read of the text with its error (a file that never
   * parsed cleanly, e.g. a macro the grammar cannot read): the next edit's facts replace them.
   */
  kept?: true;
}

export interface ParsedFile {
  imports: ImportRecord[];
  exports: ExportRecord[];
  /** top-level declarations */
  symbols: SymbolRecord[];
  /** the file's leading doc comment (JSDoc or a leading block/line comment), trimmed, or null */
  docComment: string | null;
  moduleSystem: ModuleSystem;
  /** first syntax error; the facts above are what error recovery could still extract */
  syntaxError: SyntaxProblem | null;
}

/** The facts of a file as they were for one content hash: a file whose bytes still hash the same is not parsed again. */
export interface KnownFacts {
  hash: string;
  parsed: ParsedFile;
}

export type SkipReason = 'too-large' | 'binary' | 'non-utf8' | 'unreadable' | 'not-a-file';

/** What a parse worker returns for one file. */
export type LoadedFile =
  | { path: RelPath; hash: string; size: number; mtimeMs: number; parsed: ParsedFile; /** facts taken from KnownFacts, not parsed */ reused?: true }
  | { path: RelPath; hash: string | null; size: number; mtimeMs: number; skipped: SkipReason; detail?: string };

// ---------------------------------------------------------------- resolve

export type Resolution =
  | { kind: 'file'; path: RelPath }
  /** exists inside the project but is not an indexed source file (json, css, a file of an excluded folder …) */
  | { kind: 'asset'; path: RelPath }
  | { kind: 'external'; package: string }
  | { kind: 'builtin'; module: string }
  | { kind: 'unresolved'; reason: string };

export interface ResolvedImport extends ImportRecord {
  resolved: Resolution;
  /**
   * Present (true) when the target is a best guess: the language gives no exact rule for this import (a name
   * matched to a file, an include found by searching), so the edge is inferred, not what the toolchain would do.
   * Absent: the edge is exact.
   */
  inferred?: true;
  /**
   * The names this target sees when they differ from the statement's `names` (a Python submodule imported by name,
   * `from pkg import sub`, is reached as a whole: `*`). Edges carry these instead of `names`.
   */
  targetNames?: string[];
  /**
   * Present on the 2nd, 3rd … target of one statement that reaches several files (a Go package: each of its files;
   * `from pkg import a, b` with submodules a and b): 1, 2 … Such entries repeat the statement's specifier, kind and
   * line, are made by the resolver each time it runs and are never parse facts (knownFacts drops them).
   */
  part?: number;
}

// ---------------------------------------------------------------- index (the source of truth, index.json)

export type FileType = 'source' | 'test' | 'types' | 'config' | 'script';

export interface FileRecord {
  path: RelPath;
  id: string;
  /** sha1 of the content; null when unreadable */
  hash: string | null;
  size: number;
  mtimeMs: number;
  type: FileType;
  /** the language module that read the file (engine/src/languages/registry.ts): `typescript`, `javascript`, `python` … */
  language?: string;
  moduleSystem: ModuleSystem;
  docComment: string | null;
  purpose: string;
  /** `manual` when a person or an agent wrote the Purpose section of the entity file */
  purposeSource: 'generated' | 'manual';
  exports: ExportRecord[];
  symbols: SymbolRecord[];
  imports: ResolvedImport[];
  syntaxError: SyntaxProblem | null;
  skipped: SkipReason | null;
}

export interface IndexDocument {
  storeFormatVersion: number;
  toolVersion: string;
  builtAt: string;
  /** mtimes of the files that steer resolution (tsconfig, package.json, …), to notice when they change */
  configFiles: Record<RelPath, number>;
  files: Record<RelPath, FileRecord>;
}

// ---------------------------------------------------------------- graph rows (what graph.db holds)

export interface NodeRow {
  id: string;
  path: RelPath;
  kind: 'file';
  /** JSON: at least { type, purpose, exports } */
  body: string;
}

export interface EdgeRow {
  source: string;
  target: string;
  kind: ImportKind;
  /** JSON array of imported names */
  names: string;
  /** JSON array of ReexportBinding on re-export edges (`export { a as b } from`), else null */
  reexports: string | null;
  specifier: string;
  line: number;
  /** false when every import behind the edge is inferred (ResolvedImport.inferred), true when one is exact */
  exact: boolean;
}

export interface SymbolRow {
  nodeId: string;
  name: string;
  kind: string;
  line: number;
  exported: boolean;
}

export interface ExternalRow {
  nodeId: string;
  package: string;
  specifier: string;
  kind: ImportKind;
  line: number;
}

export interface UnresolvedRow {
  nodeId: string;
  specifier: string;
  kind: ImportKind;
  reason: string;
  line: number;
}

export interface GraphRows {
  nodes: NodeRow[];
  edges: EdgeRow[];
  symbols: SymbolRow[];
  externals: ExternalRow[];
  unresolved: UnresolvedRow[];
}

export interface StoreMeta {
  storeFormatVersion: number;
  toolVersion: string;
  builtAt: string;
}

// ---------------------------------------------------------------- analysis

export interface Conventions {
  fileNaming: { style: string; share: number };
  moduleSystem: { style: string; share: number };
  exportStyle: { style: string; share: number };
  tests: { count: number; layout: string; pattern: string | null };
  folderRoles: Array<{ folder: string; role: string; files: number }>;
  /**
   * Per language, when the project has files of a language other than JS/TS: file count, the measured file naming
   * of its files and the naming its own guide asks for (LanguageModule.namingConvention), most files first.
   */
  languages?: Array<{
    language: string;
    name: string;
    files: number;
    naming: { style: string; share: number };
    expected: string | null;
    /** how its files reach each other (LanguageModule.moduleSystem); null: measured (`moduleSystem` above, JS/TS) */
    moduleSystem: string | null;
    /** its test files and their dominant name pattern (`test_*.py`, `*_test.go`) */
    tests: { count: number; pattern: string | null };
  }>;
}

export interface Hotspot {
  path: RelPath;
  id: string;
  direct: number;
  transitive: number;
}
