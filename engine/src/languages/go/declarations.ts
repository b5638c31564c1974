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

/** Tokens of Go source: identifiers, one-character punctuation and `\n` (statement ends matter in groups). */
function tokens(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text[i];
    if (c === '\n') {
      out.push('\n');
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const body = text.slice(i, end < 0 ? n : end);
      if (body.includes('\n')) out.push('\n');
      i = end < 0 ? n : end + 2;
    } else if (c === '`') {
      const end = text.indexOf('`', i + 1);
      out.push('"');
      i = end < 0 ? n : end + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out.push('"');
      i = j + 1;
    } else {
      IDENT.lastIndex = i;
      const m = IDENT.exec(text);
      if (m) {
        out.push(m[0]);
        i += m[0].length;
      } else {
        out.push(c);
        i++;
      }
    }
  }
  return out;
}

const isIdent = (t: string | undefined): t is string => t !== undefined && /^[\p{L}_]/u.test(t);

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
          if (d === 1) start = true;
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
