/**
 * Execution leases: a task holds a file scope (paths and globs) for a while, so two sessions never execute
 * overlapping work. A lease counts while it is neither returned nor expired; only its holder renews it.
 *
 * Two scopes overlap when some path lies in both. Decided three ways, any one suffices:
 * 1. the globs against each other: one glob matches the other's text (`src/**` vs `src/auth/*.ts`);
 * 2. a sample path made from the deeper of the two glob bases and the other's tail (`src/**\/*.ts` vs `src/auth`
 *    gives `src/auth/x.ts`, which both match);
 * 3. the project's indexed files: a file both match.
 * A path without glob characters covers itself and everything below it.
 */
import picomatch from 'picomatch';
import { checkId, newId } from './ids.js';
import { isoTime, PlanningError, type GsdState, type Lease, type LeasePattern } from './types.js';

export const MAX_SCOPE_ENTRIES = 100;
export const MAX_SCOPE_ENTRY_CHARS = 512;
export const MAX_ACTIVE_LEASES = 500;
export const MAX_RESULT_CHARS = 2_000;

const OPTIONS = { dot: true } as const;
const matchers = new Map<string, (p: string) => boolean>();

function matcher(glob: string): (p: string) => boolean {
  let m = matchers.get(glob);
  if (!m) {
    if (matchers.size > 5_000) matchers.clear();
    m = picomatch(glob, OPTIONS);
    matchers.set(glob, m);
  }
  return m;
}

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

/** The glob a scope entry stands for: a glob as it is, a plain path as itself and everything below it. */
function entryGlob(entry: string): string {
  return picomatch.scan(entry).isGlob ? entry : `${entry}/**`;
}

export function compilePatterns(scope: string[]): LeasePattern[] {
  return scope.map((entry) => {
    const re = picomatch.makeRe(entryGlob(entry), OPTIONS);
    return { source: re.source, flags: re.flags };
  });
}

/** A concrete path a glob tail matches, roughly: wildcards become `x`, `**\/` disappears, the first brace alternative. */
function concretize(tail: string): string {
  return tail
    .replace(/\*\*\/?/g, '')
    .replace(/\{([^,}]*)[^}]*\}/g, '$1')
    .replace(/\[!?\^?([^\]])[^\]]*\]/g, '$1')
    .replace(/[*?]/g, 'x')
    .replace(/[()!@+]/g, '')
    .replace(/\/+$/, '');
}

const within = (a: string, b: string) => !b || a === b || a.startsWith(`${b}/`);

/** A path both globs match, by their texts or a sample path; null when none was found this way. */
function globWitness(ga: string, gb: string): string | null {
  if (ga === gb) return ga;
  if (matcher(ga)(gb)) return gb;
  if (matcher(gb)(ga)) return ga;
  const a = picomatch.scan(ga);
  const b = picomatch.scan(gb);
  if (!within(a.base, b.base) && !within(b.base, a.base)) return null;
  const deeper = a.base.length >= b.base.length ? a.base : b.base;
  for (const tail of [a.glob, b.glob]) {
    const rest = concretize(tail);
    const sample = [deeper, rest || 'x'].filter(Boolean).join('/');
    if (matcher(ga)(sample) && matcher(gb)(sample)) return sample;
    const deep = [deeper, 'x', rest || 'x'].filter(Boolean).join('/');
    if (matcher(ga)(deep) && matcher(gb)(deep)) return deep;
  }
  return null;
}

/** A path in both scopes (see the module comment), or null when they do not overlap. */
export function scopeOverlap(a: readonly string[], b: readonly string[], indexedFiles: Iterable<string> = []): string | null {
  const ga = a.map(entryGlob);
  const gb = b.map(entryGlob);
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      // a plain path is its own witness: `package.json` lies in `*.json`
      if (ga[i] !== a[i] && matcher(gb[j])(a[i])) return a[i];
      if (gb[j] !== b[j] && matcher(ga[i])(b[j])) return b[j];
      const w = globWitness(ga[i], gb[j]);
      if (w !== null) return w;
    }
  }
  const ma = ga.map(matcher);
  const mb = gb.map(matcher);
  for (const file of indexedFiles) if (ma.some((m) => m(file)) && mb.some((m) => m(file))) return file;
  return null;
}

export interface IssueInput {
  taskId: string;
  scope: unknown;
  holder: string;
  session?: string;
  ttlMinutes: number;
  /** the project's indexed files (project-relative, `/`) */
  indexedFiles?: readonly string[];
}


function describeHolder(l: Lease): string {
  return `lease ${l.id} of task ${l.taskId}, held by ${l.holder} until ${l.expiresAt}`;
}

/** Issues a lease, or refuses one whose scope overlaps an active lease (naming who holds it and until when). */
export function issueLease(state: GsdState, input: IssueInput, now: number): Lease {
  const taskId = checkId('taskId', input.taskId);
  const scope = normalizeScope(input.scope);
  const active = activeLeases(state, now);
  const own = active.find((l) => l.taskId === taskId);
  if (own) throw new PlanningError(`task ${taskId} already holds ${describeHolder(own)}`, 'Renew or return that lease (action renew/return with its leaseId).');
  if (active.length >= MAX_ACTIVE_LEASES) throw new PlanningError(`${active.length} leases are active; at most ${MAX_ACTIVE_LEASES}`, 'Return finished leases first.');
  for (const l of active) {
    const witness = scopeOverlap(scope, l.scope, input.indexedFiles ?? []);
    if (witness !== null) {
      throw new PlanningError(
        `scope overlaps ${describeHolder(l)} (both cover ${witness})`,
        'Wait until that lease is returned or expires, or narrow the scope to files the other task does not hold.',
      );
    }
  }
  const lease: Lease = {
    id: newId('L'),
    taskId,
    scope,
    patterns: compilePatterns(scope),
    holder: input.holder,
    ...(input.session ? { session: input.session } : {}),
    issuedAt: isoTime(now),
    expiresAt: isoTime(now + input.ttlMinutes * 60_000),
    renewals: 0,
  };
  state.leases.push(lease);
  return lease;
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
