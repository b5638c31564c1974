/**
 * ownStrings: gives every string of a parse result its own storage, so the facts kept of a file do not keep its text.
 *
 * A name or specifier a parser cuts out of the source (babel's `input.slice`, tree-sitter's `node.text`) is, in V8, a
 * view into the whole source string: one 13-character import kept per file keeps the file's text alive for as long as
 * the record lives. Measured on a 10,000-file cold build (in-process, 2 cores): ~70 MB of Python source and ~18 MB of
 * JS/TS source held that way after the parse. A worker's results are copied by postMessage and never held the text;
 * this makes the in-process load (small loads, machines under 4 cores, the hooks' updates) hold no more.
 */

/** V8 makes a view (sliced or concatenated string) only from 13 characters up; shorter strings are copied already. */
const VIEW_MIN = 13;

/** Replaces, in place, each string of 13+ characters in `value`'s plain objects and arrays by a copy. Returns `value`. */
export function ownStrings<T>(value: T): T {
  own(value);
  return value;
}

/** `s` with its own storage (a string kept long after the text it was cut from is gone). */
// `(' ' + s).slice(1)`: the concatenation is flattened into a new string on slicing, the source is no longer referenced
export const ownString = (s: string): string => (s.length >= VIEW_MIN ? (' ' + s).slice(1) : s);

/** Strings up to this length are shared (sharedStrings): kinds, names, specifiers; not doc comments. */
const SHARED_MAX = 64;

/**
 * Replaces, in place, each string of up to 64 characters in `value`'s plain objects and arrays by the one equal string
 * `table` holds (adding it when new). A worker's results come through postMessage with a copy of every string: each
 * symbol's `function`, each import's `import`, each `err` or `fmt` (~20 MB on a 10,000-file Go tree). Returns `value`.
 */
export function sharedStrings<T>(value: T, table: Map<string, string>): T {
  own(value, (s) => {
    if (s.length > SHARED_MAX) return s;
    const shared = table.get(s);
    if (shared !== undefined) return shared;
    table.set(s, s);
    return s;
  });
  return value;
}

function own(value: unknown, copy: (s: string) => string = ownString): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'string') value[i] = copy(v);
      else if (v !== null && typeof v === 'object') own(v, copy);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  for (const key in o) {
    const v = o[key];
    if (typeof v === 'string') o[key] = copy(v);
    else if (v !== null && typeof v === 'object') own(v, copy);
  }
}
