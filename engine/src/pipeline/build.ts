import { mkdirSync } from 'node:fs';
import { readIntelConfig } from '../config.js';
import { importCounts, knownFactsOf, loadedFacts, makeRecord, reresolve } from '../graph/records.js';
import { readIndexDocument } from '../graph/index-document.js';
import { createParsePool } from '../parse/index.js';
import { intelPaths } from '../paths.js';
import { scanProject } from '../scan/index.js';
import { withLock } from '../store/index.js';
import type { FileRecord, LoadedFile, RelPath } from '../types.js';
import { TOOL_VERSION } from '../version.js';
import { perfMark } from '../perf.js';
import { BuildWriteError, writeAllArtifacts } from './artifacts.js';
import { configFileStamps, configListing, recordFacts, resolverFor, type ProjectState } from './project-state.js';
import { refreshStatusFacts } from './status.js';

export type BuildPhase = 'scan' | 'parse' | 'resolve' | 'write';

export interface BuildOptions {
  /** reuse the facts of files whose size and mtime did not change since the last build (default true) */
  cache?: boolean;
  threads?: number;
  /** leave index-facts.bin for `intel status` (default: from STATUS_FACTS_FROM_FILES files) */
  statusFacts?: boolean;
  /** write the entity pages on a writer thread (default: from PAGE_THREAD_FROM files in artifacts.ts, where it pays; tests force it) */
  pageThread?: boolean;
  onProgress?: (phase: BuildPhase, done: number, total: number) => void;
}

export interface BuildReport {
  root: string;
  files: number;
  parsed: number;
  reused: number;
  skipped: number;
  syntaxErrors: number;
  /** imports that resolved to a project file */
  imports: number;
  /** file-to-file edges those make (graph.db's edges rows) */
  edges: number;
  unresolved: number;
  builtAt: string;
  timings: Record<BuildPhase, number>;
}

/** from this many files a build leaves `intel status`'s sidecar (index-facts.bin) for the index.json it wrote */
const STATUS_FACTS_FROM_FILES = 10_000;

/** Builds (or rebuilds) the whole intelligence of a project into `.planning/intel/`. */
export async function buildIntel(root: string, options: BuildOptions = {}): Promise<BuildReport> {
  const paths = intelPaths(root);
  mkdirSync(paths.dir, { recursive: true });
  try {
    return await withLock(paths.lock, () => buildUnlocked(root, options), { timeoutMs: 120_000 });
  } catch (error) {
    // a full disk may show before the artefacts are written (the lock file): the same clear error, nothing replaced
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if ((code === 'ENOSPC' || code === 'EDQUOT') && !(error instanceof BuildWriteError)) throw new BuildWriteError(paths.dir, error);
    throw error;
  }
}

