/**
 * Spawn rules (which agents run for an intent, in which stages), the plan they flatten to, and the spawn queue with
 * its history. The rules to keep exactly (docs/planning.md, "Spawn rules and the queue"):
 * - flattening: each `before` agent takes the next order number (sequential); all `beforeParallel` agents share one
 *   number (parallel); then `main`, then `after`, one number each (sequential); then all `afterParallel` agents share
 *   one number (parallel);
 * - stage skipping: `plan_phase` skips the before stages when `skipResearch` or `hasResearch`, and the after stages
 *   when `skipVerify`; `execute_phase` skips the after stages when `skipVerify`; `debug_issue` skips the after stages
 *   when `planFix` is false;
 * - queue items go pending → completed | failed | skipped; history records enqueue, complete and set_rule.
 */
import { checkId, newId } from './ids.js';
import { isoTime, PlanningError, SPAWN_STAGES, type ClosedStatus, type GsdState, type HistoryEvent, type SpawnItem, type SpawnOptions, type SpawnRule, type SpawnStage, type SpawnStep } from './types.js';

/** The rules this package ships, naming the agents in its `agents/` folder. A project's `set_rule` overrides one. */
export const DEFAULT_SPAWN_RULES: Readonly<Record<string, SpawnRule>> = Object.freeze({
  plan_phase: {
    before: [],
    beforeParallel: ['gsd-codebase-mapper'],
    main: ['gsd-planner'],
    after: ['gsd-plan-checker'],
    afterParallel: [],
    notes: 'Research: the mapper sharpens the purpose of the files the phase touches. The planner writes the PLAN.md files; the checker reviews them and a blocking issue goes back to the planner.',
  },
  execute_phase: {
    before: [],
    beforeParallel: [],
    main: ['gsd-executor'],
    after: ['gsd-verifier'],
    afterParallel: [],
    notes: 'One executor per plan, each under a lease on its files_modified; plans of one wave run in parallel. The verifier then checks the phase goal.',
  },
  verify_work: {
    before: [],
    beforeParallel: [],
    main: ['gsd-verifier'],
    after: [],
    afterParallel: [],
    notes: 'The verifier checks must-haves, success criteria and requirements with evidence and writes VERIFICATION.md.',
  },
  debug_issue: {
    before: [],
    beforeParallel: ['gsd-codebase-mapper'],
    main: ['gsd-verifier'],
    after: ['gsd-planner', 'gsd-plan-checker'],
    afterParallel: [],
    notes: 'The verifier gathers evidence of the failing behaviour (expected vs found). With planFix the planner writes a fix plan and the checker reviews it.',
  },
});

export const MAX_AGENTS_PER_STAGE = 20;
export const MAX_NOTES_CHARS = 2_000;
export const MAX_PENDING_ITEMS = 500;
export const HISTORY_MAX_LIMIT = 200;
const MAX_NOTE_CHARS = 2_000;
const CLOSED: readonly ClosedStatus[] = ['completed', 'failed', 'skipped'];

/** Flattens a rule into ordered steps (see the module comment). Empty stages take no number. */
export function flattenRule(rule: SpawnRule, skip: ReadonlySet<SpawnStage> = new Set()): SpawnStep[] {
  const steps: SpawnStep[] = [];
  let order = 0;
  for (const stage of SPAWN_STAGES) {
    const agents = skip.has(stage) ? [] : rule[stage];
    if (!agents.length) continue;
    if (stage === 'beforeParallel' || stage === 'afterParallel') {
      order += 1;
      for (const agent of agents) steps.push({ order, stage, mode: 'parallel', agent });
    } else {
      for (const agent of agents) steps.push({ order: ++order, stage, mode: 'sequential', agent });
    }
  }
  return steps;
}

const BEFORE: SpawnStage[] = ['before', 'beforeParallel'];
const AFTER: SpawnStage[] = ['after', 'afterParallel'];

