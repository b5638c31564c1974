import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { rankByDependents } from '../graph/adjacency.js';
import { detectConventions } from '../graph/conventions.js';
import { rankEntryPoints } from '../graph/entry-points.js';
import { edgesOf, rowsOf, type FileEdge } from '../graph/records.js';
import { indexChunks } from '../graph/index-document.js';
import { LazyRecords } from '../graph/lazy-records.js';
import { intelPaths } from '../paths.js';
import { patchGraphDb, stageGraphDb, stageFile, writeFully, writeFileAtomic, writePagesSync, PageStage, renderEntity, renderSummary, readEntityPurpose, type StagedFile } from '../store/index.js';
import { sha1Hex } from '../hash.js';
import type { FileRecord, GraphRows, Hotspot, RelPath, StoreMeta } from '../types.js';
import { STORE_FORMAT_VERSION, TOOL_VERSION } from '../version.js';
import { generatedPurpose } from '../graph/classify.js';
import { entityId } from '../ids.js';
import { collectGarbage } from '../memory.js';
import { perfMark } from '../perf.js';
import { pidAlive } from '../process-alive.js';
import type { ProjectState } from './project-state.js';
import { applyRecordChanges, countersOf, readSummaryState, type SummaryFacts, type SummaryState } from './summary-state.js';

/**
 * What a change did to summary.md: nothing it shows ('same'), only counts a file's content adds to (module system,
 * export style, skipped, syntax errors: 'counts'), or edges or files ('all').
 */
export type SummaryChange = 'same' | 'counts' | 'all';

export interface EdgeIndex {
  out: Map<RelPath, FileEdge[]>;
  in: Map<RelPath, FileEdge[]>;
}

export function edgeIndex(records: Map<RelPath, FileRecord>): EdgeIndex {
  const out = new Map<RelPath, FileEdge[]>();
  const inn = new Map<RelPath, FileEdge[]>();
  for (const r of records.values()) {
    const edges = edgesOf(r);
    out.set(r.path, edges);
    for (const e of edges) {
      const list = inn.get(e.target);
      if (list) list.push(e);
      else inn.set(e.target, [e]);
    }
  }
  return { out, in: inn };
}

/** Above this many pages to render, the dependents are found by parsing every record rather than by a byte search each. */
const SEARCHED_PATHS = 16;

/**
 * The edges the entity pages of `paths` show: their own, and every edge that points at one of them. For an index
 * read lazily the importers are found without parsing every record: a native search of the raw index bytes for
 * `"resolved":{"kind":"file","path":"<path>"}` (which cannot occur inside a JSON string, whose quotes are escaped),
 * then the candidate records are parsed and their edges checked; records parsed already are checked directly.
 */
export function edgesAround(records: Map<RelPath, FileRecord>, paths: ReadonlySet<RelPath>): EdgeIndex {
  if (!(records instanceof LazyRecords) || paths.size > SEARCHED_PATHS) return edgeIndex(records);
  const out = new Map<RelPath, FileEdge[]>();
  const inn = new Map<RelPath, FileEdge[]>();
  for (const p of paths) {
    const r = records.get(p);
    if (r) out.set(p, edgesOf(r));
    inn.set(p, []);
  }
  const found = records.rawContaining([...paths].map((p) => Buffer.from(`"resolved":{"kind":"file","path":${JSON.stringify(p)}}`)));
  records.getMany(found);
  for (const source of [...records.parsedKeys()]) {
    for (const e of edgesOf(records.get(source)!)) if (paths.has(e.target)) inn.get(e.target)!.push(e);
  }
  return { out, in: inn };
}

/**
 * If the entity file of a record has a Purpose that a person or an agent wrote, the record takes it over
 * (and gives it back when the section is reset to the generated text).
 */
