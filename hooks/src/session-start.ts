#!/usr/bin/env node
/**
 * SessionStart hook (no matcher: startup, resume, clear, compact and fork). Records a refresh request in the capture
 * journal (the background worker then runs a stat-based catch-up with whatever changed outside Claude: git checkout,
 * Bash, another editor) and returns a compact summary of the intel as `additionalContext`. On a project without intel
 * it starts the build in the background and waits for it up to a budget; if the build takes longer, it says so.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { appendJournal, hasPendingJournal } from '../../engine/src/journal.js';
import { findProjectRoot } from '../../engine/src/root.js';
import { captureEnabled, ensureWorker, workerAlive } from './capture.js';
import { sessionContext } from './context.js';
import { runHook, stringField, type HookContext } from './run-hook.js';

/** How long a first build may make the session wait before it goes on in the background (GSD_HOOK_BUILD_BUDGET_MS). */
const BUILD_BUDGET_MS = budget(process.env.GSD_HOOK_BUILD_BUDGET_MS, 3_000);
const DEADLINE_MS = BUILD_BUDGET_MS + 3_000;

function budget(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 60_000) : fallback;
}

let recorded = false;

function intelFile(root: string, name: string): string {
  return path.join(root, '.planning', 'intel', name);
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function mtime(file: string): Date | null {
  try {
    return statSync(file).mtime;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (up to the budget) for the first build: index.json written and the journal drained. */
async function waitForBuild(root: string, budgetMs: number): Promise<boolean> {
  const until = Date.now() + budgetMs;
  for (;;) {
    if (mtime(intelFile(root, 'index.json')) && !hasPendingJournal(root)) return true;
    if (Date.now() >= until || !workerAlive(root)) return mtime(intelFile(root, 'index.json')) !== null && !hasPendingJournal(root);
    await sleep(Math.min(50, Math.max(1, until - Date.now())));
  }
}

async function run(ctx: HookContext): Promise<object | void> {
  const { input } = ctx;
  if (!input) {
    ctx.root = findProjectRoot(process.cwd());
    ctx.note(`ignored: ${ctx.problem}`);
    return;
  }
  const cwd = stringField(input, 'cwd') ?? process.cwd();
  const source = stringField(input, 'source') ?? 'unknown';
  const root = findProjectRoot(path.resolve(cwd));
  if (!root) return; // no .planning/: not a GSD project, stay silent
  ctx.root = root;
  const capture = captureEnabled(root);
  if (capture.problem) ctx.note(capture.problem);
  const hadIntel = mtime(intelFile(root, 'index.json')) !== null;
  let building = false;
  if (capture.enabled) {
    appendJournal(root, [{ refresh: true, at: Date.now(), source: `SessionStart:${source}` }]);
    recorded = true;
    const worker = ensureWorker(root);
    if (worker === 'failed') ctx.note('could not start the background worker; the next reader drains the journal');
    if (!hadIntel) building = !(await waitForBuild(root, BUILD_BUDGET_MS));
  }
  const summary = building ? null : readText(intelFile(root, 'summary.md'));
  const text = sessionContext({
    root,
    summary,
    updatedAt: mtime(intelFile(root, 'index.json')),
    now: new Date(),
    refreshing: capture.enabled,
    building: capture.enabled,
  });
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
}

runHook({
  name: 'SessionStart',
  deadlineMs: DEADLINE_MS,
  run,
  fallbackRoot: () => findProjectRoot(process.cwd()),
  onDeadline: (ctx) => {
    if (recorded) return;
    const root = ctx?.root ?? findProjectRoot(process.cwd());
    if (root && captureEnabled(root).enabled) {
      appendJournal(root, [{ refresh: true, at: Date.now(), source: 'SessionStart:deadline' }]);
      ensureWorker(root);
    }
  },
});
