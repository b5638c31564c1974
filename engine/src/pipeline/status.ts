import { existsSync, statSync } from 'node:fs';
import { languageOf } from '../languages/registry.js';
import { readIntelConfig } from '../config.js';
import { currentIdentity, readFactsSidecar, sidecarBelongsTo, writeFactsSidecar } from '../graph/facts-sidecar.js';
import type { IndexHeader } from '../graph/index-document.js';
import { followFacts, type IndexFacts, type IndexFactsResult, readIndexFacts, type RecordChange } from '../graph/index-facts.js';
import { intelPaths } from '../paths.js';
import { perfMark } from '../perf.js';
import { scanProject } from '../scan/index.js';
import type { RelPath, ScannedFile } from '../types.js';
import { TOOL_VERSION } from '../version.js';
import { configFilesChanged, configListing, newConfigFiles } from './project-state.js';
import { readSummaryState } from './summary-state.js';

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
  /** indexed files per language (`python`, `typescript` …), most first */
  languages?: Record<string, number>;
  /** what a refresh would pick up */
  pending?: { added: RelPath[]; changed: RelPath[]; removed: RelPath[]; configChanged: boolean; /** built by another version: the next update rebuilds */ otherVersion: boolean };
}

/**
 * The edges of the index `facts` were read from, as summary-state.json knows them: only when it was written with
 * that index.json (same builtAt) and agrees with it on every count both have; else null (a process that died between
 * the two writes, another version's state, a hand edit).
 */
function knownEdges(file: string, facts: IndexFacts): number | null {
  const view = readSummaryState(file, facts.header.builtAt)?.view;
  if (!view || typeof view.edgeCount !== 'number') return null;
  const agrees =
    view.fileCount === facts.keys.length &&
    view.unresolvedCount === facts.unresolved &&
    view.skippedCount === facts.skipped &&
    view.syntaxErrorCount === facts.syntaxErrors;
  return agrees ? view.edgeCount : null;
}

/**
 * index.json's facts: from its sidecar while index.json is the file the sidecar was read from; else by the quick
 * pass, with the edges summary-state.json knows (or a full read when it does not), and the sidecar written for the
 * next time.
 */
function readFacts(paths: ReturnType<typeof intelPaths>): IndexFactsResult & { how?: string } {
  const identity = currentIdentity(paths.index);
  const cached = identity === null ? null : readFactsSidecar(paths.indexFacts, identity);
  if (cached) return { ok: true, facts: cached, identity, how: 'sidecar' };
  let read = readIndexFacts(paths.index, { edges: false });
  if (!read.ok) return read;
  const edges = knownEdges(paths.summaryState, read.facts);
  if (edges === null) {
    read = readIndexFacts(paths.index);
    if (!read.ok) return read;
  } else read.facts.edges = edges;
  if (read.identity !== null) writeFactsSidecar(paths.indexFacts, read.identity, read.facts);
  return { ...read, how: edges === null ? 'index.json read whole' : 'index.json split, edges from summary-state.json' };
}

/**
 * Brings index-facts.bin up to date with index.json when it belongs to another one (an update wrote index.json since),
 * so that the next `intel status` reads the sidecar rather than splitting index.json. The hooks' worker calls it
 * once a burst of edits has settled; returns whether it read index.json. Best effort: never throws.
 */
export function refreshStatusFacts(root: string): boolean {
  try {
    const paths = intelPaths(root);
    const identity = currentIdentity(paths.index);
    if (identity === null || sidecarBelongsTo(paths.indexFacts, identity)) return false;
    readFacts(paths);
    return true;
  } catch {
    return false;
  }
}

/** per project, how to carry index-facts.bin to the index.json the last update wrote (noteFactsChange) */
const carries = new Map<string, () => boolean>();

/**
 * For an update that replaced index.json, under the lock, right after the write: when index-facts.bin described the
 * index.json it replaced (`previous`, that file's identity, taken before the write), notes how to carry it to the new
 * one by the changed records' difference (followFacts: ~80 ms at 50,000 files, against ~330 ms to split index.json).
 * The hooks' worker does it once the lock is released (carryStatusFacts), so the edit does not wait for it; a note
 * nobody carries is replaced by the project's next one. Best effort: never throws.
 */