export function absorbManualPurpose(root: string, record: FileRecord, seen?: (id: string, text: string) => void, onDisk?: ReadonlySet<string>): FileRecord {
  // a first build has no pages: one directory listing instead of a failed open per file
  if (onDisk && !onDisk.has(`${record.id}.md`)) return record;
  let text: string;
  try {
    text = readFileSync(path.join(intelPaths(root).entities, `${record.id}.md`), 'utf8');
  } catch {
    return record;
  }
  seen?.(record.id, text);
  const found = readEntityPurpose(text);
  if (found?.manual && found.purpose.trim()) {
    const purpose = found.purpose.trim();
    if (record.purposeSource === 'manual' && record.purpose === purpose) return record;
    return { ...record, purpose, purposeSource: 'manual' };
  }
  if (record.purposeSource === 'manual' && found && !found.manual) {
    const purpose = generatedPurpose(record.path, record.type, record.docComment, record.exports, record.imports);
    return { ...record, purpose, purposeSource: 'generated' };
  }
  return record;
}

export function hotspotsOf(records: Map<RelPath, FileRecord>, edges: EdgeIndex): Hotspot[] {
  const nodes = [...records.values()].map((r) => ({ key: r.path, path: r.path, id: r.id }));
  const all: Array<{ source: RelPath; target: RelPath }> = [];
  for (const list of edges.out.values()) for (const e of list) all.push(e);
  return rankByDependents(nodes, all).filter((h) => h.direct > 0);
}

export function entryPointsOf(records: Map<RelPath, FileRecord>, edges: EdgeIndex): RelPath[] {
  const candidates = [...records.values()].map((r) => ({
    path: r.path,
    type: r.type,
    dependents: edges.in.get(r.path)?.length ?? 0,
    dependencies: edges.out.get(r.path)?.length ?? 0,
  }));
  return rankEntryPoints(candidates).map((c) => c.path);
}

/**
 * `idOf`: the entity id of an indexed file, '' for one that is not. A full build reads it off its records (made by
 * makeRecord: entityId of the path); an update computes it, so that no other record is decoded for it.
 */
function entityText(state: ProjectState, record: FileRecord, edges: EdgeIndex, updated: string, idOf: (p: RelPath) => string): string {
  const group = (list: FileEdge[], pick: (e: FileEdge) => RelPath) => {
    const byPath = new Map<RelPath, Set<string>>();
    for (const e of list) {
      const p = pick(e);
      const kinds = byPath.get(p) ?? new Set<string>();
      kinds.add(e.kind);
      byPath.set(p, kinds);
    }
    return [...byPath.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([p, kinds]) => ({ path: p, id: idOf(p), kinds: [...kinds].sort() }));
  };
  const externals = [...new Set(record.imports.flatMap((i) => (i.resolved.kind === 'external' ? [i.resolved.package] : [])))].sort();
  const unresolved = record.imports.flatMap((i) => (i.resolved.kind === 'unresolved' ? [{ specifier: i.specifier, reason: i.resolved.reason }] : []));
  return renderEntity({
    record,
    dependencies: group(edges.out.get(record.path) ?? [], (e) => e.target),
    dependents: group(edges.in.get(record.path) ?? [], (e) => e.source),
    externals,
    unresolved,
    updated,
  });
}

/** Everything summary.md shows but the project's name and the time, computed from every record. */
function summaryFactsOf(state: ProjectState, edges: EdgeIndex): SummaryFacts {
  const records = [...state.records.values()];
  let edgeCount = 0;
  for (const list of edges.out.values()) edgeCount += list.length;
  return {
    fileCount: records.length,
    edgeCount,
    externalCount: new Set(records.flatMap((r) => r.imports.flatMap((i) => (i.resolved.kind === 'external' ? [i.resolved.package] : [])))).size,
    unresolvedCount: records.reduce((n, r) => n + r.imports.filter((i) => i.resolved.kind === 'unresolved').length, 0),
    skippedCount: records.filter((r) => r.skipped).length,
    syntaxErrorCount: records.filter((r) => r.syntaxError).length,
    hotspots: hotspotsOf(state.records, edges).slice(0, 10),
    entryPoints: entryPointsOf(state.records, edges).slice(0, 8),
    conventions: detectConventions(records),
  };
}

