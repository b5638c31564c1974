/**
 * The skeleton of a JS/TS source: the same text with the contents of every brace block that cannot carry a fact
 * dropped, only its line breaks kept. @babel/parser then reads a fraction of the text and the extractors find the same
 * facts at the same lines.
 *
 * What the extractors read (see parse-source.ts): top-level statements (imports, exports, declarations and their
 * patterns), the leading comments, and anywhere in the code `require(…)`, `import(…)`, `import.meta`,
 * `import('x').T`, `exports`/`module.exports`. So a block is kept when it holds one of the words `require`,
 * `exports`, `import` or `export` (as code, not in a comment or string), and so is the block a fact is read from:
 * - an import/export clause and anything else that opens right after `import`, `export`, `type`, `default` or `=`
 *   at the top level (`module.exports = {…}` at any depth);
 * - a destructuring pattern, whole: after `const`/`let`/`var`, or before `= require(…)`.
 * Function bodies, class, interface, enum and namespace bodies and object literals without those words go.
 *
 * A hand-written lexer decides this in one pass (strings, template literals, comments, regular expressions, bracket
 * matching). When it cannot vouch for the text it returns null and the caller parses the whole file: unbalanced
 * brackets or an unterminated literal (so babel reports the syntax error), and JSX, whose text the lexer does not
 * read (`.jsx`/`.tsx`, and a `<` where a `.js` expression starts).
 */
import type { Dialect } from './babel-options.js';

/** Token kinds of tokenize(). */
export const enum Tok {
  Name,
  Punct,
  String,
  /** a whole template literal, or (starting with `}`) the part after its last `${…}` */
  Template,
  Number,
  Regex,
}

/** The tokens of a text, as parallel arrays (cheaper than an object per token). */
export class TokenSink {
  readonly kinds: Tok[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  /** names and punctuators (`==` stands for `==` and `===`; `!=`, `+=` … come as two tokens); '' for values */
  readonly texts: string[] = [];
  /** [start, end) pairs of every comment */
  readonly comments: number[] = [];

  add(kind: Tok, start: number, end: number, text: string): void {
    this.kinds.push(kind);
    this.starts.push(start);
    this.ends.push(end);
    this.texts.push(text);
  }
}

const enum Kind {
  Brace,
  Paren,
  Bracket,
  /** `${` inside a template literal */
  TemplateExpression,
}

interface Open {
  kind: Kind;
  /** offset of the opening character */
  at: number;
  /** keep the direct contents */
  keep: boolean;
  /** keep the contents and every block inside */
  keepAll: boolean;
  /** one of the fact words occurs inside */
  deep: boolean;
  /** a `(` right after `if`/`while`/`for`/`with`: a `/` after its `)` starts a regular expression */
  control: boolean;
  /** a `(` of a call or of a parameter list (right after a name): `()` is valid there too */
  arguments: boolean;
}

/** Words a fact is read from anywhere in the code. */
const DEEP_WORDS = new Set(['require', 'exports', 'import', 'export']);
/** After these words an expression starts: a `/` is a regular expression, a `(` groups. */
export const BEFORE_EXPRESSION = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await', 'extends']);
const CONTROL = new Set(['if', 'while', 'for', 'with']);
const DECLARATION = new Set(['const', 'let', 'var']);
/**
 * Words a `(` may follow without being a call or a parameter list: `()` would not parse after them (`if ()`,
 * `typeof ()`, `keyof ()` …) or its argument is a fact (`require('x')`). `function`, `super`, `async` and any other name may take an empty `()`.
 */
const NOT_CALLEE = new Set([
  ...CONTROL, ...BEFORE_EXPRESSION, 'require', 'switch', 'catch', 'case', 'export', 'import', 'default', 'const', 'let', 'var', 'class',
  'keyof', 'infer', 'is', 'asserts', 'readonly', 'unique', 'as', 'satisfies', 'implements', 'declare', 'type', 'enum',
]);
/** A top-level `{` right after one of these opens something a fact is read from (clause, pattern, exported object). */
const KEEP_AFTER_AT_TOP = new Set(['import', 'export', 'type', 'default', '=', ',']);

const CH_LF = 10;
const CH_CR = 13;

function isIdentifierStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 36 || c === 95 || c >= 128 || c === 92;
}

