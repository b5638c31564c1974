/**
 * What the planning tools (state, lease, agent, skill, and the planning tools of /gsd: workflows) share: one
 * StateStore per project, the planning domain's refusals turned into tool errors, the lease holder of a call and
 * the project's indexed files for lease overlap.
 */
import os from 'node:os';
import { z } from 'zod';
import { PlanningError, StateStore } from '../../engine/src/index.js';
import type { Project, ServerContext } from './context.js';
import { ToolInputError } from './result.js';
import { withInstalledAgentNames } from './adapters/assets.js';

/** annotations of planning tools: they write `.planning/gsd-state.json`; the destructive ones overwrite or delete entries */
export const WRITES_DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, openWorldHint: false } as const;
export const WRITES_ADDITIVE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

/**
 * The output of a planning tool: the action's answer and the store's notice. One envelope for every action keeps the
 * published tools/list small (these tools have many actions); each action's answer is documented in docs/planning.md.
 */
export const PLANNING_OUTPUT = {
  result: z.record(z.string(), z.unknown()).optional().describe("the action's answer; notice: what the store reports (a corrupt file moved aside)"),
};

export type PlanningAnswer = { result?: Record<string, unknown> };

/** `{result}` with `result.notice` when there is something to report */
export function answer(result: object, ...notices: Array<string | undefined>): PlanningAnswer {
  const notice = notices.filter(Boolean).join(' ');
  // spawn plans, rules and queues name our agents as this install named them (gsdcc-* beside upstream GSD)
  const named = withInstalledAgentNames(result);
  return { result: notice ? { ...named, notice } : (named as Record<string, unknown>) };
}

const stores = new WeakMap<Project, StateStore>();

/** The project's planning state store (one per open project). */
export function stateStore(project: Project): StateStore {
  let store = stores.get(project);
  if (!store) {
    store = new StateStore(project.root);
    stores.set(project, store);
  }
  return store;
}

/** Runs a planning operation; a refusal of the domain (bad id, overlap, corrupt or unwritable file) becomes a tool error with its hint. */
export async function planning<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof PlanningError) throw new ToolInputError(error.message, error.hint);
    throw error;
  }
}

/** The Claude Code session of this server process, when Claude Code passed it on. */
export function sessionOf(ctx: ServerContext): string | undefined {
  return ctx.env.CLAUDE_CODE_SESSION_ID || undefined;
}

/** Who takes or renews a lease: the `holder` argument, else the session, else this process. */
export function holderOf(ctx: ServerContext, holder: string | undefined): string {
  return holder || sessionOf(ctx) || `pid:${process.pid}@${os.hostname()}`;
}

/** The project's indexed files (project-relative), or none when there is no intel yet (then `problem` says so). */
export async function indexedFiles(project: Project): Promise<{ files: string[]; problem?: string }> {
  try {
    const reader = await project.intel.open();
    return { files: [...reader.nodes.values()].map((n) => n.path) };
  } catch (error) {
    return { files: [], problem: `overlap decided on the globs only: ${(error as Error).message}` };
  }
}
