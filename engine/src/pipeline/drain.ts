import { readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DRAINING_SUFFIX, JOURNAL_NAME, journalFiles, journalPath, type JournalEntry } from '../journal.js';
import { intelPaths } from '../paths.js';
import { withLock } from '../store/index.js';
import { refreshUnlocked, updateUnlocked, type UpdateReport } from './update.js';

export interface DrainReport {
  /** journal lines read (several may name the same file) */
  entries: number;
  /** lines that were not JSON or had neither a path nor a refresh request: logged by the caller, never fatal */
  malformed: number;
  /** true when a refresh request was among them: a stat-based scan of the whole project ran (a RefreshReport) */
  refreshed: boolean;
  update: UpdateReport | null;
}

function readEntries(file: string): { paths: string[]; refresh: boolean; entries: number; malformed: number } {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { paths: [], refresh: false, entries: 0, malformed: 0 };
  }
  const paths: string[] = [];
  let refresh = false;
  let entries = 0;
  let malformed = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    entries++;
    try {
      const e = JSON.parse(line) as JournalEntry | null;
      if (typeof e?.path === 'string' && e.path) paths.push(e.path);
      else if (e?.refresh === true) refresh = true;
      else malformed++;
    } catch {
      malformed++;
    }
  }
  return { paths, refresh, entries, malformed };
}

/**
 * Applies every change waiting in the journal, under the intel lock. Named files are updated (re-parsed, or removed
 * when gone); when a refresh request is among the entries, a stat-based refresh runs instead and re-parses the named
 * files too, so one pass covers both. The journal files it read are deleted after, and only those (journal.ts): an
 * entry recorded meanwhile waits for the next drain. A drain that dies leaves them, and the next one applies them
 * again (updates are idempotent).
 */
export async function drainJournal(root: string, options: { timeoutMs?: number } = {}): Promise<DrainReport> {
  const paths = intelPaths(root);
  return withLock(
    paths.lock,
    async () => {
      const dir = paths.dir;
      const mine = `${journalPath(root)}.${process.pid}.${Date.now()}${DRAINING_SUFFIX}`;
      try {
        renameSync(journalPath(root), mine); // an older version's hooks append to one journal.jsonl
      } catch {
        // none
      }
      // exactly these files are read, applied and deleted: one a hook records meanwhile waits for the next drain
      const files = journalFiles(root)
        .filter((n) => n !== JOURNAL_NAME)
        .map((n) => path.join(dir, n));
      const unique = new Set<string>();
      let entries = 0;
      let malformed = 0;
      let refresh = false;
      for (const f of files) {
        const r = readEntries(f);
        entries += r.entries;
        malformed += r.malformed;
        refresh ||= r.refresh;
        for (const p of r.paths) unique.add(p);
      }
      const update = refresh
        ? await refreshUnlocked(root, { also: [...unique] })
        : unique.size
          ? await updateUnlocked(root, [...unique])
          : null;
      for (const f of files) rmSync(f, { force: true });
      return { entries, malformed, refreshed: refresh, update };
    },
    { timeoutMs: options.timeoutMs ?? 30_000 },
  );
}
