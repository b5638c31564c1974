/**
 * createParsePool: loads many files on worker threads, in batches, results in input order.
 * Small loads run in-process; the chunks of a worker that dies are loaded in-process, so no file is ever lost.
 * Below 4 cores the files a tree-sitter grammar reads still go to one worker, a child process, while this thread loads
 * the rest. What the grammars cost goes with that process when the pool closes, instead of staying in this one for
 * the rest of the build: the runtime's WebAssembly memory (it grows to the largest parse and never shrinks: ~40 MB on
 * a 10,000-file Go tree), and the C heap that V8's optimising compiler used for the largest functions of the runtime
 * and the grammar. The latter is why it is a process and not a worker thread: compiling those, V8 frees a 6 MB block
 * of C heap, which raises glibc's malloc trim threshold for the whole process to 12 MB (its "dynamic mmap threshold"),
 * after which every thread's malloc arena keeps up to that much freed memory for the rest of the build. Measured on
 * that Go tree (bench/languages-peers.mjs, 2 cores): peak RSS of `intel build` 233-236 MB with a worker thread,
 * 216-220 MB with a worker process (the JS/TS tree of the same size: 215-219 MB); the worker process and this one
 * together hold at most ~180 MB (this one's RSS plus the other's private memory) while both run. Parse time the same.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { KnownFacts, LoadedFile, RelPath } from '../types.js';
import { prepareGrammars } from '../languages/parse.js';
import { languageOf } from '../languages/registry.js';
import { loadFile } from './load-file.js';
import { sharedStrings } from './own-strings.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './worker.js';

export interface ParsePoolOptions {
  maxFileBytes: number;
  /**
   * worker threads for every file; 0 loads everything in-process. Default: defaultThreads(), and below 4 cores (no
   * worker for babel) one worker for the files a tree-sitter grammar reads when a load has IN_PROCESS_BELOW of them.
   */
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
/** While workers run, this thread loads its own share in slices of about this long, then lets their answers in. */
const SLICE_MS = 10;

interface Chunk {
  paths: RelPath[];
  known: (KnownFacts | null)[];
  done(results: LoadedFile[]): void;
}

const isGrammarFile = (path: RelPath): boolean => Boolean(languageOf(path)?.grammar);
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A worker thread or a worker process, as the pool drives it. */
interface WorkerChannel {
  post(request: WorkerRequest): void;
  /** keeps the event loop alive while answers are due */
  ref(): void;
  unref(): void;
  /** ends it; resolves once it is gone */
  end(): Promise<void>;
}

interface WorkerEvents {
  message(response: WorkerResponse): void;
  /** it died, failed to start, or its channel broke */
  gone(): void;
}

