/**
 * The background worker the hooks start (`node worker.js <root>`, detached, no stdio): holds the project's worker role
 * (the hook claimed `.planning/intel/worker.pid` for it) and follows the journal with the engine
 * (engine/src/pipeline/follow.ts): drains it until it is empty, then stays for an idle window
 * (`intel.workerIdleSeconds`, default 120 s) waiting for the next entry, so that an edit finds the engine warm. It is
 * the only hook-side code that loads the engine's pipeline and sql.js. While the shared MCP server follows the
 * project for its sessions, it holds the role and hooks start no worker.
 */
import './wasm-baseline.js';
import { statSync } from 'node:fs';
import { fileIdentity, followJournal, readIntelConfig, releasePidFile } from '../../engine/src/index.js';
import { describeError, logNote } from './log.js';

/** one drain never takes longer than this, whatever happens (a build of a huge project included) */
const MAX_DRAIN_MS = 30 * 60_000;
/** after this long a worker stops waiting for more edits once the journal is empty (a fresh one starts on the next) */
const MAX_LINGER_LIFE_MS = 60 * 60_000;
const DEFAULT_IDLE_MS = 120_000;
const debug = process.env.GSD_HOOK_DEBUG === '1';

/** The idle window: `GSD_WORKER_IDLE_MS` (tests), else `intel.workerIdleSeconds`; a broken config gives the default. */
function idleWindowMs(root: string): number {
  const env = process.env.GSD_WORKER_IDLE_MS;
  if (env !== undefined && env !== '' && Number.isFinite(Number(env)) && Number(env) >= 0) return Number(env);
  try {
    return readIntelConfig(root).workerIdleSeconds * 1000;
  } catch {
    return DEFAULT_IDLE_MS; // the drain reports the broken config
  }
}

/** The worker script as it was when this process started: a reinstall or an upgrade replaces it. */
function scriptStamp(): string {
  try {
    return fileIdentity(statSync(process.argv[1]));
  } catch {
    return 'gone';
  }
}
const startedAs = scriptStamp();

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root) return;
  const note = (message: string, error?: unknown) => logNote(root, 'worker', error === undefined ? message : `${message}: ${describeError(error)}`);
  await followJournal(root, {
    idleMs: idleWindowMs(root),
    maxLifeMs: MAX_LINGER_LIFE_MS,
    // a worker of the new version takes the next edit, rather than this one loading the new version's modules lazily
    stillValid: () => scriptStamp() === startedAs,
    stuckAfterMs: MAX_DRAIN_MS,
    onStuck: () => {
      logNote(root, 'worker', `gave up after ${MAX_DRAIN_MS} ms in one drain; the journal stays for the next reader`);
      releasePidFile(root);
      process.exit(0);
    },
    note,
    debug: debug ? note : undefined,
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    logNote(process.argv[2] ?? null, 'worker', `internal error: ${describeError(error)}`);
    process.exit(0);
  },
);
