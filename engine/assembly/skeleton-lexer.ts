/**
 * The skeleton lexer of engine/src/parse/skeleton.ts (its dropping pass, `lex` with no sink), in AssemblyScript,
 * over a file's UTF-8 bytes. It runs as WebAssembly: compiled in about a millisecond and fast from the first byte,
 * where the JavaScript lexer spends most of a cold build waiting for V8 to optimize it (ARCHITECTURE.md, "How a
 * file is parsed"). skeleton.ts stays the reference: the tests and bench/skeleton.mjs check that both give the same
 * skeleton, or both give up, on every file.
 *
 * Keep it in step with skeleton.ts: the same states, the same decisions, in the same order. What differs is only
 * how text is read: bytes instead of UTF-16 code units. Every decision is taken at an ASCII character, and a
 * character from U+0080 on (two to four bytes here, one or two code units there) is a blank or part of a name on
 * both sides, so offsets differ but decisions do not.
 *
 * The tables (character classes, the flags of the remembered tokens and the words looked up by hash) are written
 * into memory by the JavaScript side from skeleton.ts's own sets, at the offsets below, before the first call.
 * Built by scripts/build-wasm.mjs (part of `npm run build`).
 */

// ---------------------------------------------------------------- memory layout (shared with skeleton-wasm.ts)

/** CHAR_CLASS: 128 bytes */
const CHAR_CLASS: usize = 0;
/** PREV_FLAGS: one byte per Prev code (Prev.Value + 1 of them) */
const PREV_FLAGS: usize = 128;
/** the word slots: 256 bytes of word codes */
const WORD_SLOTS: usize = 1024;
/** the hash of each slot's word: 256 i32 */
const WORD_HASHES: usize = 1280;
/** per word code: [offset of its text in WORD_TEXT, length] as two i32 */
const WORD_INDEX: usize = 2304;
/** the words' text, ASCII */
const WORD_TEXT: usize = 4352;

// ---------------------------------------------------------------- the enums of skeleton.ts

// Char
const CHAR_BLANK: u8 = 1;
const CHAR_DIGIT: u8 = 2;
const CHAR_NAME: u8 = 3;

// Kind
const KIND_BRACE: i32 = 0;
const KIND_PAREN: i32 = 1;
const KIND_BRACKET: i32 = 2;
const KIND_TEMPLATE_EXPRESSION: i32 = 3;

// Open
const OPEN_KIND_MASK: i32 = 3;
const OPEN_KEEP: i32 = 4;
const OPEN_KEEP_ALL: i32 = 8;
const OPEN_DEEP: i32 = 16;
const OPEN_CONTROL: i32 = 32;
const OPEN_ARGUMENTS: i32 = 64;

// Tok (the token kinds of tokenize)
const TOK_NAME: i32 = 0;
const TOK_PUNCT: i32 = 1;
const TOK_STRING: i32 = 2;
const TOK_TEMPLATE: i32 = 3;
const TOK_NUMBER: i32 = 4;
const TOK_REGEX: i32 = 5;

/**
 * The text of a token, as a number (skeleton-wasm.ts makes the strings): a name's word code (0: any other name, its
 * text is sliced); a one-character punctuator's character code; the longer punctuators from 128 on, in this order:
 * `=>` `==` `...` `?.` `++` `--` `<<` `${`; NO_TEXT for values (strings, templates, numbers, regular expressions).
 */
const TEXT_ARROW: i32 = 128;
const TEXT_EQ: i32 = 129;
const TEXT_SPREAD: i32 = 130;
const TEXT_OPTIONAL: i32 = 131;
const TEXT_INCREMENT: i32 = 132;
const TEXT_DECREMENT: i32 = 133;
const TEXT_SHIFT: i32 = 134;
const TEXT_TEMPLATE_EXPRESSION: i32 = 135;
const NO_TEXT: i32 = -1;

// Prev
const PREV_NAME: i32 = 0;
const PREV_REQUIRE: i32 = 1;
const PREV_EXPORTS: i32 = 2;
const PREV_SET: i32 = 3;
const PREV_GET: i32 = 4;
const PREV_PUNCT: i32 = 256;
const PREV_CLOSE_PAREN: i32 = PREV_PUNCT + 41;
const PREV_COMMA: i32 = PREV_PUNCT + 44;
const PREV_EQ: i32 = PREV_PUNCT + 61;
const PREV_GT: i32 = PREV_PUNCT + 62;
const PREV_CLOSE_BRACKET: i32 = PREV_PUNCT + 93;
const PREV_CLOSE_BRACE: i32 = PREV_PUNCT + 125;
const PREV_LONG_PUNCT: i32 = 512;
const PREV_VALUE: i32 = 513;