export async function buildUnlocked(root: string, options: BuildOptions = {}): Promise<BuildReport> {
  const progress = options.onProgress ?? (() => {});
  const timings: Record<BuildPhase, number> = { scan: 0, parse: 0, resolve: 0, write: 0 };
  let mark = performance.now();
  const perf = perfMark();
  const lap = (phase: BuildPhase) => {
    perf(`build: ${phase}`);
    const now = performance.now();
    timings[phase] = Math.round((now - mark) * 10) / 10;
    mark = now;
  };
  const config = readIntelConfig(root);
  const paths = intelPaths(root);
  const previous = new Map<RelPath, FileRecord>();
  if (options.cache !== false) {
    const old = readIndexDocument(paths.index);
    // facts extracted by another version of the tool may differ: parse everything again
    if (old.ok && old.header.toolVersion === TOOL_VERSION) {
      try {
        for (const [p, r] of old.records) previous.set(p, r);
      } catch {
        previous.clear(); // a corrupt record line: no cache, parse everything
      }
    }
  }
  progress('scan', 0, 1);
  // size and mtime only matter to reuse a file's facts: a first build needs none (the loader stats what it reads)
  // what the walk saw of config file names: stamping them then needs no stat per folder and name (presentConfigFiles)
  const listed = configListing();
  const scanned = await scanProject(root, config, { stats: previous.size > 0, onListed: listed.onListed });
  progress('scan', 1, 1);
  lap('scan');

  const toLoad: RelPath[] = [];
  const reused: FileRecord[] = [];
  for (const f of scanned) {
    const old = previous.get(f.path);
    if (old && old.size === f.size && old.mtimeMs === f.mtimeMs && old.skipped !== 'unreadable') reused.push(old);
    else toLoad.push(f.path);
  }
  const pool = createParsePool(root, { maxFileBytes: config.maxFileBytes, threads: options.threads, walked: true });
  let loaded;
  try {
    loaded = await pool.load(toLoad, (done, total) => progress('parse', done, total), knownFactsOf(previous, toLoad));
  } finally {
    await pool.close();
  }
  lap('parse');

  // files whose content hash matched their record were loaded but not parsed: they count as unchanged
  const parsed = loaded.filter((l) => !('reused' in l)).length;
  const loadedCount = loaded.length;
  // the resolver and its caches (a Go build's declared names per package: ~20 MB at 10,000 files) live only in
  // resolveAll's frame, so they are garbage before the write phase, whose peak sits on top of what is still live
  const state = resolveAll(root, config, scanned, loaded, reused, previous, listed);
  loaded = undefined;
  lap('resolve');

  const builtAt = new Date().toISOString();
  progress('write', 0, 1);
  const written = await writeAllArtifacts(state, builtAt, { pageThread: options.pageThread });
  progress('write', 1, 1);
  lap('write');
  // `intel status` after a large build reads index-facts.bin instead of splitting index.json (~0.3 s at 50,000 files,
  // ~2 % of that build); below STATUS_FACTS_FROM_FILES the split costs a status little and the refresh ~2 % of every
  // build (20 ms of lodash's 0.85 s). Updates then carry it along (noteFactsChange, carryStatusFacts). Best effort.
  if ((options.statusFacts ?? state.records.size >= STATUS_FACTS_FROM_FILES) && refreshStatusFacts(root)) perf('build: status facts');

  const { imports, edges, unresolved } = importCounts(state.records.values(), (r) => written.out.get(r.path) ?? []);
  const all = [...state.records.values()];
  return {
    root,
    files: state.records.size,
    parsed,
    reused: reused.length + loadedCount - parsed,
    skipped: all.filter((r) => r.skipped).length,
    syntaxErrors: all.filter((r) => r.syntaxError).length,
    imports,
    edges,
    unresolved,
    builtAt,
    timings,
  };
}

/**
 * Makes every file's record from what was loaded or reused, resolved against the whole project. Consumes `loaded`
 * (each entry dropped as its record is made, so a large build holds one copy) and clears `previous`.
 */
function resolveAll(
  root: string,
  config: ProjectState['config'],
  scanned: ReadonlyArray<{ path: RelPath }>,
  loaded: LoadedFile[],
  reused: readonly FileRecord[],
  previous: Map<RelPath, FileRecord>,
  listed: ReturnType<typeof configListing>,
): ProjectState {
  const files = new Set(scanned.map((f) => f.path));
  const records = new Map<RelPath, FileRecord>();
  // the parse facts of every file for the resolvers that read other files' declarations: its record once made, else
  // what was loaded of it, else the record reused (no copy of any)
  const fresh = new Map<RelPath, LoadedFile>();
  for (const l of loaded) fresh.set(l.path, l);
  const resolver = resolverFor(root, files, (rel) => {
    const made = records.get(rel);
    if (made) return recordFacts(made);
    const l = fresh.get(rel);
    return l ? loadedFacts(l, previous.get(rel)) : recordFacts(previous.get(rel));
  });
  for (const r of reused) records.set(r.path, reresolve(r, resolver));
  for (let i = 0; i < loaded.length; i++) {
    const l = loaded[i];
    records.set(l.path, makeRecord(l, previous.get(l.path), resolver, null));
    fresh.delete(l.path);
    (loaded as Array<unknown>)[i] = undefined;
  }
  previous.clear();
  return { root, config, records, configFiles: configFileStamps(root, resolver, records.keys(), listed.listing) };
}
