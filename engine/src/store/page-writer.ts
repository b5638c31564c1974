/**
 * Entity pages: hundreds of small files per full build. Each page is written to a temp file and renamed, so readers
 * never see a torn page (no fsync: pages are derived from index.json). A folder that does not exist yet (a first
 * build) is filled as a sibling temp folder that becomes the folder in one rename, without a rename per page.
 *
 * Creating files is slow on some disks (0.2-1 ms each here), so a full build hands large batches to a thread and
 * writes graph.db meanwhile. The thread runs `writePages` itself, passed as source text: the function uses nothing
 * but its parameters, so it runs the same on both sides and the bundled runtime needs no extra file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface PageJob {
  dir: string;
  pages: Array<[name: string, text: string]>;
  /** `dir` did not exist when the pages were rendered */
  fresh: boolean;
  /** unique per job: temp names are `.<name>.<tag>.tmp` */
  tag: string;
}

/** Writes the pages of `job`. Self-contained (see the module comment): only its parameters, no outer names. */
export function writePages(fsm: typeof fs, pathm: typeof path, job: PageJob): void {
  const tempOf = (target: string): string => pathm.join(pathm.dirname(target), `.${pathm.basename(target)}.${job.tag}.tmp`);
  if (job.fresh) {
    const staging = tempOf(job.dir);
    try {
      fsm.mkdirSync(staging);
      for (const [name, text] of job.pages) fsm.writeFileSync(pathm.join(staging, name), text, { flag: 'wx' });
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

const THREAD_SOURCE = `const { workerData, parentPort } = require('node:worker_threads');
(${writePages.toString()})(require('node:fs'), require('node:path'), workerData);
parentPort.postMessage('done');`;

/**
 * Starts writing `pages` into `dir` on a thread and returns when they are all written. Small batches, or a thread
 * that cannot start or fails, are written on this thread instead: the result is the same either way.
 */
export function writePagesInBackground(dir: string, pages: Array<[string, string]>, fresh: boolean): Promise<void> {
  const job: PageJob = { dir, pages, fresh, tag: jobTag() };
  if (pages.length < PAGES_PER_THREAD_MIN || process.env.GSD_PAGE_THREAD === '0') {
    return new Promise((resolve) => {
      writePages(fs, path, job);
      resolve();
    });
  }
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const fallback = (): void => {
      if (settled) return;
      settled = true;
      try {
        writePages(fs, path, { ...job, tag: jobTag() });
        resolve();
      } catch (error) {
        reject(error);
      }
    };
    let worker: Worker;
    try {
      worker = new Worker(THREAD_SOURCE, { eval: true, workerData: job, execArgv: [] });
    } catch {
      fallback();
      return;
    }
    worker.once('message', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    worker.once('error', fallback);
    worker.once('exit', fallback);
  });
}