function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}

function isLineTerminator(c: number): boolean {
  return c === CH_LF || c === CH_CR || c === 0x2028 || c === 0x2029;
}

/** The line breaks of `text` as babel counts them (`\r\n` is one), written as `\n`. */
function lineBreaks(text: string, plainLf: boolean): string {
  let count = 0;
  if (plainLf) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  } else {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === CH_CR) {
        count++;
        if (text.charCodeAt(i + 1) === CH_LF) i++;
      } else if (c === CH_LF || c === 0x2028 || c === 0x2029) count++;
    }
  }
  return '\n'.repeat(count);
}

class Bail extends Error {}

/**
 * The skeleton of `source`, or null when the whole file must be parsed (see the module comment).
 * The result has the same lines as `source`; only offsets within a line and inside dropped blocks change.
 */
export function skeletonOf(source: string, dialect: Dialect): string | null {
  if (dialect === 'tsx') return null;
  try {
    const blanks = lex(source, dialect === 'js');
    if (blanks.length === 0) return source;
    const plainLf = !/[\r\u2028\u2029]/.test(source);
    const parts: string[] = [];
    let last = 0;
    for (let i = 0; i < blanks.length; i += 2) {
      const start = blanks[i];
      const end = blanks[i + 1];
      // a space at least: `a/**/b` must not become `ab`
      parts.push(source.slice(last, start), lineBreaks(source.slice(start, end), plainLf) || ' ');
      last = end;
    }
    parts.push(source.slice(last));
    return parts.join('');
  } catch (error) {
    if (error instanceof Bail) return null;
    throw error;
  }
}

/** The tokens of `text` (a skeleton, normally), or null when the lexer cannot vouch for it. */
export function tokenize(text: string, dialect: Dialect): TokenSink | null {
  if (dialect === 'tsx') return null;
  const sink = new TokenSink();
  try {
    lex(text, dialect === 'js', sink);
    return sink;
  } catch (error) {
    if (error instanceof Bail) return null;
    throw error;
  }
}

/**
 * Lexes `source` and returns the ranges to drop as a flat, sorted list of [start, end) pairs.
 * Throws Bail when the text cannot be vouched for.
 */
