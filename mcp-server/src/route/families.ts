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
  ['impact', /\b(?:impact|blast[- ]radius|ripple|(?:what|which)(?: files?)? (?:would |will |might )?breaks?|breaks? if|affected by|safe to (?:change|delete|remove|rename|edit|modify|refactor)|if (?:i|we) (?:change|delete|remove|rename|modify|edit|refactor)|consequences? of (?:changing|deleting|removing))\b/],
  ['dependents', /\b(?:incoming|reverse) (?:imports|dependencies|deps|edges|links|references)\b/],
  ['imports', /\b(?:what|which)\b[^?]*?\b(?:does|do)\b(?=.*\b(?:imports?|depends? on|uses?|requires?|pulls? in|needs?|loads?)\b)|\b(?:imports|dependencies|deps|requirements|outgoing (?:edges|links|imports)) of\b|\bwhat is imported by\b|\b(?:what|which)\b.+\b(?:imports|requires|pulls in|depends on)\s*\??$|'s (?:imports|dependencies|deps)\b|\b(?:imports|dependencies|deps)\s*\??$|\b(?:files?|modules?) (?:it|that \S+) (?:imports|requires|pulls in|depends on)\b|\bwhat (?!else\b)(?:it|\S+) (?:imports|depends on|requires|pulls in)\b|\b(?:files?|modules?|code|packages?|things?) (?:used|imported|required|needed|loaded) by\b/],
  ['dependents', /\b(?:who|what|which(?: other)?(?: project)?(?: files?| modules?| code)?|everything|anything|all(?: the)?(?: files?| modules?)?|files?|modules?)\s+(?:(?:that|which|else)\s+)?(?:imports?|uses?|depends? on|calls?|requires?|references?|consumes?|needs?|pulls? in|loads?)\b|\b(?:reverse dependencies|incoming (?:edges|links|imports)|dependents|importers)\b|\b(?:dependents|importers|callers|consumers|usages?|users|uses) of\b|\bused by\b|\bwhere (?:is|are) .+ (?:used|imported|called|referenced)\b|\bimported (?:by|from) where\b/],
  ['definition', /\bwhere (?:is|are|'s)\b.*\b(?:defined|declared|implemented|located|lives?|exported|written)\b|\bwhich file (?:defines|declares|exports|contains|has|implements)\b|\b(?:definition|declaration|location|source) of\b|\bfind (?:the )?(?:definition|declaration|file)\b|\bwhere (?:is|are|'s)\s+\S+\s*\??$|\bgo to\b/],
  ['status', /\b(?:status|progress|dashboard|dash|leases?|leased|current phase|next phase|how far|pending requirements?|requirements? (?:left|open|done|pending|complete))\b|\b[A-Z][A-Z0-9]{1,9}-\d{1,4}\b/],
  ['hotspots', /\b(?:most (?:depended[- ]on|depended upon|used|imported|important|central|critical|shared)|hotspots?|core files|central files|key files|riskiest files)\b/],
  ['architecture', /\b(?:architecture|overview|structure|layout|organi[sz]ed|organi[sz]ation|big picture|high[- ]level|entry points?|map of)\b/],
  ['conventions', /\b(?:conventions?|patterns?|coding style|code style|style guide|naming|idioms?|how (?:are|do we|should (?:i|we)) .+ (?:written|structured|named|organi[sz]ed|tested|laid out))\b/],
  ['explain', /\b(?:explain|tell me about|what (?:is|are|does|do)|what's|describe|purpose of|summar(?:y|i[sz]e)|overview of|how does .+ work|understand|context (?:of|for)|about)\b/],
];

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
  conventions convention patterns pattern style naming idioms else other incoming outgoing reverse rely relies relying
  depended needed loaded load loads pull pulls pulled link links linked references referenced edges can`.split(/\s+/),
);

/** Classifies a question. Anything no rule matches is a `search`. */
export function classify(query: string): Classified {
  const q = query.trim();
  const lower = q.toLowerCase();
  const requirementIds = [...new Set([...q.matchAll(/\b[A-Z][A-Z0-9]{1,9}-\d{1,4}\b/g)].map((m) => m[0]))];
  const phase = /\bphase\s+(\d+(?:\.\d+)?)\b/i.exec(q)?.[1] ?? null;
  const board = /\bleases?\b|\bleased\b/.test(lower) ? 'leases' : /\bdash(?:board)?\b/.test(lower) ? 'dashboard' : null;
  let family: Family = 'search';
  let matched = '';
  let rest = q;
  for (const [f, re] of RULES) {
    const m = (f === 'status' ? re.exec(q) : null) ?? re.exec(lower);
    if (!m) continue;
    family = f;
    matched = m[0];
    rest = (q.slice(0, m.index) + ' ' + q.slice(m.index + m[0].length)).trim();
    // "where is X defined", "how does X work": the subject is inside the matched words
    if (!subjectWords(rest).length) rest = q.slice(m.index, m.index + m[0].length);
    break;
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
      const m = re.exec(lower);
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
    .split(/[\s,;?!()"]+/)
    .map((w) => w.replace(/^[`'"]+|[`'".:]+$/g, '').replace(/\(\)$/, '').replace(/'s$/, ''))
    .filter((w) => w.length >= 2 && !FILLER.has(w.toLowerCase()));
}
