/**
 * Which kind of question a query is: an ordered list of word patterns, first match wins, so a question reads the
 * way a person means it ("what does X import" before "what imports X", "where is X used" before "where is X").
 * Deterministic: no model, no network. What the pattern matched is stripped, and the rest is the question's subject.
 */

export const FAMILIES = [
  'dependents',
  'impact',
  'explain',
  'definition',
  'imports',
  'links',
  'hotspots',
  'architecture',
  'conventions',
  'phase_files',
  'status',
  'similar_work',
  'search',
] as const;
export type Family = (typeof FAMILIES)[number];

export type ChangeType = 'any' | 'signature_change' | 'behavior_change' | 'deletion';

export interface Classified {
  family: Family;
  /** the words that decided it */
  matched: string;
  /** the question without those words: the subject */
  rest: string;
  changeType: ChangeType;
  /** a ROADMAP phase number named in the question, e.g. "2" or "2.1" */
  phase: string | null;
  /** requirement ids named in the question, e.g. AUTH-03 */
  requirementIds: string[];
  /** leases or the dashboard were asked for */
  board: 'leases' | 'dashboard' | null;
}

const RULES: Array<[Family, RegExp]> = [
  ['similar_work', /\b(similar|previous|past|prior|earlier|related)\s+(work|phases?|plans?|tasks?|changes?|summar(?:y|ies))\b|\bhave we (?:ever |already )?(?:done|built|implemented|solved)\b|\bdone (?:this|that|something like (?:this|that)) before\b/],
  ['phase_files', /\b(?:what|which)\b[^?]*?\b(?:matters?|relevant|files?|code|modules?)\b[^?]*?\bfor\b[^?]*?\b(?:phase|goal|milestone|task|feature)\b|\b(?:files?|code)\s+(?:relevant|that matters?|needed)\s+(?:to|for)\b|\bwhat matters for\b|\brelevant files?\s+(?:for|to)\b|\bwhere (?:do|should) i (?:start|look) (?:for|to)\b/],
  ['impact', /\b(?:impact(?:s|ed|ing)?|blast[- ]radius|ripple|(?:what|which)(?: files?)? (?:would |will |might )?breaks?|breaks? if|affected by|safe to (?:change|delete|remove|rename|edit|modify|refactor)|if (?:i|we) (?:change|delete|remove|rename|modify|edit|refactor)|consequences? of (?:changing|deleting|removing))\b|\bif (?:i|we|you|someone|anyone) (?:break|breaks|broke|move|moved|split|touch|touched|drop|replace|rewrite|delete|remove|rename|change)\b|\bif\b[^?]*\b(?:moved|changed|deleted|removed|renamed|broke|broken|breaks|goes away|disappeared|split)\b|\bstops? (?:compiling|building|working|loading)\b|\b(?:have|need|needs) to (?:touch|update|fix|change|edit)\b[^?]*\bif\b/],
  ['hotspots', /\b(?:most (?:depended[- ]on|depended upon|used|imported|important|central|critical|shared)|hotspots?|core files|central files|key files|riskiest files)\b/],
  ['definition', /\bwhere (?:is|are|'s)\b(?<subject>.*)\b(?:defined|declared|implemented|located|lives?|exported|written)\b|\b(?:files?|modules?) (?:that |which )?(?:with|contains?|containing|has|having|holds?|defines?|defining|declares?|declaring|exports?|implements?)\b|\b(?:definition|declaration|location|source|defn|decl|def|file|line) (?:of|for)\b|\bpath to\b|\bfind (?:the )?(?:definition|declaration|file)\b|\bwhere (?:is|are|'s)\s+\S+\s*\??$|\b(?:go|take me|bring me|navigate|jump) to\b|\bgoto\b|\b(?:def|defn|decl)\b/],
  ['status', /\b(?:status|progress|dashboard|dash|leases?|leased|current phase|next phase|how far|pending requirements?|requirements? (?:left|open|done|pending|complete))\b|\b[A-Z][A-Z0-9]{1,9}-\d{1,4}\b/],
  ['architecture', /\b(?:architecture|overview|structure|layout|organi[sz]ed|organi[sz]ation|big picture|high[- ]level|entry points?|map of)\b/],
  ['conventions', /\b(?:conventions?|patterns?|coding style|code style|style guide|naming|idioms?|how (?:are|do we|should (?:i|we)) .+ (?:written|structured|named|organi[sz]ed|tested|laid out))\b/],
  ['explain', /\b(?:explain|tell me about|what (?:is|are|does|do)|what's|describe|purpose of|summar(?:y|i[sz]e)|overview of|how does .+ work|understand|context (?:of|for)|about)\b/],
];

/** The rules read before a question's links (a question about a phase, a change's impact, the hotspots). */
const LINK_RULES_AFTER = 4;

/**
 * The link verbs, each as its base form; every inflection is derived from it (`inflections`), so "depending",
 * "relied", "requires", "importers" read as the verbs they are.
 */
const LINK_VERBS = ['import', 'depend', 'use', 'require', 'need', 'rely', 'pull', 'bring', 'load', 'reference', 'consume', 'call', 'include'];
/** nouns for the files that link TO a file (its dependents), beyond the verbs' agent nouns ("importer", "user") */
const AGENT_NOUNS = new Set(['dependent', 'dependents', 'dependant', 'dependants', 'usage', 'usages', 'reliant', 'callers', 'caller', 'refs']);
/** an agent noun that is an adjective before "on": "F is dependent on", "files reliant upon F" read as the verb */
const ADJECTIVE_ON = new Set(['dependent', 'dependant', 'reliant']);
/** a form of "make" before a verb's noun makes it the verb: "files that make use of F", "what does F make use of" */
const LIGHT_VERBS = new Set(['make', 'makes', 'made', 'making']);
/**
 * Verbs that are link words only with their particle ("what hangs off F", "F leans on", "built on top of F"), every
 * form read as active: the file before the verb links to what follows, the file after it is linked to.
 */
const PHRASAL: Array<[string[], string[]]> = [
  [['lean', 'leans', 'leaning', 'leaned', 'leant'], ['on', 'upon']],
  [['hang', 'hangs', 'hanging', 'hung'], ['off', 'on', 'from']],
  [['build', 'builds', 'building', 'built'], ['on', 'upon']],
  [['rest', 'rests', 'resting', 'rested'], ['on', 'upon']],
  [['sit', 'sits', 'sitting', 'sat'], ['on', 'upon']],
  [['count', 'counts', 'counting', 'counted'], ['on', 'upon']],
  [['draw', 'draws', 'drawing', 'drew', 'drawn'], ['on', 'upon', 'from']],
  [['reach', 'reaches', 'reaching', 'reached'], ['into', 'for']],
  [['hook', 'hooks', 'hooking', 'hooked'], ['into']],
];
const PARTICLES: Map<string, string[]> = new Map(PHRASAL.flatMap(([forms, ps]) => forms.map((f) => [f, ps] as [string, string[]])));
/** nouns for what a file links to (its dependencies) */
const OBJECT_NOUNS = new Set(['dependency', 'dependencies', 'deps', 'dep', 'imports']);
/** a verb's forms read as nouns after these ("its imports", "the uses of") or before "of/for/in" */
const DETERMINERS = new Set(['its', 'the', 'their', 'his', 'her', 'my', 'our', 'your', 'whose', 'incoming', 'outgoing', 'inbound', 'outbound', 'reverse', 'direct']);
/** the asker, not a file: "I need", "we use" */
const ASKERS = new Set(['i', 'we', 'you', "i'd", "i'll", "we'd"]);

type LinkForm = 'active' | 'passive' | 'agent' | 'object';

/** base → form of every inflection: "rely" → relies, relying, relied, reliant…; "use" → uses, using, used, user(s) */
const INFLECTIONS: Map<string, { base: string; form: LinkForm }> = (() => {
  const m = new Map<string, { base: string; form: LinkForm }>();
  for (const b of LINK_VERBS) {
    const stem = b.replace(/e$/, '');
    const y = b.endsWith('y') ? b.slice(0, -1) : null;
    const third = y ? `${y}ies` : `${b}s`;
    const past = y ? `${y}ied` : b.endsWith('e') ? `${b}d` : `${b}ed`;
    for (const w of [b, third, `${stem}ing`]) m.set(w, { base: b, form: 'active' });
    m.set(past, { base: b, form: 'passive' });
    for (const w of [`${stem}er`, `${stem}ers`]) m.set(w, { base: b, form: 'agent' });
  }
  m.set('brought', { base: 'bring', form: 'passive' });
  for (const w of AGENT_NOUNS) m.set(w, { base: w, form: 'agent' });
  return m;
})();

const isPathLike = (w: string) => w.includes('/') || /\.[A-Za-z][\w]{0,5}$/.test(w) && /^[\w.$@-]+$/.test(w);
const isCodeName = (w: string) => /^[A-Za-z_$][\w$]*$/.test(w) && /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|_|^[A-Z][A-Za-z0-9]*$/.test(w) && w !== 'I';

/**
 * Which way a question asks about a file's links, read from its grammar rather than fixed phrases: each link word
 * (any inflection of a link verb, or a noun for dependents or dependencies) votes for a direction by its form and
 * where the file stands against it — the file after an active verb is its object ("who imports F", "files
 * depending on F": dependents), before it its subject ("what does F import", "what is F relying on": imports); a
 * passive verb reads the other way unless the file is the agent after "by"/"in" ("F is used by …", "where does F
 * get imported": dependents; "files required by F": imports); "dependents/importers/usages of F" are dependents,
 * "dependencies/deps of F", "F's imports" its imports; "incoming"/"reverse" and "outgoing" say it outright. Votes
 * for both directions read as `links` (both). Null without a link word or a subject.
 */
function readLinks(q: string): { family: Family; matched: string; rest: string } | null {
  const raw = q.split(/[\s,;!?()"]+/).filter(Boolean);
  const toks = raw.map((t) => t.replace(/^[`'"]+|[`'".:]+$/g, ''));
  const low = toks.map((t) => t.toLowerCase().replace(/'s$/, ''));
  const isLink = (i: number) => INFLECTIONS.has(low[i]!) || OBJECT_NOUNS.has(low[i]!) || low[i] === 'downstream' || low[i] === 'upstream';
  // where the file stands: a path or code name, then "it" after it ("F: who imports it?"), else the last subject word
  let pos = toks.findIndex((t) => isPathLike(t));
  // a code name: camelCase or snake_case anywhere, a capitalised word past the first ("who uses Compiler")
  if (pos < 0) pos = toks.findIndex((t, i) => isCodeName(t) && (i > 0 || /[a-z][A-Z]|_/.test(t)) && subjectWords(t).length > 0);
  if (pos < 0) {
    for (let i = toks.length - 1; i >= 0; i--) {
      if (!isLink(i) && subjectWords(toks[i]!).length) {
        pos = i;
        break;
      }
    }
  }
  if (pos < 0) return null;
  // "files that have an import of F", "which have F as a dependency": F is what they link to
  const possessed = (i: number) => /^an?$/.test(low[i - 1] ?? '') && ['as', 'has', 'have', 'having', 'had'].includes(low[i - 2] ?? '');
  const votes = new Set<Family>();
  const matched: number[] = [];
  const reverse = low.some((w) => w === 'incoming' || w === 'inbound' || w === 'reverse');
  const outgoing = low.includes('outgoing') || low.includes('outbound');
  // a condition's words ("… when F is loaded") are not a second link of the question
  let condition = low.length;
  for (let i = 0; i < low.length; i++) {
    if (i > condition) break;
    const w = low[i]!;
    // the subject itself ("who imports Dependency") and a capitalised name are never link words
    if (i === pos || (i > 0 && /^[A-Z]/.test(toks[i]!))) continue;
    const prev = low[i - 1] ?? '';
    const next = low[i + 1] ?? '';
    const inf = INFLECTIONS.get(w);
    // "it" as this verb's object stands for the file ("F: who imports it?", "F — what depends on it?")
    const at = low[i + 1] === 'it' || (['on', 'upon', 'in', 'by', 'off', 'into', 'from'].includes(next) && low[i + 2] === 'it') ? i + 1 : pos;
    let vote: Family | null = null;
    const particles = PARTICLES.get(w);
    if (particles?.includes(next) && !ASKERS.has(prev)) {
      // a phrasal verb: its particle (and "on top of") goes with it
      vote = at > i ? 'dependents' : 'imports';
      matched.push(i + 1);
      if (low[i + 2] === 'top' && low[i + 3] === 'of') matched.push(i + 2, i + 3);
    } else if (inf && ASKERS.has(prev)) continue;
    else if (inf && ((inf.form === 'agent' && ADJECTIVE_ON.has(w) && ['on', 'upon'].includes(next)) || (LIGHT_VERBS.has(prev) && inf.form === 'active'))) {
      vote = at > i ? 'dependents' : 'imports';
      if (LIGHT_VERBS.has(prev)) matched.push(i - 1);
    } else if (w === 'downstream' || w === 'upstream') {
      // what is downstream of F depends on F (its dependents); upstream of F is what F depends on
      vote = (at > i) === (w === 'downstream') ? 'dependents' : 'imports';
    } else if (OBJECT_NOUNS.has(w) && ['on', 'upon'].includes(next)) {
      // "a dependency on F": what has it depends on F; "F has a dependency on …": F depends
      vote = at > i ? 'dependents' : 'imports';
      matched.push(i + 1);
    } else if (OBJECT_NOUNS.has(w) && !(w === 'imports' && !DETERMINERS.has(prev) && !/'s$/.test(toks[i - 1]?.toLowerCase() ?? '') && !['of', 'for', 'in'].includes(next))) {
      vote = reverse || possessed(i) ? 'dependents' : 'imports';
    } else if (!inf || ASKERS.has(prev)) continue;
    else if (inf.form === 'agent') vote = 'dependents';
    else if (inf.base === 'call' && inf.form === 'passive' && next !== 'by') continue; // "a file called x.ts"
    else if (inf.form === 'active' && (DETERMINERS.has(prev) || possessed(i) || /'s$/.test(toks[i - 1]?.toLowerCase() ?? '') || ['of', 'for'].includes(next)) && !/ing$/.test(w)) {
      // a verb's form used as a noun: "the uses of F", "references to" read as dependents, other nouns as dependencies
      vote = reverse || possessed(i) || inf.base === 'use' || inf.base === 'reference' || inf.base === 'call' ? 'dependents' : 'imports';
    } else if (inf.form === 'passive' && !['has', 'have', 'had'].includes(prev)) {
      // "imported by F", "pulled in by F", "depended on by F", "imported in F": F is the one that imports
      let j = i + 1;
      let inPrep = false;
      while (['on', 'upon', 'in', 'into'].includes(low[j] ?? '')) inPrep ||= /^in/.test(low[j++]!);
      // "loaded before F", "needed for F": F is the one that needs it; "loaded when F is loaded": F brings it in
      const cond = at > i ? low.slice(i + 1, at).findIndex((x) => ['when', 'whenever', 'once', 'after', 'if'].includes(x)) : -1;
      const when = cond >= 0;
      if (when) condition = i + 1 + cond;
      vote = at > i && (['by', 'for', 'before'].includes(low[j] ?? '') || inPrep || when) ? 'imports' : 'dependents';
    } else vote = at > i ? 'dependents' : 'imports';
    if (outgoing) vote = 'imports';
    votes.add(vote);
    matched.push(i);
  }
  if (!votes.size) return null;
  matched.sort((a, b) => a - b);
  const family: Family = votes.size > 1 ? 'links' : [...votes][0]!;
  const rest = toks.filter((_, i) => !matched.includes(i)).join(' ');
  return { family, matched: matched.map((i) => toks[i]).join(' '), rest };
}

/** Words that never name a subject. */
const FILLER = new Set(
  `a an the this that these those it its is are was be do does did of for to in on at by with from into about and or not
  what which who whom whose where when why how me my we our us you your i please show tell give list find get know
  file files module modules code function class thing things there here would will might could should can any all
  some change changes changed changing if break breaks affected safe project codebase repo app system import imports
  imported importing depend depends dependent dependents depending use uses used using require requires need needs
  defined declared handles handle handling deals responsible work works doing explain describe tell about impact
  blast radius ripple status progress implemented located lives live exported written definition declaration location
  purpose summary summarize overview understand context dependencies deps importers callers consumers usages users
  go matters matter relevant give architecture structure layout organized organised organization organisation big
  picture high level high-level entry points map whole overall general similar previous past prior earlier before
  conventions convention patterns pattern style naming idioms else other incoming outgoing inbound outbound reverse rely relies relying
  depended needed loaded load loads pull pulls pulled link links linked references referenced edges can anywhere
  everything anything everyone anyone parts part upon open see display has have had been being were dependant dependants
  downstream upstream refs`.split(/\s+/),
);
for (const [w, { form }] of INFLECTIONS) if (form === 'active' || form === 'passive') FILLER.add(w);

/** the words a typo is mended to: what decides a family (link verbs and nouns, the words of a definition) */
const MENDABLE: string[] = (() => {
  const words = [...INFLECTIONS].filter(([w, { form }]) => form !== 'agent' || /^(?:import|depend)/.test(w)).map(([w]) => w);
  return [...words, ...OBJECT_NOUNS, 'where', 'defined', 'declared', 'definition', 'declaration', 'implemented', 'located'].filter((w) => w.length >= 5);
})();
/** words spelled right: never mended */
const KNOWN: Set<string> = new Set([...FILLER, ...INFLECTIONS.keys(), ...OBJECT_NOUNS, ...PARTICLES.keys(), ...MENDABLE, 'define', 'defines', 'declare', 'declares', 'implement', 'implements', 'locate', 'locates', 'export', 'exported', 'exports']);

/** one letter dropped, one added, or two neighbours swapped: the typos of fast typing */
function oneSlip(a: string, b: string): boolean {
  if (a.length === b.length) {
    const i = [...a].findIndex((ch, k) => ch !== b[k]);
    return i >= 0 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length - short.length !== 1) return false;
  const i = [...short].findIndex((ch, k) => ch !== long[k]);
  return i < 0 || short.slice(i) === long.slice(i + 1);
}

/**
 * A question with its typos mended ("importng", "imprts", "whre is X defnied", "whats"): a plain lowercase word of four
 * letters or more that is not a known word and is one slip from a family word becomes that word, as long as the
 * question keeps another word to be its subject (a lone "rings" stays a name, not "brings").
 */
function mendTypos(q: string): string {
  // a contraction typed without its apostrophe: "whats", "wheres", "whos"
  q = q.replace(/\b(what|where|who|how|that)s\b/gi, "$1's");
  const parts = q.split(/(\s+)/);
  const subjects = subjectWords(q);
  return parts
    .map((part) => {
      const m = /^([^A-Za-z]*)([A-Za-z][a-z]{3,})([^A-Za-z]*)$/.exec(part);
      if (!m) return part;
      const w = m[2]!.toLowerCase();
      if (KNOWN.has(w) || !subjects.some((s) => s.toLowerCase() !== w)) return part;
      const to = MENDABLE.find((t) => oneSlip(w, t));
      return to ? `${m[1]}${to}${m[3]}` : part;
    })
    .join('');
}

/** The first family whose words a question holds (the link grammar read before the definition's words), or search. */
/** a text with its paths blanked out (same length): a family's words inside a path ("rich/status.py") are not the question's */
const maskPaths = (text: string) => text.replace(/[^\s,;?!()"`']+/g, (w) => (isPathLike(w.replace(/[.:]+$/, '')) ? '_'.repeat(w.length) : w));

function readRules(q: string, phase: string | null): { family: Family; matched: string; rest: string } {
  const lower = maskPaths(q.toLowerCase());
  let family: Family = 'search';
  let matched = '';
  let rest = q;
  for (const [k, [f, re]] of RULES.entries()) {
    if (k === LINK_RULES_AFTER) {
      const l = phase ? null : readLinks(q);
      if (l && subjectWords(l.rest).length) {
        return l;
      }
    }
    const m = (f === 'status' ? re.exec(maskPaths(q)) : null) ?? re.exec(lower);
    if (!m) continue;
    family = f;
    matched = m[0];
    // words the pattern spans over ("where is <subject> declared") stay in the subject
    const inner = m.groups?.subject ? q.slice(m.index, m.index + m[0].length).slice(m[0].indexOf(m.groups.subject), m[0].indexOf(m.groups.subject) + m.groups.subject.length) : '';
    rest = (q.slice(0, m.index) + ' ' + inner + ' ' + q.slice(m.index + m[0].length)).trim();
    // "where is X defined", "how does X work": the subject is inside the matched words
    if (!subjectWords(rest).length) rest = q.slice(m.index, m.index + m[0].length);
    return { family, matched, rest };
  }
  return { family, matched, rest };
}

/** Classifies a question. Anything no rule matches is a `search`. */
export function classify(query: string): Classified {
  const q = mendTypos(query.trim());
  const lower = q.toLowerCase();
  const requirementIds = [...new Set([...q.matchAll(/\b[A-Z][A-Z0-9]{1,9}-\d{1,4}\b/g)].map((m) => m[0]))];
  const phase = /\bphase\s+(\d+(?:\.\d+)?)\b/i.exec(q)?.[1] ?? null;
  const board = /\bleases?\b|\bleased\b/.test(lower) ? 'leases' : /\bdash(?:board)?\b/.test(lower) ? 'dashboard' : null;
  let { family, matched, rest } = readRules(q, phase);
  // a side clause must not outweigh the question: "I keep seeing N referenced, where is it actually defined?" asks
  // where N is defined. When a later clause is the question (it opens with a question word) and an earlier one is
  // not, the question's clause decides the family; the whole text still gives the subject.
  const clauses = q.split(/\s*(?:[,;]|\s[—–-]+\s)\s*/).filter((x) => x.trim());
  const asks = (x: string) => /^(?:where|what|which|who|whom|whose|how|can|could|is|are|does|do)\b/i.test(x.trim());
  const main = clauses.findIndex((x, i) => i > 0 && asks(x));
  // the question's clause names the subject by a pronoun ("where is it defined"): read it with the side clause's file or name
  const named = clauses.slice(0, Math.max(0, main)).join(' ').split(/\s+/).map((w) => w.replace(/^[`'"]+|[`'".:]+$/g, '')).find((w) => isPathLike(w) || isCodeName(w));
  const asked = main > 0 ? clauses.slice(main).join(', ') : '';
  if (named && /\bit\b/i.test(asked) && !clauses.slice(0, main).some(asks) && !/\?/.test(clauses.slice(0, main).join(' '))) {
    const m = readRules(asked.replace(/\bit\b/i, named), phase);
    if (m.family !== 'search' && m.family !== family) {
      family = m.family;
      matched = m.matched;
      rest = m.rest;
    }
  }
  // no family's words, but the question asks where something is, or about a file's links: the direction unclear,
  // `links` answers both directions (what it imports and what imports it)
  if (family === 'search') {
    const links: [Family, RegExp] = [
      'links',
      /\b(?:imports?|imported|importing|importers?|depends?|depended|dependenc(?:y|ies)|dependents?|deps|uses?|used|using|usages?|users?|callers?|consumers?|requires?|required|pulls?|loads?|loaded|needs?|needed|rel(?:y|ies|ied|ying)|links?|linked|references?|referenced|edges?)\b/,
    ];
    const where: [Family, RegExp] = ['definition', /\b(?:defined|declared|declares?|defines?|defining|implemented|implements|located?|locate|location|lives?|find|definition|declaration|source|where|point me|look ?up|jump|open|which file|what file)\b/];
    // a question that names a file asks about the file (its links) before where a name is
    const fallback = subjectWords(q).some((w) => w.includes('/') || /\.[cm]?[jt]sx?$/i.test(w)) ? [links, where] : [where, links];
    for (const [f, re] of fallback) {
      const m = re.exec(maskPaths(lower));
      if (!m) continue;
      family = f;
      matched = m[0];
      rest = (q.slice(0, m.index) + ' ' + q.slice(m.index + m[0].length)).trim();
      break;
    }
  }
  // "architecture of src/db" is about one area: explain it; "overview of the project" stays architecture
  if (family === 'architecture' && subjectWords(rest).length) family = 'explain';
  let changeType: ChangeType = 'any';
  if (/\b(?:delet|remov|drop)/.test(lower)) changeType = 'deletion';
  else if (/\b(?:renam|signature|parameters?|arguments?|return type)/.test(lower)) changeType = 'signature_change';
  else if (/\b(?:behaviou?r|logic|semantics)/.test(lower)) changeType = 'behavior_change';
  return { family, matched, rest, changeType, phase, requirementIds, board };
}

/** The words of a text that can name a subject (filler dropped, punctuation trimmed, original case kept). */
export function subjectWords(text: string): string[] {
  return text
    .replace(/\b(?:in|inside|within|across|throughout) (?:the |this |our |my )?(?:source(?: code| tree)?|code ?base|code|project|repo(?:sitory)?|sources)\b/gi, ' ')
    .replace(/\bsource (?=(?:code |)files?\b)/gi, ' ')
    .split(/[\s,;?!()"]+/)
    .map((w) => w.replace(/^[`'"]+|[`'".:]+$/g, '').replace(/\(\)$/, '').replace(/'s$/, ''))
    .filter((w) => w.length >= 2 && !FILLER.has(w.toLowerCase()));
}