// Is
const IS_DEEP: u8 = 1;
const IS_BEFORE_EXPRESSION: u8 = 2;
const IS_CONTROL: u8 = 4;
const IS_DECLARATION: u8 = 8;
const IS_NOT_CALLEE: u8 = 16;
const IS_KEEP_AFTER_AT_TOP: u8 = 32;

/** What the lexer returns when it cannot vouch for the text (skeleton.ts throws Bail). */
const BAIL: i32 = -1;
/** What lex returns when nothing is dropped: the skeleton is the source itself. */
const UNCHANGED: i32 = -2;

// ---------------------------------------------------------------- the text

/** the text: bytes [textStart, textEnd), followed by zero bytes (reads past the end see 0, like NaN in JavaScript) */
let textStart: usize = 0;
let textEnd: usize = 0;

// @ts-ignore: decorator
@inline function byteAt(i: i32): i32 {
  return <i32>load<u8>(textStart + <usize>i);
}

// @ts-ignore: decorator
@inline function prevFlags(code: i32): u8 {
  return load<u8>(PREV_FLAGS + <usize>code);
}

/** The code point of the character starting at `i` (a lead byte from 0xC0 on), and its length in bytes in `wideLength`. */
let wideLength: i32 = 1;
function wideCodePoint(i: i32): i32 {
  const c = byteAt(i);
  if (c < 0xe0) {
    wideLength = 2;
    return ((c & 0x1f) << 6) | (byteAt(i + 1) & 0x3f);
  }
  if (c < 0xf0) {
    wideLength = 3;
    return ((c & 0x0f) << 12) | ((byteAt(i + 1) & 0x3f) << 6) | (byteAt(i + 2) & 0x3f);
  }
  wideLength = 4;
  return ((c & 0x07) << 18) | ((byteAt(i + 1) & 0x3f) << 12) | ((byteAt(i + 2) & 0x3f) << 6) | (byteAt(i + 3) & 0x3f);
}

/** A character from U+0080 on that skeleton.ts's wideCharClass calls a blank (its `/\s/` range spelled out). */
function isWideBlank(cp: i32): bool {
  return (
    cp == 0xa0 || cp == 0xfeff || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000
  );
}

/** U+2028 or U+2029 (E2 80 A8/A9) starts at `i`. */
// @ts-ignore: decorator
@inline function isWideLineTerminator(i: i32): bool {
  return byteAt(i) == 0xe2 && byteAt(i + 1) == 0x80 && (byteAt(i + 2) & 0xfe) == 0xa8;
}

// @ts-ignore: decorator
@inline function isIdentifierPart(c: i32): bool {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 36 || c == 95 || c >= 128 || c == 92 || (c >= 48 && c <= 57);
}

function blanksEnd(from: i32, n: i32): i32 {
  let j = from;
  while (j < n) {
    const c = byteAt(j);
    if (c < 128) {
      if (load<u8>(CHAR_CLASS + <usize>c) != CHAR_BLANK) break;
      j++;
    } else {
      // a continuation byte cannot start a character: only lead bytes come here
      if (!isWideBlank(wideCodePoint(j))) break;
      j += wideLength;
    }
  }
  return j;
}

function nameEnd(from: i32, n: i32): i32 {
  let j = from;
  while (j < n) {
    const c = byteAt(j);
    if (c < 128) {
      if (load<u8>(CHAR_CLASS + <usize>c) < CHAR_DIGIT) break;
      if (c == 92) {
        j += 2;
        continue;
      }
    }
    j++;
  }
  return j;
}

function lineEnd(from: i32, n: i32): i32 {
  let j = from;
  while (j < n) {
    const c = byteAt(j);
    if (c == 10 || c == 13 || (c == 0xe2 && isWideLineTerminator(j))) break;
    j++;
  }
  return j;
}

/** The offset of the next `*` `/` from `from`, or -1. */
function commentEnd(from: i32, n: i32): i32 {
  for (let j = from; j + 1 < n; j++) if (byteAt(j) == 42 && byteAt(j + 1) == 47) return j;
  return -1;
}

