import { existsSync, statSync } from 'node:fs';
import { readIntelConfig } from '../config.js';
import { readIndexFacts } from '../graph/index-facts.js';
import { intelPaths } from '../paths.js';
import { scanProject } from '../scan/index.js';
import type { RelPath } from '../types.js';
import { TOOL_VERSION } from '../version.js';
import { configFilesChanged, newConfigFiles } from './project-state.js';

export interface IntelStatus {
  root: string;
  state: 'missing' | 'corrupt' | 'format-mismatch' | 'fresh' | 'stale';
  detail?: string;
  builtAt?: string;
  toolVersion?: string;
  files?: number;
  /** imports that resolved to a project file, and the file-to-file edges they make */
  imports?: number;
  edges?: number;
  unresolved?: number;
  skipped?: number;
  syntaxErrors?: number;
  graphDbBytes?: number;
  /** what a refresh would pick up */
  pending?: { added: RelPath[]; changed: RelPath[]; removed: RelPath[]; configChanged: boolean; /** built by another version: the next update rebuilds */ otherVersion: boolean };
}

/** What is indexed, when, and what changed on disk since then. */
export async function intelStatus(root: string): Promise<IntelStatus> {
  const paths = intelPaths(root);
  const read = readIndexFacts(paths.index);
  if (!read.ok) return { root, state: read.reason === 'missing' ? 'missing' : read.reason, detail: read.detail };
  const { header, files } = read.facts;
  const scanned = await scanProject(root, readIntelConfig(root));
  const added: RelPath[] = [];
  const changed: RelPath[] = [];
  const seen = new Set<RelPath>();
  for (const f of scanned) {
    seen.add(f.path);
    const r = files.get(f.path);
    if (!r) added.push(f.path);
    else if (r.size !== f.size || r.mtimeMs !== f.mtimeMs) changed.push(f.path);
  }
  const removed = [...files.values()].map((r) => r.path).filter((p) => !seen.has(p));
  const configChanged = configFilesChanged(root, header.configFiles) || newConfigFiles(root, seen, header.configFiles).length > 0;
  const otherVersion = header.toolVersion !== TOOL_VERSION;
  const stale = added.length + changed.length + removed.length > 0 || configChanged || otherVersion;
  const { imports, edges, unresolved, skipped, syntaxErrors } = read.facts;
  return {
    root,
    state: stale ? 'stale' : 'fresh',
    builtAt: header.builtAt,
    toolVersion: header.toolVersion,
    files: files.size,
    imports,
    edges,
    unresolved,
    skipped,
    syntaxErrors,
    graphDbBytes: existsSync(paths.graph) ? statSync(paths.graph).size : 0,
    pending: { added, changed, removed, configChanged, otherVersion },
  };
}
