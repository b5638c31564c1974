/**
 * The capture journal: files `.planning/intel/journal.jsonl.<time>.<pid>.<random>`, one per hook run, each holding
 * one JSON line per file that changed and is not yet in the intel. A line is either a changed file (`path`) or a
 * refresh request (`refresh: true`, see JournalEntry). Whoever reads the intel next (the background worker, the
 * shared server, the CLI) drains them first.
 *
 * Recording is the only thing a hook must do before it returns, so this module imports nothing heavy. A hook writes
 * its file under a temporary name and renames it into place: a journal file is complete when it appears and nobody
 * writes to it again, so a drain deletes exactly the files it read and an entry recorded meanwhile waits for the next
 * one. (One shared file appended to by every hook could take a line after a drain had read it and before the drain
 * deleted it: the appender opened it before the drain took it over, and its line was lost.) A `journal.jsonl` of an
 * older version's hooks is still drained, as are the `.draining` files a dead drain of that version left.
 */
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface JournalEntry {
  /** absolute path, or relative to the project root (absent on a refresh request) */
  path?: string;
  /**
   * a request for a stat-based catch-up of the whole project (SessionStart records one): the drain then scans for
   * new, changed and deleted files, and builds everything when there is no intel yet
   */
  refresh?: boolean;
  /** ms since the epoch when it was recorded */
  at: number;
  /** what recorded it, e.g. `PostToolUse:Write` */
  source?: string;
}

/** the journal files' common prefix, and the name of the single journal of an older version's hooks */
export const JOURNAL_NAME = 'journal.jsonl';
/** an older version's journal taken over by a drain; left behind only if that drain died, and picked up by the next */
export const DRAINING_SUFFIX = '.draining';

/** A journal file: one a hook recorded, an older version's journal, or one a dead drain of that version left. */
export const isJournalFile = (name: string): boolean => name === JOURNAL_NAME || name.startsWith(`${JOURNAL_NAME}.`);

export function journalPath(root: string): string {
  return path.join(root, '.planning', 'intel', JOURNAL_NAME);
}

/** Records changed files for the next drain: one new journal file. Never parses anything; creates `.planning/intel/`. */
export function appendJournal(root: string, entries: JournalEntry[]): void {
  if (!entries.length) return;
  const dir = path.dirname(journalPath(root));
  mkdirSync(dir, { recursive: true });
  const unique = `${Date.now()}.${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  // the temporary name is no journal file (no drain reads it half-written): it starts with a dot
  const tmp = path.join(dir, `.journal-${unique}.tmp`);
  writeFileSync(tmp, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), { flag: 'wx' });
  renameSync(tmp, path.join(dir, `${JOURNAL_NAME}.${unique}`));
}

/** The journal files waiting in `root`, sorted (oldest first). An older version's empty journal.jsonl is none. */
export function journalFiles(root: string): string[] {
  const dir = path.dirname(journalPath(root));
  let names: string[];
  try {
    names = readdirSync(dir).filter(isJournalFile);
  } catch {
    return [];
  }
  return names.filter((n) => n !== JOURNAL_NAME || (statSync(path.join(dir, n), { throwIfNoEntry: false })?.size ?? 0) > 0).sort();
}

/** True when changes wait in the journal (or in a journal a dead drain left behind). One readdir of the intel folder. */
export function hasPendingJournal(root: string): boolean {
  return journalFiles(root).length > 0;
}
