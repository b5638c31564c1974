/**
 * The public surface of the engine. Hooks, the MCP server and the CLI import only this file.
 * The pipeline (parse workers, resolver, sql.js writer) loads lazily, inside the functions that need it.
 */
import type { BuildOptions, BuildReport } from './pipeline/build.js';
import type { RefreshOptions, RefreshReport, UpdateReport } from './pipeline/update.js';

export type * from './types.js';
export type { BuildOptions, BuildReport, BuildPhase } from './pipeline/build.js';
export type { UpdateReport, RefreshReport, RefreshOptions } from './pipeline/update.js';
export { STORE_FORMAT_VERSION, TOOL_VERSION } from './version.js';
export { intelPaths } from './paths.js';
/** how readers and caches name a version of a file: device, inode, size, mtime (writers keep it unique: store/atomic-write.ts) */
export { fileIdentity } from './graph/lazy-records.js';
export { findProjectRoot } from './root.js';
export { entityId, looksLikeEntityId, toRelPath } from './ids.js';
export { readIntelConfig, ConfigError, defaultConfig } from './config.js';
/** the planning domain (state store, leases, spawn rules, skills, key-value state): see docs/planning.md */
export * from './planning/index.js';
export { globMatcher } from './scan/glob.js';
import { openIntel as openReader, type IntelReader as Reader } from './query/index.js';
import { StoreError } from './store/errors.js';

export {
  IntelReader,
  UnknownFileError,
  blastRadius,
  hotspots,
  dependentCounts,
  searchIntel,
  entryPoints,
  folderConventions,
  dependencies,
  importPath,
  definitions,
  type Definition,
  type DefinitionHow,
  type BlastRadius,
  type AffectedFile,
  type SearchHit,
  type SearchResult,
  type Dependencies,
  type ImportPath,
  type FolderConventions,
  type NodeInfo,
  type EdgeInfo,
} from './query/index.js';

/** Builds the whole intelligence of `root` into `.planning/intel/`. */
export async function buildIntel(root: string, options?: BuildOptions): Promise<BuildReport> {
  const { buildIntel: build } = await import('./pipeline/build.js');
  return build(root, options);
}

/** Brings single files (absolute or root-relative) up to date, or removes them when they are gone. */
export async function updateIntel(root: string, files: string[]): Promise<UpdateReport> {
  const { updateIntel: update } = await import('./pipeline/update.js');
  return update(root, files);
}

/** Catches up with every change made since the last run (stat-based), or builds when there is no index yet. */
export async function refreshIntel(root: string, options?: RefreshOptions): Promise<RefreshReport> {
  const { refreshIntel: refresh } = await import('./pipeline/update.js');
  return refresh(root, options);
}

export type { IntelStatus } from './pipeline/status.js';

/**
 * What is indexed, when, and what changed on disk since. `ownsProcess`: the caller is a CLI process with nothing else
 * to do meanwhile, so the scan may move the working directory (ScanOptions.ownsProcess); never set it in a server.
 */
export async function intelStatus(root: string, options?: { ownsProcess?: boolean }): Promise<import('./pipeline/status.js').IntelStatus> {
  const { intelStatus: status } = await import('./pipeline/status.js');
  return status(root, options);
}

/**
 * Carries `intel status`'s sidecar to the index.json this process's last update of `root` wrote (the hooks' worker,
 * once its drain released the lock): ~80 ms at 50,000 files instead of splitting index.json again.
 */
export async function carryStatusFacts(root: string): Promise<boolean> {
  const { carryStatusFacts: carry } = await import('./pipeline/status.js');
  return carry(root);
}

/** Brings `intel status`'s sidecar up to date with index.json when an update replaced it (the hooks' worker, idle). */
export async function refreshStatusFacts(root: string): Promise<boolean> {
  const { refreshStatusFacts: refresh } = await import('./pipeline/status.js');
  return refresh(root);
}

/**
 * Opens a project's graph.db for queries. A graph.db that is corrupt or of another format is rewritten from
 * index.json first (or everything is rebuilt when index.json is unusable too).
 */
export async function openIntel(root: string): Promise<Reader> {
  try {
    return await openReader(root);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const { repairGraph } = await import('./pipeline/repair.js');
    await repairGraph(root);
    return openReader(root);
  }
}

export type { GraphViewOptions, GraphViewReport } from './view/page.js';

/**
 * Writes the interactive graph page (module graph by folder, hotspots, blast radius, search) for the project of
 * `reader` and returns its path; loaded lazily (the page carries ~0.6 MB of inlined script).
 */
export async function writeGraphView(reader: Reader, options?: import('./view/page.js').GraphViewOptions): Promise<import('./view/page.js').GraphViewReport> {
  const { writeGraphView: write } = await import('./view/page.js');
  return write(reader, options);
}

export { appendJournal, hasPendingJournal, journalFiles, journalPath, type JournalEntry } from './journal.js';
export type { DrainReport } from './pipeline/drain.js';

/** Applies the changes hooks recorded in the journal (see journal.ts); cheap to call when there are none. */
export async function drainJournal(root: string, options?: { timeoutMs?: number }): Promise<import('./pipeline/drain.js').DrainReport | null> {
  const { hasPendingJournal: pending } = await import('./journal.js');
  if (!pending(root)) return null;
  const { drainJournal: drain } = await import('./pipeline/drain.js');
  return drain(root, options);
}

/**
 * For a process that lives on between edits (the hooks' worker): compiles sql.js and keeps `root`'s index.json
 * split in memory (pipeline/warm-state.ts), so that the next update starts warm. Cheap when that is done already.
 */
export async function warmUpdates(root: string): Promise<void> {
  const { warmUpdates: warm } = await import('./pipeline/update.js');
  return warm(root);
}

export type { FollowOptions } from './pipeline/follow.js';

/** Applies `root`'s journal and waits for more, for the holder of its worker role (pipeline/follow.ts). */
export async function followJournal(root: string, options: import('./pipeline/follow.js').FollowOptions): Promise<void> {
  const { followJournal: follow } = await import('./pipeline/follow.js');
  return follow(root, options);
}

export { claimForSelf, releasePidFile } from './worker-role.js';
