/**
 * The codebase intel of one project: graph.db through the engine's IntelReader, plus summary.md and entity pages.
 * Before every answer it drains the hooks' journal (so edits the hooks recorded are applied) and reopens the reader
 * when graph.db changed on disk (atomic writes replace the file: inode, size or mtime differ).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { drainJournal, fileIdentity, intelPaths, openIntel, type IntelReader } from '../../../engine/src/index.js';
import { logError } from '../log.js';
import { MissingDocumentError } from '../result.js';
import { HINTS } from '../texts.js';
import { findSection, readText, sections } from './markdown.js';

export interface IntelSummary {
  text: string;
  conventions: string;
}

function signature(file: string): string | null {
  try {
    return fileIdentity(statSync(file));
  } catch {
    return null;
  }
}

/** how long an answer waits for the intel lock to apply the hooks' journal first */
const DRAIN_WAIT_MS = 30_000;

export class IntelAdapter {
  private reader: IntelReader | null = null;
  private readerSig: string | null = null;
  private summaryCache: { sig: string; value: IntelSummary } | null = null;
  /** how many times graph.db was (re)opened; tests and the bench read it */
  opens = 0;
  /** last drain problem, surfaced as a note */
  lastDrainError: string | null = null;

  constructor(readonly root: string) {}

  get paths() {
    return intelPaths(this.root);
  }

  /**
   * The reader, fresh: journal drained, reopened when graph.db changed. Throws MissingDocumentError without intel.
   * The drain waits for the intel lock while another process holds it (a hook's worker or another server applying
   * the same edits; a dead or stalled holder's lock is broken): an answer given before would miss those edits. After
   * 30 s the answer goes on from the graph as it is, and `vitals` names the problem.
   */
  async open(): Promise<IntelReader> {
    try {
      await drainJournal(this.root, { timeoutMs: DRAIN_WAIT_MS });
      this.lastDrainError = null;
    } catch (error) {
      this.lastDrainError = (error as Error).message;
      logError(`drain of ${this.root} failed`, error);
    }
    const sig = signature(this.paths.graph);
    if (sig === null) {
      this.close();
      throw new MissingDocumentError(`.planning/intel/graph.db is missing in ${this.root}`, HINTS.noIntel);
    }
    if (this.reader && sig === this.readerSig) return this.reader;
    this.close();
    const reader = await openIntel(this.root);
    this.opens++;
    this.reader = reader;
    // The reader holds graph.db as it was at `sig` or later. A signature taken after the open could name a graph.db a
    // writer put in place while the reader was loading the one before it, and the reader would then be kept, stale,
    // until the next change. When graph.db moved during the open (a writer, or openIntel's own repair), the next
    // answer opens it again.
    this.readerSig = signature(this.paths.graph) === sig ? sig : null;
    return reader;
  }

  summary(): IntelSummary | null {
    const sig = signature(this.paths.summary);
    if (sig === null) return null;
    if (this.summaryCache?.sig === sig) return this.summaryCache.value;
    const text = readText(this.paths.summary) ?? '';
    const secs = sections(text);
    const conventions = findSection(secs, /conventions/i)?.text ?? '';
    const value = { text, conventions };
    this.summaryCache = { sig, value };
    return value;
  }

  /** The entity page of an id, or null. The id is checked so it can never name another file. */
  entityPage(id: string): string | null {
    if (!/^[a-z0-9-]{1,200}$/.test(id)) return null;
    return readText(path.join(this.paths.entities, `${id}.md`));
  }

  close(): void {
    try {
      this.reader?.close();
    } catch (error) {
      logError('closing a reader failed', error);
    }
    this.reader = null;
    this.readerSig = null;
  }
}
