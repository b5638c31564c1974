/**
 * createParsePool: loads many files on worker threads, in batches, results in input order.
 * Small loads run in-process; the chunks of a worker that dies are loaded in-process, so no file is ever lost.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { KnownFacts, LoadedFile, RelPath } from '../types.js';
import { prepareGrammars } from '../languages/parse.js';
import { loadFile } from './load-file.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './worker.js';

export interface ParsePoolOptions {
  maxFileBytes: number;
  /** worker threads; default min(available parallelism, 4); 0 loads everything in-process */
  threads?: number;
  /** replaces the worker script (tests use it to simulate crashing workers) */
  workerScript?: URL;
  /** every path loaded was listed by scanProject (LoadFileOptions.walked) */
  walked?: boolean;
}

export interface ParsePool {
  /**
   * Loads `paths`, results in the same order. `known` gives the facts of a path's last indexed content: a file whose
   * bytes still hash the same is read and hashed but not parsed (a checkout that only moved mtimes, a rebuild).
   */
  load(paths: RelPath[], onProgress?: (done: number, total: number) => void, known?: ReadonlyMap<RelPath, KnownFacts>): Promise<LoadedFile[]>;
  close(): Promise<void>;
}

/** Where the files went so far: for diagnostics, benchmarks and tests. */
export interface ParsePoolStats {
  /** files loaded by worker threads */
  workerFiles: number;
  /** files loaded on the calling thread (small loads, no workers, retries after a worker died) */
  inProcessFiles: number;
  /** workers that died or failed to start (`close()` does not count) */
  workerFailures: number;
}

/** Loads with fewer paths than this run in-process: starting workers would cost more than it saves. */
export const IN_PROCESS_BELOW = 40;
const MAX_CHUNK = 32;
/** Chunks sent to a worker before it answers, so it never waits for the next message. */
const CHUNKS_IN_FLIGHT = 2;

interface Chunk {
  paths: RelPath[];
  known: (KnownFacts | null)[];
  done(results: LoadedFile[]): void;
}

interface PoolWorker {
  worker: Worker;
  inFlight: Map<number, Chunk>;
  dead: boolean;
}

interface WorkerLaunch {
  /** a script URL, or source code to evaluate */
  script: URL | string;
  eval: boolean;
}

/**
 * How to start a worker: worker.js next to this module. When running from the TypeScript sources (tests under tsx),
 * worker.ts needs tsx's loader, which a worker does not inherit: a small bootstrap registers it, then imports it.
 */
