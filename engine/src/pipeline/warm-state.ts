/**
 * What an update re-derives from disk before its change, kept in the process between updates: the ProjectState
 * (index.json split into record spans, the config, the config-file stamps) and the resolver over the file set. A
 * long-lived process (the hook's worker while it lingers, the shared MCP daemon, which drains before every answer)
 * then pays for an edit, not for reading a 70 MB index.json and re-creating a resolver over 50,000 paths each time.
 *
 * Valid only while index.json is the very file this process last read or wrote: its stamp (device, inode, size,
 * mtime) is compared on every take. Another writer (a full build, another process's update) replaces index.json by a
 * rename, so the stamp moves and the warm state is dropped; so is it when `.planning/config.json`'s intel section
 * reads differently. An update takes the state out (take) and puts it back only when it finished (keep): an error
 * half-way leaves nothing behind. At most two projects are kept (a daemon serving several worktrees). Memory: the
 * records go back to spans of the new file after each write (LazyRecords.relaid), so nothing parsed piles up.
 *
 * `GSD_WARM_STATE=0` switches it off (every update reads from disk, as a fresh process does).
 */
import { statSync, type Stats } from 'node:fs';
import { readIntelConfig } from '../config.js';
import { CLOSE_BYTES, OPEN_BYTES } from '../graph/index-document.js';
import { fileIdentity, LazyRecords, RecordSource } from '../graph/lazy-records.js';
import type { Resolver } from '../resolve/index.js';
import type { FileRecord, LoadedFile, RelPath } from '../types.js';
import type { ProjectState } from './project-state.js';

/** The resolver an update used and the file set it resolves against: reused while neither the set nor a config moved. */
export interface Resolution {
  files: ReadonlySet<RelPath>;
  resolver: Resolver;
  /** the files an update is making records of, whose facts the resolver reads before the records hold them */
  pending: Map<RelPath, LoadedFile>;
}

/** A ProjectState as an update works on it: with the resolver it used and whether its records carry stats. */
export interface WarmState extends ProjectState {
  resolution: Resolution | null;
  /** the raw records carry each one's size and mtime (a refresh compares them with the disk) */
  stats: boolean;
}

interface Warm {
  stamp: string;
  state: WarmState;
}

const MAX_PROJECTS = 2;
/** more records parsed than this (a summary over every record parsed them all): not worth re-laying, read afresh */
const MAX_PARSED = 2_000;
/** index.json's layout around its record lines (graph/index-document.ts, indexChunks) */

const warm = new Map<string, Warm>();
/** updates that found their state kept (for tests and benchmarks: proof the warm path ran) */
let hits = 0;
const enabled = () => process.env.GSD_WARM_STATE !== '0';

function statIfAny(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/**
 * The state kept for `root` if index.json (`indexFile`) is still the file it belongs to and the config reads the
 * same; removed from the cache either way (the caller keeps it again when its update succeeded). `stats`: the caller
 * needs each record's size and mtime.
 */
export function takeWarmState(root: string, indexFile: string, stats: boolean): WarmState | null {
  const entry = warm.get(root);
  if (!entry) return null;
  warm.delete(root);
  if (!enabled() || (stats && !entry.state.stats)) return null;
  const st = statIfAny(indexFile);
  if (!st || fileIdentity(st) !== entry.stamp) return null;
  // a ConfigError is thrown as a fresh read would throw it
  const config = readIntelConfig(root);
  if (JSON.stringify(config) !== JSON.stringify(entry.state.config)) return null;
  hits++;
  return entry.state;
}

/** A parsed record's line in index.json, as indexChunks writes it (checked against the file by keepWarmState). */
const lineBytes = (p: RelPath, r: FileRecord): number => Buffer.byteLength(`${JSON.stringify(p)}:${JSON.stringify(r)}`);

/**
 * Keeps `state` for the next update of its project, once the update that used it finished under the lock.
 * Call it under the intel lock, with nothing written to index.json since but what this update wrote from `state`.
 * If index.json was written from it meanwhile, the records are laid out again as spans of the new file, and that
 * layout is checked against the file's bytes; anything unexpected (a record map that is not lazy, too much parsed,
 * a layout that does not match) keeps nothing.
 */
export function keepWarmState(state: WarmState, indexFile: string): void {
  warm.delete(state.root);
  if (!enabled()) return;
  const records = state.records;
  if (!(records instanceof LazyRecords)) return;
  const st = statIfAny(indexFile);
  if (!st) return;
  const stamp = fileIdentity(st);
  if (records.parsedKeys().length > MAX_PARSED) return;
  if (records.rawSource()?.identity !== stamp) {
    // index.json was written from these records: the same records, as spans of the new file
    const fresh = RecordSource.ofFile(indexFile, st);
    const { records: relaid, bodyStart } = records.relaid(fresh, st.size, CLOSE_BYTES.length, lineBytes);
    if (!layoutMatches(fresh, relaid, bodyStart, st.size)) return;
    state.records = relaid;
  }
  warm.set(state.root, { stamp, state });
  while (warm.size > MAX_PROJECTS) warm.delete(warm.keys().next().value!);
}

/** The new file has `"files":{\n` right before the first line, the first and last records where the layout says. */
function layoutMatches(source: RecordSource, records: LazyRecords, bodyStart: number, size: number): boolean {
  if (bodyStart < OPEN_BYTES.length) return false;
  const keys = records.keys();
  const first = keys.next();
  try {
    return source.with((read) => {
      if (!read(bodyStart - OPEN_BYTES.length, bodyStart).equals(OPEN_BYTES)) return false;
      if (!read(size - CLOSE_BYTES.length, size).equals(CLOSE_BYTES)) return false;
      if (first.done) return bodyStart === size - CLOSE_BYTES.length;
      let last = first.value;
      for (const k of keys) last = k;
      for (const p of [first.value, last]) {
        const span = records.rawOf(p)!;
        const key = Buffer.from(`${JSON.stringify(p)}:{`);
        if (!read(span.start, span.value + 1).equals(key)) return false;
        if (read(span.end - 1, span.end)[0] !== 0x7d /* } */) return false;
      }
      return true;
    });
  } catch {
    return false;
  }
}

/** True when a state is kept for `root` and index.json is still the file it belongs to (the config is not checked). */
export function hasWarmState(root: string, indexFile: string): boolean {
  const entry = warm.get(root);
  if (!enabled() || !entry) return false;
  const st = statIfAny(indexFile);
  return st !== null && fileIdentity(st) === entry.stamp;
}

/** Forgets what is kept for `root`, or for every project (tests, benchmarks). */
export function dropWarmState(root?: string): void {
  if (root === undefined) warm.clear();
  else warm.delete(root);
}

/** How many updates in this process found their state kept. */
export function warmStateHits(): number {
  return hits;
}
