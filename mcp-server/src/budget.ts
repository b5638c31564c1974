/**
 * Token budgets for tool answers (tokens = characters / 4 of the JSON). An answer over its budget is shaped to fit:
 * the largest innermost list loses its tail (tools list their most important items first), or the longest text is
 * trimmed, until it fits. Every cut is honest: a list whose object has `truncated` gets `truncated: true` (its
 * `total` is left as it was), and the answer gets `truncated: true` plus `budget.cut` naming each list cut (kept of
 * total) and `budget.rest`, the call that gets the rest. The shaping works on plain JSON values, never on the serialised text, so the answer stays valid JSON.
 */

export const DEFAULT_MAX_TOKENS = 3500;
export const MIN_MAX_TOKENS = 100;
export const MAX_MAX_TOKENS = 25_000;

export const tokensOf = (value: unknown): number => Math.ceil(JSON.stringify(value).length / 4);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

interface Slot {
  /** where it is, e.g. `by_depth.0.files` */
  at: string;
  parent: Obj | Json[];
  key: string | number;
  size: number;
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Every array and every long string of a JSON value, with its serialised size. */
function slots(value: Json, at: string, parent: Obj | Json[] | null, key: string | number, out: { arrays: Slot[]; texts: Slot[] }): void {
  if (Array.isArray(value)) {
    if (parent) out.arrays.push({ at, parent, key, size: JSON.stringify(value).length });
    value.forEach((v, i) => slots(v, at ? `${at}.${i}` : String(i), value, i, out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) slots(v, at ? `${at}.${k}` : k, value, k, out);
  } else if (typeof value === 'string' && value.length > 80 && parent) {
    out.texts.push({ at, parent, key, size: value.length });
  }
}

export interface Shaped<T> {
  value: T;
  truncated: boolean;
  tokens: number;
}

function holdsLists(v: Json): boolean {
  if (Array.isArray(v)) return v.some((x) => Array.isArray(x) || holdsLists(x));
  return !!v && typeof v === 'object' && Object.values(v).some((x) => Array.isArray(x) || holdsLists(x));
}

/** room for the markers added to a cut answer */
const RESERVE = 240;

/**
 * Cuts `root` in place until it fits `limit` characters or nothing more can go: innermost lists first, the largest
 * first, never below `keep` items; with `keep` 0 (emptying), the last list of the answer first. Returns the size.
 */
function shrink(root: Obj, keep: number, limit: number, cuts: Map<string, { total: number; kept: number }>): number {
  let size = JSON.stringify(root).length;
  for (let guard = 0; guard < 400 && size + RESERVE > limit; guard++) {
    const found = { arrays: [] as Slot[], texts: [] as Slot[] };
    slots(root, '', null, '', found);
    const arrays = found.arrays.filter((s) => ((s.parent as never)[s.key] as Json[]).length > keep);
    const texts = keep ? found.texts.filter((s) => s.size > 120) : [];
    // a list of lists (by_depth, a route's results) loses whole entries last
    const nested = (s: Slot) => arrays.some((o) => o !== s && o.at.startsWith(`${s.at}.`));
    const inner = arrays.filter((s) => !nested(s));
    // emptying never takes a list of lists (a route's results, by_depth): its first entry is the answer itself
    const list = keep ? inner.sort((a, b) => b.size - a.size)[0] : inner.filter((s) => !holdsLists((s.parent as never)[s.key])).at(-1);
    const text = texts.sort((a, b) => b.size - a.size)[0];
    if (!list && !text) break;
    const over = size + RESERVE - limit;
    if (list && (!text || list.size >= text.size)) {
      const items = (list.parent as never)[list.key] as Json[];
      // drop as many items as the excess needs (by average item size), at least one, at most half
      const drop = Math.min(Math.max(1, Math.ceil(over / Math.max(1, list.size / items.length))), Math.ceil(items.length / 2));
      const kept = Math.max(keep, items.length - drop);
      cuts.set(list.at, { total: cuts.get(list.at)?.total ?? items.length, kept });
      items.length = kept;
      if (!Array.isArray(list.parent) && typeof list.parent.truncated === 'boolean') list.parent.truncated = true;
    } else {
      const t = (text!.parent as never)[text!.key] as string;
      const to = Math.max(60, Math.min(Math.floor(t.length / 2), t.length - over));
      (text!.parent as Record<string | number, Json>)[text!.key] = `${t.slice(0, to - 1)}…`;
    }
    size = JSON.stringify(root).length;
  }
  return size;
}

/** The call that gets what a cut left out: the same call with a budget that holds it all, or a narrower one. */
export function restCall(tool: string, need: number, narrower?: string): string {
  const room = Math.ceil(need / 500) * 500;
  if (room <= MAX_MAX_TOKENS) return `call ${tool} again with the same arguments and max_tokens: ${room}`;
  return `call ${tool} again with max_tokens: ${MAX_MAX_TOKENS}${narrower ? ` and ${narrower}` : ' and narrower arguments'} (the whole answer is ~${need} tokens)`;
}

/**
 * Fits `value` (an object answer) into `maxTokens`; returns it untouched when it already fits. Lists first keep
 * their first item; only if that cannot fit are lists emptied (the last field's first: tools put what matters most
 * first). If even that cannot fit, the first-items answer is sent with `budget.over: true`: an emptied answer that
 * is still too big would help nobody.
 */
export function fitToBudget<T extends object>(value: T, maxTokens: number, again?: { tool: string; narrower?: string }): Shaped<T> {
  const limit = maxTokens * 4;
  const size = JSON.stringify(value).length;
  if (size <= limit) return { value, truncated: false, tokens: Math.ceil(size / 4) };
  const cuts = new Map<string, { total: number; kept: number }>();
  let root = clone(value) as unknown as Obj;
  let over = false;
  if (shrink(root, 1, limit, cuts) + RESERVE > limit) {
    const emptied = clone(root);
    const more = new Map(cuts);
    if (shrink(emptied, 0, limit, more) + RESERVE <= limit) {
      root = emptied;
      for (const [k, v] of more) cuts.set(k, v);
    } else over = true;
  }
  root.truncated = true;
  root.budget = {
    max_tokens: maxTokens,
    cut: [...cuts].slice(0, 8).map(([at, c]) => `${at}: ${c.kept} of ${c.total}`),
    ...(over ? { over: true } : {}),
    ...(again ? { rest: restCall(again.tool, Math.ceil(size / 4) + RESERVE, again.narrower) } : {}),
  };
  return { value: root as unknown as T, truncated: true, tokens: tokensOf(root) };
}
