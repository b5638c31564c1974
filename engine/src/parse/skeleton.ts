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
 * read (`.jsx`/`.tsx`, and a `<` where a `.js` expression starts). tokenize() runs the same lexer over a skeleton for
 * skeleton-facts.ts, reporting the tokens instead of deciding what to drop.
 *
 * The lexer is the hottest code of a build, so its loop keeps its state in local variables (no closure captures
 * them), remembers the previous tokens as numbers (Prev) rather than text, classifies ASCII characters by a table,
 * and looks a name up among the words it cares about by a hash, without copying it out of the text.
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

/**
 * The tokens of a text, as parallel arrays (cheaper than an object per token): what the token reader
 * (skeleton-facts.ts) reads, as tokenize() makes them.
 */
export interface Tokens {
  readonly kinds: ArrayLike<Tok>;
  readonly starts: ArrayLike<number>;
  readonly ends: ArrayLike<number>;
  /** names and punctuators (`==` stands for `==` and `===`; `!=`, `+=` … come as two tokens); '' for values */
  readonly texts: ArrayLike<string>;
  /** [start, end) pairs of every comment */
  readonly comments: ArrayLike<number>;
}

/** Tokens as tokenize() collects them. */
export class TokenSink implements Tokens {
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

/** What the lexer knows of an open bracket, as bits: its Kind in the low two bits, and these. */
const enum Open {
  KindMask = 3,
  /** keep the direct contents */
  Keep = 4,
  /** keep the contents and every block inside */
  KeepAll = 8,
  /** one of the fact words occurs inside */
  Deep = 16,
  /** a `(` right after `if`/`while`/`for`/`with`: a `/` after its `)` starts a regular expression */
  Control = 32,
  /** a `(` of a call or of a parameter list (right after a name): `()` is valid there too */
  Arguments = 64,
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

/**
 * The lexer remembers the previous significant tokens as numbers, not text: a word of WORDS (its index), any other
 * name, a one-character punctuator (Punct + its character code), a longer punctuator, or a value.
 */
const enum Prev {
  Name = 0,
  Require = 1,
  Exports = 2,
  Set = 3,
  Get = 4,
  Punct = 256,
  CloseParen = Punct + 41,
  Comma = Punct + 44,
  Eq = Punct + 61,
  Gt = Punct + 62,
  CloseBracket = Punct + 93,
  CloseBrace = Punct + 125,
  LongPunct = 512,
  Value = 513,
}

/** Bits of PREV_FLAGS: the sets above. */
const enum Is {
  Deep = 1,
  BeforeExpression = 2,
  Control = 4,
  Declaration = 8,
  NotCallee = 16,
  KeepAfterAtTop = 32,
}

/** The words the lexer looks for, at their Prev code (every one is 2 to 10 lowercase letters). */
const WORDS = ['', 'require', 'exports', 'set', 'get'];
/** PREV_FLAGS[prev]: the sets that hold the token. */
const PREV_FLAGS = new Uint8Array(Prev.Value + 1);
for (const [set, bit] of [
  [DEEP_WORDS, Is.Deep],
  [BEFORE_EXPRESSION, Is.BeforeExpression],
  [CONTROL, Is.Control],
  [DECLARATION, Is.Declaration],
  [NOT_CALLEE, Is.NotCallee],
  [KEEP_AFTER_AT_TOP, Is.KeepAfterAtTop],
] as const) {
  for (const word of set) {
    let code: number;
    if (word.length === 1) code = Prev.Punct + word.charCodeAt(0);
    else {
      code = WORDS.indexOf(word);
      if (code === -1) code = WORDS.push(word) - 1;
    }
    PREV_FLAGS[code] |= bit;
  }
}

/** The words of WORDS by wordHash (open addressing): a name is looked up without copying it out of the text. */
const WORD_SLOTS = 256;
const wordSlots = new Uint8Array(WORD_SLOTS);
const wordHashes = new Int32Array(WORD_SLOTS);

/** A hash of `text.slice(start, end)`. */
function wordHash(text: string, start: number, end: number): number {
  let h = 0;
  for (let j = start; j < end; j++) h = (Math.imul(h, 31) + text.charCodeAt(j)) | 0;
  return h;
}

function slotOf(hash: number): number {
  return (hash ^ (hash >>> 11)) & (WORD_SLOTS - 1);
}

for (let code = 1; code < WORDS.length; code++) {
  const hash = wordHash(WORDS[code], 0, WORDS[code].length);
  let slot = slotOf(hash);
  while (wordSlots[slot] !== 0) slot = (slot + 1) & (WORD_SLOTS - 1);
  wordSlots[slot] = code;
  wordHashes[slot] = hash;
}

/** The Prev code of the name `source[start, end)`. */
function wordAt(source: string, start: number, end: number): number {
  const hash = wordHash(source, start, end);
  for (let slot = slotOf(hash); ; slot = (slot + 1) & (WORD_SLOTS - 1)) {
    const code = wordSlots[slot];
    if (code === 0) return Prev.Name;
    if (wordHashes[slot] === hash) {
      const word = WORDS[code];
      if (word.length === end - start && source.startsWith(word, start)) return code;
    }
  }
}

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

/** What a character starts (CHAR_CLASS for ASCII, charClass for the rest). */
const enum Char {
  Other,
  Blank,
  /** (a name goes on with both) */
  Digit,
  Name,
}

const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c === 32 || c === 9 || c === CH_LF || c === CH_CR || c === 11 || c === 12) CHAR_CLASS[c] = Char.Blank;
  else if (isIdentifierStart(c)) CHAR_CLASS[c] = Char.Name;
  else if (c >= 48 && c <= 57) CHAR_CLASS[c] = Char.Digit;
}

