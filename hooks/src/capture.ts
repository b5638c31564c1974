/**
 * What the hooks share besides the runner: the cheap "could this file be indexed?" test, the `intel.capture` switch,
 * and starting at most one background worker per project. Imports nothing but node built-ins: this runs inside the
 * hook process, whose start-up time is the budget.
 */
import { closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimWorkerRole, workerPidPath } from '../../engine/src/worker-role.js';

export { workerAlive } from '../../engine/src/worker-role.js';

/** node:child_process costs a few ms to load: only a hook that really starts a worker pays for it. */
function loadSpawn(): typeof import('node:child_process').spawn {
  return (createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')).spawn;
}

/**
 * The file endings and resolution config names of every language the engine reads (engine/src/languages/registry.ts),
 * written into the bundle by scripts/bundle-hooks.mjs so that the hook loads no engine module; the JS/TS family when
 * this file runs unbundled.
 */
declare const __GSD_LANGUAGES__: { extensions: string[]; configFiles: string[] };
const LANGUAGES =
  typeof __GSD_LANGUAGES__ === 'undefined' ? { extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'], configFiles: [] } : __GSD_LANGUAGES__;
/** The files the engine scans (`.d.ts` and friends end in `.ts`, `.mts`, `.cts`). */
const SOURCE_FILE = new RegExp(`\\.(?:${LANGUAGES.extensions.join('|')})$`, 'i');
/** Files that change how imports resolve: the engine re-resolves the whole project when one of them changes. */
const RESOLUTION_CONFIG = /^(?:tsconfig[^/\\]*\.json|jsconfig\.json|package\.json|pnpm-workspace\.yaml)$/;
const LANGUAGE_CONFIG = new Set(LANGUAGES.configFiles);
/** Folders whose files are never indexed, whatever the configuration says. */
const NEVER_INDEXED = new Set(['node_modules', '.git', '.hg', '.svn']);

export type Capture = 'file' | 'refresh' | null;

/**
 * What an edit of `file` (absolute, inside `root`) asks of the intel: re-read that file, refresh the whole project
 * (the edit changes which files are indexed: `.planning/config.json`, a `.gitignore`), or nothing. A cheap
 * over-approximation: the drain applies the exact filter (include/exclude globs, gitignore, build folders).
 */
export function captureKind(root: string, file: string): Capture {
  const rel = path.relative(root, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(/[\\/]/);
  const base = parts[parts.length - 1];
  if (parts[0] === '.planning') return parts.length === 2 && base === 'config.json' ? 'refresh' : null;
  if (parts.some((p) => NEVER_INDEXED.has(p))) return null;
  if (base === '.gitignore') return 'refresh';
  return SOURCE_FILE.test(base) || RESOLUTION_CONFIG.test(base) || LANGUAGE_CONFIG.has(base) ? 'file' : null;
}

/**
 * `intel.capture` of `.planning/config.json` (default true). Read by hand, without a schema library: only an
 * explicit `false` switches capture off. A config that is not JSON leaves capture on (the drain reports the error).
 */
export function captureEnabled(root: string): { enabled: boolean; problem?: string } {
  let text: string;
  try {
    text = readFileSync(path.join(root, '.planning', 'config.json'), 'utf8');
  } catch {
    return { enabled: true };
  }
  try {
    const json = JSON.parse(text) as { intel?: { capture?: unknown } } | null;
    return { enabled: json?.intel?.capture !== false };
  } catch (error) {
    return { enabled: true, problem: `.planning/config.json is not valid JSON (${(error as Error).message}); capture stays on` };
  }
}

// ---------------------------------------------------------------- the background worker

/** The worker that drains the journal; a sibling of this module both in dist/hooks/src and in a bundle. */
export const WORKER_SCRIPT = fileURLToPath(new URL('./worker.js', import.meta.url));

/**
 * Starts the background worker for `root` unless a live one is recorded in `.planning/intel/worker.pid`.
 * The worker is detached (its own session, no stdio), so it outlives the hook and Claude Code never waits for it.
 * No shell is involved: the only arguments are this Node binary, the worker script and the root.
 */
export function ensureWorker(root: string): 'spawned' | 'running' | 'failed' {
  const fd = claimWorkerRole(root);
  if (fd === null) return 'running';
  let pid: number | undefined;
  try {
    const child = loadSpawn()(process.execPath, [WORKER_SCRIPT, root], { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => {
      // reported through the missing pid below, or the worker's absence: the next hook or reader catches up
    });
    child.unref();
    pid = child.pid;
    if (pid) writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  if (!pid) {
    rmSync(workerPidPath(root), { force: true });
    return 'failed';
  }
  return 'spawned';
}
