import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { intelPaths } from '../../engine/src/index.js';
import { readGraphRows } from '../../engine/src/store/index.js';

/**
 * Everything the four artefacts say about a project, with the parts that legitimately differ between two runs
 * (build times, `updated:` stamps) taken out, so an incremental result can be compared with a rebuild.
 */
export async function snapshotIntel(dir: string) {
  const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
  const builtAt: string = index.builtAt;
  delete index.builtAt;
  const graph = await readGraphRows(path.join(dir, 'graph.db'));
  const entities: Record<string, string> = {};
  for (const name of readdirSync(path.join(dir, 'entities')).sort()) {
    entities[name] = readFileSync(path.join(dir, 'entities', name), 'utf8').replace(/^updated: .*$/m, 'updated: X');
  }
  const summary = readFileSync(path.join(dir, 'summary.md'), 'utf8')
    .split(builtAt)
    .join('X')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'X');
  return { index, graph, entities, summary };
}

/** Moves the current intel folder aside (so a rebuild starts from nothing) and returns where it went. */
export function moveIntelAside(root: string, suffix: string): string {
  const from = intelPaths(root).dir;
  const to = `${from}-${suffix}`;
  if (existsSync(to)) rmSync(to, { recursive: true, force: true });
  renameSync(from, to);
  return to;
}