/** charClass of a character from U+0080 on, at `i`: a blank, else a name (the lexer does not check further). */
function wideCharClass(source: string, i: number, c: number): Char {
  if (c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029 || (c >= 0x1680 && c < 0x3001 && /\s/.test(source[i]))) return Char.Blank;
  return Char.Name;
}

/*
 * The loops over single characters are small functions of their own: V8 optimizes a small function soon, so they run
 * fast from the first files of a build on, while the big loop of lex() is still waiting for its optimized code.
 */

/** Skips the blanks from `from` on. */
function blanksEnd(source: string, from: number): number {
  const n = source.length;
  let j = from;
  while (j < n) {
    const c = source.charCodeAt(j);
    if (c < 128 ? CHAR_CLASS[c] !== Char.Blank : wideCharClass(source, j, c) !== Char.Blank) break;
    j++;
  }
  return j;
}

/** Skips the rest of a name from `from` on (a `\` escapes the next character, whatever it is). */
function nameEnd(source: string, from: number): number {
  const n = source.length;
  let j = from;
  while (j < n) {
    const c = source.charCodeAt(j);
    if (c < 128) {
      if (CHAR_CLASS[c] < Char.Digit) break;
      if (c === 92) {
        j += 2;
        continue;
      }
    }
    j++;
  }
  return j;
}

/** Skips to the end of the line from `from` on. */
function lineEnd(source: string, from: number): number {
  const n = source.length;
  let j = from;
  while (j < n && !isLineTerminator(source.charCodeAt(j))) j++;
  return j;
}

const LINE_BREAKS: string[] = [' '];
for (let k = 1; k < 64; k++) LINE_BREAKS.push('\n'.repeat(k));

/** What a dropped range with `count` line breaks becomes: as many `\n`, or a space (two names around it stay two). */
function lineBreakText(count: number): string {
  return count < LINE_BREAKS.length ? LINE_BREAKS[count] : '\n'.repeat(count);
}

/** The line breaks of `source[start, end)` as babel counts them (`\r\n` is one), as lineBreakText. */
function lineBreaks(source: string, start: number, end: number): string {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i);
    if (c === CH_CR) {
      count++;
      if (source.charCodeAt(i + 1) === CH_LF) i++;
    } else if (c === CH_LF || c === 0x2028 || c === 0x2029) count++;
  }
  return lineBreakText(count);
}

class Bail extends Error {}

/**
 * The skeleton of `source`, or null when the whole file must be parsed (see the module comment).
 * The result has the same lines as `source`; only offsets within a line and inside dropped blocks change.
 */
