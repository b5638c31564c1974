/** Words and light stems for guidance search: "Testing", "tests" and "tested" all meet at "test". */

const STOP = new Set(
  ('a an and are as at be but by can do does for from how i in into is it its me my of on or our should so that the their ' +
    'then there these this to use using we what when where which who why will with write you your about need want help ' +
    'guidance guide load show get make').split(' '),
);

/** lower-case words of letters and digits, two characters or more */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []) as string[];
}

const KEEP_DOUBLE = new Set(['l', 's', 'z', 'f']);

export function stem(word: string): string {
  let w = word;
  if (w.length > 8 && w.endsWith('ication')) return `${w.slice(0, -7)}y`; // verification → verify
  let cut = false;
  if (w.length > 5 && w.endsWith('ing')) (w = w.slice(0, -3)), (cut = true);
  else if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ed')) (w = w.slice(0, -2)), (cut = true);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  const last = w[w.length - 1];
  if (cut && w.length > 3 && last === w[w.length - 2] && !KEEP_DOUBLE.has(last) && !/[aeiou]/.test(last)) w = w.slice(0, -1);
  return w;
}

export function stemsOf(words: readonly string[]): string[] {
  return words.map(stem);
}

/** the query's keywords as stems, stop words dropped, each once, in order */
export function queryStems(query: string): string[] {
  return [...new Set(stemsOf(wordsOf(query).filter((w) => !STOP.has(w))))];
}

/** does a file's stem answer the query's stem: the same stem, or a longer word of it ("debug" finds "debugger") */
export function stemMatches(queryStem: string, fileStem: string): boolean {
  return fileStem === queryStem || (queryStem.length >= 4 && fileStem.startsWith(queryStem));
}

/** sorted unique stems, for `countPrefix` */
export interface StemIndex {
  stems: string[];
  counts: number[];
}

export function stemIndex(words: readonly string[]): StemIndex {
  const m = new Map<string, number>();
  for (const s of stemsOf(words)) m.set(s, (m.get(s) ?? 0) + 1);
  const stems = [...m.keys()].sort();
  return { stems, counts: stems.map((s) => m.get(s) ?? 0) };
}

/** how often the query stem occurs in the index, prefixes included (binary search, then a short scan) */
export function countMatches(index: StemIndex, queryStem: string): number {
  const { stems, counts } = index;
  let lo = 0;
  let hi = stems.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stems[mid] < queryStem) lo = mid + 1;
    else hi = mid;
  }
  let n = 0;
  for (let i = lo; i < stems.length && stems[i].startsWith(queryStem); i++) if (stemMatches(queryStem, stems[i])) n += counts[i];
  return n;
}
