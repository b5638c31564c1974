/** The planning domain: one module over one state store (`.planning/gsd-state.json`). See docs/planning.md. */
export * from './types.js';
export { SAFE_ID, checkId, newId } from './ids.js';
export { readPlanningConfig, DEFAULT_LEASE_TTL_MINUTES, DEFAULT_MAX_LEASE_TTL_MINUTES, type PlanningConfig } from './config.js';
export {
  StateStore,
  StateStoreError,
  StateVersionError,
  statePaths,
  serializeState,
  prune,
  STATE_FILE,
  MAX_STATE_BYTES,
  KEEP_CLOSED_LEASES,
  KEEP_CLOSED_ITEMS,
  KEEP_HISTORY,
  type ReadResult,
  type UpdateResult,
  type StoreOptions,
} from './state-store.js';
export { renewLease, returnLease, activeLeases, isActive, leaseStatus, normalizeScope } from './leases.js';
export type { IssueInput } from './lease-issue.js';

/** `issueLease` and the scope-overlap functions: loaded on first use, so starting the server never loads picomatch. */
export function loadLeaseIssuer(): Promise<typeof import('./lease-issue.js')> {
  return import('./lease-issue.js');
}
export {
  DEFAULT_SPAWN_RULES,
  flattenRule,
  skippedStages,
  checkOptions,
  checkRule,
  listRules,
  ruleFor,
  resolveSpawnPlan,
  setRule,
  enqueuePlan,
  completeItem,
  historyEvents,
  HISTORY_MAX_LIMIT,
  type SpawnPlan,
} from './spawn.js';
export { registerSkill, bindSkill, unbindSkill, recommendSkills, type Recommendation } from './skills.js';
export { parseKeyPath, checkValue, getPath, setPath, deletePath, listPaths, FORBIDDEN_KEYS } from './kv.js';
export { leasesCovering, leaseNotice, leasesSlice, type CoveringLease } from './lease-check.js';
