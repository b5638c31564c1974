import type { ImportKind, ImportRecord, RelPath, Resolution, ResolvedImport } from '../types.js';

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
   * A stamp of the file's content (size and mtime), null when absent: lets a resolver that reads many files' text
   * (C#'s declared types) keep what it read of an unchanged file from one resolver to the next. Optional.
   */
  stampOf?(rel: string): string | null;
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