function lex(source: string, plainJs: boolean, sink: TokenSink | null = null): number[] {
  const typed = !plainJs;
  // start of the token being read (for the sink)
  let tokStart = 0;
  const n = source.length;
  const stack: Open[] = [];
  /** flat [start, end) pairs, sorted and disjoint */
  const blanks: number[] = [];
  let i = 0;
  // the previous significant token: an identifier/keyword or a punctuator, as text
  let prev = '';
  let prevWasDot = false;
  let prevIsName = false;
  // `prev` is a property name (`a.b`), never a keyword
  let prevMember = false;
  // still in the directive prologue (`'use strict';`): comments there are the file's leading comments, kept
  let prologue = true;
  let regexOk = true;
  // the token before `prev`, for `exports = {`
  let prev2 = '';
  // a `}` or `]` just closed: offset of its opening bracket (for `{ a } = require()`)
  let closedOpen = -1;
  let patternBeforeEq = -1;
  // the last template() call stopped at a `${`
  let openedExpression = false;

  const push = (kind: Kind, at: number): void => {
    const parent = stack.length > 0 ? stack[stack.length - 1] : null;
    const top = parent === null;
    let keepAll = parent?.keepAll ?? false;
    let keep = keepAll;
    if (!keepAll && (kind === Kind.Brace || kind === Kind.Bracket)) {
      if (!prevMember && DECLARATION.has(prev)) keepAll = true;
      else if (top && prev === ',') keepAll = true;
      keep = keepAll || (top && !prevMember && KEEP_AFTER_AT_TOP.has(prev)) || (prev === '=' && prev2 === 'exports');
    }
    const control = kind === Kind.Paren && !prevMember && CONTROL.has(prev);
    // a name (not a setter's: `set x(v)` needs its parameter), or the `)` of a call (not of `if (…)`: `regexOk` is
    // still true after that one), `]`, or in TypeScript the `>` of type arguments
    const callArguments =
      kind === Kind.Paren &&
      !keepAll &&
      (prevIsName ? (prevMember || !NOT_CALLEE.has(prev)) && !(prev2 === 'set' || prev2 === 'get') : (prev === ')' && !regexOk) || prev === ']' || (typed && prev === '>'));
    stack.push({ kind, at, keep, keepAll, deep: false, control, arguments: callArguments });
  };

  const pop = (kind: Kind, at: number): Open => {
    const open = stack.pop();
    if (open === undefined || open.kind !== kind) throw new Bail();
    const parent = stack.length > 0 ? stack[stack.length - 1] : null;
    if (open.deep && parent) parent.deep = true;
    const drop = kind === Kind.Brace ? !open.keep : kind === Kind.Paren && !open.keepAll && (open.arguments || arrowFollows(source, at + 1));
    if (drop && !open.deep && at > open.at + 1) {
      // inner blocks closed before this one: this range covers theirs
      while (blanks.length > 0 && blanks[blanks.length - 2] > open.at) blanks.length -= 2;
      blanks.push(open.at + 1, at);
    }
    return open;
  };

  /** After `}` of a `${`: the rest of the template literal. Returns the offset after it ends or opens `${` again. */
  const template = (from: number): number => {
    openedExpression = false;
    let j = from;
    for (;;) {
      if (j >= n) throw new Bail();
      const c = source.charCodeAt(j);
      if (c === 96) return j + 1; // `
      if (c === 92) j += 2;
      else if (c === 36 && source.charCodeAt(j + 1) === 123) {
        push(Kind.TemplateExpression, j + 1);
        openedExpression = true;
        return j + 2;
      } else j++;
    }
  };

  if (source.startsWith('#!')) {
    i = 2;
    while (i < n && !isLineTerminator(source.charCodeAt(i))) i++;
  }

  while (i < n) {
    const c = source.charCodeAt(i);
    // whitespace
    if (c === 32 || c === 9 || c === CH_LF || c === CH_CR || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029) {
      i++;
      continue;
    }
    if (c >= 0x1680 && c < 0x3001 && /\s/.test(source[i])) {
      i++;
      continue;
    }
    if (c === 47) {
      // /
      const d = source.charCodeAt(i + 1);
      if (d === 47 || d === 42) {
        const start = i;
        if (d === 47) {
          i += 2;
          while (i < n && !isLineTerminator(source.charCodeAt(i))) i++;
        } else {
          const end = source.indexOf('*/', i + 2);
          if (end === -1) throw new Bail();
          i = end + 2;
        }
        if (sink) sink.comments.push(start, i);
        // comments after the prologue carry no fact (inside a dropped block they go with it)
        if (!prologue && (blanks.length === 0 || blanks[blanks.length - 1] <= start)) blanks.push(start, i);
        continue;
      }
    }
    tokStart = i;
    if (prologue && c !== 39 && c !== 34 && c !== 59) prologue = false;
    if (c === 47) {
      if (regexOk) {
        i = regex(source, i + 1);
        setValue(Tok.Regex);
        continue;
      }
      i++;
      if (source.charCodeAt(i) === 61) i++; // /=
      setPunct('/');
      continue;
    }
    if (isIdentifierStart(c)) {
      const start = i;
      i++;
      while (i < n) {
        const d = source.charCodeAt(i);
        if (d === 92) i += 2;
        else if (isIdentifierPart(d)) i++;
        else break;
      }
      // every word the lexer looks for is 2 to 10 lowercase letters: other names are not copied out
      const first = c;
      const word = first >= 97 && first <= 122 && i - start <= 10 && i - start >= 2 ? source.slice(start, i) : 'name';
      if (DEEP_WORDS.has(word)) {
        if (stack.length > 0) stack[stack.length - 1].deep = true;
        if (word === 'require' && prev === '=' && patternBeforeEq >= 0) {
          // `{ a, b } = require('x')`: the names are the imported names, keep the pattern whole
          while (blanks.length > 0 && blanks[blanks.length - 2] > patternBeforeEq) blanks.length -= 2;
        }
      }
      if (sink) sink.add(Tok.Name, start, i, source.slice(start, i));
      regexOk = !prevWasDot && BEFORE_EXPRESSION.has(word);
      prev2 = prev;
      prev = word;
      prevMember = prevWasDot;
      prevWasDot = false;
      prevIsName = true;
      closedOpen = -1;
      continue;
    }
    if (c >= 48 && c <= 57) {
      i++;
      while (i < n && (isIdentifierPart(source.charCodeAt(i)) || source.charCodeAt(i) === 46)) i++;
      setValue(Tok.Number);
      continue;
    }
    if (c === 39 || c === 34) {
      i = quoted(source, i + 1, c);
      setValue(Tok.String);
      continue;
    }
    if (c === 96) {
      i = template(i + 1);
      if (openedExpression) setPunct('${');
      else setValue(Tok.Template);
      continue;
    }
    switch (c) {
      case 123: // {
        push(Kind.Brace, i);
        setPunct('{');
        i++;
        continue;
      case 40: // (
        push(Kind.Paren, i);
        setPunct('(');
        i++;
        continue;
      case 91: // [
        push(Kind.Bracket, i);
        setPunct('[');
        i++;
        continue;
      case 125: {
        // }
        const top = stack[stack.length - 1];
        if (top?.kind === Kind.TemplateExpression) {
          pop(Kind.TemplateExpression, i);
          if (sink) sink.add(Tok.Punct, i, i + 1, '}');
          tokStart = i;
          i = template(i + 1);
          if (openedExpression) setPunct('${');
          else setValue(Tok.Template);
          continue;
        }
        const open = pop(Kind.Brace, i);
        i++;
        setPunct('}');
        regexOk = true;
        closedOpen = open.at;
        continue;
      }
      case 41: {
        // )
        const open = pop(Kind.Paren, i);
        i++;
        setPunct(')');
        regexOk = open.control;
        continue;
      }
      case 93: {
        // ]
        const open = pop(Kind.Bracket, i);
        i++;
        setPunct(']');
        regexOk = false;
        closedOpen = open.at;
        continue;
      }
      case 61: {
        // = == === =>
        const d = source.charCodeAt(i + 1);
        if (d === 62) {
          i += 2;
          setPunct('=>');
        } else if (d === 61) {
          i += source.charCodeAt(i + 2) === 61 ? 3 : 2;
          setPunct('==');
        } else {
          const pattern = prev === '}' || prev === ']' ? closedOpen : -1;
          i++;
          setPunct('=');
          patternBeforeEq = pattern;
        }
        continue;
      }
      case 46: {
        // . or .5 or ...
        const d = source.charCodeAt(i + 1);
        if (d >= 48 && d <= 57) {
          i++;
          while (i < n && (isIdentifierPart(source.charCodeAt(i)) || source.charCodeAt(i) === 46)) i++;
          setValue(Tok.Number);
          continue;
        }
        if (d === 46 && source.charCodeAt(i + 2) === 46) {
          i += 3;
          setPunct('...');
          continue;
        }
        i++;
        setPunct('.');
        prevWasDot = true;
        regexOk = false;
        continue;
      }
      case 63: {
        // ?. (not ?.5)
        const d = source.charCodeAt(i + 1);
        const e = source.charCodeAt(i + 2);
        if (d === 46 && !(e >= 48 && e <= 57)) {
          i += 2;
          setPunct('?.');
          prevWasDot = true;
          regexOk = false;
          continue;
        }
        i++;
        setPunct('?');
        continue;
      }
      case 43: // +
      case 45: {
        // -
        if (source.charCodeAt(i + 1) === c) {
          // `-->` first on a line is an HTML-like comment in a script (babel reads it so): left to babel
          if (c === 45 && source.charCodeAt(i + 2) === 62 && firstOnLine(source, i)) throw new Bail();
          // ++ / --: a `/` after a postfix update divides
          i += 2;
          setPunct(c === 43 ? '++' : '--');
          regexOk = false;
          continue;
        }
        i++;
        setPunct(c === 43 ? '+' : '-');
        continue;
      }
      case 60: // <
        if (source.charCodeAt(i + 1) === 60) {
          // << and <<=: a shift, never JSX
          i += source.charCodeAt(i + 2) === 61 ? 3 : 2;
          setPunct('<<');
          continue;
        }
        // in JavaScript a `<` where an expression starts is JSX, whose text this lexer does not read
        if (plainJs && regexOk) throw new Bail();
        i++;
        setPunct('<');
        continue;
      case 33: {
        // ! (and != !==): after a value in TypeScript, a non-null assertion (`a! / b` divides)
        const nonNull = typed && source.charCodeAt(i + 1) !== 61 && (prevIsName || prev === ')' || prev === ']');
        i++;
        setPunct('!');
        if (nonNull) regexOk = false;
        continue;
      }
      case 35: // # private name or a stray hash
      case 64: // @ decorator
      default:
        i++;
        setPunct(String.fromCharCode(c));
        continue;
    }
  }
  if (stack.length > 0) throw new Bail();
  return blanks;

  function setPunct(text: string): void {
    if (sink) sink.add(Tok.Punct, tokStart, i, text);
    prev2 = prev;
    prev = text;
    prevWasDot = false;
    prevIsName = false;
    prevMember = false;
    regexOk = true;
    closedOpen = -1;
  }

  function setValue(kind: Tok): void {
    if (sink) sink.add(kind, tokStart, i, '');
    prev2 = prev;
    prev = 'value';
    prevWasDot = false;
    prevIsName = false;
    prevMember = false;
    regexOk = false;
    closedOpen = -1;
  }
}

