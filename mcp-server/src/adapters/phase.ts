/**
 * `.planning/phases/NN-slug/`: plans (`NN-MM-PLAN.md`), summaries (`NN-MM-SUMMARY.md`) and the verification
 * (`NN-VERIFICATION.md` or `VERIFICATION.md`), with their frontmatter.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { asStrings, findSection, listItems, parseDoc, plain, readText, sections, type Yaml } from './markdown.js';
import { comparePhase, normalizePhase } from './roadmap.js';

export interface PlanDoc {
  /** `.planning/phases/…` relative to the root */
  file: string;
  plan: string;
  objective: string;
  filesModified: string[];
  requirements: string[];
  mustHaves: { truths: string[]; artifacts: string[]; keyLinks: string[] };
}

export interface SummaryDoc {
  file: string;
  plan: string;
  oneLiner: string;
  decisions: string[];
  lessons: string[];
  files: string[];
  requirementsCompleted: string[];
  text: string;
}

export interface VerificationDoc {
  file: string;
  status: string;
  score: string;
}

export interface PhaseDir {
  number: string;
  slug: string;
  dir: string;
  plans: PlanDoc[];
  summaries: SummaryDoc[];
  verification: VerificationDoc | null;
  context: string;
}

const rel = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/');

function planId(name: string): string {
  return /^(\d+(?:\.\d+)*)-(\d+)/.exec(name)?.slice(1, 3).join('-') ?? name.replace(/-?(PLAN|SUMMARY)\.md$/i, '');
}

function pathish(values: string[]): string[] {
  return [...new Set(values.map((v) => v.replace(/^[`'"]|[`'"]$/g, '').split(/\s+[-—(]/)[0].trim()).filter((v) => /[./]/.test(v) && !/\s/.test(v)))];
}

function readPlan(root: string, file: string): PlanDoc | null {
  const text = readText(file);
  if (text === null) return null;
  const { frontmatter: fm, body } = parseDoc(text);
  const objective = /<objective>([\s\S]*?)<\/objective>/i.exec(body)?.[1] ?? findSection(sections(body), /objective|goal/i)?.text ?? '';
  const mh = (fm.must_haves ?? fm['must-haves'] ?? {}) as Record<string, Yaml>;
  const artifacts = Array.isArray(mh.artifacts)
    ? mh.artifacts.map((a) => (a && typeof a === 'object' && !Array.isArray(a) ? String(a.path ?? Object.values(a)[0] ?? '') : String(a)))
    : [];
  const keyLinks = Array.isArray(mh.key_links) ? mh.key_links.map((k) => (k && typeof k === 'object' && !Array.isArray(k) ? `${k.from ?? ''} → ${k.to ?? ''}` : String(k))) : [];
  return {
    file: rel(root, file),
    plan: fm.plan !== undefined ? `${normalizePhase(String(fm.phase ?? ''))}-${String(fm.plan).padStart(2, '0')}` : planId(path.basename(file)),
    objective: plain(objective).split('\n')[0].slice(0, 300),
    filesModified: pathish(asStrings(fm.files_modified ?? fm['files-modified'] ?? fm.files)),
    requirements: asStrings(fm.requirements),
    mustHaves: { truths: asStrings(mh.truths), artifacts: artifacts.filter(Boolean), keyLinks },
  };
}

function readSummary(root: string, file: string): SummaryDoc | null {
  const text = readText(file);
  if (text === null) return null;
  const { frontmatter: fm, body } = parseDoc(text);
  const secs = sections(body);
  const oneLiner = plain(secs.find((s) => s.level === 1)?.text.split('\n').find((l) => l.trim() && !l.startsWith('#')) ?? String(fm['one-liner'] ?? fm.one_liner ?? ''));
  const decisions = [...asStrings(fm['key-decisions'] ?? fm.key_decisions ?? fm.decisions), ...listItems(findSection(secs, /decisions/i)?.text ?? '').map(plain)];
  const lessons = ['deviations', 'issues', 'lessons', 'learned', 'gotchas'].flatMap((k) => listItems(findSection(secs, new RegExp(k, 'i'))?.text ?? '').map(plain));
  const kf = fm['key-files'] ?? fm.key_files;
  const files = pathish([...asStrings(kf), ...asStrings(fm.files_modified), ...asStrings(fm['files-created'])]);
  return {
    file: rel(root, file),
    plan: fm.plan !== undefined ? `${normalizePhase(String(fm.phase ?? ''))}-${String(fm.plan).padStart(2, '0')}` : planId(path.basename(file)),
    oneLiner,
    decisions: [...new Set(decisions)].filter((d) => d && !/^none/i.test(d)),
    lessons: [...new Set(lessons)].filter((d) => d && !/^none/i.test(d)),
    files,
    requirementsCompleted: asStrings(fm['requirements-completed'] ?? fm.requirements_completed ?? fm.requirements),
    text: plain(body).slice(0, 4000),
  };
}

export class PhaseAdapter {
  constructor(readonly root: string) {}

  get dir(): string {
    return path.join(this.root, '.planning', 'phases');
  }

  exists(): boolean {
    try {
      return readdirSync(this.dir).length > 0;
    } catch {
      return false;
    }
  }

  list(): PhaseDir[] {
    let names: string[];
    try {
      names = readdirSync(this.dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      return [];
    }
    const out: PhaseDir[] = [];
    for (const name of names) {
      const m = /^(\d+(?:\.\d+)*)[-_ ]?(.*)$/.exec(name);
      if (!m) continue;
      const dir = path.join(this.dir, name);
      let files: string[] = [];
      try {
        files = readdirSync(dir).sort();
      } catch {
        continue;
      }
      const plans = files.filter((f) => /PLAN\.md$/i.test(f)).map((f) => readPlan(this.root, path.join(dir, f))).filter((p): p is PlanDoc => p !== null);
      const summaries = files.filter((f) => /SUMMARY\.md$/i.test(f)).map((f) => readSummary(this.root, path.join(dir, f))).filter((s): s is SummaryDoc => s !== null);
      const vFile = files.find((f) => /VERIFICATION\.md$/i.test(f));
      let verification: VerificationDoc | null = null;
      if (vFile) {
        const text = readText(path.join(dir, vFile)) ?? '';
        const { frontmatter: fm, body } = parseDoc(text);
        const status = String(fm.status ?? /\*{0,2}status\*{0,2}:\s*\*{0,2}([a-z_ ]+)/i.exec(body)?.[1] ?? 'unknown').trim();
        verification = { file: rel(this.root, path.join(dir, vFile)), status, score: String(fm.score ?? '') };
      }
      const ctxFile = files.find((f) => /CONTEXT\.md$/i.test(f));
      const context = ctxFile ? plain(parseDoc(readText(path.join(dir, ctxFile)) ?? '').body).slice(0, 2000) : '';
      out.push({ number: normalizePhase(m[1]), slug: m[2], dir: rel(this.root, dir), plans, summaries, verification, context });
    }
    return out.sort((a, b) => comparePhase(a.number, b.number));
  }
}
