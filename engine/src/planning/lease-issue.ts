/**
 * Issuing a lease, and the glob work behind it (picomatch). Loaded on first use (`loadLeaseIssuer()` in the engine's
 * index), so a server that never issues a lease never loads picomatch.
 *
 * Two scopes overlap when some path lies in both. Decided three ways, any one suffices:
 * 1. the globs against each other: one glob matches the other's text (`src/**` vs `src/auth/*.ts`), or a plain path
 *    lies in the other's glob (`package.json` vs `*.json`);
 * 2. a sample path made from the deeper of the two glob bases and the other's tail (`src/**\/*.ts` vs `src/auth`
 *    gives `src/auth/x.ts`, which both match);
 * 3. the project's indexed files: a file both match.
 * A path without glob characters covers itself and everything below it.
 */
import picomatch from 'picomatch';
import { checkId, newId } from './ids.js';
import { activeLeases, describeHolder, normalizeScope } from './leases.js';
import { isoTime, PlanningError, type GsdState, type Lease, type LeasePattern } from './types.js';

export const MAX_ACTIVE_LEASES = 500;

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

