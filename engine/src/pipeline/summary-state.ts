/**
 * What summary.md was computed from, kept beside it (`summary-state.json`) so that an edit which moved no edge and
 * no file does not read every record again. Most of the summary (counts of files, edges, externals and unresolved
 * imports, hotspots, entry points, file naming, tests, folder roles) depends only on the file set and the resolved
 * imports; what one file's content can change beyond that is its share of the module-system and export-style
 * conventions and the skipped / syntax-error counts, kept here as counters and updated by the difference between
 * the record before and after.
 *
 * The state is valid only for the index.json written with the same `builtAt`: it is written before index.json, in
 * every write that also writes index.json, so a process that dies between the two, or any writer that does not
 * update it, leaves it stale, and a stale state is recomputed from every record. Never a source of truth.
 */
import { readFileSync } from 'node:fs';
import { dominant, moduleStyleOf, recordExportStyle } from '../graph/conventions.js';
import type { SummaryView } from '../store/index.js';
import type { FileRecord } from '../types.js';

export type SummaryFacts = Omit<SummaryView, 'root' | 'builtAt'>;

export interface SummaryState {
  /** the builtAt of the index.json this state belongs to */
  builtAt: string;
  view: SummaryFacts;
  /** files per module-system style and per export style (what conventions.moduleSystem / exportStyle are made of) */
  modules: Record<string, number>;
  exportStyles: Record<string, number>;
}

/** The counters of a full computation (every record). */
export function countersOf(records: Iterable<FileRecord>): Pick<SummaryState, 'modules' | 'exportStyles'> {
  const modules: Record<string, number> = {};
  const exportStyles: Record<string, number> = {};
  for (const r of records) {
    const m = moduleStyleOf(r);
    if (m) modules[m] = (modules[m] ?? 0) + 1;
    const e = recordExportStyle(r);
    if (e) exportStyles[e] = (exportStyles[e] ?? 0) + 1;
  }
  return { modules, exportStyles };
}

/** The state on disk if it belongs to the index.json written at `indexBuiltAt`, else null. */
export function readSummaryState(file: string, indexBuiltAt: string | undefined): SummaryState | null {
  if (!indexBuiltAt) return null;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as SummaryState;
    return state && state.builtAt === indexBuiltAt && state.view && state.modules && state.exportStyles ? state : null;
  } catch {
    return null;
  }
}

function add(counts: Record<string, number>, key: string | null, by: number): void {
  if (key === null) return;
  const n = (counts[key] ?? 0) + by;
  if (n) counts[key] = n;
  else delete counts[key];
}

/**
 * The state after records changed in place (same file set, same resolved imports): the counters move by each
 * record's difference, and the conventions they feed are derived again exactly as detectConventions does.
 */
export function applyRecordChanges(state: SummaryState, changes: Iterable<[FileRecord, FileRecord]>, builtAt: string): SummaryState {
  const modules = { ...state.modules };
  const exportStyles = { ...state.exportStyles };
  let { skippedCount, syntaxErrorCount } = state.view;
  for (const [before, after] of changes) {
    add(modules, moduleStyleOf(before), -1);
    add(modules, moduleStyleOf(after), 1);
    add(exportStyles, recordExportStyle(before), -1);
    add(exportStyles, recordExportStyle(after), 1);
    skippedCount += (after.skipped ? 1 : 0) - (before.skipped ? 1 : 0);
    syntaxErrorCount += (after.syntaxError ? 1 : 0) - (before.syntaxError ? 1 : 0);
  }
  const conventions = {
    ...state.view.conventions,
    moduleSystem: dominant(new Map(Object.entries(modules)), 'unknown'),
    exportStyle: dominant(new Map(Object.entries(exportStyles)), 'unknown'),
  };
  return { builtAt, view: { ...state.view, skippedCount, syntaxErrorCount, conventions }, modules, exportStyles };
}