/** summary.md and the state it was computed from (summary-state.ts), from every record. */
function fullSummary(state: ProjectState, edges: EdgeIndex, builtAt: string): SummaryState {
  return { builtAt, view: summaryFactsOf(state, edges), ...countersOf(state.records.values()) };
}

function summaryText(state: ProjectState, summary: SummaryState): string {
  return renderSummary({ root: path.basename(state.root), builtAt: summary.builtAt, ...summary.view });
}

function meta(builtAt: string): StoreMeta {
  return { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt };
}

/** Writes index.json (an incremental update; a full build stages it in chunks, writeAllArtifacts). */
export async function writeIndexDocument(state: ProjectState, builtAt: string): Promise<void> {
  // not fsynced: rename keeps it whole, and after a power cut an older index only means a file is re-parsed again
  stageIndexDocument(state, builtAt).commit();
}

/** index.json staged beside its place, in chunks: untouched lines copied from the index read (indexChunks). */
function stageIndexDocument(state: ProjectState, builtAt: string): StagedFile {
  return stageFile(intelPaths(state.root).index, (fd) => {
    for (const chunk of indexChunks(state.records, state.configFiles, builtAt)) writeFully(fd, chunk);
  });
}

/** The names in the entity folder, or null when there is no folder yet (a first build). */
function entityFolderListing(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** `.<name>.<pid>.<hex>.tmp`: a temp file or staging folder (atomic-write.ts, page-writer.ts). */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/;

/**
 * Removes what a build or update that died on the way (killed, out of memory) left in `dir`: temp files and staging
 * folders of processes that are gone. Called under the lock, so no live writer of this project owns them.
 */
function removeStaleTemps(dir: string, names: string[]): void {
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (m && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]))) rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/** What a page says, its `updated:` stamp aside, as a digest: a rebuild compares pages without holding them all. */
const pageDigest = (text: string): string => sha1Hex(text.replace(UPDATED_LINE, ''));

/**
 * From this many files a full build writes its entity pages on a writer thread (PageStage). Below, the thread's start
 * (~20 ms, then its first pages) is not won back: an 850-file build was as fast either way, a 1-file build waited
 * ~40 ms for it; 5,000 files took ~5 % off, 50,000 ~10 % (ARCHITECTURE.md, "Where the second core already goes").
 */
const PAGE_THREAD_FROM = 2_000;

/** A full build that could not write its artefacts: the previous ones are left as they were. */
export class BuildWriteError extends Error {
  readonly code: string | undefined;
  constructor(dir: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | null)?.code;
    const what = code === 'ENOSPC' ? 'out of disk space' : code === 'EDQUOT' ? 'over the disk quota' : String((cause as Error)?.message ?? cause);
    super(`could not write the intelligence in ${dir}: ${what}; the previous intelligence was left as it was`, { cause });
    this.name = 'BuildWriteError';
    this.code = code;
  }
}

/**
 * Writes all four artefacts from scratch and removes entity files of files that are gone. Returns the edges it wrote.
 *
 * Bounded memory, all or nothing: entity pages are written as they are rendered, graph.db a window of pages at a
 * time and index.json in chunks, each into a temp file or staging folder beside its target; only when every one of
 * them is written are they put in place (renames, which need no space), index.json last. A failure on the way (a
 * full disk) removes what was staged and throws BuildWriteError: the previous intelligence stays as it was.
 */
