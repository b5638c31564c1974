import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createResolver, type Resolver, type ResolverHost } from '../resolve/index.js';
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
    return statSync(path.join(root, rel)).mtimeMs;
  } catch {
    return -1;
  }
}

/** The resolver's view of a project on disk: the indexed file set, config files and assets read from `root`. */
export function diskResolverHost(root: string, files: ReadonlySet<RelPath>): ResolverHost {
  return {
    root,
    files,
    readFile(rel) {
      try {
        return readFileSync(path.join(root, rel), 'utf8');
      } catch {
        return null;
      }
    },
    fileExists(rel) {
      try {
        return statSync(path.join(root, rel)).isFile();
      } catch {
        return false;
      }
    },
  };
}

/** A resolver over the given file set, reading config files from disk. */
export function resolverFor(root: string, files: ReadonlySet<RelPath>): Resolver {
  return createResolver(diskResolverHost(root, files));
}

/** Files the resolver looks for by name, walking up from an importing file's folder (tsconfig, package scope). */
const LOOKED_UP = ['package.json', 'tsconfig.json', 'jsconfig.json'] as const;

/**
 * The config files that exist now where the resolver would look for one by name: in the folder of an indexed file
 * or any folder above it, plus pnpm-workspace.yaml at the root. Stamping these too means a tsconfig.json or
 * package.json that appears later (a git pull, another editor) is noticed by the next catch-up, not only when a
 * hook reports it. Costs one stat per folder and name.
 */
export function presentConfigFiles(root: string, files: Iterable<RelPath>): RelPath[] {
  const dirs = new Set<string>();
  for (const file of files) {
    let dir = path.posix.dirname(file);
    while (!dirs.has(dir)) {
      dirs.add(dir);
      if (dir === '.') break;
      dir = path.posix.dirname(dir);
    }
  }
  const present: RelPath[] = [];
  for (const dir of dirs) {
    for (const name of LOOKED_UP) {
      const rel = dir === '.' ? name : `${dir}/${name}`;
      if (mtimeOf(root, rel) !== -1) present.push(rel);
    }
  }
  if (mtimeOf(root, 'pnpm-workspace.yaml') !== -1) present.push('pnpm-workspace.yaml');
  return present;
}

/**
 * mtimes of every config file the resolver read, and of those present where it looks (presentConfigFiles), to
 * notice later that resolution must be redone.
 */
export function configFileStamps(root: string, resolver: Resolver, files: Iterable<RelPath>): Record<RelPath, number> {
  const stamps: Record<RelPath, number> = {};
  for (const rel of [...new Set([...resolver.configFiles(), ...presentConfigFiles(root, files)])].sort()) stamps[rel] = mtimeOf(root, rel);
  return stamps;
}

/** Config files present where the resolver looks that the stamps do not know: each can change how imports resolve. */
export function newConfigFiles(root: string, files: Iterable<RelPath>, stamps: Record<RelPath, number>): RelPath[] {
  return presentConfigFiles(root, files).filter((rel) => !(rel in stamps));
}

/** True when a config file that steered resolution changed, appeared or disappeared since the stamps were taken. */
export function configFilesChanged(root: string, stamps: Record<RelPath, number>): boolean {
  return Object.entries(stamps).some(([rel, mtime]) => mtimeOf(root, rel) !== mtime);
}
