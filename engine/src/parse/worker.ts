/**
 * Parse worker, a worker thread or a child process (pool.ts): receives batches of project-relative paths, answers with
 * their LoadedFile results. Imports only the parse code so that starting a worker stays cheap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { KnownFacts, LoadedFile, RelPath } from '../types.js';
import { prepareGrammars } from '../languages/parse.js';
import { loadFile } from './load-file.js';

export interface WorkerSetup {
  root: string;
  maxFileBytes: number;
  /** LoadFileOptions.walked for every path */
  walked: boolean;
}

export interface WorkerRequest {
  id: number;
  paths: RelPath[];
  /** per path (same order): the facts of its last indexed content, or null */
  known: (KnownFacts | null)[];
}

export interface WorkerResponse {
  id: number;
  results: LoadedFile[];
}

/** a thread gets its setup as workerData, a process as its one argument */
const setup = (parentPort ? workerData : JSON.parse(process.argv[2] ?? '{}')) as WorkerSetup;

async function answer(request: WorkerRequest): Promise<WorkerResponse> {
  await prepareGrammars(request.paths);
  const results = request.paths.map((path, i) => loadFile(setup.root, path, { maxFileBytes: setup.maxFileBytes, known: request.known[i], walked: setup.walked }));
  return { id: request.id, results };
}

if (parentPort) {
  parentPort.on('message', async (request: WorkerRequest) => parentPort!.postMessage(await answer(request)));
} else if (process.send) {
  process.on('message', async (request: WorkerRequest) => process.send?.(await answer(request)));
  // the pool closed or its process died: nothing is left to answer for
  process.on('disconnect', () => process.exit(0));
}
