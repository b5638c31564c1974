/**
 * The GSD planning state: one JSON document per project, `.planning/gsd-state.json`, shared by every MCP server
 * process of the project (one per Claude Code session). See docs/planning.md.
 */

/** The format version this code writes; a file with a higher one is refused, never rewritten. */
export const STATE_VERSION = 1;

/** A glob of a lease scope compiled to a regular expression (picomatch), so the hook can match without picomatch. */
export interface LeasePattern {
  source: string;
  flags: string;
}

export interface Lease {
  /** `L-` + 12 hex digits */
  id: string;
  taskId: string;
  /** project-relative paths (a folder covers everything below it) and globs, `/` separators */
  scope: string[];
  /** every scope entry as regular expressions over project-relative paths (a path P becomes P and P/**) */
  patterns: LeasePattern[];
  /** who took it: the `holder` argument, else the Claude Code session id, else `pid:<pid>@<host>` */
  holder: string;
  /** the Claude Code session that took it, when known: the hook stays silent for edits of that session */
  session?: string;
  issuedAt: string;
  expiresAt: string;
  renewals: number;
  returnedAt?: string;
  /** what the holder reported when returning it */
  result?: string;
}

export type SpawnStage = 'before' | 'beforeParallel' | 'main' | 'after' | 'afterParallel';
export const SPAWN_STAGES: readonly SpawnStage[] = ['before', 'beforeParallel', 'main', 'after', 'afterParallel'];

/** Which agents to spawn for an intent, by stage. */
export interface SpawnRule {
  before: string[];
  beforeParallel: string[];
  main: string[];
  after: string[];
  afterParallel: string[];
  notes: string;
}

export interface SpawnStep {
  order: number;
  stage: SpawnStage;
  mode: 'sequential' | 'parallel';
  agent: string;
}

/** Options that decide which stages of a rule run (see `skippedStages`). */
export interface SpawnOptions {
  skipResearch?: boolean;
  hasResearch?: boolean;
  skipVerify?: boolean;
  planFix?: boolean;
  [key: string]: unknown;
}

export type SpawnStatus = 'pending' | 'completed' | 'failed' | 'skipped';
export type ClosedStatus = Exclude<SpawnStatus, 'pending'>;

/** One agent run waiting in (or done from) the spawn queue. */
export interface SpawnItem {
  /** `S-` + 12 hex digits */
  id: string;
  /** all steps queued by one enqueue share it */
  batch: string;
  intent: string;
  agent: string;
  stage: SpawnStage;
  order: number;
  mode: 'sequential' | 'parallel';
  status: SpawnStatus;
  enqueuedAt: string;
  closedAt?: string;
  note?: string;
  /** free-form context of the enqueue (e.g. the phase) */
  context?: Record<string, unknown>;
}

export interface HistoryEvent {
  at: string;
  type: 'enqueue' | 'complete' | 'set_rule';
  intent?: string;
  spawnId?: string;
  batch?: string;
  agent?: string;
  status?: string;
  note?: string;
}

export interface Skill {
  id: string;
  title: string;
  description: string;
  tags: string[];
  registeredAt: string;
  updatedAt: string;
}

/** A refinement the `evolve` tool applied, with what it needs to undo it. */
export interface AppliedCandidate {
  id: string;
  appliedAt: string;
  [key: string]: unknown;
}

export interface GsdState {
  version: 1;
  kv: Record<string, unknown>;
  leases: Lease[];
  queue: SpawnItem[];
  history: HistoryEvent[];
  /** per intent; overrides the default rule of the same intent */
  spawnRules: Record<string, SpawnRule>;
  skills: Record<string, Skill>;
  /** agent id → skill ids */
  bindings: Record<string, string[]>;
  evolve: { applied: AppliedCandidate[] };
}

export function emptyState(): GsdState {
  return { version: STATE_VERSION, kv: {}, leases: [], queue: [], history: [], spawnRules: {}, skills: {}, bindings: {}, evolve: { applied: [] } };
}

/** A bad argument or a refused change: the message says what and how to fix it. Never leaves the state changed. */
export class PlanningError extends Error {
  override name = 'PlanningError';
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** A plain JSON object (not null, not a list). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ms since the epoch as an ISO time, the form every time in the state takes */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
