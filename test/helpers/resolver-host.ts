import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolverHost } from '../../engine/src/resolve/index.js';
import type { RelPath } from '../../engine/src/types.js';
import { diskResolverHost } from '../../engine/src/pipeline/project-state.js';

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

export interface TestHost extends ResolverHost {
  /** every readFile call, in order (to check caching) */
  reads: string[];
}

/**
 * A ResolverHost over a real folder on disk: `files` holds its JS/TS-family files (node_modules excluded, as the
 * scanner does), readFile/fileExists go to the disk.
 */
export function hostFromDir(root: string, opts: { exclude?: (rel: RelPath) => boolean } = {}): TestHost {
  const files = new Set<RelPath>();
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path.join(dir, entry.name), childRel);
      } else if (SOURCE.test(entry.name) && !opts.exclude?.(childRel)) {
        files.add(childRel);
      }
    }
  };
  walk(root, '');
  const disk = diskResolverHost(root, files);
  const reads: string[] = [];
  return {
    ...disk,
    reads,
    readFile(rel) {
      reads.push(rel);
      return disk.readFile(rel);
    },
  };
}

/** Writes a file tree into a fresh temp folder; returns its path and a cleanup function. */
export function writeTempTree(files: Record<string, string>): { root: string; cleanup: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'gsd-resolve-'));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
