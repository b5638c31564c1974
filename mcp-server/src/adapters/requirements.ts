/**
 * REQUIREMENTS.md: requirement ids like `AUTH-03` (in checkbox lists, bold or not), their section, and the
 * traceability table (requirement → phase → status).
 */
import path from 'node:path';
import { HINTS } from '../texts.js';
import { MissingDocumentError } from '../result.js';
import { plain, readText, sections, tableRows } from './markdown.js';

export interface Requirement {
  id: string;
  text: string;
  /** null when the requirement is not in a checkbox list */
  checked: boolean | null;
  section: string;
  phase: string | null;
  /** the traceability status as written (e.g. Pending, Complete), or null */
  tracedStatus: string | null;
}

export const REQ_ID = /\b([A-Z][A-Z0-9]{1,11}-\d{1,4})\b/;

export class RequirementsAdapter {
  constructor(readonly root: string) {}

  get file(): string {
    return path.join(this.root, '.planning', 'REQUIREMENTS.md');
  }

  exists(): boolean {
    return readText(this.file) !== null;
  }

  read(): Requirement[] {
    const text = readText(this.file);
    if (text === null) throw new MissingDocumentError('.planning/REQUIREMENTS.md is missing', HINTS.noRequirements);
    const byId = new Map<string, Requirement>();
    let section = '';
    let inTrace = false;
    let fence = false;
    for (const line of text.split('\n')) {
      if (/^\s*(```|~~~)/.test(line)) fence = !fence;
      if (fence) continue;
      const h = /^#{1,6}\s+(.*)$/.exec(line);
      if (h) {
        section = plain(h[1]);
        inTrace = /traceab|coverage|mapping/i.test(section);
        continue;
      }
      if (inTrace || line.trim().startsWith('|')) continue;
      const m = /^\s*[-*+]\s+(?:\[([ xX~-])\]\s+)?(.*)$/.exec(line);
      if (!m) continue;
      const id = REQ_ID.exec(m[2]);
      if (!id || byId.has(id[1]) || m[2].indexOf(id[1]) > 6) continue;
      const rest = plain(m[2].slice(m[2].indexOf(id[1]) + id[1].length)).replace(/^[*_\s:—–-]+/, '');
      byId.set(id[1], { id: id[1], text: rest, checked: m[1] === undefined ? null : /[xX]/.test(m[1]), section, phase: null, tracedStatus: null });
    }
    const trace = sections(text).find((s) => /traceab|coverage|mapping/i.test(s.title));
    for (const row of trace ? tableRows(trace.text) : []) {
      const idCell = row.requirement ?? row.id ?? row.req ?? Object.values(row)[0] ?? '';
      const id = REQ_ID.exec(idCell)?.[1];
      if (!id) continue;
      const req = byId.get(id) ?? { id, text: '', checked: null, section: '', phase: null, tracedStatus: null };
      const phaseCell = row.phase ?? '';
      req.phase = /(\d+(?:\.\d+)?)/.exec(phaseCell)?.[1] ?? (phaseCell || null);
      req.tracedStatus = row.status || null;
      byId.set(id, req);
    }
    return [...byId.values()];
  }
}

/** complete | in_progress | pending | blocked | deferred, from the traceability status and the checkbox. */
export function requirementState(r: Requirement): 'complete' | 'in_progress' | 'pending' | 'blocked' | 'deferred' {
  const s = (r.tracedStatus ?? '').toLowerCase();
  if (/complete|done|satisf|verified|✅|shipped/.test(s)) return 'complete';
  if (/progress|partial|active|wip/.test(s)) return 'in_progress';
  if (/block/.test(s)) return 'blocked';
  if (/defer|later|v2|out of scope/.test(s)) return 'deferred';
  if (r.checked === true) return 'complete';
  return 'pending';
}
