/**
 * A question → a plan of calls to this server's own tools. Deterministic: the family of the question (families.ts)
 * and its subject matched against the index (subject.ts) decide the steps. A step can take a value from an earlier
 * step's answer (`use`: search, then the file context of the best hit); steps without `use` are independent.
 */
import type { IntelReader } from '../../../engine/src/index.js';
import { classify, subjectWords, type Classified, type Family } from './families.js';
import { resolveSubject, type Candidate, type Subject } from './subject.js';

export interface PlanStep {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** fill `as` from the answer of step `step` at `field` (a dot path) before running */
  use?: { step: string; field: string; as: string };
  /** only these top-level fields of the answer are kept (what the question needs) */
  pick?: string[];
  why: string;
}

export interface Plan {
  family: Family;
  matched: string;
  subject: Subject | null;
  steps: PlanStep[];
  notes: string[];
}

/** Families whose subject is a file or a symbol of the code. */
const CODE_FAMILIES: ReadonlySet<Family> = new Set(['dependents', 'impact', 'explain', 'definition', 'imports', 'links']);

export interface PlanContext {
  /** the intel reader, or why there is none (code families then say so) */
  reader: IntelReader | null;
  readerError: string | null;
  /** is this tool registered on the server (route never imports tools: `dash`, `lease` come from elsewhere) */
  has(tool: string): boolean;
}

/** The step of a code family for one subject (file, optional symbol). */
function codeStep(family: Family, c: Classified, file: unknown, symbol: string | null, use?: PlanStep['use']): PlanStep {
  const base = { id: 'answer', ...(use ? { use } : {}) };
  const fileArg = use ? {} : { file };
  switch (family) {
    case 'dependents':
      return {
        ...base,
        tool: 'blast_radius',
        args: { ...fileArg, ...(symbol ? { symbol } : {}), max_depth: symbol ? 3 : 1 },
        pick: ['file', 'symbol', 'total', 'beyond_max_depth', 'by_depth', 'tests'],
        why: symbol ? `files that reach ${symbol} (through re-exports too)` : 'files that import it directly',
      };
    case 'impact':
      return { ...base, tool: 'blast_radius', args: { ...fileArg, ...(symbol ? { symbol } : {}), change_type: c.changeType }, why: 'dependents by depth, tests, risk' };
    case 'definition':
      return symbol
        ? { ...base, tool: 'verify_artifact', args: { must_exist: symbol, check_type: 'definition' }, why: `where ${symbol} is declared (file:line), then export-only bindings and re-exports` }
        : { ...base, tool: 'file_context', args: fileArg, pick: ['path', 'type', 'purpose', 'exports'], why: 'the file, its purpose and exports' };
    case 'links':
      return { ...base, tool: 'file_context', args: fileArg, pick: ['path', 'dependencies', 'dependents', 'packages'], why: 'both directions: the project files it imports and the files importing it' };
    case 'imports':
      return { ...base, tool: 'file_context', args: fileArg, pick: ['path', 'dependencies', 'packages', 'unresolved'], why: 'project files and packages it imports' };
    default:
      return { ...base, tool: 'file_context', args: fileArg, why: 'purpose, exports, dependencies, dependents, folder conventions' };
  }
}

function planCode(family: Family, c: Classified, ctx: PlanContext, notes: string[]): { subject: Subject | null; steps: PlanStep[] } {
  if (!ctx.reader) {
    notes.push(`no intel to match the subject against: ${ctx.readerError ?? 'unknown'}`);
    return { subject: null, steps: [] };
  }
  const subject = resolveSubject(ctx.reader, c.rest);
  const best: Candidate | undefined = subject.candidates[0];
  if (!best) {
    notes.push(subjectWords(c.rest).length ? `nothing in the index matches "${c.rest}"` : 'the question names no file, symbol or area');
    return { subject, steps: [] };
  }
  if (subject.candidates.length > 1) notes.push(`${subject.candidates.length} candidates match; answered for the best: ${best.path}${best.symbol ? ` (${best.symbol})` : ''}`);
  if (subject.how === 'search') {
    // the vague-name plan: search, then answer for the best hit
    const search: PlanStep = { id: 'search', tool: 'query_intel', args: { query: subject.words, max_results: 5, include_purposes: false }, pick: ['total', 'results'], why: 'find the files the words name' };
    return { subject, steps: [search, codeStep(family, c, null, null, { step: 'search', field: 'results.0.path', as: 'file' })] };
  }
  // blast_radius follows an export by name; a declaration exported otherwise (`module.exports = X`) is the whole file
  const node = ctx.reader.nodes.get(ctx.reader.byPath.get(best.path) ?? '');
  const exported = best.symbol && node?.exports.some((e) => e.name === best.symbol) ? best.symbol : null;
  return { subject, steps: [codeStep(family, c, best.path, family === 'definition' ? best.symbol : exported)] };
}

/**
 * The combined answer, for a question that names a file or a name declared once but whose words no family reads
 * ("refs to F", "what files reach for F" before such words were known): right whatever was meant and far smaller
 * than a text search. A file: the files importing it and the files it imports (counts and lists; a list over the
 * budget is cut with its total and the call for the rest), then its exports. A name: where it is declared, then the
 * files using it. Null when the question names neither outright (a vague name stays a search).
 */
