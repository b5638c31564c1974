/**
 * The package clause and the package-level names of one Go file, read from its text by a small lexer (the resolver
 * binds a file's same-package names to the files declaring them, and reads only the folders it is asked about).
 * Comments, strings and runes are skipped; at brace depth 0: `func Name` (not a method), `type Name`, `var`/`const`
 * names (`a, b T = …`, and each entry of a `( … )` group).
 */

export interface GoDeclarations {
  /** the package clause's name; null without one */
  pkg: string | null;
  names: string[];
}

const IDENT = /[\p{L}_][\p{L}\p{Nd}_]*/uy;

/** ASCII letter, digit or `_` (non-ASCII letters go through IDENT) */
const wordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/**
 * Tokens of Go source where declarations can be: at bracket depth 0, and at depth 1 inside a `var`/`const`/`type`
 * group: identifiers, one-character punctuation and `\n` (entries of a group end at line ends). Bodies are skipped
 * (only their brackets, strings and comments are followed), so the cost is one pass over the characters.
 */
function tokens(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let depth = 0;
  let group = false;
  let last = '';
  const emit = (t: string): void => {
    out.push(t);
    last = t;
  };
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    const visible = depth === 0 || (group && depth === 1);
    if (c === 10) {
      if (visible) emit('\n');
      i++;
    } else if (c === 32 || c === 9 || c === 13) i++;
    else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf('*/', i + 2);
      if (visible && text.slice(i, end < 0 ? n : end).includes('\n')) emit('\n');
      i = end < 0 ? n : end + 2;
    } else if (c === 96) {
      const end = text.indexOf('`', i + 1);
      if (visible) emit('"');
      i = end < 0 ? n : end + 1;
    } else if (c === 34 || c === 39) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === c || d === 10) break;
        j += d === 92 ? 2 : 1;
      }
      if (visible) emit('"');
      i = j + 1;
    } else if (c === 123 || c === 40 || c === 91) {
      if (visible) {
        if (depth === 0 && c === 40 && (last === 'var' || last === 'const' || last === 'type')) group = true;
        emit(text[i]);
      }
      depth++;
      i++;
    } else if (c === 125 || c === 41 || c === 93) {
      depth = Math.max(0, depth - 1);
      if (depth === 0 || (group && depth === 1)) emit(text[i]);
      if (depth === 0) group = false;
      i++;
    } else if (wordChar(c) || c > 127) {
      let j = i;
      while (j < n && wordChar(text.charCodeAt(j))) j++;
      if (j < n && text.charCodeAt(j) > 127) {
        IDENT.lastIndex = i;
        const m = IDENT.exec(text);
        j = m ? i + m[0].length : i + 1;
      }
      if (visible) emit(text.slice(i, j));
      i = j;
    } else {
      if (visible) emit(text[i]);
      i++;
    }
  }
  return out;
}

const isIdent = (t: string | undefined): t is string => t !== undefined && /^[\p{L}_]/u.test(t);

/** whether a line ending after `tok` ends a statement (Go's semicolon insertion; operators and commas continue it) */
const endsStatement = (tok: string | undefined): boolean => tok === undefined || tok === '\n' || tok === '(' || tok === '"' || tok === ')' || tok === ']' || tok === '}' || /^[\p{L}\p{Nd}_]/u.test(tok);

export function goDeclarations(text: string): GoDeclarations {
  const t = tokens(text);
  const names = new Set<string>();
  let pkg: string | null = null;
  /** the identifiers `a, b, c` from index i: the names; returns the index after them */
  const list = (i: number): number => {
    while (isIdent(t[i])) {
      names.add(t[i]);
      if (t[i + 1] !== ',') return i + 1;
      i += 2;
      while (t[i] === '\n') i++;
    }
    return i;
  };
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    if (tok === '{' || tok === '(' || tok === '[') depth++;
    else if (tok === '}' || tok === ')' || tok === ']') depth = Math.max(0, depth - 1);
    if (depth !== 0 || (i > 0 && t[i - 1] !== '\n' && t[i - 1] !== ';' && t[i - 1] !== '}' && t[i - 1] !== ')')) continue;
    if (tok === 'package' && pkg === null && isIdent(t[i + 1])) pkg = t[i + 1];
    else if (tok === 'func' && isIdent(t[i + 1])) names.add(t[i + 1]);
    else if (tok === 'type' || tok === 'var' || tok === 'const') {
      if (t[i + 1] !== '(') {
        if (tok === 'type') {
          if (isIdent(t[i + 1])) names.add(t[i + 1]);
        } else list(i + 1);
        continue;
      }
      // a group: each entry starts a line (or follows `;`) at depth 1 of the group
      let d = 1;
      let j = i + 2;
      let start = true;
      for (; j < t.length && d > 0; j++) {
        const u = t[j];
        if (u === '\n' || u === ';') {
          // a line ends an entry where Go inserts a semicolon: after a name, a literal or a closing bracket
          const prev = t[j - 1];
          if (d === 1 && (u === ';' || endsStatement(prev))) start = true;
          continue;
        }
        if (start && d === 1 && isIdent(u)) {
          if (tok === 'type') names.add(u);
          else j = list(j) - 1;
        }
        start = false;
        if (u === '{' || u === '(' || u === '[') d++;
        else if (u === '}' || u === ')' || u === ']') d--;
      }
      i = j - 1;
    }
  }
  names.delete('_');
  return { pkg, names: [...names] };
}