/** The stages `options` skip for `intent` (see the module comment); other intents skip nothing. */
export function skippedStages(intent: string, options: SpawnOptions = {}): Set<SpawnStage> {
  const skip = new Set<SpawnStage>();
  const add = (stages: SpawnStage[]) => stages.forEach((s) => skip.add(s));
  if (intent === 'plan_phase') {
    if (options.skipResearch === true || options.hasResearch === true) add(BEFORE);
    if (options.skipVerify === true) add(AFTER);
  } else if (intent === 'execute_phase') {
    if (options.skipVerify === true) add(AFTER);
  } else if (intent === 'debug_issue') {
    if (options.planFix === false) add(AFTER);
  }
  return skip;
}

/** Checks the known option flags are booleans; other keys pass through. */
export function checkOptions(options: unknown): SpawnOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new PlanningError('options must be an object, e.g. {"skipVerify": true}');
  for (const key of ['skipResearch', 'hasResearch', 'skipVerify', 'planFix']) {
    const v = (options as Record<string, unknown>)[key];
    if (v !== undefined && typeof v !== 'boolean') throw new PlanningError(`options.${key} must be true or false`);
  }
  return options as SpawnOptions;
}

/** Every intent with a rule: the defaults and the project's own, with where each comes from. */
export function listRules(state?: Pick<GsdState, 'spawnRules'>): Array<{ intent: string; source: 'default' | 'project'; rule: SpawnRule }> {
  const intents = [...new Set([...Object.keys(DEFAULT_SPAWN_RULES), ...Object.keys(state?.spawnRules ?? {})])].sort();
  return intents.map((intent) => {
    const own = state && Object.hasOwn(state.spawnRules, intent) ? state.spawnRules[intent] : undefined;
    return { intent, source: own ? 'project' : 'default', rule: own ?? DEFAULT_SPAWN_RULES[intent] };
  });
}

export function ruleFor(intent: string, state?: Pick<GsdState, 'spawnRules'>): { rule: SpawnRule; source: 'default' | 'project' } {
  checkId('intent', intent);
  const found = listRules(state).find((r) => r.intent === intent);
  if (!found) throw new PlanningError(`no spawn rule for intent "${intent}"`, `Known intents: ${listRules(state).map((r) => r.intent).join(', ')}. Add one with action set_rule.`);
  return found;
}

export interface SpawnPlan {
  intent: string;
  source: 'default' | 'project';
  steps: SpawnStep[];
  skipped: SpawnStage[];
  notes: string;
}

/** The ordered agents to spawn for `intent` under `options` (the project's rule when it set one). */
export function resolveSpawnPlan(intent: string, options: SpawnOptions = {}, state?: Pick<GsdState, 'spawnRules'>): SpawnPlan {
  const { rule, source } = ruleFor(intent, state);
  const skip = skippedStages(intent, checkOptions(options));
  return { intent, source, steps: flattenRule(rule, skip), skipped: SPAWN_STAGES.filter((s) => skip.has(s) && rule[s].length > 0), notes: rule.notes };
}


function record(state: GsdState, event: Omit<HistoryEvent, 'at'>, now: number): void {
  state.history.push({ at: isoTime(now), ...event });
}

/** Checks a rule given by a caller; every stage a list of agent ids (missing stages are empty). */
export function checkRule(rule: unknown): SpawnRule {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new PlanningError('rule must be an object with before, beforeParallel, main, after, afterParallel (agent id lists) and notes');
  const r = rule as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !(SPAWN_STAGES as readonly string[]).includes(k) && k !== 'notes');
  if (unknown.length) throw new PlanningError(`rule has unknown field(s) ${unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`, `Stages: ${SPAWN_STAGES.join(', ')}; and notes.`);
  const out = { notes: '' } as SpawnRule;
  for (const stage of SPAWN_STAGES) {
    const agents = r[stage] ?? [];
    if (!Array.isArray(agents)) throw new PlanningError(`rule.${stage} must be a list of agent ids`);
    if (agents.length > MAX_AGENTS_PER_STAGE) throw new PlanningError(`rule.${stage} has ${agents.length} agents; at most ${MAX_AGENTS_PER_STAGE}`);
    out[stage] = agents.map((a) => checkId(`agent in rule.${stage}`, a));
  }
  if (r.notes !== undefined && typeof r.notes !== 'string') throw new PlanningError('rule.notes must be a string');
  out.notes = String(r.notes ?? '').slice(0, MAX_NOTES_CHARS);
  if (!SPAWN_STAGES.some((s) => out[s].length)) throw new PlanningError('rule names no agent', 'Put at least one agent id in main.');
  return out;
}

