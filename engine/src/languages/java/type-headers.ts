/**
 * What the Java resolver reads of another file to follow inherited member types (JLS 8.5: a class or interface
 * inherits the non-private member types of its superclass and superinterfaces): the package, the imports, and every
 * type declared at top level or as a member (`Outer.Inner`), with its supertypes as written and whether it is private.
 * The same facts parse.ts gives as symbols (typeSymbol, memberTypes), read here from the text by a small lexer because
 * a resolver sees other files only through their text. Comments, strings, text blocks and character literals are
 * skipped; types declared in method bodies, initialisers and enum constants' bodies (local and anonymous classes) are
 * no members and are left out.
 */
import { ownStrings } from '../../parse/own-strings.js';

export interface JavaTypeHeaders {
  pkg: string;
  /** single-type imports of the names the supertypes start with: simple name → qualified name */
  single: Map<string, string>;
  /** `a.b` of each `import a.b.*;` (a package or a type) */
  onDemand: string[];
  /** `Outer.Inner` → its supertypes as written (type arguments and annotations left out) and whether it is private */
  types: Map<string, { supertypes: string[]; private: boolean }>;
}

const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;
/** a letter, digit, `_` or `$` (non-ASCII letters through IDENT_PART) */
const identPart = (c: number, ch: string): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || (c > 127 && IDENT_PART.test(ch));

/** Identifiers (and numbers) and one-character punctuation of Java source, comments and literals left out. */
function tokens(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12) i++;
    else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === 34 && text.startsWith('"""', i)) {
      let j = i + 3;
      while (j < n && !text.startsWith('"""', j)) j += text.charCodeAt(j) === 92 ? 2 : 1;
      out.push('"');
      i = j + 3;
    } else if (c === 34 || c === 39) {
      let j = i + 1;
      for (let d = text.charCodeAt(j); j < n && d !== c && d !== 10; d = text.charCodeAt(j)) j += d === 92 ? 2 : 1;
      out.push('"');
      i = j + 1;
    } else if (identPart(c, text[i])) {
      let j = i + 1;
      while (j < n && identPart(text.charCodeAt(j), text[j])) j++;
      out.push(text.slice(i, j));
      i = j;
    } else {
      out.push(text[i]);
      i++;
    }
  }
  return out;
}

const TYPE_KEYWORDS = new Set(['class', 'interface', 'enum', 'record']);

export function javaTypeHeaders(text: string): JavaTypeHeaders {
  const t = tokens(text);
  const out: JavaTypeHeaders = { pkg: '', single: new Map(), onDemand: [], types: new Map() };
  /** type bodies open: the type (null for a local or anonymous one) and the brace depth inside its body */
  const stack: Array<{ path: string | null; depth: number }> = [];
  let depth = 0;
  let isPrivate = false;
  const dottedFrom = (i: number): [string, number] => {
    let name = '';
    while (i < t.length && (IDENT_START.test(t[i][0]) || t[i] === '.' || t[i] === '*')) name += t[i++];
    return [name, i];
  };
  for (let i = 0; i < t.length; i++) {
    const k = t[i];
    if (k === '{') {
      depth++;
      isPrivate = false;
    } else if (k === '}') {
      if (stack.length && stack[stack.length - 1].depth === depth) stack.pop();
      depth--;
      isPrivate = false;
    } else if (k === ';') isPrivate = false;
    else if (k === 'private') isPrivate = true;
    else if (depth === 0 && (k === 'package' || k === 'import') && t[i - 1] !== '.' && t[i - 1] !== '@') {
      const isStatic = t[i + 1] === 'static';
      const [name, end] = dottedFrom(i + (isStatic ? 2 : 1));
      if (k === 'package') out.pkg = name;
      else if (!isStatic && name.endsWith('.*')) out.onDemand.push(name.slice(0, -2));
      else if (!isStatic) out.single.set(name.slice(name.lastIndexOf('.') + 1), name);
      i = end - 1;
    } else if (TYPE_KEYWORDS.has(k) && t[i - 1] !== '.' && IDENT_START.test(t[i + 1]?.[0] ?? '') && (k !== 'record' || t[i + 2] === '(' || t[i + 2] === '<')) {
      const name = t[i + 1];
      const top = stack[stack.length - 1];
      const path = depth === 0 ? name : top && top.depth === depth && top.path !== null ? `${top.path}.${name}` : null;
      // the header up to the body: supertypes after `extends` / `implements`, type arguments and parameters skipped
      const supertypes: string[] = [];
      let collecting = false;
      let nest = 0;
      let j = i + 2;
      for (; j < t.length && !(nest === 0 && (t[j] === '{' || t[j] === ';')); j++) {
        const x = t[j];
        if (x === '<' || x === '(') nest++;
        else if (x === '>' || x === ')') nest--;
        else if (nest > 0) continue;
        else if (x === 'extends' || x === 'implements') collecting = true;
        else if (x === 'permits') collecting = false;
        else if (x === '@') {
          // an annotation on a type: its name, and its arguments when it has some
          const [, end] = dottedFrom(j + 1);
          j = end - 1;
        } else if (collecting && IDENT_START.test(x[0])) {
          const [written, end] = dottedFrom(j);
          supertypes.push(written.replace(/\.$/, ''));
          j = end - 1;
        }
      }
      if (path !== null) out.types.set(path, { supertypes, private: isPrivate });
      if (t[j] === '{') {
        depth++;
        stack.push({ path, depth });
      }
      isPrivate = false;
      i = j;
    }
  }
  // what the resolver keeps of the imports: those a supertype starts with (the rest would only hold memory)
  const firsts = new Set([...out.types.values()].flatMap((x) => x.supertypes.map((s) => s.split('.')[0])));
  for (const name of [...out.single.keys()]) if (!firsts.has(name)) out.single.delete(name);
  // kept for the process: strings of their own, not views into the file's text (parse/own-strings.ts)
  const owned = ownStrings({ pkg: out.pkg, single: [...out.single], onDemand: out.onDemand, types: [...out.types].map(([path, x]) => [path, x.supertypes, x.private] as const) });
  return {
    pkg: owned.pkg,
    single: new Map(owned.single),
    onDemand: owned.onDemand,
    types: new Map(owned.types.map(([path, supertypes, isPrivate]) => [path, { supertypes, private: isPrivate }])),
  };
}
