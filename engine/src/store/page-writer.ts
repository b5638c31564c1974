/**
 * Entity pages: one small file per indexed file. A page is never torn for a reader: an incremental update writes each
 * to a temp file and renames it (writePagesSync); a full build writes the pages it renders into a staging folder
 * beside the entity folder as it renders them (PageStage), so they are never all in memory, and puts them in place
 * only when every other artefact is written too: on a first build the staging folder becomes the folder in one
 * rename, on a rebuild each changed page is renamed in. No fsync: pages are derived from index.json.
 *
 * A full build's pages are written on a writer thread (PageWriter), the build's own thread rendering the next pages and
 * then laying out graph.db, the summary and index.json meanwhile: creating thousands of files is kernel time the build
 * would otherwise wait for (ARCHITECTURE.md, "Incremental updates": a 50,000-file build 11.8 → 10.7 s, date-fns
 * 1.07 → 1.02 s; bench/RESULTS.md, "Cold build" and "Large monorepos"). At most MAX_QUEUED pages wait for it,
 * so memory stays bounded. (An earlier writer thread, from 4 cores up, took every page rendered first: unbounded
 * memory, and on 2 cores neutral to slower. This one overlaps the writes with the rest of the build.)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

function jobTag(): string {
  return `${process.pid}.${randomBytes(6).toString('hex')}`;
}

/** `.<name>.<tag>.tmp` beside `target`. */
function tempOf(target: string, tag: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${tag}.tmp`);
}

/** Writes `pages` into `dir` now, each atomically. */
export function writePagesSync(dir: string, pages: Array<[string, string]>): void {
  const tag = jobTag();
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of pages) {
    const target = path.join(dir, name);
    const temp = tempOf(target, tag);
    try {
      fs.writeFileSync(temp, text, { flag: 'wx' });
      fs.renameSync(temp, target);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
  }
}

/** pages per message to the writer thread */
const BATCH = 64;
/** pages handed to the writer thread and not yet written, at most: ~10-30 MB of text (peak RSS of a 50,000-file build +8-35 MB, bench/RESULTS.md) */
const MAX_QUEUED = 8192;
/** how long finish() waits for the writer thread to make any progress before it gives up on it */
const STALL_MS = 60_000;

/** shared[WRITTEN]: pages written; shared[STATE]: OK, FAILED (the writer's error is on its port) or ABORTED; shared[BUSY]: 1 while it writes */
const WRITTEN = 0;
const STATE = 1;
const BUSY = 2;
const FAILED = 1;
const ABORTED = 2;

/**
 * The writer thread: node built-ins only, so it needs no bundle of its own. On the first failure it reports the error
 * on `errors`, sets FAILED and writes nothing more; once the build's thread sets ABORTED it stops before the next file.
 */
const WRITER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const shared = new Int32Array(workerData.shared);
const errors = workerData.errors;
parentPort.on('message', (batch) => {
  Atomics.store(shared, ${BUSY}, 1);
  try {
    for (let i = 0; i < batch.length; i += 2) {
      if (Atomics.load(shared, ${STATE}) !== 0) return;
      try {
        fs.writeFileSync(batch[i], batch[i + 1], { flag: 'wx' });
      } catch (error) {
        errors.postMessage({ code: error && error.code, message: String((error && error.message) || error), file: batch[i] });
        Atomics.store(shared, ${STATE}, ${FAILED});
        return;
      }
      Atomics.add(shared, ${WRITTEN}, 1);
    }
  } finally {
    Atomics.store(shared, ${BUSY}, 0);
    Atomics.notify(shared, ${WRITTEN});
    Atomics.notify(shared, ${BUSY});
  }
});
`;

/** An error of the writer thread, as the build's own thread would have met it (its `code`, e.g. ENOSPC, kept), and the page it was writing. */
function writerError(port: MessagePort): Error {
  const reported = receiveMessageOnPort(port)?.message as { code?: string; message?: string; file?: string } | undefined;
  const message = reported?.message ?? 'the entity page writer failed';
  const error = new Error(reported?.file && !message.includes(reported.file) ? `${message} (writing ${reported.file})` : message) as NodeJS.ErrnoException;
  if (reported?.code) error.code = reported.code;
  return error;
}

/** Writes files on a writer thread, in the order given; `finish` waits until all are written or one failed. */
class PageWriter {
  private readonly worker: Worker;
  private readonly shared = new Int32Array(new SharedArrayBuffer(12));
  private readonly errors = new MessageChannel();
  private batch: string[] = [];
  private posted = 0;
  private stopped = false;
  /** the thread's first error, thrown again by every later call (its report is read off the port once) */
  private failure: Error | null = null;

  constructor(private readonly maxQueued = MAX_QUEUED) {
    this.worker = new Worker(WRITER_SOURCE, { eval: true, workerData: { shared: this.shared.buffer, errors: this.errors.port2 }, transferList: [this.errors.port2] });
    this.worker.unref();
  }

  write(file: string, text: string): void {
    this.batch.push(file, text);
    if (this.batch.length >= 2 * BATCH) this.post();
    // bounded memory: the build's thread waits while the writer is MAX_QUEUED pages behind
    while (this.posted - Atomics.load(this.shared, WRITTEN) > this.maxQueued) this.waitForProgress();
  }

  /** Waits until every page is written; throws the writer's error if one failed. */
  finish(): void {
    this.post();
    while (Atomics.load(this.shared, WRITTEN) < this.posted) this.waitForProgress();
    this.failIfFailed();
  }

  /**
   * Ends the thread; when it is writing, first lets it finish the file it is at, so no file appears afterwards (for at
   * most STALL_MS: a thread that died while writing never clears BUSY).
   */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    Atomics.compareExchange(this.shared, STATE, 0, ABORTED);
    const until = Date.now() + STALL_MS;
    while (Atomics.load(this.shared, BUSY) === 1 && Date.now() < until) Atomics.wait(this.shared, BUSY, 1, 1_000);
    void this.worker.terminate();
    this.errors.port1.close();
  }

  private post(): void {
    if (!this.batch.length) return;
    this.failIfFailed();
    this.worker.postMessage(this.batch);
    this.posted += this.batch.length / 2;
    this.batch = [];
  }

  private waitForProgress(): void {
    this.failIfFailed();
    const seen = Atomics.load(this.shared, WRITTEN);
    if (Atomics.wait(this.shared, WRITTEN, seen, STALL_MS) === 'timed-out' && Atomics.load(this.shared, WRITTEN) === seen) {
      this.failIfFailed();
      throw new Error(`the entity page writer made no progress for ${STALL_MS / 1000} s`);
    }
  }

  private failIfFailed(): void {
    if (this.failure) throw this.failure;
    if (Atomics.load(this.shared, STATE) === FAILED) throw (this.failure = writerError(this.errors.port1));
  }
}