/** Only blanks stand before `at` on its line. */
function firstOnLine(source: string, at: number): boolean {
  for (let j = at - 1; j >= 0; j--) {
    const c = source.charCodeAt(j);
    if (isLineTerminator(c)) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** `=>` follows `from` after blanks: the `(…)` before it is an arrow function's parameter list. */
function arrowFollows(source: string, from: number): boolean {
  let j = from;
  for (;;) {
    const c = source.charCodeAt(j);
    if (c === 32 || c === 9 || c === CH_LF || c === CH_CR) j++;
    else return c === 61 && source.charCodeAt(j + 1) === 62;
  }
}

/** Skips a '…' or "…" literal whose opening quote is before `from`; returns the offset after the closing quote. */
function quoted(source: string, from: number, quote: number): number {
  const n = source.length;
  let j = from;
  while (j < n) {
    const c = source.charCodeAt(j);
    if (c === quote) return j + 1;
    if (c === 92) {
      j += source.charCodeAt(j + 1) === CH_CR && source.charCodeAt(j + 2) === CH_LF ? 3 : 2;
      continue;
    }
    if (c === CH_LF || c === CH_CR) throw new Bail();
    j++;
  }
  throw new Bail();
}

/** Skips a regular expression literal whose opening `/` is before `from`, flags included. */
function regex(source: string, from: number): number {
  const n = source.length;
  let j = from;
  let inClass = false;
  while (j < n) {
    const c = source.charCodeAt(j);
    if (c === 92) {
      j += 2;
      continue;
    }
    if (isLineTerminator(c)) throw new Bail();
    if (inClass) {
      if (c === 93) inClass = false;
    } else if (c === 91) inClass = true;
    else if (c === 47) {
      j++;
      while (j < n && isIdentifierPart(source.charCodeAt(j))) j++;
      return j;
    }
    j++;
  }
  throw new Bail();
}
