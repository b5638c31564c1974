/**
 * Execution leases: a task holds a file scope (paths and globs) for a while, so two sessions never execute
 * overlapping work. A lease counts while it is neither returned nor expired; only its holder renews it. Issuing one
 * (and the glob work it needs) is in lease-issue.ts, loaded on first use so the server starts without picomatch.
 */
import { isoTime, PlanningError, type GsdState, type Lease } from './types.js';

export const MAX_SCOPE_ENTRIES = 100;
export const MAX_SCOPE_ENTRY_CHARS = 512;
export const MAX_RESULT_CHARS = 2_000;

/** The lease still counts: not returned, not expired. */
export function isActive(lease: Lease, now: number): boolean {
  return !lease.returnedAt && Date.parse(lease.expiresAt) > now;
}

export function activeLeases(state: GsdState, now: number): Lease[] {
  return state.leases.filter((l) => isActive(l, now));
}

export function leaseStatus(lease: Lease, now: number): 'active' | 'returned' | 'expired' {
  return lease.returnedAt ? 'returned' : isActive(lease, now) ? 'active' : 'expired';
}

/**
 * Checks and normalizes a scope: project-relative, `/` separators, no `..`, no absolute paths, no negation.
 * `./src/` becomes `src`.
 */
export function normalizeScope(scope: unknown): string[] {
  if (!Array.isArray(scope) || scope.length === 0) throw new PlanningError('scope is missing', 'Pass the files the task will change: paths or globs relative to the project root, e.g. ["src/auth/**", "package.json"].');
  if (scope.length > MAX_SCOPE_ENTRIES) throw new PlanningError(`scope has ${scope.length} entries; at most ${MAX_SCOPE_ENTRIES}`, 'Use globs (src/auth/**) instead of listing every file.');
  const out: string[] = [];
  for (const raw of scope) {
    if (typeof raw !== 'string') throw new PlanningError('every scope entry must be a string');
    let s = raw.trim().replace(/\\/g, '/');
    if (!s) throw new PlanningError('a scope entry is empty');
    if (s.length > MAX_SCOPE_ENTRY_CHARS) throw new PlanningError(`a scope entry is longer than ${MAX_SCOPE_ENTRY_CHARS} characters`);
    if (/[\0-\x1f]/.test(s)) throw new PlanningError(`scope entry ${JSON.stringify(s.slice(0, 80))} contains control characters`);
    if (s.startsWith('!')) throw new PlanningError(`scope entry "${s}" is a negation; a lease lists what it covers`);
    if (s.startsWith('/') || /^[A-Za-z]:/.test(s)) throw new PlanningError(`scope entry "${s}" is absolute`, 'Scopes are relative to the project root.');
    while (s.startsWith('./')) s = s.slice(2);
    s = s.replace(/\/+/g, '/').replace(/\/$/, '');
    if (!s || s === '.') s = '**';
    if (s.split('/').some((seg) => seg === '..')) throw new PlanningError(`scope entry "${raw}" leads outside the project`, 'Scopes are relative to the project root; ".." is refused.');
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

function findLease(state: GsdState, leaseId: unknown): Lease {
  if (typeof leaseId !== 'string' || !leaseId) throw new PlanningError('leaseId is missing', 'Pass the leaseId that issue returned (see action list).');
  const lease = state.leases.find((l) => l.id === leaseId);
  if (!lease) throw new PlanningError(`no lease ${JSON.stringify(leaseId.slice(0, 40))}`, 'It may have been pruned long after it ended; see action list for the current ones.');
  return lease;
}

/** Extends an active lease by `ttlMinutes` from now. Only its holder may; an ended lease cannot be revived. */
export function renewLease(state: GsdState, input: { leaseId: unknown; holder: string; ttlMinutes: number }, now: number): Lease {
  const lease = findLease(state, input.leaseId);
  if (lease.holder !== input.holder) {
    throw new PlanningError(`lease ${lease.id} is held by ${lease.holder}, not ${input.holder}; only its holder renews it`, 'Pass holder as it was given when the lease was issued.');
  }
  const status = leaseStatus(lease, now);
  if (status !== 'active') {
    throw new PlanningError(`lease ${lease.id} has ${status === 'returned' ? `been returned (${lease.returnedAt})` : `expired (${lease.expiresAt})`}; it cannot be renewed`, 'Issue a new lease for the task.');
  }
  lease.expiresAt = isoTime(Math.max(Date.parse(lease.expiresAt), now + input.ttlMinutes * 60_000));
  lease.renewals += 1;
  return lease;
}

/** Ends a lease and records the result. Returning an expired lease records the result too; twice is refused. */
export function returnLease(state: GsdState, input: { leaseId: unknown; result?: string }, now: number): Lease {
  const lease = findLease(state, input.leaseId);
  if (lease.returnedAt) throw new PlanningError(`lease ${lease.id} was already returned at ${lease.returnedAt}`);
  lease.returnedAt = isoTime(now);
  if (input.result !== undefined) lease.result = String(input.result).slice(0, MAX_RESULT_CHARS);
  return lease;
}

/** Who holds a lease and until when, for refusals. */
export function describeHolder(l: Lease): string {
  return `lease ${l.id} of task ${l.taskId}, held by ${l.holder} until ${l.expiresAt}`;
}
