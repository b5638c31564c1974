/** ROADMAP.md (phase headings with goal, requirements, success criteria) and STATE.md (frontmatter and fields). */
import path from 'node:path';
import { HINTS } from '../texts.js';
import { MissingDocumentError } from '../result.js';
import { REQ_ID } from './requirements.js';
import { fields, listItems, parseDoc, plain, readText, sections, tableRows, type Yaml } from './markdown.js';

export interface RoadmapPhase {
  number: string;
  name: string;
  goal: string;
  dependsOn: string;
  requirements: string[];
  successCriteria: string[];
  /** from the phase checklist (`- [x] **Phase 1: …**`) or the progress table; null when not stated */
  status: string | null;
}

export interface ProjectState {
  frontmatter: Record<string, Yaml>;
  fields: Record<string, string>;
  currentPhase: string | null;
}

/** `1`, `01`, `Phase 2`, `2.1` → `1`, `1`, `2`, `2.1` */
export function normalizePhase(value: string | number): string {
  const m = /(\d+(?:\.\d+)*)/.exec(String(value));
  if (!m) return String(value).trim();
  return m[1]
    .split('.')
    .map((p, i) => (i === 0 ? String(Number(p)) : p))
    .join('.');
}

const PHASE_HEADING = /^phase\s+(\d+(?:\.\d+)*)\s*(?:[:.\-—–]\s*)?(.*)$/i;

export class RoadmapAdapter {
  constructor(readonly root: string) {}

  get file(): string {
    return path.join(this.root, '.planning', 'ROADMAP.md');
  }

  exists(): boolean {
    return readText(this.file) !== null;
  }

  phases(): RoadmapPhase[] {
    const text = readText(this.file);
    if (text === null) throw new MissingDocumentError('.planning/ROADMAP.md is missing', HINTS.noRoadmap);
    const { body } = parseDoc(text);
    const byNumber = new Map<string, RoadmapPhase>();
    for (const s of sections(body)) {
      const m = PHASE_HEADING.exec(plain(s.title));
      if (!m) continue;
      const number = normalizePhase(m[1]);
      if (byNumber.has(number)) continue;
      const f = fields(s.text);
      const crit = /\*{0,2}success criteria\*{0,2}[^\n]*\n([\s\S]*?)(?=\n\s*\*\*[A-Z][^*\n]*\*\*|\n\s*(?:plans|tasks)\s*:|\n#|$)/i.exec(s.text);
      byNumber.set(number, {
        number,
        name: m[2].replace(/[*_]/g, '').trim(),
        goal: f.goal ?? f.objective ?? '',
        dependsOn: f['depends on'] ?? '',
        requirements: [...new Set((f.requirements ?? '').split(/[,\s]+/).filter((x) => REQ_ID.test(x)))],
        successCriteria: crit ? listItems(crit[1]).map(plain) : [],
        status: null,
      });
    }
    // the checklist under "## Phases": - [x] **Phase 1: Foundation** - description
    for (const line of body.split('\n')) {
      const m = /^\s*[-*]\s+\[([ xX~])\]\s+\*{0,2}phase\s+(\d+(?:\.\d+)*)\s*[:.\-—–]?\s*([^*]*)\*{0,2}\s*(?:[-—–:]\s*(.*))?$/i.exec(line);
      if (!m) continue;
      const number = normalizePhase(m[2]);
      const p = byNumber.get(number) ?? { number, name: m[3].trim(), goal: m[4]?.trim() ?? '', dependsOn: '', requirements: [], successCriteria: [], status: null };
      p.status = /[xX]/.test(m[1]) ? 'complete' : m[1] === '~' ? 'in progress' : p.status ?? 'not started';
      if (!p.goal && m[4]) p.goal = plain(m[4]);
      byNumber.set(number, p);
    }
    const progress = sections(body).find((s) => /progress/i.test(s.title));
    for (const row of progress ? tableRows(progress.text) : []) {
      const cell = row.phase ?? Object.values(row)[0] ?? '';
      const n = /(\d+(?:\.\d+)*)/.exec(cell)?.[1];
      if (!n || !row.status) continue;
      const p = byNumber.get(normalizePhase(n));
      if (p) p.status = row.status.toLowerCase();
    }
    return [...byNumber.values()].sort((a, b) => comparePhase(a.number, b.number));
  }

  state(): ProjectState | null {
    const text = readText(path.join(this.root, '.planning', 'STATE.md'));
    if (text === null) return null;
    const { frontmatter, body } = parseDoc(text);
    const f = fields(body);
    const fmPhase = frontmatter.current_phase ?? frontmatter.phase ?? (frontmatter.progress as Record<string, Yaml> | undefined)?.current_phase;
    const raw = fmPhase !== undefined && fmPhase !== null ? String(fmPhase) : f.phase ?? f['current phase'] ?? null;
    return { frontmatter, fields: f, currentPhase: raw && /\d/.test(raw) ? normalizePhase(raw) : null };
  }
}

export function comparePhase(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d) return d;
  }
  return 0;
}