function numberEnd(from: i32, n: i32): i32 {
  let j = from;
  while (j < n) {
    const c = byteAt(j);
    if (!(isIdentifierPart(c) || c == 46)) break;
    j++;
  }
  return j;
}

function templateEnd(from: i32, n: i32): i32 {
  let j = from;
  for (;;) {
    if (j >= n) return BAIL;
    const c = byteAt(j);
    if (c == 96) return j + 1;
    if (c == 92) j += 2;
    else if (c == 36 && byteAt(j + 1) == 123) return j + 2;
    else j++;
  }
  return BAIL; // not reached (AssemblyScript wants a return after the loop)
}

function firstOnLine(at: i32): bool {
  for (let j = at - 1; j >= 0; j--) {
    const c = byteAt(j);
    if (c == 10 || c == 13) return true;
    // the last byte of U+2028/U+2029
    if ((c & 0xfe) == 0xa8 && j >= 2 && byteAt(j - 1) == 0x80 && byteAt(j - 2) == 0xe2) return true;
    if (c != 32 && c != 9) return false;
  }
  return true;
}

function arrowFollows(from: i32): bool {
  let j = from;
  for (;;) {
    const c = byteAt(j);
    if (c == 32 || c == 9 || c == 10 || c == 13) j++;
    else return c == 61 && byteAt(j + 1) == 62;
  }
  return false; // not reached
}

function quoted(from: i32, n: i32, quote: i32): i32 {
  let j = from;
  while (j < n) {
    const c = byteAt(j);
    if (c == quote) return j + 1;
    if (c == 92) {
      j += byteAt(j + 1) == 13 && byteAt(j + 2) == 10 ? 3 : 2;
      continue;
    }
    if (c == 10 || c == 13) return BAIL;
    j++;
  }
  return BAIL;
}

function regex(from: i32, n: i32): i32 {
  let j = from;
  let inClass = false;
  while (j < n) {
    const c = byteAt(j);
    if (c == 92) {
      j += 2;
      continue;
    }
    if (c == 10 || c == 13 || (c == 0xe2 && isWideLineTerminator(j))) return BAIL;
    if (inClass) {
      if (c == 93) inClass = false;
    } else if (c == 91) inClass = true;
    else if (c == 47) {
      j++;
      while (j < n && isIdentifierPart(byteAt(j))) j++;
      return j;
    }
    j++;
  }
  return BAIL;
}

/** skeleton.ts's wordHash over bytes: the words are ASCII, so a byte is the character code there. */
function wordAt(start: i32, end: i32): i32 {
  let h: i32 = 0;
  for (let j = start; j < end; j++) h = h * 31 + byteAt(j);
  for (let slot = (h ^ (<i32>(<u32>h >>> 11))) & 255; ; slot = (slot + 1) & 255) {
    const code = <i32>load<u8>(WORD_SLOTS + <usize>slot);
    if (code == 0) return PREV_NAME;
    if (load<i32>(WORD_HASHES + (<usize>slot << 2)) == h) {
      const offset = load<i32>(WORD_INDEX + (<usize>code << 3));
      const length = load<i32>(WORD_INDEX + (<usize>code << 3) + 4);
      if (length == end - start && memory.compare(WORD_TEXT + <usize>offset, textStart + <usize>start, <usize>length) == 0) return code;
    }
  }
  return PREV_NAME; // not reached: the table always has an empty slot
}

// ---------------------------------------------------------------- Blocks

/** tokenize (true) reports tokens and drops nothing, like skeleton.ts's lex with a sink */
let sinkMode: bool = false;
/** the tokens: four arrays of i32 (kind, start, end, text code), `tokenCapacity` each */
let tokenKinds: usize = 0;
let tokenStarts: usize = 0;
let tokenEnds: usize = 0;
let tokenTexts: usize = 0;
let tokenCount: i32 = 0;
/** the comments: flat [start, end) pairs of i32 */
let comments: usize = 0;
let commentCount: i32 = 0;

function addToken(kind: i32, start: i32, end: i32, text: i32): void {
  const at = <usize>tokenCount << 2;
  store<i32>(tokenKinds + at, kind);
  store<i32>(tokenStarts + at, start);
  store<i32>(tokenEnds + at, end);
  store<i32>(tokenTexts + at, text);
  tokenCount++;
}

/** the ranges to drop: flat [start, end) pairs of i32 */
let blanks: usize = 0;
let blankCount: i32 = 0;
/** open brackets: per level [offset of the opening character, Open bits] as two i32 */
let stack: usize = 0;
let depth: i32 = 0;