export async function writeAllArtifacts(state: ProjectState, builtAt: string, options: { /** entity pages on a writer thread (default: from PAGE_THREAD_FROM files) */ pageThread?: boolean } = {}): Promise<EdgeIndex> {
  const paths = intelPaths(state.root);
  const lap = perfMark();
  /** digests of the pages on disk (read once, for manual purposes): pages whose content did not change are left alone */
  const existing = new Map<string, string>();
  mkdirSync(path.dirname(paths.entities), { recursive: true });
  removeStaleTemps(paths.dir, readdirSync(paths.dir));
  const listing = entityFolderListing(paths.entities);
  if (listing) removeStaleTemps(paths.entities, listing);
  const onDisk = new Set(listing ?? []);
  const staged: StagedFile[] = [];
  const keep = new Set<string>();
  let pages: PageStage | undefined;
  let edges: EdgeIndex;
  try {
    for (const [p, r] of state.records) state.records.set(p, absorbManualPurpose(state.root, r, (id, text) => existing.set(id, pageDigest(text)), onDisk));
    lap('write: absorb manual purposes');
    // a full collection before each phase that makes the most objects (memory.ts): here the garbage of parse and resolve
    collectGarbage(state.records.size);
    edges = edgeIndex(state.records);
    lap('write: edge index');
    pages = new PageStage(paths.entities, listing === null, { thread: options.pageThread ?? state.records.size >= PAGE_THREAD_FROM });
    const idOf = (p: RelPath) => state.records.get(p)?.id ?? '';
    // intel.entityPages false: no pages (a rebuild removes the ones there are)
    for (const r of state.config.entityPages ? state.records.values() : []) {
      keep.add(`${r.id}.md`);
      const text = entityText(state, r, edges, builtAt, idOf);
      const old = existing.get(r.id);
      if (old === undefined || old !== pageDigest(text)) pages.add(`${r.id}.md`, text);
    }
    existing.clear();
    lap(`write: entities (${pages.count} rendered)`);
    collectGarbage(state.records.size);
    // the rows are garbage once graph.db is written: what follows reuses their memory
    let rows: GraphRows | null = rowsOf(state.records.values(), (r) => edges.out.get(r.path) ?? [], (p) => state.records.get(p)?.id ?? entityId(p));
    lap('write: graph.db rows');
    staged.push(await stageGraphDb(paths.graph, rows, meta(builtAt)));
    rows = null;
    collectGarbage(state.records.size);
    lap('write: graph.db');
    const summary = fullSummary(state, edges, builtAt);
    staged.push(stageFile(paths.summary, (fd) => writeFully(fd, Buffer.from(summaryText(state, summary)))));
    staged.push(stageFile(paths.summaryState, (fd) => writeFully(fd, Buffer.from(JSON.stringify(summary)))));
    lap('write: summary');
    // index.json last: it is the source of truth
    staged.push(stageIndexDocument(state, builtAt));
    lap('write: index.json');
    // the pages were written on the page writer's thread meanwhile: the rest of them, and its error if it met one
    pages.finish();
    lap('write: entities written');
  } catch (error) {
    pages?.discard();
    for (const f of staged) f.discard();
    throw new BuildWriteError(paths.dir, error);
  }
  // every artefact is written: put them in place, the pages first and index.json last
  pages.commit(keep);
  for (const f of staged) f.commit();
  lap('write: commit');
  return edges;
}

/**
 * Writes what an incremental change touched: graph.db rows of changed and removed files, the entity files of
 * changed files and of every file whose dependencies or dependents changed, the summary, then index.json last
 * (index.json is the source of truth: if the process dies before it is written, the next run redoes the work).
 */
/** What an entity page shows of its own file (its dependents aside): when none of it changed, neither did the page. */
export function entityFacts(r: FileRecord): string {
  return JSON.stringify([r.type, r.purpose, r.purposeSource, r.exports, r.syntaxError, r.skipped, r.imports.map((i) => [i.kind, i.specifier, i.resolved])]);
}