function combined(c: Classified, reader: IntelReader): { subject: Subject; steps: PlanStep[] } | null {
  const subject = resolveSubject(reader, c.rest);
  const best = subject.candidates[0];
  if (!best) return null;
  if (subject.how === 'path' && !best.why.startsWith('file named')) {
    return { subject, steps: [{ id: 'answer', tool: 'file_context', args: { file: best.path }, pick: ['path', 'dependents', 'dependencies', 'exports'], why: 'both directions: the files importing it and the project files it imports, then its exports' }] };
  }
  const declares = subject.candidates.filter((x) => x.symbol === best.symbol && x.why.startsWith('declares'));
  if (subject.how === 'symbol' && best.symbol && declares.length === 1 && declares[0] === best) {
    const steps: PlanStep[] = [{ id: 'answer', tool: 'verify_artifact', args: { must_exist: best.symbol, check_type: 'definition' }, why: `where ${best.symbol} is declared (file:line)` }];
    const node = reader.nodes.get(reader.byPath.get(best.path) ?? '');
    if (node?.exports.some((e) => e.name === best.symbol)) {
      steps.push({ id: 'users', tool: 'blast_radius', args: { file: best.path, symbol: best.symbol, max_depth: 1 }, pick: ['file', 'symbol', 'total', 'by_depth'], why: `files that import ${best.symbol}` });
    }
    return { subject, steps };
  }
  return null;
}

/** Builds the plan of a question. */
export function planQuestion(query: string, ctx: PlanContext): Plan {
  const c = classify(query);
  const notes: string[] = [];
  let subject: Subject | null = null;
  let steps: PlanStep[] = [];
  let family = c.family;
  const area = subjectWords(c.rest).join(' ');
  const both = family === 'search' && ctx.reader ? combined(c, ctx.reader) : null;
  if (both) {
    ({ subject, steps } = both);
    family = 'links';
    notes.push(`the question's intent was not read with confidence: answered both ways for ${both.subject.candidates[0]!.symbol ?? both.subject.candidates[0]!.path}`);
  } else if (CODE_FAMILIES.has(family)) ({ subject, steps } = planCode(family, c, ctx, notes));
  else if (family === 'hotspots') steps = [{ id: 'hotspots', tool: 'hotspots', args: {}, why: 'files ranked by dependents' }];
  else if (family === 'architecture') {
    steps = [
      { id: 'hotspots', tool: 'hotspots', args: {}, why: 'the most depended-on files' },
      { id: 'areas', tool: 'codebase_patterns', args: { query: '', include_examples: false }, why: 'project conventions and the largest folders' },
    ];
  } else if (family === 'conventions') steps = [{ id: 'patterns', tool: 'codebase_patterns', args: { query: area }, why: area ? `conventions of the folders matching "${area}"` : 'project-wide conventions' }];
  else if (family === 'phase_files') {
    const args = c.phase ? { phase: c.phase } : { phase_goal: area || query };
    steps = [{ id: 'files', tool: 'phase_relevant_files', args, why: c.phase ? `files for ROADMAP phase ${c.phase}` : 'files for the goal' }];
  } else if (family === 'status') {
    if (c.board && ctx.has('dash')) steps.push({ id: 'dash', tool: 'dash', args: { format: 'json' }, why: 'the dashboard: phase, progress, requirements, leases' });
    if (c.board === 'leases' && ctx.has('lease')) steps.push({ id: 'leases', tool: 'lease', args: { action: 'list' }, why: 'active leases' });
    if (c.board && !steps.length) notes.push(`${c.board === 'leases' ? 'lease' : 'dash'} is not served here yet: answered from phase_status and requirement_status`);
    if (!steps.length || c.requirementIds.length || c.phase) {
      if (c.requirementIds.length) for (const id of c.requirementIds.slice(0, 3)) steps.push({ id: `req-${id}`, tool: 'requirement_status', args: { requirement_id: id }, why: `requirement ${id}` });
      else if (c.phase) steps.push({ id: 'phase', tool: 'phase_status', args: { phase: c.phase }, why: `phase ${c.phase}` });
      else {
        steps.push({ id: 'phase', tool: 'phase_status', args: {}, why: 'the current phase and every phase' });
        steps.push({ id: 'requirements', tool: 'requirement_status', args: {}, why: 'requirements by state' });
      }
    }
  } else if (family === 'similar_work') steps = [{ id: 'similar', tool: 'similar_past_work', args: { current_goal: area || query }, why: 'past phases, plans and summaries like it' }];
  if (!steps.length) {
    if (family !== 'search') notes.push(`answered by a search instead of a ${family} plan`);
    else notes.push('no question family matched: searched the index for the words (families: who imports X, impact of X, explain X, where is X defined, what X imports, the links of X, hotspots, architecture, conventions, files for a phase, status, similar past work)');
    const words = subjectWords(query).join(' ') || query;
    steps = [{ id: 'search', tool: 'query_intel', args: { query: words.slice(0, 500) }, why: 'keyword search over paths, exports and purposes' }];
  }
  for (const s of steps) if (!ctx.has(s.tool)) notes.push(`${s.tool} is not registered on this server: its step will fail`);
  return { family, matched: c.matched, subject, steps, notes };
}
