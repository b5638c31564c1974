/** The `planning` section of `.planning/config.json`: lease lifetimes. Read by hand, like the `intel` section. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface PlanningConfig {
  /** lifetime of a lease when the caller names none (default 30) */
  leaseTtlMinutes: number;
  /** the longest lease (or renewal) anybody may ask for (default 480, 8 hours) */
  maxLeaseTtlMinutes: number;
  /** a problem with the section; the defaults apply */
  problem?: string;
}

export const DEFAULT_LEASE_TTL_MINUTES = 30;
export const DEFAULT_MAX_LEASE_TTL_MINUTES = 480;

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

export function readPlanningConfig(root: string): PlanningConfig {
  const out: PlanningConfig = { leaseTtlMinutes: DEFAULT_LEASE_TTL_MINUTES, maxLeaseTtlMinutes: DEFAULT_MAX_LEASE_TTL_MINUTES };
  let section: unknown;
  try {
    section = (JSON.parse(readFileSync(path.join(root, '.planning', 'config.json'), 'utf8')) as { planning?: unknown } | null)?.planning;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') out.problem = `.planning/config.json ignored (${(error as Error).message}); lease defaults apply`;
    return out;
  }
  if (section === undefined) return out;
  const s = (section ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (s.maxLeaseTtlMinutes !== undefined) {
    if (positive(s.maxLeaseTtlMinutes)) out.maxLeaseTtlMinutes = s.maxLeaseTtlMinutes;
    else problems.push('planning.maxLeaseTtlMinutes: expected a positive number of minutes');
  }
  if (s.leaseTtlMinutes !== undefined) {
    if (positive(s.leaseTtlMinutes)) out.leaseTtlMinutes = Math.min(s.leaseTtlMinutes, out.maxLeaseTtlMinutes);
    else problems.push('planning.leaseTtlMinutes: expected a positive number of minutes');
  }
  if (problems.length) out.problem = `.planning/config.json: ${problems.join('; ')} (defaults apply)`;
  return out;
}
