import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { entityId, hasPendingJournal, intelPaths } from '../../engine/src/index.js';
import { readGraphRows } from '../../engine/src/store/index.js';
import { repoRoot } from './paths.js';

// The hooks' worker normally waits for more edits once the journal is empty (intel.workerIdleSeconds). Tests wait
// for it to exit (waitForWorkers), so their workers exit at once unless a test sets its own idle window.
process.env.GSD_WORKER_IDLE_MS ??= '0';

/**
 * The built hook scripts, as Claude Code runs them (`node <script>`): the one-file CommonJS bundles that
 * `npm run build` makes (scripts/bundle-hooks.mjs) next to the tsc output.
 */
export const HOOKS = {
  postToolUse: builtHook('post-tool-use'),
  sessionStart: builtHook('session-start'),
};

function builtHook(name: string): string {
  const file = path.join(repoRoot, 'dist', 'hooks', 'src', `${name}.cjs`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (or \`npx tsc -p tsconfig.json && node scripts/bundle-hooks.mjs\`)`);
  return file;
}

export interface HookRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawns a built hook with `stdin` (an object is JSON-encoded) and collects what it prints. */
export function runHookProcess(script: string, stdin: string | object | Buffer, options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.on('error', () => {
      // the hook may exit before reading everything (it never should, but a test must not crash on it)
    });
    child.stdin.end(typeof stdin === 'string' || Buffer.isBuffer(stdin) ? stdin : JSON.stringify(stdin));
  });
}

const common = (cwd: string) => ({
  session_id: 'b3492ee6-1b8a-4c39-9e0e-5f1c2d3e4f50',
  transcript_path: path.join(cwd, '.claude-test', 'b3492ee6.jsonl'),
  cwd,
  prompt_id: 'afc1bedf-0000-4000-8000-000000000000',
  permission_mode: 'acceptEdits',
  effort: { level: 'medium' },
});

/** PostToolUse payloads with the exact shapes Claude Code 2.1.330 sends (../shared/claude-code.md §1.4). */
export const payload = {
  write(cwd: string, file: string, content: string, type: 'create' | 'update', originalFile: string | null = null) {
    return {
      ...common(cwd),
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: file, content },
      tool_response: { type, filePath: file, content, structuredPatch: [], originalFile, userModified: false },
      tool_use_id: 'toolu_01WriteMock',
      duration_ms: 20,
    };
  },
  edit(cwd: string, file: string, oldString: string, newString: string, originalFile: string) {
    return {
      ...common(cwd),
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: file, old_string: oldString, new_string: newString, replace_all: false },
      tool_response: {
        filePath: file,
        oldString,
        newString,
        originalFile,
        structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${oldString}`, `+${newString}`] }],
        userModified: false,
        replaceAll: false,
      },
      tool_use_id: 'toolu_01EditMock',
      duration_ms: 12,
    };
  },
  notebookEdit(cwd: string, notebook: string, newSource: string) {
    return {
      ...common(cwd),
      hook_event_name: 'PostToolUse',
      tool_name: 'NotebookEdit',
      tool_input: { notebook_path: notebook, cell_id: 'cell-1', new_source: newSource, cell_type: 'code', edit_mode: 'replace' },
      tool_response: {
        new_source: newSource,
        old_source: '',
        cell_type: 'code',
        language: 'python',
        edit_mode: 'replace',
        cell_id: 'cell-1',
        error: '',
        notebook_path: notebook,
        original_file: '{}',
        updated_file: '{}',
      },
      tool_use_id: 'toolu_01NotebookMock',
      duration_ms: 9,
    };
  },
  sessionStart(cwd: string, source: 'startup' | 'resume' | 'clear' | 'compact' | 'fork') {
    const { session_id, transcript_path } = common(cwd);
    return { session_id, transcript_path, cwd, hook_event_name: 'SessionStart', source };
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function workerPid(root: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path.join(intelPaths(root).dir, 'worker.pid'), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until the project's background worker has exited and the journal is empty (what a reader would otherwise
 * drain). With `holder` (the pid of a server, shared or in-process, which holds the worker role while a session works
 * in the project and never exits for it; or several): until the journal is empty and no drain holds the intel lock. Not a timing assertion: the
 * cap only turns a hang into a failure.
 */
export async function waitForWorkers(root: string, capMs = 180_000, holder?: number | null | (number | null | undefined)[]): Promise<void> {
  const holders = new Set([holder].flat().filter((p): p is number => typeof p === 'number'));
  const until = Date.now() + capMs;
  for (;;) {
    const pid = workerPid(root);
    const running = pid !== null && alive(pid);
    const claimInProgress = existsSync(path.join(intelPaths(root).dir, 'worker.pid')) && pid === null;
    if (!running && !claimInProgress && !hasPendingJournal(root)) return;
    if (pid !== null && holders.has(pid) && !hasPendingJournal(root) && !existsSync(intelPaths(root).lock)) return;
    if (!running && !claimInProgress && hasPendingJournal(root) && pid !== null) {
      throw new Error(`the worker (pid ${pid}) died and left the journal pending in ${root}`);
    }
    if (Date.now() > until) throw new Error(`background worker of ${root} still busy after ${capMs} ms`);
    await sleep(50);
  }
}

/** Where a root-relative file appears: index.json, graph.db nodes, entities/<id>.md. */
export async function presence(root: string, rel: string) {
  const paths = intelPaths(root);
  const index = JSON.parse(readFileSync(paths.index, 'utf8')) as { files: Record<string, unknown> };
  const graph = await readGraphRows(paths.graph);
  return {
    index: rel in index.files,
    graph: graph.nodes.some((n) => n.path === rel),
    entity: existsSync(path.join(paths.entities, `${entityId(rel)}.md`)),
  };
}

export const everywhere = { index: true, graph: true, entity: true };
export const nowhere = { index: false, graph: false, entity: false };

/** The hook.log of a project ('' when there is none). */
export function hookLog(root: string): string {
  try {
    return readFileSync(intelPaths(root).log, 'utf8');
  } catch {
    return '';
  }
}
