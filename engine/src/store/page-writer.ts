/**
 * Entity pages: hundreds of small files per full build. Each page is written to a temp file and renamed, so readers
 * never see a torn page (no fsync: pages are derived from index.json). A folder that does not exist yet (a first
 * build) is filled as a sibling temp folder that becomes the folder in one rename, without a rename per page.
 *
 * Creating files is slow on some disks (0.2-1 ms each here right after many deletes, 0.03 ms otherwise), so with 4 cores
 * or more (pageThreadWanted) a full build starts a thread before it renders the pages: on a first build the thread creates the (empty) page files meanwhile, then
 * writes what it is sent while graph.db is built here. The thread runs `preparePages` and `writePages` themselves,
 * passed as source text: they use nothing but their parameters, so they run the same on both sides and the bundled
 * runtime needs no extra file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface PageJob {
  dir: string;
  pages: Array<[name: string, text: string]>;
  /** `dir` did not exist when the pages were rendered */
  fresh: boolean;
  /** unique per job: temp names are `.<name>.<tag>.tmp` */
  tag: string;
  /** a fresh job's staging folder exists already, with an empty file of each of these names (preparePages) */
  prepared?: string[] | null;
}

/**
 * Makes the staging folder of a fresh job (`tag`) with an empty file of each of `names`, so that a first build's
 * file creations (the slow part on some disks) happen while the pages are still being rendered. Returns whether it
 * did. Self-contained, like writePages.
 */
export function preparePages(fsm: typeof fs, pathm: typeof path, dir: string, names: string[], tag: string): boolean {
  const staging = pathm.join(pathm.dirname(dir), `.${pathm.basename(dir)}.${tag}.tmp`);
  try {
    fsm.mkdirSync(staging);
  } catch {
    return false;
  }
  try {
    for (const name of names) fsm.closeSync(fsm.openSync(pathm.join(staging, name), 'wx'));
    return true;
  } catch {
    fsm.rmSync(staging, { recursive: true, force: true });
    return false;
  }
}

/** Writes the pages of `job`. Self-contained (see the module comment): only its parameters, no outer names. */
export function writePages(fsm: typeof fs, pathm: typeof path, job: PageJob): void {
  const tempOf = (target: string): string => pathm.join(pathm.dirname(target), `.${pathm.basename(target)}.${job.tag}.tmp`);
  if (job.fresh) {
    const staging = tempOf(job.dir);
    try {
      if (job.prepared) {
        // files prepared for pages that did not come are not left behind empty
        const wanted = new Set(job.pages.map(([name]) => name));
        for (const name of job.prepared) if (!wanted.has(name)) fsm.rmSync(pathm.join(staging, name), { force: true });
      } else fsm.mkdirSync(staging);
      for (const [name, text] of job.pages) fsm.writeFileSync(pathm.join(staging, name), text, { flag: job.prepared ? 'w' : 'wx' });
      fsm.renameSync(staging, job.dir);
      return;
    } catch {
      // the folder appeared meanwhile, or the staging folder could not be made: page by page below
      fsm.rmSync(staging, { recursive: true, force: true });
    }
  }
  fsm.mkdirSync(job.dir, { recursive: true });
  for (const [name, text] of job.pages) {
    const target = pathm.join(job.dir, name);
    const temp = tempOf(target);
    try {
      fsm.writeFileSync(temp, text, { flag: 'wx' });
      fsm.renameSync(temp, target);
    } catch (error) {
      fsm.rmSync(temp, { force: true });
      throw error;
    }
  }
}

function jobTag(): string {
  return `${process.pid}.${randomBytes(6).toString('hex')}`;
}

/** Writes `pages` into `dir` now. */
export function writePagesSync(dir: string, pages: Array<[string, string]>, fresh = false): void {
  writePages(fs, path, { dir, pages, fresh, tag: jobTag() });
}

/** Below this many pages a thread costs more than it saves. */
export const PAGES_PER_THREAD_MIN = 200;

/**
 * Whether pages go to a thread at all: from 4 cores up, or as GSD_PAGE_THREAD says (1 / 0). On 2 cores the thread
 * competes with this thread and V8's compiler for the second core: cold builds measured interleaved, without it /
 * with it: zod 787 / 796 ms (CPU 1110 / 1200), lodash 634 / 626 (830 / 950), date-fns 1834 / 2061 (2580 / 3180). It
 * only paid where creating files is slow, which was seen here right after thousands of deletes.
 */
export function pageThreadWanted(env: NodeJS.ProcessEnv = process.env, cores: number = os.availableParallelism?.() ?? os.cpus().length): boolean {
  if (env.GSD_PAGE_THREAD === '0') return false;
  if (env.GSD_PAGE_THREAD === '1') return true;
  return cores >= 4;
}

/**
 * The thread: prepares a fresh job's files as soon as it starts (workerData.names), then writes the pages it is sent
 * and says 'done'. A failure is an 'error' event: the caller writes the pages itself.
 */
const THREAD_SOURCE = `const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const prepare = ${preparePages.toString()};
const write = ${writePages.toString()};
const { dir, fresh, tag, names } = workerData;
const prepared = names && prepare(fs, path, dir, names, tag) ? names : null;
parentPort.once('message', (pages) => {
  write(fs, path, { dir, pages, fresh, tag, prepared });
  parentPort.postMessage('done');
});`;

/** A writer of entity pages started before the pages are rendered. */
export interface PageWriter {
  /** Writes `pages` (once); resolves when they are all written, on the thread or, when it failed, on this one. */
  write(pages: Array<[string, string]>): Promise<void>;
  /** Stops it without writing (the build failed before its pages were rendered); removes what it prepared. */
  abort(): void;
}

/**
 * Starts a writer of about `expected` pages into `dir`: on a thread when there are enough of them. For a fresh
 * folder, `names` are the pages to come: the thread creates their files while the caller renders them.
 */
export function startPageWriter(dir: string, fresh: boolean, expected: number, names: string[] | null = null): PageWriter {
  const tag = jobTag();
  const inProcess: PageWriter = {
    write: (pages) =>
      new Promise<void>((resolve) => {
        writePages(fs, path, { dir, pages, fresh, tag });
        resolve();
      }),
    abort: () => {},
  };
  if (expected < PAGES_PER_THREAD_MIN || !pageThreadWanted()) return inProcess;
  let worker: Worker;
  try {
    worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { dir, fresh, tag, names: fresh ? names : null }, execArgv: [] });
  } catch {
    return inProcess;
  }
  // until write() is called the thread must not keep the process alive (a build that fails before it renders)
  worker.unref();
  const finished = new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    worker.once('error', () => resolve(false));
    worker.once('exit', () => resolve(false));
  });
  const staging = path.join(path.dirname(dir), `.${path.basename(dir)}.${tag}.tmp`);
  return {
    async write(pages) {
      worker.ref();
      worker.postMessage(pages);
      if (await finished) return;
      // the thread failed: whatever it left in its staging folder goes, and this thread writes the pages
      await worker.terminate();
      fs.rmSync(staging, { recursive: true, force: true });
      writePages(fs, path, { dir, pages, fresh, tag: jobTag() });
    },
    abort() {
      void worker.terminate().then(() => fs.rmSync(staging, { recursive: true, force: true }));
    },
  };
}

/**
 * Writes `pages` into `dir` on a thread and returns when they are all written. Small batches, or a thread that
 * cannot start or fails, are written on this thread instead: the result is the same either way.
 */
export function writePagesInBackground(dir: string, pages: Array<[string, string]>, fresh: boolean): Promise<void> {
  return startPageWriter(dir, fresh, pages.length).write(pages);
}
