#!/usr/bin/env node
/**
 * PostToolUse hook (matcher `Write|Edit|MultiEdit|NotebookEdit`): records the edited file in the project's capture
 * journal and makes sure a background worker drains it. It parses nothing and never loads sql.js, so it blocks
 * Claude Code for about as long as starting Node does. The project is the nearest folder above THE FILE holding
 * `.planning/` (monorepos, git worktrees), not the session cwd.
 */
import path from 'node:path';
import { appendJournal } from '../../engine/src/journal.js';
import { leaseNotice } from '../../engine/src/planning/lease-check.js';
import { findProjectRoot } from '../../engine/src/root.js';
import { captureEnabled, captureKind, ensureWorker } from './capture.js';
import { runHook, scanStringField, stringField, type HookContext } from './run-hook.js';

/** The tools that write files (MultiEdit is gone from Claude Code 2.1.330 but older versions send it). */
const WRITERS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Generous: the work is a few stat calls and one append; only a stdin that never closes can reach it. */
const DEADLINE_MS = 3_000;

let recorded = false;

function record(root: string, entry: { path?: string; refresh?: boolean; source: string }): void {
  appendJournal(root, [{ ...entry, at: Date.now() }]);
  recorded = true;
}

function capturingRoot(ctx: HookContext, start: string): string | null {
  const root = findProjectRoot(start);
  if (!root) return null; // projects without .planning/ are left alone, silently
  ctx.root = root;
  const capture = captureEnabled(root);
  if (capture.problem) ctx.note(capture.problem);
  return capture.enabled ? root : null;
}

/** The edit lies inside another session's active lease (planning/lease-check.ts): tell the model which and until when. */
function leaseOutput(root: string | null, absolute: string, session: string | undefined): object | undefined {
  const text = root ? leaseNotice(root, absolute, session) : null;
  return text ? { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } } : undefined;
}

function run(ctx: HookContext): object | undefined {
  const absolute = capture(ctx);
  if (!absolute) return undefined;
  const session = ctx.input ? stringField(ctx.input, 'session_id') : scanStringField(ctx.raw, 'session_id');
  return leaseOutput(ctx.root ?? findProjectRoot(absolute), absolute, session);
}

/** Records the edit in the journal; returns the absolute path of the edited file, if any. */
function capture(ctx: HookContext): string | undefined {
  const { input } = ctx;
  let tool: string | undefined;
  let file: string | undefined;
  let cwd: string | undefined;
  if (input) {
    tool = stringField(input, 'tool_name');
    cwd = stringField(input, 'cwd');
    const toolInput = input.tool_input;
    file = stringField(toolInput, 'file_path') ?? stringField(toolInput, 'notebook_path');
  } else if (ctx.truncated) {
    // too big to keep whole (a Write of a large file): the path is near the start
    tool = scanStringField(ctx.raw, 'tool_name');
    cwd = scanStringField(ctx.raw, 'cwd');
    file = scanStringField(ctx.raw, 'file_path') ?? scanStringField(ctx.raw, 'notebook_path');
  }
  if (!file) {
    ctx.root = findProjectRoot(cwd ?? process.cwd());
    if (!input && !ctx.truncated) ctx.note(`ignored: ${ctx.problem}`);
    else ctx.note(`ignored: no tool_input.file_path or notebook_path (tool ${JSON.stringify(tool ?? null)})`);
    return;
  }
  if (tool !== undefined && !WRITERS.has(tool)) {
    // e.g. a matcher of "*": reads and searches change nothing
    ctx.root = findProjectRoot(cwd ?? process.cwd());
    ctx.note(`ignored: tool ${JSON.stringify(tool)} does not write files`);
    return;
  }
  const absolute = path.resolve(cwd ?? process.cwd(), file);
  const root = capturingRoot(ctx, absolute);
  if (!root) return absolute;
  const kind = captureKind(root, absolute);
  if (!kind) return absolute;
  const source = `PostToolUse:${tool ?? '?'}`;
  record(root, kind === 'refresh' ? { refresh: true, source } : { path: absolute, source });
  const worker = ensureWorker(root);
  if (worker === 'failed') ctx.note('could not start the background worker; the next reader drains the journal');
  return absolute;
}

runHook({
  name: 'PostToolUse',
  deadlineMs: DEADLINE_MS,
  run,
  fallbackRoot: () => findProjectRoot(process.cwd()),
  onDeadline: (ctx) => {
    if (recorded) return;
    // We do not know which file changed: ask for a stat-based refresh of the session's project, which finds it.
    const root = findProjectRoot(process.cwd());
    if (root && captureEnabled(root).enabled) {
      if (ctx) ctx.root = root;
      record(root, { refresh: true, source: 'PostToolUse:deadline' });
      ensureWorker(root);
    }
  },
});