/** A full build's entity pages, written as they come into a staging folder; commit() puts them in place. */
export class PageStage {
  private readonly staging: string;
  private readonly names: string[] = [];
  private readonly writer: PageWriter | null;
  private open = true;
  private finished = false;

  /**
   * `fresh`: `dir` does not exist yet (a first build). `thread`: write on a writer thread (default); without one, or
   * when no thread can be started, each page is written before add() returns. `maxQueued`: pages the thread may be
   * behind before add() waits for it (tests make it small).
   */
  constructor(
    private readonly dir: string,
    private readonly fresh: boolean,
    options: { thread?: boolean; maxQueued?: number } = {},
  ) {
    this.staging = tempOf(dir, jobTag());
    fs.mkdirSync(this.staging, { recursive: true });
    let writer: PageWriter | null = null;
    if (options.thread !== false) {
      try {
        writer = new PageWriter(options.maxQueued);
      } catch {
        // no thread to be had: the build's own thread writes
      }
    }
    this.writer = writer;
  }

  /** Writes one page into the staging folder (on the writer thread: queued; a failure is thrown by a later call). */
  add(name: string, text: string): void {
    const file = path.join(this.staging, name);
    if (this.writer) this.writer.write(file, text);
    else fs.writeFileSync(file, text, { flag: 'wx' });
    this.names.push(name);
  }

  get count(): number {
    return this.names.length;
  }

  /** Waits until every page added is written; throws if one could not be (the stage can then only be discarded). */
  finish(): void {
    if (!this.writer || this.finished) return;
    try {
      this.writer.finish();
      this.finished = true;
    } finally {
      this.writer.stop();
    }
  }

  /** Puts the staged pages in place (renames only: no space needed), then removes the `.md` files not in `keep`. */
  commit(keep: ReadonlySet<string>): void {
    if (!this.open) return;
    this.finish();
    this.open = false;
    if (this.fresh) {
      try {
        fs.renameSync(this.staging, this.dir);
        return;
      } catch {
        // the folder appeared meanwhile: page by page below
      }
    }
    fs.mkdirSync(this.dir, { recursive: true });
    for (const name of this.names) fs.renameSync(path.join(this.staging, name), path.join(this.dir, name));
    fs.rmSync(this.staging, { recursive: true, force: true });
    for (const name of fs.readdirSync(this.dir)) {
      if (name.endsWith('.md') && !keep.has(name)) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }

  /** Drops the staging folder: the entity folder stays as it was. */
  discard(): void {
    if (!this.open) return;
    this.open = false;
    this.writer?.stop();
    fs.rmSync(this.staging, { recursive: true, force: true });
  }
}
