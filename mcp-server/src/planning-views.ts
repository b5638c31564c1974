/** Facts several planning tools (vitals, dash, evolve) show: the current phase, the documents, the intel's freshness. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { emptyState, hasPendingJournal, type GsdState } from '../../engine/src/index.js';
import type { RoadmapPhase } from './adapters/roadmap.js';
import type { Project } from './context.js';
import { stateStore } from './planning.js';

export interface CurrentPhase {
  number: string | null;
  name: string;
  /** where the number came from: STATE.md, or the first roadmap phase not complete */
  source: 'state' | 'roadmap' | 'none';
}

export function roadmapOrEmpty(project: Project): RoadmapPhase[] {
  try {
    return project.roadmap.phases();
  } catch {
    return [];
  }
}

export function currentPhase(project: Project, phases = roadmapOrEmpty(project)): CurrentPhase {
  const fromState = project.roadmap.state()?.currentPhase ?? null;
  if (fromState) return { number: fromState, name: phases.find((p) => p.number === fromState)?.name ?? '', source: 'state' };
  const next = phases.find((p) => p.status !== 'complete');
  return next ? { number: next.number, name: next.name, source: 'roadmap' } : { number: null, name: '', source: 'none' };
}

export const DOCUMENTS = ['PROJECT.md', 'REQUIREMENTS.md', 'ROADMAP.md', 'STATE.md'] as const;

export function missingDocuments(project: Project): string[] {
  return DOCUMENTS.filter((d) => {
    try {
      return !statSync(path.join(project.root, '.planning', d)).isFile();
    } catch {
      return true;
    }
  });
}

export type IntelFreshness = {
  /** false: no graph.db */
  present: boolean;
  files: number;
  /** graph.db's last write (ISO), the last build or update */
  updated_at: string | null;
  age_minutes: number | null;
  /** edits the hooks journaled that are not in graph.db yet (after a drain: a drain that failed) */
  pending: boolean;
  problem: string | null;
};

/** Opens (and so drains) the intel; never throws. */
export async function intelFreshness(project: Project, now = Date.now()): Promise<IntelFreshness> {
  try {
    const reader = await project.intel.open();
    const mtime = statSync(project.intel.paths.graph).mtimeMs;
    return {
      present: true,
      files: reader.nodes.size,
      updated_at: new Date(mtime).toISOString(),
      age_minutes: Math.max(0, Math.round((now - mtime) / 60_000)),
      pending: hasPendingJournal(project.root),
      problem: project.intel.lastDrainError,
    };
  } catch (error) {
    return { present: false, files: 0, updated_at: null, age_minutes: null, pending: false, problem: (error as Error).message };
  }
}

/** The saved state (never throws): a corrupt file is moved aside and `notice` says so; an unreadable one is a problem. */
export async function stateOrProblem(project: Project): Promise<{ state: GsdState; problem: string | null }> {
  try {
    const r = await stateStore(project).read();
    return { state: r.state, problem: r.notice ?? null };
  } catch (error) {
    return { state: emptyState(), problem: `planning state: ${(error as Error).message}` };
  }
}
