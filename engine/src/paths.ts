import path from 'node:path';

/** Where a project's intelligence lives. */
export function intelPaths(root: string) {
  const dir = path.join(root, '.planning', 'intel');
  return {
    planning: path.join(root, '.planning'),
    dir,
    index: path.join(dir, 'index.json'),
    graph: path.join(dir, 'graph.db'),
    entities: path.join(dir, 'entities'),
    summary: path.join(dir, 'summary.md'),
    /** what summary.md was computed from, for an edit that moves no edge (pipeline/summary-state.ts) */
    summaryState: path.join(dir, 'summary-state.json'),
    /** what `intel status` read of index.json, for the next status while index.json is the same file (graph/facts-sidecar.ts) */
    indexFacts: path.join(dir, 'index-facts.bin'),
    lock: path.join(dir, '.lock'),
    log: path.join(dir, 'hook.log'),
  };
}
