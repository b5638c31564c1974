/**
 * Which guidance files answer a query at a focus level, best first. Per query keyword: a match in the file name (or
 * its folders) counts more than one in the content, which counts more than a tag, which counts more than the
 * category. Project guidance gets a bonus. Files without usable focus_levels (untagged) are searched at every level.
 */
import type { GuidanceFile } from './catalog.js';
import type { FocusLevel, GuidanceSource } from './session.js';
import { countMatches } from './words.js';

export const WEIGHTS = {
  name: 8,
  /** plus CONTENT_REPEAT per further occurrence, at most CONTENT_REPEAT_MAX of them: always below a name match */
  content: 4,
  tag: 2,
  category: 1,
  projectBonus: 3,
} as const;
const CONTENT_REPEAT = 0.25;
const CONTENT_REPEAT_MAX = 4;

const SOURCE_ORDER: Record<GuidanceSource, number> = { project: 0, user: 1, package: 2 };

export interface Ranked {
  file: GuidanceFile;
  score: number;
  /** what matched: `name:test`, `content:test×3`, `tag:test`, `category:test`, `project` */
  why: string[];
}

export function inFocus(file: GuidanceFile, focus: FocusLevel): boolean {
  return file.focusLevels === null || file.focusLevels.includes(focus);
}

export function scoreFile(file: GuidanceFile, keywords: readonly string[]): Ranked {
  let score = 0;
  const why: string[] = [];
  for (const k of keywords) {
    if (countMatches(file.index.name, k) > 0) {
      score += WEIGHTS.name;
      why.push(`name:${k}`);
    }
    const c = countMatches(file.index.body, k);
    if (c > 0) {
      score += WEIGHTS.content + CONTENT_REPEAT * Math.min(c - 1, CONTENT_REPEAT_MAX);
      why.push(c > 1 ? `content:${k}×${c}` : `content:${k}`);
    }
    if (countMatches(file.index.tags, k) > 0) {
      score += WEIGHTS.tag;
      why.push(`tag:${k}`);
    }
    if (countMatches(file.index.category, k) > 0) {
      score += WEIGHTS.category;
      why.push(`category:${k}`);
    }
  }
  if (score > 0 && file.source === 'project') {
    score += WEIGHTS.projectBonus;
    why.push('project');
  }
  return { file, score: Math.round(score * 100) / 100, why };
}

/** The files at this focus level that match at least one keyword, best first (ties: project, user, package; then path). */
export function rankGuidance(files: readonly GuidanceFile[], keywords: readonly string[], focus: FocusLevel): { ranked: Ranked[]; inFocus: number } {
  const candidates = files.filter((f) => inFocus(f, focus));
  const ranked = candidates
    .map((f) => scoreFile(f, keywords))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || SOURCE_ORDER[a.file.source] - SOURCE_ORDER[b.file.source] || (a.file.shown < b.file.shown ? -1 : a.file.shown > b.file.shown ? 1 : 0));
  return { ranked, inFocus: candidates.length };
}