// @ts-ignore: decorator
@inline function stackAt(level: i32): i32 {
  return load<i32>(stack + (<usize>level << 3));
}

// @ts-ignore: decorator
@inline function stackFlags(level: i32): i32 {
  return load<i32>(stack + (<usize>level << 3) + 4);
}

// @ts-ignore: decorator
@inline function setStackFlags(level: i32, flags: i32): void {
  store<i32>(stack + (<usize>level << 3) + 4, flags);
}

// @ts-ignore: decorator
@inline function top(): i32 {
  return depth > 0 ? stackFlags(depth - 1) : 0;
}

function open(flags: i32, at: i32): void {
  store<i32>(stack + (<usize>depth << 3), at);
  setStackFlags(depth, flags);
  depth++;
}

function markDeep(): void {
  if (depth > 0) setStackFlags(depth - 1, stackFlags(depth - 1) | OPEN_DEEP);
}

function blank(start: i32, end: i32): void {
  store<i32>(blanks + (<usize>blankCount << 2), start);
  store<i32>(blanks + (<usize>blankCount << 2) + 4, end);
  blankCount += 2;
}

function lastEnd(): i32 {
  return blankCount > 0 ? load<i32>(blanks + (<usize>(blankCount - 1) << 2)) : -1;
}

function keepBlanksBefore(offset: i32): void {
  while (blankCount > 0 && load<i32>(blanks + (<usize>(blankCount - 2) << 2)) > offset) blankCount -= 2;
}

/** Closes the innermost bracket, which must be of `kind`, at `at`: its Open bits, or BAIL. */
function close(kind: i32, at: i32): i32 {
  if (depth == 0) return BAIL;
  const flags = stackFlags(depth - 1);
  if ((flags & OPEN_KIND_MASK) != kind) return BAIL;
  depth--;
  if (sinkMode) return flags;
  const deep = (flags & OPEN_DEEP) != 0;
  if (deep && depth > 0) setStackFlags(depth - 1, stackFlags(depth - 1) | OPEN_DEEP);
  const from = stackAt(depth);
  const drop =
    kind == KIND_BRACE
      ? (flags & OPEN_KEEP) == 0
      : kind == KIND_PAREN && (flags & OPEN_KEEP_ALL) == 0 && ((flags & OPEN_ARGUMENTS) != 0 || arrowFollows(at + 1));
  if (drop && !deep && at > from + 1) {
    keepBlanksBefore(from);
    blank(from + 1, at);
  }
  return flags;
}

function opened(kind: i32, prev: i32, prev2: i32, prevMember: bool, prevIsName: bool, regexOk: bool, typed: bool): i32 {
  if (sinkMode) return kind == KIND_PAREN && !prevMember && (prevFlags(prev) & IS_CONTROL) != 0 ? kind | OPEN_CONTROL : kind;
  const parent = top();
  const atTop = depth == 0;
  let keepAll = (parent & OPEN_KEEP_ALL) != 0;
  let keep = keepAll;
  const flagsOfPrev = prevFlags(prev);
  if (!keepAll && (kind == KIND_BRACE || kind == KIND_BRACKET)) {
    if (!prevMember && (flagsOfPrev & IS_DECLARATION) != 0) keepAll = true;
    else if (atTop && prev == PREV_COMMA) keepAll = true;
    keep = keepAll || (atTop && !prevMember && (flagsOfPrev & IS_KEEP_AFTER_AT_TOP) != 0) || (prev == PREV_EQ && prev2 == PREV_EXPORTS);
  }
  let flags = kind;
  if (keep) flags |= OPEN_KEEP;
  if (keepAll) flags |= OPEN_KEEP_ALL;
  if (kind == KIND_PAREN) {
    if (!prevMember && (flagsOfPrev & IS_CONTROL) != 0) flags |= OPEN_CONTROL;
    const callArguments =
      !keepAll &&
      (prevIsName
        ? (prevMember || (flagsOfPrev & IS_NOT_CALLEE) == 0) && !(prev2 == PREV_SET || prev2 == PREV_GET)
        : (prev == PREV_CLOSE_PAREN && !regexOk) || prev == PREV_CLOSE_BRACKET || (typed && prev == PREV_GT));
    if (callArguments) flags |= OPEN_ARGUMENTS;
  }
  return flags;
}