export function skeletonOf(source: string, dialect: Dialect): string | null {
  if (dialect === 'tsx') return null;
  let blanks: number[];
  try {
    blanks = lex(source, dialect === 'js', null);
  } catch (error) {
    if (error instanceof Bail) return null;
    throw error;
  }
  if (blanks.length === 0) return source;
  const plainLf = source.indexOf('\r') === -1 && source.indexOf('\u2028') === -1 && source.indexOf('\u2029') === -1;
  const parts: string[] = [];
  let last = 0;
  // with plain `\n` line ends only: the first one not counted yet, found by indexOf (the ranges are in order)
  let nextLf = plainLf ? source.indexOf('\n') : -1;
  for (let i = 0; i < blanks.length; i += 2) {
    const start = blanks[i];
    const end = blanks[i + 1];
    parts.push(source.slice(last, start));
    if (plainLf) {
      while (nextLf !== -1 && nextLf < start) nextLf = source.indexOf('\n', nextLf + 1);
      let count = 0;
      for (; nextLf !== -1 && nextLf < end; nextLf = source.indexOf('\n', nextLf + 1)) count++;
      parts.push(lineBreakText(count));
    } else parts.push(lineBreaks(source, start, end));
    last = end;
  }
  parts.push(source.slice(last));
  return parts.join('');
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
 * The open brackets, innermost last, and the ranges to drop. With `dropping` false (tokenize) only the brackets are
 * matched: nothing is dropped.
 */
class Blocks {
  /** flat [start, end) pairs, sorted and disjoint: the first `count` entries */
  readonly blanks: number[] = [];
  count = 0;
  /** open brackets: the first `depth` entries */
  depth = 0;
  /** offset of each opening character */
  private readonly at: number[] = [];
  /** Open bits of each */
  private readonly flags: number[] = [];

  constructor(
    private readonly source: string,
    readonly dropping: boolean,
  ) {}

  /** Open bits of the innermost open bracket; 0 when there is none. */
  top(): number {
    return this.depth > 0 ? this.flags[this.depth - 1] : 0;
  }

  open(flags: number, at: number): void {
    this.flags[this.depth] = flags;
    this.at[this.depth] = at;
    this.depth++;
  }

  /** A fact word occurs in the innermost open bracket. */
  markDeep(): void {
    if (this.depth > 0) this.flags[this.depth - 1] |= Open.Deep;
  }

  /** Closes the innermost bracket, which must be of `kind`, at `at`; returns its Open bits. */
  close(kind: Kind, at: number): number {
    if (this.depth === 0) throw new Bail();
    const flags = this.flags[this.depth - 1];
    if ((flags & Open.KindMask) !== kind) throw new Bail();
    this.depth--;
    if (!this.dropping) return flags;
    const deep = (flags & Open.Deep) !== 0;
    if (deep && this.depth > 0) this.flags[this.depth - 1] |= Open.Deep;
    const from = this.at[this.depth];
    const drop =
      kind === Kind.Brace ? (flags & Open.Keep) === 0 : kind === Kind.Paren && (flags & Open.KeepAll) === 0 && ((flags & Open.Arguments) !== 0 || arrowFollows(this.source, at + 1));
    if (drop && !deep && at > from + 1) {
      // inner blocks closed before this one: this range covers theirs
      this.keepBlanksBefore(from);
      this.blank(from + 1, at);
    }
    return flags;
  }

  /** Offset of the opening character of the bracket closed last. */
  closedAt(): number {
    return this.at[this.depth];
  }

  /** Drops [start, end), which starts after every range so far. */
  blank(start: number, end: number): void {
    this.blanks[this.count++] = start;
    this.blanks[this.count++] = end;
  }

  /** The end of the last range, -1 when there is none. */
  lastEnd(): number {
    return this.count > 0 ? this.blanks[this.count - 1] : -1;
  }

  /** Forgets the ranges that start after `offset`. */
  keepBlanksBefore(offset: number): void {
    while (this.count > 0 && this.blanks[this.count - 2] > offset) this.count -= 2;
  }

  result(): number[] {
    this.blanks.length = this.count;
    return this.blanks;
  }
}

/**
 * Lexes `source` and returns the ranges to drop as a flat, sorted list of [start, end) pairs; with a sink, reports
 * the tokens to it and drops nothing. Throws Bail when the text cannot be vouched for.
 *
 * The state of the loop lives in plain local variables (no closure captures them), so V8 keeps it in registers.
 */
function lex(source: string, plainJs: boolean, sink: TokenSink | null): number[] {
  const typed = !plainJs;
  const n = source.length;
  const blocks = new Blocks(source, sink === null);
  let i = 0;
  // the previous significant token (a Prev code)
  let prev: number = Prev.Name;
  let prevWasDot = false;
  let prevIsName = false;
  // `prev` is a property name (`a.b`), never a keyword
  let prevMember = false;
  // still in the directive prologue (`'use strict';`): comments there are the file's leading comments, kept
  let prologue = true;
  let regexOk = true;
  // the token before `prev`, for `exports = {`
  let prev2: number = Prev.Name;
  // a `}` or `]` just closed: offset of its opening bracket (for `{ a } = require()`)
  let closedOpen = -1;
  let patternBeforeEq = -1;

  if (source.startsWith('#!')) i = lineEnd(source, 2);

  while (i < n) {
    const c = source.charCodeAt(i);
    const cls = c < 128 ? CHAR_CLASS[c] : wideCharClass(source, i, c);
    if (cls === Char.Blank) {
      i = blanksEnd(source, i + 1);
      continue;
    }
    if (cls === Char.Name) {
      prologue = false;
      const start = i;
      i = nameEnd(source, i + 1);
      // every word the lexer looks for is 2 to 10 lowercase letters: other names are not looked up
      const word = c >= 97 && c <= 122 && i - start <= 10 && i - start >= 2 ? wordAt(source, start, i) : Prev.Name;
      if (blocks.dropping && (PREV_FLAGS[word] & Is.Deep) !== 0) {
        blocks.markDeep();
        if (word === Prev.Require && prev === Prev.Eq && patternBeforeEq >= 0) {
          // `{ a, b } = require('x')`: the names are the imported names, keep the pattern whole
          blocks.keepBlanksBefore(patternBeforeEq);
        }
      }
      if (sink) sink.add(Tok.Name, start, i, word === Prev.Name ? source.slice(start, i) : WORDS[word]);
      regexOk = !prevWasDot && (PREV_FLAGS[word] & Is.BeforeExpression) !== 0;
      prev2 = prev;
      prev = word;
      prevMember = prevWasDot;
      prevWasDot = false;
      prevIsName = true;
      closedOpen = -1;
      continue;
    }
    if (c === 47) {
      // /
      const d = source.charCodeAt(i + 1);
      if (d === 47 || d === 42) {
        const start = i;
        if (d === 47) i = lineEnd(source, i + 2);
        else {
          const end = source.indexOf('*/', i + 2);
          if (end === -1) throw new Bail();
          i = end + 2;
        }
        if (sink) sink.comments.push(start, i);
        // comments after the prologue carry no fact (inside a dropped block they go with it)
        else if (!prologue && blocks.lastEnd() <= start) blocks.blank(start, i);
        continue;
      }
    }
    // a token other than a name: what it is, and the state after it
    const tokStart = i;
    if (prologue && c !== 39 && c !== 34 && c !== 59) prologue = false;
    let kind = Tok.Punct;
    let code: number = Prev.Punct + c;
    let text: string | null = '';
    let regexAfter = true;
    let dot = false;
    let closed = -1;
    // an opening bracket is reported as a token that ends where it starts, and skipped after that
    let opener = 0;
    if (cls === Char.Digit) {
      i = numberEnd(source, i + 1);
      kind = Tok.Number;
    } else {
      switch (c) {
        case 39: // '
        case 34: // "
          i = quoted(source, i + 1, c);
          kind = Tok.String;
          break;
        case 96: // `
          i = templateEnd(source, i + 1);
          if (source.charCodeAt(i - 1) === 123) {
            blocks.open(opened(Kind.TemplateExpression, blocks, prev, prev2, prevMember, prevIsName, regexOk, typed), i - 1);
            code = Prev.LongPunct;
            text = '${';
          } else kind = Tok.Template;
          break;
        case 47: // /
          if (regexOk) {
            i = regex(source, i + 1);
            kind = Tok.Regex;
            break;
          }
          i++;
          if (source.charCodeAt(i) === 61) i++; // /=
          text = '/';
          break;
        case 123: // {
          blocks.open(opened(Kind.Brace, blocks, prev, prev2, prevMember, prevIsName, regexOk, typed), i);
          opener = 1;
          text = '{';
          break;
        case 40: // (
          blocks.open(opened(Kind.Paren, blocks, prev, prev2, prevMember, prevIsName, regexOk, typed), i);
          opener = 1;
          text = '(';
          break;
        case 91: // [
          blocks.open(opened(Kind.Bracket, blocks, prev, prev2, prevMember, prevIsName, regexOk, typed), i);
          opener = 1;
          text = '[';
          break;
        case 125: // }
          if ((blocks.top() & Open.KindMask) === Kind.TemplateExpression && blocks.depth > 0) {
            // the rest of a template literal, after a `${…}`
            blocks.close(Kind.TemplateExpression, i);
            if (sink) sink.add(Tok.Punct, i, i + 1, '}');
            i = templateEnd(source, i + 1);
            if (source.charCodeAt(i - 1) === 123) {
              blocks.open(opened(Kind.TemplateExpression, blocks, prev, prev2, prevMember, prevIsName, regexOk, typed), i - 1);
              code = Prev.LongPunct;
              text = '${';
            } else kind = Tok.Template;
            break;
          }
          blocks.close(Kind.Brace, i);
          i++;
          text = '}';
          closed = blocks.closedAt();
          break;
        case 41: // )
          regexAfter = (blocks.close(Kind.Paren, i) & Open.Control) !== 0;
          i++;
          text = ')';
          break;
        case 93: // ]
          blocks.close(Kind.Bracket, i);
          i++;
          text = ']';
          regexAfter = false;
          closed = blocks.closedAt();
          break;
        case 61: {
          // = == === =>
          const d = source.charCodeAt(i + 1);
          if (d === 62) {
            i += 2;
            code = Prev.LongPunct;
            text = '=>';
          } else if (d === 61) {
            i += source.charCodeAt(i + 2) === 61 ? 3 : 2;
            code = Prev.LongPunct;
            text = '==';
          } else {
            patternBeforeEq = prev === Prev.CloseBrace || prev === Prev.CloseBracket ? closedOpen : -1;
            i++;
            text = '=';
          }
          break;
        }
        case 46: {
          // . or .5 or ...
          const d = source.charCodeAt(i + 1);
          if (d >= 48 && d <= 57) {
            i = numberEnd(source, i + 1);
            kind = Tok.Number;
          } else if (d === 46 && source.charCodeAt(i + 2) === 46) {
            i += 3;
            code = Prev.LongPunct;
            text = '...';
          } else {
            i++;
            text = '.';
            dot = true;
            regexAfter = false;
          }
          break;
        }
        case 63: {
          // ?. (not ?.5)
          const d = source.charCodeAt(i + 1);
          const e = source.charCodeAt(i + 2);
          if (d === 46 && !(e >= 48 && e <= 57)) {
            i += 2;
            code = Prev.LongPunct;
            text = '?.';
            dot = true;
            regexAfter = false;
          } else {
            i++;
            text = '?';
          }
          break;
        }
        case 43: // +
        case 45: // -
          if (source.charCodeAt(i + 1) === c) {
            // `-->` first on a line is an HTML-like comment in a script (babel reads it so): left to babel
            if (c === 45 && source.charCodeAt(i + 2) === 62 && firstOnLine(source, i)) throw new Bail();
            // ++ / --: a `/` after a postfix update divides
            i += 2;
            code = Prev.LongPunct;
            text = c === 43 ? '++' : '--';
            regexAfter = false;
          } else {
            i++;
            text = c === 43 ? '+' : '-';
          }
          break;
        case 60: // <
          if (source.charCodeAt(i + 1) === 60) {
            // << and <<=: a shift, never JSX
            i += source.charCodeAt(i + 2) === 61 ? 3 : 2;
            code = Prev.LongPunct;
            text = '<<';
            break;
          }
          // in JavaScript a `<` where an expression starts is JSX, whose text this lexer does not read
          if (plainJs && regexOk) throw new Bail();
          i++;
          text = '<';
          break;
        case 33: // ! (and != !==): after a value in TypeScript, a non-null assertion (`a! / b` divides)
          if (typed && source.charCodeAt(i + 1) !== 61 && (prevIsName || prev === Prev.CloseParen || prev === Prev.CloseBracket)) regexAfter = false;
          i++;
          text = '!';
          break;
        case 35: // # private name or a stray hash
        case 64: // @ decorator
        default:
          i++;
          text = null; // the character itself, made only for a sink
          break;
      }
    }
    if (kind !== Tok.Punct) {
      code = Prev.Value;
      regexAfter = false;
    }
    if (sink) sink.add(kind, tokStart, i, text ?? String.fromCharCode(c));
    prev2 = prev;
    prev = code;
    prevWasDot = dot;
    prevIsName = false;
    prevMember = false;
    regexOk = regexAfter;
    closedOpen = closed;
    i += opener;
  }
  if (blocks.depth > 0) throw new Bail();
  return blocks.result();
}

/** The Open bits of a bracket of `kind` opened after the tokens `prev2` `prev` (see the module comment). */
function opened(kind: Kind, blocks: Blocks, prev: number, prev2: number, prevMember: boolean, prevIsName: boolean, regexOk: boolean, typed: boolean): number {
  if (!blocks.dropping) {
    return kind === Kind.Paren && !prevMember && (PREV_FLAGS[prev] & Is.Control) !== 0 ? kind | Open.Control : kind;
  }
  const parent = blocks.top();
  const top = blocks.depth === 0;
  let keepAll = (parent & Open.KeepAll) !== 0;
  let keep = keepAll;
  const prevFlags = PREV_FLAGS[prev];
  if (!keepAll && (kind === Kind.Brace || kind === Kind.Bracket)) {
    if (!prevMember && (prevFlags & Is.Declaration) !== 0) keepAll = true;
    else if (top && prev === Prev.Comma) keepAll = true;
    keep = keepAll || (top && !prevMember && (prevFlags & Is.KeepAfterAtTop) !== 0) || (prev === Prev.Eq && prev2 === Prev.Exports);
  }
  let flags: number = kind;
  if (keep) flags |= Open.Keep;
  if (keepAll) flags |= Open.KeepAll;
  if (kind === Kind.Paren) {
    if (!prevMember && (prevFlags & Is.Control) !== 0) flags |= Open.Control;
    // a name (not a setter's: `set x(v)` needs its parameter), or the `)` of a call (not of `if (…)`: `regexOk` is
    // still true after that one), `]`, or in TypeScript the `>` of type arguments
    const callArguments =
      !keepAll &&
      (prevIsName
        ? (prevMember || (prevFlags & Is.NotCallee) === 0) && !(prev2 === Prev.Set || prev2 === Prev.Get)
        : (prev === Prev.CloseParen && !regexOk) || prev === Prev.CloseBracket || (typed && prev === Prev.Gt));
    if (callArguments) flags |= Open.Arguments;
  }
  return flags;
}

/** Skips the rest of a number whose first character is before `from`. */
function numberEnd(source: string, from: number): number {
  const n = source.length;
  let j = from;
  while (j < n && (isIdentifierPart(source.charCodeAt(j)) || source.charCodeAt(j) === 46)) j++;
  return j;
}

/**
 * Skips a template literal, or its part after a `${…}`, from `from`: returns the offset after its closing backquote
 * or after the `${` that opens its next expression (the character before is then `{`).
 */
function templateEnd(source: string, from: number): number {
  const n = source.length;
  let j = from;
  for (;;) {
    if (j >= n) throw new Bail();
    const c = source.charCodeAt(j);
    if (c === 96) return j + 1; // `
    if (c === 92) j += 2;
    else if (c === 36 && source.charCodeAt(j + 1) === 123) return j + 2;
    else j++;
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
