import { type Dirent, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createProjectResolver } from '../languages/resolver.js';
import { resolutionConfigNames } from '../languages/registry.js';
import type { ParseFacts } from '../resolve/host.js';
import type { Resolver, ResolverHost } from '../resolve/index.js';
import type { FileRecord, IntelConfig, RelPath } from '../types.js';

/** The in-memory picture of a project's index while the pipeline works on it. */
export interface ProjectState {
  root: string;
  config: IntelConfig;
  records: Map<RelPath, FileRecord>;
  configFiles: Record<RelPath, number>;
  /** the builtAt of the index.json the state was read from (none for a full build) */
  builtAt?: string;
}

function mtimeOf(root: string, rel: string): number {
  try {
    // most names looked for are absent: no error made for them (thousands of folders in a large project)
    return statSync(path.join(root, rel), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  } catch {
    return -1;
  }
}

/**
 * The resolver's view of a project on disk: the indexed file set, config files and assets read from `root`, and the
 * parse facts of the indexed files (`factsOf`: the records of the build or update under way, ResolverHost.factsOf).
 */
export function diskResolverHost(root: string, files: ReadonlySet<RelPath>, factsOf?: (rel: RelPath) => ParseFacts | null): ResolverHost {
  return {
    root,
    files,
    // most names a resolver probes for are absent (a packaging file in each of hundreds of folders): a stat that makes
    // no error for them first, since a failed read's error costs ~20 µs (Python's first resolve of Django's 200
    // folders: ~10 ms less)
    readFile(rel) {
      const file = path.join(root, rel);
      try {
        return statSync(file, { throwIfNoEntry: false }) ? readFileSync(file, 'utf8') : null;
      } catch {
        return null;
      }
    },
    fileExists(rel) {
      try {
        return statSync(path.join(root, rel), { throwIfNoEntry: false })?.isFile() ?? false;
      } catch {
        return false;
      }
    },
    ...(factsOf ? { factsOf } : {}),
  };
}

/** A resolver over the given file set (every language's, languages/resolver.ts), reading config files from disk. */
export function resolverFor(root: string, files: ReadonlySet<RelPath>, factsOf?: (rel: RelPath) => ParseFacts | null): Resolver {
  return createProjectResolver(diskResolverHost(root, files, factsOf));
}

/** The facts of a record for ResolverHost.factsOf: none for a skipped file. */
export const recordFacts = (r: FileRecord | undefined): ParseFacts | null => (r && r.skipped === null ? r : null);

/**
 * Files a resolver looks for by name, walking up from an importing file's folder: tsconfig and package scope for
 * JS/TS, each language module's `configFiles` (pyproject.toml, go.mod, Cargo.toml …).
 */
const LOOKED_UP: readonly string[] = resolutionConfigNames();

/** What a scan saw in a folder it listed (ScanOptions.onListed): the entries named as a config file, by name. */
export type FolderListing = (dir: string) => ReadonlyMap<string, Dirent> | undefined;

/**
 * The config files that exist now where the resolver would look for one by name: in the folder of an indexed file
 * or any folder above it, plus pnpm-workspace.yaml at the root. Stamping these too means a tsconfig.json or
 * package.json that appears later (a git pull, another editor) is noticed by the next catch-up, not only when a
 * hook reports it. Costs one stat per folder and name, except in folders a scan just listed (`listing`, `''` for the
 * root): there a name that is not listed is absent, and only a listed symbolic link needs a stat to say whether it
 * leads somewhere.
 */
export function presentConfigFiles(root: string, files: Iterable<RelPath>, listing?: FolderListing): RelPath[] {
  const dirs = new Set<string>();
  let last = '\u0000'; // the folder of the file before: a sorted list has each folder's files together
  for (const file of files) {
    const slash = file.lastIndexOf('/');
    if (slash < 0 ? last === '.' : slash === last.length && file.startsWith(last)) continue;
    let dir = slash < 0 ? '.' : file.slice(0, slash);
    last = dir;
    while (!dirs.has(dir)) {
      dirs.add(dir);
      if (dir === '.') break;
      dir = parentOf(dir);
    }
  }
  const present: RelPath[] = [];
  for (const dir of dirs) {
    const listed = listing?.(dir === '.' ? '' : dir);
    for (const name of LOOKED_UP) {
      const rel = dir === '.' ? name : `${dir}/${name}`;
      const entry = listed?.get(name);
      if (listed && (!entry || !entry.isSymbolicLink())) {
        if (entry) present.push(rel);
      } else if (mtimeOf(root, rel) !== -1) present.push(rel);
    }
  }
  if (mtimeOf(root, 'pnpm-workspace.yaml') !== -1) present.push('pnpm-workspace.yaml');
  return present;
}

/** path.posix.dirname of a clean relative path (`.` for a top-level name), without its normalising. */
function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '.' : rel.slice(0, slash);
}

/** The names presentConfigFiles looks for, for a scan that keeps what it saw of them (ScanOptions.onListed). */
export function configListing(): { onListed: (rel: string, entries: readonly Dirent[]) => void; listing: FolderListing } {
  const folders = new Map<string, Map<string, Dirent>>();
  return {
    onListed(rel, entries) {
      const named = new Map<string, Dirent>();
      for (const e of entries) if (LOOKED_UP.includes(e.name)) named.set(e.name, e);
      folders.set(rel, named);
    },
    listing: (dir) => folders.get(dir),
  };
}

/**
 * mtimes of every config file the resolver read, and of those present where it looks (presentConfigFiles), to
 * notice later that resolution must be redone.
 */
export function configFileStamps(root: string, resolver: Resolver, files: Iterable<RelPath>, listing?: FolderListing): Record<RelPath, number> {
  const stamps: Record<RelPath, number> = {};
  for (const rel of [...new Set([...resolver.configFiles(), ...presentConfigFiles(root, files, listing)])].sort()) stamps[rel] = mtimeOf(root, rel);
  return stamps;
}

/** Config files present where the resolver looks that the stamps do not know: each can change how imports resolve. */
export function newConfigFiles(root: string, files: Iterable<RelPath>, stamps: Record<RelPath, number>, listing?: FolderListing): RelPath[] {
  return presentConfigFiles(root, files, listing).filter((rel) => !(rel in stamps));
}

/** True when a config file that steered resolution changed, appeared or disappeared since the stamps were taken. */
export function configFilesChanged(root: string, stamps: Record<RelPath, number>): boolean {
  return Object.entries(stamps).some(([rel, mtime]) => mtimeOf(root, rel) !== mtime);
}
