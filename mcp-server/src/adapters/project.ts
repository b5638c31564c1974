/** PROJECT.md: vision ("What This Is"), core value, key decisions (a table or a list). */
import path from 'node:path';
import { HINTS } from '../texts.js';
import { MissingDocumentError } from '../result.js';
import { findSection, listItems, parseDoc, plain, readText, sections, tableRows } from './markdown.js';

export interface ProjectDoc {
  name: string;
  vision: string;
  coreValue: string;
  decisions: Array<{ decision: string; rationale: string; outcome: string }>;
}

export class ProjectAdapter {
  constructor(readonly root: string) {}

  get file(): string {
    return path.join(this.root, '.planning', 'PROJECT.md');
  }

  read(): ProjectDoc {
    const text = readText(this.file);
    if (text === null) throw new MissingDocumentError('.planning/PROJECT.md is missing', HINTS.noProject);
    const { body, frontmatter } = parseDoc(text);
    const secs = sections(body);
    const title = secs.find((s) => s.level === 1)?.title ?? String(frontmatter.name ?? path.basename(this.root));
    const vision = findSection(secs, /^(vision|what this is|overview|about|description|summary)\b/i)?.text ?? '';
    const core = findSection(secs, /^core value/i)?.text ?? /\*\*core value:?\*\*:?\s*(.+)/i.exec(body)?.[1] ?? '';
    const decisionSec = findSection(secs, /decisions?/i);
    const decisions: ProjectDoc['decisions'] = [];
    if (decisionSec) {
      const rows = tableRows(decisionSec.text);
      for (const r of rows) {
        const decision = r.decision ?? Object.values(r)[0] ?? '';
        if (decision && !/^[-—]*$/.test(decision)) decisions.push({ decision, rationale: r.rationale ?? r.why ?? '', outcome: r.outcome ?? r.status ?? '' });
      }
      if (!rows.length) for (const item of listItems(decisionSec.text)) decisions.push({ decision: plain(item), rationale: '', outcome: '' });
    }
    return { name: plain(title.replace(/^project:\s*/i, '')), vision: plain(vision), coreValue: plain(core), decisions };
  }
}
