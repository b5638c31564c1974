/**
 * The capture journal: `.planning/intel/journal.jsonl`, one JSON line per file that changed and is not yet in the
 * intel. Appending is the only thing a hook must do before it returns, so this module imports nothing heavy:
 * one `appendFileSync` of a few lines (O_APPEND keeps concurrent appends whole on a local file system).
 * A line is either a changed file (`path`) or a refresh request (`refresh: true`, see JournalEntry).
 * Whoever reads the intel next (the background worker, the MCP server, the CLI) drains it first.
 */
import { appendFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
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

export const JOURNAL_NAME = 'journal.jsonl';
/** a journal taken over by a drain; left behind only if that drain died, and picked up by the next one */
export const DRAINING_SUFFIX = '.draining';

export function journalPath(root: string): string {
  return path.join(root, '.planning', 'intel', JOURNAL_NAME);
}

/** Records changed files for the next drain. Never parses anything; creates `.planning/intel/` if needed. */
export function appendJournal(root: string, entries: JournalEntry[]): void {
  if (!entries.length) return;
  const file = journalPath(root);
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
}

/** True when changes wait in the journal (or in a journal a dead drain left behind). One or two stat calls. */
export function hasPendingJournal(root: string): boolean {
  const dir = path.dirname(journalPath(root));
  try {
    if (statSync(journalPath(root)).size > 0) return true;
  } catch {
    // no journal
  }
  try {
    return readdirSync(dir).some((name) => name.startsWith(JOURNAL_NAME) && name.endsWith(DRAINING_SUFFIX));
  } catch {
    return false;
  }
}