interface PoolWorker {
  worker: WorkerChannel;
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
function workerUrl(override: URL | undefined): URL {
  const here = import.meta.url;
  return override ?? new URL(here.endsWith('.ts') ? './worker.ts' : './worker.js', here);
}

/** tsx's loader as a module specifier (unresolved, it is left to the worker, which fails: the pool loads in-process) */
function tsxSpecifier(name: string): string {
  try {
    return import.meta.resolve(name);
  } catch {
    return name;
  }
}

function workerLaunch(override: URL | undefined): WorkerLaunch {
  const url = workerUrl(override);
  if (!url.pathname.endsWith('.ts')) return { script: url, eval: false };
  const bootstrap = `import(${JSON.stringify(tsxSpecifier('tsx/esm/api'))}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`;
  return { script: bootstrap, eval: true };
}

function startThread(setup: WorkerSetup, override: URL | undefined, on: WorkerEvents): WorkerChannel {
  const launch = workerLaunch(override);
  const worker = new Worker(launch.script, { workerData: setup, eval: launch.eval, ...(launch.eval ? { execArgv: [] } : {}) });
  worker.on('message', on.message);
  worker.on('error', on.gone);
  worker.on('exit', on.gone);
  return {
    post: (request) => worker.postMessage(request),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    end: async () => {
      await worker.terminate();
    },
  };
}

/**
 * The young generation of a worker process, in MB per semi-space (V8's default grows to 16). What it allocates lives
 * for one batch; with the default its heap grows to ~45 MB, with 2 MB to ~20 MB, at the same parse time (10,000-file
 * Go tree, 2 cores: the worker process' RSS 141-160 MB with the default, 110-114 MB with 2).
 */
const PROCESS_SEMI_SPACE_MB = 2;

/**
 * A worker process: the same worker script, its setup as the one argument, requests and answers through the IPC
 * channel with V8's serializer (as postMessage). No inherited node options (an --inspect port would clash).
 */
function startProcess(setup: WorkerSetup, override: URL | undefined, on: WorkerEvents): WorkerChannel {
  const url = workerUrl(override);
  const execArgv = [`--max-semi-space-size=${PROCESS_SEMI_SPACE_MB}`, ...(url.pathname.endsWith('.ts') ? ['--import', tsxSpecifier('tsx/esm')] : [])];
  const child: ChildProcess = fork(fileURLToPath(url), [JSON.stringify(setup)], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  child.on('message', on.message as (message: unknown) => void);
  child.on('error', on.gone);
  child.on('exit', on.gone);
  return {
    post: (request) => {
      const broken = (): void => {
        child.kill();
        on.gone();
      };
      if (child.connected) child.send(request, (error) => error && broken());
      else broken();
    },
    ref: () => {
      child.ref();
      child.channel?.ref();
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
    end: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.ref();
      child.kill();
      await exited;
    },
  };
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
  // no worker for every file: the tree-sitter files of a large load still get one (see the module's comment)
  const grammarWorker = opts.threads === undefined && threads === 0;
  const workerCount = threads > 0 ? threads : grammarWorker ? 1 : 0;
  const setup: WorkerSetup = { root, maxFileBytes: opts.maxFileBytes, walked: opts.walked === true };
  const workers: PoolWorker[] = [];
  const queue: Chunk[] = [];
  let nextId = 0;
  let closed = false;
  const stats: ParsePoolStats = { workerFiles: 0, inProcessFiles: 0, workerFailures: 0 };
  // one copy of each short string of the workers' results (postMessage copies every one)
  const strings = new Map<string, string>();

  const loadInProcess = ({ paths, known }: Pick<Chunk, 'paths' | 'known'>): LoadedFile[] => {
    stats.inProcessFiles += paths.length;
    return paths.map((path, i) => loadFile(root, path, { maxFileBytes: opts.maxFileBytes, known: known[i], walked: setup.walked }));
  };
  /** a worker's chunk loaded here after all (it died, or none is left): its grammars first, which this thread may lack */
  const takeBack = (chunk: Chunk): void => {
    void prepareGrammars(chunk.paths).then(() => chunk.done(loadInProcess(chunk)));
  };

  function dispatch(): void {
    for (const pw of workers) {
      while (!pw.dead && pw.inFlight.size < CHUNKS_IN_FLIGHT && queue.length > 0) {
        const chunk = queue.shift()!;
        const id = nextId++;
        pw.inFlight.set(id, chunk);
        pw.worker.ref();
        const request: WorkerRequest = { id, paths: chunk.paths, known: chunk.known };
        pw.worker.post(request);
      }
    }
    // no live worker left (all crashed, or the pool was closed): finish in-process
    if (queue.length > 0 && !workers.some((pw) => !pw.dead)) {
      for (const chunk of queue.splice(0)) takeBack(chunk);
    }
  }

  function retire(pw: PoolWorker): void {
    if (pw.dead) return;
    pw.dead = true;
    if (!closed) stats.workerFailures++;
    workers.splice(workers.indexOf(pw), 1);
    const orphans = [...pw.inFlight.values()];
    pw.inFlight.clear();
    for (const chunk of orphans) takeBack(chunk);
    dispatch();
  }

  function spawn(): void {
    const pw = { inFlight: new Map(), dead: false } as PoolWorker;
    const events: WorkerEvents = {
      message: (response) => {
        const chunk = pw.inFlight.get(response?.id);
        if (!chunk) return;
        pw.inFlight.delete(response.id);
        if (Array.isArray(response.results) && response.results.length === chunk.paths.length) {
          stats.workerFiles += response.results.length;
          chunk.done(sharedStrings(response.results, strings));
        } else {
          takeBack(chunk);
        }
        if (pw.inFlight.size === 0) pw.worker.unref();
        dispatch();
      },
      gone: () => retire(pw),
    };
    try {
      pw.worker = (grammarWorker ? startProcess : startThread)(setup, opts.workerScript, events);
    } catch {
      return; // no workers: everything runs in-process
    }
    pw.worker.unref();
    workers.push(pw);
  }

  return {
    async load(paths, onProgress, knownByPath) {
      const total = paths.length;
      const known = paths.map((p) => knownByPath?.get(p) ?? null);
      // workers that keep dying are not started again
      const workersUsable = !closed && workerCount > 0 && stats.workerFailures < workerCount * 2 && total >= IN_PROCESS_BELOW;
      // which files the workers load (positions in `paths`): every file, or with grammarWorker the tree-sitter ones
      let toWorkers: number[] = [];
      const here: number[] = [];
      if (workersUsable) {
        for (let i = 0; i < total; i++) (threads > 0 || isGrammarFile(paths[i]) ? toWorkers : here).push(i);
        if (toWorkers.length < IN_PROCESS_BELOW) toWorkers = [];
      }
      if (toWorkers.length === 0) {
        // the tree-sitter grammars these files need, loaded before parsing (which is synchronous)
        await prepareGrammars(paths);
        const results: LoadedFile[] = [];
        for (let i = 0; i < total; i++) {
          results.push(loadFile(root, paths[i], { maxFileBytes: opts.maxFileBytes, known: known[i], walked: setup.walked }));
          onProgress?.(results.length, total);
        }
        stats.inProcessFiles += total;
        return results;
      }
      if (workers.length === 0) for (let i = 0; i < workerCount; i++) spawn();

      const results: LoadedFile[] = new Array(total);
      let done = 0;
      return new Promise<LoadedFile[]>((resolve) => {
        const settle = (at: readonly number[], loaded: LoadedFile[]): void => {
          for (let k = 0; k < loaded.length; k++) results[at[k]] = loaded[k];
          done += loaded.length;
          onProgress?.(done, total);
          if (done === total) resolve(results);
        };
        // enough chunks to keep every worker busy to the end, none larger than MAX_CHUNK
        const size = Math.max(1, Math.min(MAX_CHUNK, Math.ceil(toWorkers.length / (Math.max(1, workers.length) * 4))));
        for (let offset = 0; offset < toWorkers.length; offset += size) {
          const at = toWorkers.slice(offset, offset + size);
          queue.push({ paths: at.map((i) => paths[i]), known: at.map((i) => known[i]), done: (loaded) => settle(at, loaded) });
        }
        dispatch();
        // the rest here, in slices, so that the workers' answers come in and they get their next chunks meanwhile
        if (here.length === 0) return;
        void (async () => {
          await prepareGrammars(here.map((i) => paths[i]));
          let since = performance.now();
          for (const i of here) {
            settle([i], loadInProcess({ paths: [paths[i]], known: [known[i]] }));
            if (performance.now() - since >= SLICE_MS) {
              await nextTurn();
              since = performance.now();
            }
          }
        })();
      });
    },

    stats() {
      return { ...stats };
    },

    async close() {
      closed = true;
      strings.clear();
      await Promise.all(
        [...workers].map(async (pw) => {
          await pw.worker.end();
          retire(pw);
        }),
      );
    },
  };
}
