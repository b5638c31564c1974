/**
 * Parse worker (worker_threads): receives batches of project-relative paths, answers with their LoadedFile results.
 * Imports only the parse code so that starting a worker stays cheap.
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

const setup = workerData as WorkerSetup;

parentPort?.on('message', async (request: WorkerRequest) => {
  await prepareGrammars(request.paths);
  const results = request.paths.map((path, i) => loadFile(setup.root, path, { maxFileBytes: setup.maxFileBytes, known: request.known[i], walked: setup.walked }));
  const response: WorkerResponse = { id: request.id, results };
  parentPort!.postMessage(response);
});
