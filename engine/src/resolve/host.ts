import type { ImportKind, ImportRecord, RelPath, Resolution, ResolvedImport, SymbolRecord } from '../types.js';

/** What the parse stage read of one file, as its record holds it (a stored record's imports carry their resolutions too). */
export interface ParseFacts {
  symbols: readonly SymbolRecord[];
  imports: readonly ImportRecord[];
  /**
   * False when no import of the file has the field `field`, told without decoding the imports (a stored record read
   * for its facts, LazyRecords.peekFacts): for a reader of every file that looks for a rare kind of import (C#'s
   * `global using`). Absent, or true: look at the imports.
   */
  importsMayHave?(field: string): boolean;
}

/** What the resolver may see of the project. */
export interface ResolverHost {
  /** absolute project root */
  root: string;
  /** the indexed source files (scan result), project-relative with `/` separators */
  files: ReadonlySet<RelPath>;
  /** project-relative path (may contain `..` or go into node_modules); null if absent */
  readFile(rel: string): string | null;
  /** any file on disk, project-relative */
  fileExists(rel: string): boolean;
  /**
   * The parse facts of an indexed file: its symbols and imports as the parse stage read them (the record of the
   * build or update under way, else the stored one); null for a file with none (skipped: too large, binary).
   * A resolver that binds names to the files declaring them (C#, Go) reads other files' declarations here, never
   * from their text. Absent on a host that shows paths only.
   */
  factsOf?(rel: RelPath): ParseFacts | null;
}

export interface Resolver {
  resolve(specifier: string, from: RelPath, kind: ImportKind): Resolution;
  /**
   * Every file one import statement of `from` reaches, as the record's imports hold them: the statement itself with
   * its first target, then one entry per further target (`part` 1, 2 …; see ResolvedImport). Present on the
   * project resolver (languages/resolver.ts), which sends each file's imports to its language's module.
   */
  resolveImport?(imp: ImportRecord, from: RelPath): ResolvedImport[];
  /** project-relative paths of every config file the resolver read (tsconfig/jsconfig chain, package.json files, pnpm-workspace.yaml) */
  configFiles(): RelPath[];
  /**
   * Drops the resolutions memoised so far (they may name asset files on disk), keeping the config files read and
   * the workspace map: for a resolver reused across updates while the file set and the config files stay the same.
   */
  forgetResults(): void;
}
