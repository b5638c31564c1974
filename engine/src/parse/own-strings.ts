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

function own(value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'string') value[i] = ownString(v);
      else if (v !== null && typeof v === 'object') own(v);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  for (const key in o) {
    const v = o[key];
    if (typeof v === 'string') o[key] = ownString(v);
    else if (v !== null && typeof v === 'object') own(v);
  }
}