export async function writeDeltaArtifacts(
  state: ProjectState,
  changed: Set<RelPath>,
  removed: Map<RelPath, FileRecord>,
  touchedNeighbours: Set<RelPath>,
  summaryChange: SummaryChange,
  before: Map<RelPath, FileRecord>,
  builtAt: string,
): Promise<void> {
  const paths = intelPaths(state.root);
  const lap = perfMark();
  mkdirSync(paths.entities, { recursive: true });
  // a copy of graph.db that a killed update left (100 MB on a large project) goes now, not at the next full build
  removeStaleTemps(paths.dir, readdirSync(paths.dir));
  const entityPaths = new Set<RelPath>();
  for (const p of [...changed, ...touchedNeighbours]) {
    const current = state.records.get(p);
    if (!current) continue;
    const after = absorbManualPurpose(state.root, current);
    if (after !== current) {
      state.records.set(p, after);
      changed.add(p);
    }
    const old = before.get(p);
    if (state.config.entityPages && (touchedNeighbours.has(p) || !old || entityFacts(old) !== entityFacts(after))) entityPaths.add(p);
  }
  const removeIds = [...changed].map((p) => state.records.get(p)?.id).filter((id): id is string => Boolean(id));
  for (const r of removed.values()) removeIds.push(r.id);
  const rows = rowsOf([...changed].flatMap((p) => (state.records.has(p) ? [state.records.get(p)!] : [])));
  lap('delta: absorb + rows');
  await patchGraphDb(paths.graph, { removeNodeIds: removeIds, rows }, meta(builtAt));
  lap('delta: patch graph.db');
  // what summary.md was computed from, when it belongs to the index read and the change moved no edge and no file
  const known = summaryChange === 'all' ? null : readSummaryState(paths.summaryState, state.builtAt);
  let summary: SummaryState | null = null;
  if (known && summaryChange === 'counts') {
    const changes: Array<[FileRecord, FileRecord]> = [];
    for (const p of changed) {
      const old = before.get(p);
      const now = state.records.get(p);
      if (old && now) changes.push([old, now]);
    }
    summary = applyRecordChanges(known, changes, builtAt);
  } else if (known) {
    summary = { ...known, builtAt };
  }
  // a full summary needs every edge; pages only those around them
  const full = summaryChange !== 'same' && !summary;
  const edges = full ? edgeIndex(state.records) : entityPaths.size ? edgesAround(state.records, entityPaths) : null;
  lap(full ? 'delta: edge index' : `delta: edges around ${entityPaths.size} pages`);
  if (full) summary = fullSummary(state, edges!, builtAt);
  const pages: Array<[string, string]> = [];
  for (const p of entityPaths) {
    const record = state.records.get(p)!;
    const text = entityText(state, record, edges!, builtAt, (p) => (state.records.has(p) ? entityId(p) : ''));
    if (!sameEntityPage(path.join(paths.entities, `${record.id}.md`), text)) pages.push([`${record.id}.md`, text]);
  }
  writePagesSync(paths.entities, pages);
  for (const r of removed.values()) rmSync(path.join(paths.entities, `${r.id}.md`), { force: true });
  lap(`delta: ${pages.length} of ${entityPaths.size} entities`);
  if (summaryChange !== 'same' && summary) {
    await writeFileAtomic(paths.summary, summaryText(state, summary), { durable: false });
    lap(full ? 'delta: summary' : 'delta: summary (counters)');
  }
  // before index.json: a process that dies in between leaves a state that belongs to no index, never a wrong one
  if (summary) await writeFileAtomic(paths.summaryState, JSON.stringify(summary), { durable: false });
  await writeIndexDocument(state, builtAt);
  lap('delta: index.json');
}

const UPDATED_LINE = /^updated: .*$/m;

/** True when the page on disk says the same as `text`, its `updated:` stamp aside. */
function sameEntityPage(file: string, text: string): boolean {
  try {
    return readFileSync(file, 'utf8').replace(UPDATED_LINE, '') === text.replace(UPDATED_LINE, '');
  } catch {
    return false;
  }
}
