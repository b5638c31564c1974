/**
 * Writes of the planning tools (plan, evolve): only inside the project's `.planning/`, never through a symlink that
 * leaves it, atomically (temp file + rename, or + link when an existing file must not be replaced), and a phase id
 * that is not a phase number is refused before it becomes a path.
 */
import { linkSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Project } from './context.js';
import { normalizePhase, type RoadmapPhase } from './adapters/roadmap.js';
import { ToolInputError } from './result.js';
import { resolveInside } from './security.js';

/** `2`, `02`, `Phase 2`, `2.1` → `2` / `2.1`; anything else (`../x`, `2/..`) is refused. */
export function phaseNumber(value: string): string {
  const v = value.trim();
  if (!/^(?:phase\s*)?\d{1,3}(?:\.\d{1,3}){0,2}$/i.test(v)) {
    throw new ToolInputError(`phase "${value.slice(0, 40)}" is not a phase number`, 'Pass a ROADMAP phase number such as 2 or 2.1.');
  }
  return normalizePhase(v);
}

/** The ROADMAP phase of a number, or a clear error naming the phases there are. */
export function roadmapPhase(project: Project, phase: string): RoadmapPhase {
  const n = phaseNumber(phase);
  const all = project.roadmap.phases();
  const p = all.find((x) => x.number === n);
  if (!p) throw new ToolInputError(`phase ${n} is not in ROADMAP.md`, `Phases: ${all.map((x) => x.number).join(', ') || 'none'}.`);
  return p;
}

/** `2` → `02`, `2.1` → `02.1` (the NN of file names) */
export function padPhase(n: string): string {
  const [head, ...rest] = n.split('.');
  return [head.padStart(2, '0'), ...rest].join('.');
}

/** The phase folder, relative to `.planning/`: the existing `phases/NN-slug`, or a new one named from the roadmap. */
export function phaseFolder(project: Project, p: RoadmapPhase): { rel: string; name: string; exists: boolean } {
  const existing = project.phases.list().find((d) => d.number === p.number);
  if (existing) return { rel: existing.dir.replace(/^\.planning\//, ''), name: path.posix.basename(existing.dir), exists: true };
  const slug =
    p.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'phase';
  const name = `${padPhase(p.number)}-${slug}`;
  return { rel: `phases/${name}`, name, exists: false };
}

/** Absolute path of `.planning/<rel>`, refused when it would lead outside `.planning/`. */
export function planningPath(project: Project, rel: string): string {
  const planning = path.join(project.root, '.planning');
  const inside = resolveInside(project.root, path.posix.join('.planning', rel), 'planning path');
  const relToPlanning = path.relative(planning, inside.abs);
  if (!relToPlanning || relToPlanning.startsWith('..') || path.isAbsolute(relToPlanning)) {
    throw new ToolInputError(`"${rel}" is outside .planning/`, 'The planning tools write only inside .planning/.');
  }
  let realPlanning = planning;
  try {
    realPlanning = realpathSync(planning);
  } catch {
    // no .planning/ yet
  }
  let probe = path.dirname(inside.abs);
  for (;;) {
    try {
      const real = realpathSync(probe);
      const r = path.relative(realPlanning, real);
      if (r.startsWith('..') || path.isAbsolute(r)) throw new ToolInputError(`"${rel}" leads outside .planning/ through a symlink`);
      break;
    } catch (error) {
      if (error instanceof ToolInputError) throw error;
      if (probe === planning || path.dirname(probe) === probe) break;
      probe = path.dirname(probe);
    }
  }
  return inside.abs;
}

/**
 * Writes `.planning/<rel>` atomically. Without `overwrite` an existing file is never replaced (the temp file is
 * linked into place, which fails if the name exists). Returns whether a file was replaced.
 */
export function writePlanningFile(project: Project, rel: string, text: string, options: { overwrite: boolean }): { replaced: boolean } {
  const file = planningPath(project, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  try {
    writeFileSync(tmp, text, { flag: 'wx' });
    if (!options.overwrite) {
      try {
        linkSync(tmp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new ToolInputError(`.planning/${rel} exists; it is left as it is`, 'Pass overwrite: true to replace it.');
        }
        throw error;
      }
      return { replaced: false };
    }
    let replaced = true;
    try {
      realpathSync(file);
    } catch {
      replaced = false;
    }
    renameSync(tmp, file);
    return { replaced };
  } finally {
    rmSync(tmp, { force: true });
  }
}