export function noteFactsChange(root: string, previous: string | null, header: IndexHeader, changes: RecordChange[]): void {
  try {
    const paths = intelPaths(root);
    const written = currentIdentity(paths.index);
    if (previous === null || written === null || written === previous || !sidecarBelongsTo(paths.indexFacts, previous)) {
      carries.delete(root);
      return;
    }
    carries.set(root, () => {
      const lap = perfMark();
      const old = readFactsSidecar(paths.indexFacts, previous);
      if (!old) return false;
      // named for the index.json this update wrote: if another writer replaced it since, the next status ignores it
      writeFactsSidecar(paths.indexFacts, written, followFacts(old, header, changes));
      lap(`index-facts.bin carried to the new index.json (${old.keys.length} files)`);
      return true;
    });
  } catch {
    carries.delete(root);
  }
}

/** Carries index-facts.bin to the index.json of this process's last update of `root`, if noted; whether it did. */
export function carryStatusFacts(root: string): boolean {
  const carry = carries.get(root);
  carries.delete(root);
  try {
    return carry?.() ?? false;
  } catch {
    return false;
  }
}

/**
 * What is indexed, when, and what changed on disk since then: index.json's keys, sizes and mtimes against a scan,
 * merged in their common sorted order. The edges come from summary-state.json when it belongs to this index.json,
 * else from the records (a second, slower read of index.json).
 */
export async function intelStatus(root: string, options: { /** the caller owns its process (the CLI): see ScanOptions.ownsProcess */ ownsProcess?: boolean } = {}): Promise<IntelStatus> {
  const lap = perfMark();
  const paths = intelPaths(root);
  const read = readFacts(paths);
  if (!read.ok) return { root, state: read.reason === 'missing' ? 'missing' : read.reason, detail: read.detail };
  const facts = read.facts;
  const { header, keys, stats } = facts;
  lap(`status: index.json's facts (${read.how})`);
  const config = configListing();
  const scanned = await scanProject(root, readIntelConfig(root), { onListed: config.onListed, ownsProcess: options.ownsProcess });
  lap(`status: scan (${scanned.length} files)`);
  const added: RelPath[] = [];
  const changed: RelPath[] = [];
  const removed: RelPath[] = [];
  // both lists are sorted by path (`<`): one merge finds what was added, changed and removed
  let i = 0;
  let k = 0;
  while (i < scanned.length || k < keys.length) {
    const f = scanned[i];
    const key = keys[k];
    if (k === keys.length || (i < scanned.length && f.path < key)) {
      added.push(f.path);
      i++;
    } else if (i === scanned.length || key < f.path) {
      // listed by the record's own path (its key unless hand-edited), when that is not on disk either
      const own = facts.paths.get(k) ?? key;
      if (own === key || !isScanned(scanned, own)) removed.push(own);
      k++;
    } else {
      if (stats[2 * k] !== f.size || stats[2 * k + 1] !== f.mtimeMs) changed.push(f.path);
      const own = facts.paths.get(k);
      if (own !== undefined && !isScanned(scanned, own)) removed.push(own);
      i++;
      k++;
    }
  }
  const files = scanned.map((f) => f.path);
  const configChanged = configFilesChanged(root, header.configFiles) || newConfigFiles(root, files, header.configFiles, config.listing).length > 0;
  lap('status: compared, config files checked');
  const otherVersion = header.toolVersion !== TOOL_VERSION;
  const stale = added.length + changed.length + removed.length > 0 || configChanged || otherVersion;
  const { imports, unresolved, skipped, syntaxErrors } = facts;
  return {
    root,
    state: stale ? 'stale' : 'fresh',
    builtAt: header.builtAt,
    toolVersion: header.toolVersion,
    files: keys.length,
    imports,
    edges: facts.edges,
    unresolved,
    skipped,
    syntaxErrors,
    graphDbBytes: existsSync(paths.graph) ? statSync(paths.graph).size : 0,
    languages: languageCounts(keys),
    pending: { added, changed, removed, configChanged, otherVersion },
  };
}

/** Indexed files per language, by their names' last endings (one registry lookup per distinct ending: `.d.ts` is a `.ts`). */
function languageCounts(keys: readonly RelPath[]): Record<string, number> {
  const byEnding = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const key of keys) {
    const ending = key.slice(key.lastIndexOf('.'));
    let id = byEnding.get(ending);
    if (id === undefined) {
      id = languageOf(key)?.id ?? 'other';
      byEnding.set(ending, id);
    }
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** True when the sorted scan lists `rel` (binary search). */
function isScanned(scanned: readonly ScannedFile[], rel: RelPath): boolean {
  let lo = 0;
  let hi = scanned.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const p = scanned[mid].path;
    if (p === rel) return true;
    if (p < rel) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
