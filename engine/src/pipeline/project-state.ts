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

/** mtimes of every config file the resolver read, to notice later that resolution must be redone. */
export function configFileStamps(root: string, resolver: Resolver): Record<RelPath, number> {
  const stamps: Record<RelPath, number> = {};
  for (const rel of [...resolver.configFiles()].sort()) stamps[rel] = mtimeOf(root, rel);
  return stamps;
}

/** True when a config file that steered resolution changed, appeared or disappeared since the stamps were taken. */
export function configFilesChanged(root: string, stamps: Record<RelPath, number>): boolean {
  return Object.entries(stamps).some(([rel, mtime]) => mtimeOf(root, rel) !== mtime);
}