function workerLaunch(override: URL | undefined): WorkerLaunch {
  const here = import.meta.url;
  const url = override ?? new URL(here.endsWith('.ts') ? './worker.ts' : './worker.js', here);
  if (!url.pathname.endsWith('.ts')) return { script: url, eval: false };
  let tsxApi = 'tsx/esm/api';
  try {
    tsxApi = import.meta.resolve('tsx/esm/api');
  } catch {
    // left to the worker, which fails and makes the pool load in-process
  }
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`;
  return { script: bootstrap, eval: true };
}

/**
 * Parse workers only pay off from 4 cores up. Measured on 2 cores (zod, 828 files, 6 MB): one thread ~1.4 s wall /
 * ~2.4 s CPU, two workers ~1.7 s / ~3.3 s. A single V8 thread already keeps a second core busy with background
 * compilation and GC, and every worker pays babel's JIT warm-up (the first few MB parse at a third of full speed).
 */
export function defaultThreads(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return cores >= 4 ? Math.min(cores - 1, 4) : 0;
}

export function createParsePool(root: string, opts: ParsePoolOptions): ParsePool & { stats(): ParsePoolStats } {
  const threads = Math.max(0, Math.floor(opts.threads ?? defaultThreads()));
  const setup: WorkerSetup = { root, maxFileBytes: opts.maxFileBytes, walked: opts.walked === true };
  const workers: PoolWorker[] = [];
  const queue: Chunk[] = [];
  let nextId = 0;
  let closed = false;
  const stats: ParsePoolStats = { workerFiles: 0, inProcessFiles: 0, workerFailures: 0 };

  const loadInProcess = ({ paths, known }: Pick<Chunk, 'paths' | 'known'>): LoadedFile[] => {
    stats.inProcessFiles += paths.length;
    return paths.map((path, i) => loadFile(root, path, { maxFileBytes: opts.maxFileBytes, known: known[i], walked: setup.walked }));
  };

  function dispatch(): void {
    for (const pw of workers) {
      while (!pw.dead && pw.inFlight.size < CHUNKS_IN_FLIGHT && queue.length > 0) {
        const chunk = queue.shift()!;
        const id = nextId++;
        pw.inFlight.set(id, chunk);
        pw.worker.ref();
        const request: WorkerRequest = { id, paths: chunk.paths, known: chunk.known };
        pw.worker.postMessage(request);
      }
    }
    // no live worker left (all crashed, or the pool was closed): finish in-process
    if (queue.length > 0 && !workers.some((pw) => !pw.dead)) {
      for (const chunk of queue.splice(0)) chunk.done(loadInProcess(chunk));
    }
  }

  function retire(pw: PoolWorker): void {
    if (pw.dead) return;
    pw.dead = true;
    if (!closed) stats.workerFailures++;
    workers.splice(workers.indexOf(pw), 1);
    const orphans = [...pw.inFlight.values()];
    pw.inFlight.clear();
    for (const chunk of orphans) chunk.done(loadInProcess(chunk));
    dispatch();
  }

  function spawn(): void {
    const launch = workerLaunch(opts.workerScript);
    let worker: Worker;
    try {
      worker = new Worker(launch.script, { workerData: setup, eval: launch.eval, ...(launch.eval ? { execArgv: [] } : {}) });
    } catch {
      return; // no workers: everything runs in-process
    }
    const pw: PoolWorker = { worker, inFlight: new Map(), dead: false };
    worker.on('message', (response: WorkerResponse) => {
      const chunk = pw.inFlight.get(response.id);
      if (!chunk) return;
      pw.inFlight.delete(response.id);
      if (Array.isArray(response.results) && response.results.length === chunk.paths.length) {
        stats.workerFiles += response.results.length;
        chunk.done(response.results);
      } else {
        chunk.done(loadInProcess(chunk));
      }
      if (pw.inFlight.size === 0) worker.unref();
      dispatch();
    });
    worker.on('error', () => retire(pw));
    worker.on('exit', () => retire(pw));
    worker.unref();
    workers.push(pw);
  }

  return {
    async load(paths, onProgress, knownByPath) {
      // the tree-sitter grammars these files need, here too: a worker that dies leaves its files to this thread
      await prepareGrammars(paths);
      const total = paths.length;
      const known = paths.map((p) => knownByPath?.get(p) ?? null);
      // workers that keep dying are not started again
      const workersUsable = threads > 0 && stats.workerFailures < threads * 2;
      if (closed || !workersUsable || total < IN_PROCESS_BELOW) {
        const results: LoadedFile[] = [];
        for (let i = 0; i < total; i++) {
          results.push(loadFile(root, paths[i], { maxFileBytes: opts.maxFileBytes, known: known[i], walked: setup.walked }));
          onProgress?.(results.length, total);
        }
        stats.inProcessFiles += total;
        return results;
      }
      if (workers.length === 0) for (let i = 0; i < threads; i++) spawn();

      // enough chunks to keep every worker busy to the end, none larger than MAX_CHUNK
      const size = Math.max(1, Math.min(MAX_CHUNK, Math.ceil(total / (Math.max(1, workers.length) * 4))));
      const results: LoadedFile[] = new Array(total);
      let done = 0;
      return new Promise<LoadedFile[]>((resolve) => {
        for (let offset = 0; offset < total; offset += size) {
          const start = offset;
          queue.push({
            paths: paths.slice(start, start + size),
            known: known.slice(start, start + size),
            done(chunkResults) {
              for (let i = 0; i < chunkResults.length; i++) results[start + i] = chunkResults[i];
              done += chunkResults.length;
              onProgress?.(done, total);
              if (done === total) resolve(results);
            },
          });
        }
        dispatch();
      });
    },

    stats() {
      return { ...stats };
    },

    async close() {
      closed = true;
      await Promise.all(
        [...workers].map(async (pw) => {
          await pw.worker.terminate();
          retire(pw);
        }),
      );
    },
  };
}