// ---------------------------------------------------------------- lex

/**
 * skeleton.ts's lex(): without a sink (sinkMode false) it fills the ranges to drop, with one (sinkMode true) it
 * reports the tokens and the comments and drops nothing. False when the text cannot be vouched for.
 */
function lex(n: i32, plainJs: bool): bool {
  const typed = !plainJs;
  let i: i32 = 0;
  let prev: i32 = PREV_NAME;
  let prevWasDot = false;
  let prevIsName = false;
  let prevMember = false;
  let prologue = true;
  let regexOk = true;
  let prev2: i32 = PREV_NAME;
  let closedOpen: i32 = -1;
  let patternBeforeEq: i32 = -1;

  if (byteAt(0) == 35 && byteAt(1) == 33) i = lineEnd(2, n);

  while (i < n) {
    const c = byteAt(i);
    let cls: u8;
    if (c < 128) cls = load<u8>(CHAR_CLASS + <usize>c);
    else if (isWideBlank(wideCodePoint(i))) {
      i = blanksEnd(i + wideLength, n);
      continue;
    } else cls = CHAR_NAME;
    if (cls == CHAR_BLANK) {
      i = blanksEnd(i + 1, n);
      continue;
    }
    if (cls == CHAR_NAME) {
      prologue = false;
      const start = i;
      i = nameEnd(i + 1, n);
      const word = c >= 97 && c <= 122 && i - start <= 10 && i - start >= 2 ? wordAt(start, i) : PREV_NAME;
      if (!sinkMode && (prevFlags(word) & IS_DEEP) != 0) {
        markDeep();
        if (word == PREV_REQUIRE && prev == PREV_EQ && patternBeforeEq >= 0) keepBlanksBefore(patternBeforeEq);
      }
      if (sinkMode) addToken(TOK_NAME, start, i, word);
      regexOk = !prevWasDot && (prevFlags(word) & IS_BEFORE_EXPRESSION) != 0;
      prev2 = prev;
      prev = word;
      prevMember = prevWasDot;
      prevWasDot = false;
      prevIsName = true;
      closedOpen = -1;
      continue;
    }
    if (c == 47) {
      const d = byteAt(i + 1);
      if (d == 47 || d == 42) {
        const start = i;
        if (d == 47) i = lineEnd(i + 2, n);
        else {
          const end = commentEnd(i + 2, n);
          if (end == -1) return false;
          i = end + 2;
        }
        if (sinkMode) {
          store<i32>(comments + (<usize>commentCount << 2), start);
          store<i32>(comments + (<usize>commentCount << 2) + 4, i);
          commentCount += 2;
        } else if (!prologue && lastEnd() <= start) blank(start, i);
        continue;
      }
    }
    const tokStart = i;
    if (prologue && c != 39 && c != 34 && c != 59) prologue = false;
    let kind = TOK_PUNCT;
    let text = c;
    let code: i32 = PREV_PUNCT + c;
    let regexAfter = true;
    let dot = false;
    let closed: i32 = -1;
    let opener: i32 = 0;
    if (cls == CHAR_DIGIT) {
      i = numberEnd(i + 1, n);
      kind = TOK_NUMBER;
    } else {
      switch (c) {
        case 39:
        case 34: {
          i = quoted(i + 1, n, c);
          if (i < 0) return false;
          kind = TOK_STRING;
          break;
        }
        case 96: {
          i = templateEnd(i + 1, n);
          if (i < 0) return false;
          if (byteAt(i - 1) == 123) {
            open(opened(KIND_TEMPLATE_EXPRESSION, prev, prev2, prevMember, prevIsName, regexOk, typed), i - 1);
            code = PREV_LONG_PUNCT;
            text = TEXT_TEMPLATE_EXPRESSION;
          } else kind = TOK_TEMPLATE;
          break;
        }
        case 47: {
          if (regexOk) {
            i = regex(i + 1, n);
            if (i < 0) return false;
            kind = TOK_REGEX;
            break;
          }
          i++;
          if (byteAt(i) == 61) i++;
          break;
        }
        case 123: {
          open(opened(KIND_BRACE, prev, prev2, prevMember, prevIsName, regexOk, typed), i);
          opener = 1;
          break;
        }
        case 40: {
          open(opened(KIND_PAREN, prev, prev2, prevMember, prevIsName, regexOk, typed), i);
          opener = 1;
          break;
        }
        case 91: {
          open(opened(KIND_BRACKET, prev, prev2, prevMember, prevIsName, regexOk, typed), i);
          opener = 1;
          break;
        }
        case 125: {
          if ((top() & OPEN_KIND_MASK) == KIND_TEMPLATE_EXPRESSION && depth > 0) {
            if (close(KIND_TEMPLATE_EXPRESSION, i) == BAIL) return false;
            if (sinkMode) addToken(TOK_PUNCT, i, i + 1, 125);
            i = templateEnd(i + 1, n);
            if (i < 0) return false;
            if (byteAt(i - 1) == 123) {
              open(opened(KIND_TEMPLATE_EXPRESSION, prev, prev2, prevMember, prevIsName, regexOk, typed), i - 1);
              code = PREV_LONG_PUNCT;
              text = TEXT_TEMPLATE_EXPRESSION;
            } else kind = TOK_TEMPLATE;
            break;
          }
          if (close(KIND_BRACE, i) == BAIL) return false;
          i++;
          closed = stackAt(depth);
          break;
        }
        case 41: {
          const flags = close(KIND_PAREN, i);
          if (flags == BAIL) return false;
          regexAfter = (flags & OPEN_CONTROL) != 0;
          i++;
          break;
        }
        case 93: {
          if (close(KIND_BRACKET, i) == BAIL) return false;
          i++;
          regexAfter = false;
          closed = stackAt(depth);
          break;
        }
        case 61: {
          const d = byteAt(i + 1);
          if (d == 62) {
            i += 2;
            code = PREV_LONG_PUNCT;
            text = TEXT_ARROW;
          } else if (d == 61) {
            i += byteAt(i + 2) == 61 ? 3 : 2;
            code = PREV_LONG_PUNCT;
            text = TEXT_EQ;
          } else {
            patternBeforeEq = prev == PREV_CLOSE_BRACE || prev == PREV_CLOSE_BRACKET ? closedOpen : -1;
            i++;
          }
          break;
        }
        case 46: {
          const d = byteAt(i + 1);
          if (d >= 48 && d <= 57) {
            i = numberEnd(i + 1, n);
            kind = TOK_NUMBER;
          } else if (d == 46 && byteAt(i + 2) == 46) {
            i += 3;
            code = PREV_LONG_PUNCT;
            text = TEXT_SPREAD;
          } else {
            i++;
            dot = true;
            regexAfter = false;
          }
          break;
        }
        case 63: {
          const d = byteAt(i + 1);
          const e = byteAt(i + 2);
          if (d == 46 && !(e >= 48 && e <= 57)) {
            i += 2;
            code = PREV_LONG_PUNCT;
            text = TEXT_OPTIONAL;
            dot = true;
            regexAfter = false;
          } else i++;
          break;
        }
        case 43:
        case 45: {
          if (byteAt(i + 1) == c) {
            if (c == 45 && byteAt(i + 2) == 62 && firstOnLine(i)) return false;
            i += 2;
            code = PREV_LONG_PUNCT;
            text = c == 43 ? TEXT_INCREMENT : TEXT_DECREMENT;
            regexAfter = false;
          } else i++;
          break;
        }
        case 60: {
          if (byteAt(i + 1) == 60) {
            i += byteAt(i + 2) == 61 ? 3 : 2;
            code = PREV_LONG_PUNCT;
            text = TEXT_SHIFT;
            break;
          }
          if (plainJs && regexOk) return false;
          i++;
          break;
        }
        case 33: {
          if (typed && byteAt(i + 1) != 61 && (prevIsName || prev == PREV_CLOSE_PAREN || prev == PREV_CLOSE_BRACKET)) regexAfter = false;
          i++;
          break;
        }
        default: {
          i++;
          break;
        }
      }
    }
    if (kind != TOK_PUNCT) {
      code = PREV_VALUE;
      regexAfter = false;
      text = NO_TEXT;
    }
    if (sinkMode) addToken(kind, tokStart, i, text);
    prev2 = prev;
    prev = code;
    prevWasDot = dot;
    prevIsName = false;
    prevMember = false;
    regexOk = regexAfter;
    closedOpen = closed;
    i += opener;
  }
  return depth == 0;
}