/** Sets the project's rule for an intent (overriding a default one). */
export function setRule(state: GsdState, intent: string, rule: unknown, now: number): SpawnRule {
  checkId('intent', intent);
  const checked = checkRule(rule);
  state.spawnRules[intent] = checked;
  record(state, { type: 'set_rule', intent }, now);
  return checked;
}

/** Queues every step of the resolved plan as pending items of one batch. */
export function enqueuePlan(state: GsdState, intent: string, options: SpawnOptions = {}, now: number, context?: Record<string, unknown>): SpawnItem[] {
  const plan = resolveSpawnPlan(intent, options, state);
  if (!plan.steps.length) throw new PlanningError(`the spawn plan of "${intent}" is empty with these options (skipped: ${plan.skipped.join(', ') || 'none'})`, 'Nothing to queue.');
  const pending = state.queue.filter((i) => i.status === 'pending').length;
  if (pending + plan.steps.length > MAX_PENDING_ITEMS) {
    throw new PlanningError(`${pending} items are pending; the queue holds at most ${MAX_PENDING_ITEMS}`, 'Complete, fail or skip pending items first (action complete).');
  }
  const batch = newId('B');
  const items = plan.steps.map((step): SpawnItem => ({
    id: newId('S'),
    batch,
    intent,
    agent: step.agent,
    stage: step.stage,
    order: step.order,
    mode: step.mode,
    status: 'pending',
    enqueuedAt: isoTime(now),
    ...(context && Object.keys(context).length ? { context } : {}),
  }));
  state.queue.push(...items);
  for (const item of items) record(state, { type: 'enqueue', intent, spawnId: item.id, batch, agent: item.agent }, now);
  return items;
}

/** Closes a pending item. An unknown id answers `item: null` with a message saying so (nothing changes). */
export function completeItem(
  state: GsdState,
  input: { spawnId: unknown; status: unknown; note?: string },
  now: number,
): { item: SpawnItem | null; message: string } {
  const status = input.status ?? 'completed';
  if (!CLOSED.includes(status as ClosedStatus)) throw new PlanningError(`completionStatus must be one of ${CLOSED.join(', ')}`);
  if (typeof input.spawnId !== 'string' || !input.spawnId) throw new PlanningError('spawnId is missing', 'Pass the id of a queue item (action queue lists them).');
  const item = state.queue.find((i) => i.id === input.spawnId);
  if (!item) return { item: null, message: `no queue item ${JSON.stringify(input.spawnId.slice(0, 40))}: nothing was completed (see action queue for the pending ones)` };
  if (item.status !== 'pending') throw new PlanningError(`queue item ${item.id} is already ${item.status} (${item.closedAt})`, 'Only pending items can be completed.');
  item.status = status as ClosedStatus;
  item.closedAt = isoTime(now);
  if (input.note !== undefined) item.note = String(input.note).slice(0, MAX_NOTE_CHARS);
  record(state, { type: 'complete', intent: item.intent, spawnId: item.id, batch: item.batch, agent: item.agent, status: item.status, ...(item.note ? { note: item.note.slice(0, 200) } : {}) }, now);
  return { item, message: `${item.agent} (${item.id}) is ${item.status}` };
}

/**
 * The newest `limit` history events (default: every one the store keeps, at most 200), newest FIRST: an answer cut
 * by its token budget keeps the most recent events.
 */
export function historyEvents(state: GsdState, limit: number = HISTORY_MAX_LIMIT): HistoryEvent[] {
  const n = Number.isFinite(limit) ? Math.max(1, Math.min(HISTORY_MAX_LIMIT, Math.floor(limit))) : HISTORY_MAX_LIMIT;
  return state.history.slice(-n).reverse();
}
