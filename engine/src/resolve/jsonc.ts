/**
 * JSON with comments (tsconfig.json, jsconfig.json): strips `//` and `/* *\/` comments and trailing commas outside
 * strings, then JSON.parse. Never throws: returns null when the text still is not JSON.
 */

/** Removes comments and trailing commas outside strings. Strings (with escapes) are copied verbatim. */
export function stripJsonc(text: string): string {
  let out = '';
  let start = 0; // start of the pending verbatim run
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  start = i;
  // index in `out` of a comma that may turn out to be trailing, or -1
  let pendingComma = -1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // string: copy through the closing quote, honouring backslash escapes
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92 /* \ */) j += 2;
        else if (d === 34) break;
        else if (d === 10) break; // unterminated string: stop at end of line, JSON.parse will complain
        else j++;
      }
      i = Math.min(j + 1, n);
      pendingComma = -1;
      continue;
    }
    if (c === 47 /* / */ && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d === 47 || d === 42) {
        out += text.slice(start, i);
        let j: number;
        if (d === 47) {
          j = text.indexOf('\n', i + 2);
          if (j === -1) j = n;
        } else {
          j = text.indexOf('*/', i + 2);
          j = j === -1 ? n : j + 2;
        }
        out += ' ';
        i = j;
        start = i;
        continue;
      }
    }
    if (c === 44 /* , */) {
      out += text.slice(start, i);
      pendingComma = out.length;
      out += ',';
      i++;
      start = i;
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      if (pendingComma !== -1) {
        out += text.slice(start, i);
        out = out.slice(0, pendingComma) + ' ' + out.slice(pendingComma + 1);
        start = i;
      }
      pendingComma = -1;
      i++;
      continue;
    }
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) pendingComma = -1;
    i++;
  }
  out += text.slice(start);
  return out;
}

/** Parses JSONC text; null when it is not valid even after stripping comments and trailing commas. */
export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // not plain JSON: strip comments and trailing commas
  }
  try {
    return JSON.parse(stripJsonc(text));
  } catch {
    return null;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