// ---------------------------------------------------------------- the skeleton

/** skeleton.ts's lineBreaks: the line breaks of bytes [start, end) as babel counts them (`\r\n` is one). */
function lineBreakCount(start: i32, end: i32): i32 {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = byteAt(i);
    if (c == 13) {
      count++;
      if (byteAt(i + 1) == 10) i++;
    } else if (c == 10 || (c == 0xe2 && isWideLineTerminator(i))) count++;
  }
  return count;
}

/** Sets the text, and empties the ranges, the tokens and the bracket stack (at `stackAt`). */
function reset(text: usize, n: i32, stackAt: usize, sink: bool): void {
  textStart = text;
  textEnd = text + <usize>n;
  sinkMode = sink;
  blankCount = 0;
  tokenCount = 0;
  commentCount = 0;
  stack = stackAt;
  depth = 0;
}

/**
 * The skeleton of the `n` bytes at `text` (UTF-8, no BOM, followed by at least 8 zero bytes), written at `out`
 * (room for `n` bytes). `ranges` has room for 4 * n + 16 bytes, `stackAt` for 8 * n + 16. Returns the skeleton's
 * length in bytes, UNCHANGED (-2) when nothing is dropped, or BAIL (-1) when the whole file must be parsed.
 */
export function skeleton(text: usize, n: i32, plainJs: bool, out: usize, ranges: usize, stackAt: usize): i32 {
  reset(text, n, stackAt, false);
  blanks = ranges;
  if (!lex(n, plainJs)) return BAIL;
  if (blankCount == 0) return UNCHANGED;
  let last: i32 = 0;
  let o = out;
  for (let k = 0; k < blankCount; k += 2) {
    const start = load<i32>(blanks + (<usize>k << 2));
    const end = load<i32>(blanks + (<usize>k << 2) + 4);
    memory.copy(o, text + <usize>last, <usize>(start - last));
    o += <usize>(start - last);
    const breaks = lineBreakCount(start, end);
    if (breaks == 0) {
      store<u8>(o, 32);
      o++;
    } else {
      memory.fill(o, 10, <usize>breaks);
      o += <usize>breaks;
    }
    last = end;
  }
  memory.copy(o, text + <usize>last, <usize>(n - last));
  o += <usize>(n - last);
  return <i32>(o - out);
}

/**
 * skeleton.ts's tokenize() over the `n` bytes at `text` (as for skeleton()): the tokens go to four i32 arrays
 * (`kinds`, `starts`, `ends`, `texts`: 2 * n + 16 entries each; texts as the text codes above), the comments as
 * [start, end) pairs to `commentsAt` (n + 16 entries). `stackAt` has room for 8 * n + 16 bytes and `units` for
 * 4 * n + 8. Offsets are in UTF-16 code units, as JavaScript counts them in the decoded text. Returns the number of
 * tokens (commentEntries() tells the comments'), or BAIL.
 */
export function tokens(text: usize, n: i32, plainJs: bool, kinds: usize, starts: usize, ends: usize, texts: usize, commentsAt: usize, stackAt: usize, units: usize): i32 {
  reset(text, n, stackAt, true);
  tokenKinds = kinds;
  tokenStarts = starts;
  tokenEnds = ends;
  tokenTexts = texts;
  comments = commentsAt;
  const ok = lex(n, plainJs);
  sinkMode = false;
  if (!ok) return BAIL;
  let wide = false;
  for (let i = 0; i < n; i++) {
    if (byteAt(i) >= 0x80) {
      wide = true;
      break;
    }
  }
  if (wide) {
    // units[b]: the UTF-16 offset of byte offset b (a character from U+10000 on is two code units)
    let u: i32 = 0;
    for (let b = 0; b < n; b++) {
      store<i32>(units + (<usize>b << 2), u);
      const c = byteAt(b);
      if (c < 0x80) u++;
      else if (c >= 0xf0) u += 2;
      else if (c >= 0xc0) u++;
    }
    store<i32>(units + (<usize>n << 2), u);
    for (let k = 0; k < tokenCount; k++) {
      const at = <usize>k << 2;
      store<i32>(starts + at, load<i32>(units + (<usize>load<i32>(starts + at) << 2)));
      store<i32>(ends + at, load<i32>(units + (<usize>load<i32>(ends + at) << 2)));
    }
    for (let k = 0; k < commentCount; k++) {
      const at = commentsAt + (<usize>k << 2);
      store<i32>(at, load<i32>(units + (<usize>load<i32>(at) << 2)));
    }
  }
  return tokenCount;
}

/** The number of i32 the last tokens() call wrote to `commentsAt`. */
export function commentEntries(): i32 {
  return commentCount;
}
