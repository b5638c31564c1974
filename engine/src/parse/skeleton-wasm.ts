/**
 * skeletonOf and tokenize for a file's bytes, by the WebAssembly copy of the lexer (engine/assembly/skeleton-lexer.ts).
 *
 * Why: a build lexes every byte of the project once, in a short-lived process. The JavaScript lexer runs most of that
 * time unoptimized while V8 compiles it on the other core (its big loop is compiled several times, 150-250 ms of
 * TurboFan time on zod), so a cold build lexed at a fraction of its warm speed. WebAssembly is compiled in about a
 * millisecond and runs at full speed from the first file (figures in bench/RESULTS.md, "Skeleton parse").
 *
 * skeleton.ts stays the reference: lexBytes gives exactly skeletonOf's result for the same text (the same string, or
 * null when the lexer gives up) and tokenize's tokens of it, which test/engine/parse/skeleton-wasm.test.ts and
 * bench/skeleton.mjs check file by file. When WebAssembly cannot be used, or for a file over WASM_MAX_BYTES (the
 * module's memory grows to ~50 bytes per byte of text and never shrinks), it answers undefined and the caller uses
 * skeleton.ts.
 */
import { Buffer } from 'node:buffer';
import type { Dialect } from './babel-options.js';
import { SKELETON_LEXER_WASM } from './generated/skeleton-lexer-wasm.js';
import { LEXER_TABLES, Tok, type Tokens } from './skeleton.js';
import { instantiateWasm, type WasmMemory } from '../wasm.js';

/** Offsets of the tables in the module's memory (engine/assembly/skeleton-lexer.ts, "memory layout"). */
const CHAR_CLASS = 0;
const PREV_FLAGS = 128;
const PREV_FLAGS_END = 1024;
const WORD_SLOTS = 1024;
const WORD_HASHES = 1280;
const WORD_INDEX = 2304;
const WORD_TEXT = 4352;
/** where a file's text starts: after the tables */
const TEXT = 65536;
const PAGE = 65536;
/** zero bytes after the text: the lexer reads up to 3 bytes past a character */
const PAD = 8;
/** Larger files are lexed by skeleton.ts (the same result), so the module's memory stays below ~100 MB. */
export const WASM_MAX_BYTES = 2_000_000;

/** The lexer's results other than a length (skeleton-lexer.ts). */
const BAIL = -1;
const UNCHANGED = -2;

interface Lexer {
  memory: WasmMemory;
  skeleton(text: number, n: number, plainJs: number, out: number, ranges: number, stack: number): number;
  tokens(text: number, n: number, plainJs: number, kinds: number, starts: number, ends: number, texts: number, comments: number, stack: number, units: number): number;
  commentEntries(): number;
}

/** Token texts by text code (skeleton-lexer.ts): one-character punctuators by character code, then the longer ones. */
const PUNCT_TEXTS: string[] = [...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)), '=>', '==', '...', '?.', '++', '--', '<<', '${'];

let lexer: Lexer | null | undefined;

function instantiate(): Lexer | null {
  if (process.env.GSD_WASM_LEXER === '0') return null;
  const exports = instantiateWasm<Lexer>(SKELETON_LEXER_WASM);
  if (exports === null) return null;
  try {
    const { charClass, prevFlags, wordSlots, wordHashes, words } = LEXER_TABLES;
    if (prevFlags.length > PREV_FLAGS_END - PREV_FLAGS) throw new Error('skeleton-wasm: PREV_FLAGS outgrew its place');
    const bytes = new Uint8Array(exports.memory.buffer);
    bytes.set(charClass, CHAR_CLASS);
    bytes.set(prevFlags, PREV_FLAGS);
    bytes.set(wordSlots, WORD_SLOTS);
    new Int32Array(exports.memory.buffer, WORD_HASHES, wordHashes.length).set(wordHashes);
    const index = new Int32Array(exports.memory.buffer, WORD_INDEX, words.length * 2);
    let at = 0;
    words.forEach((word, code) => {
      index[code * 2] = at;
      index[code * 2 + 1] = word.length;
      for (let k = 0; k < word.length; k++) bytes[WORD_TEXT + at + k] = word.charCodeAt(k);
      at += word.length;
    });
    if (WORD_TEXT + at > TEXT) throw new Error('skeleton-wasm: the words outgrew their place');
    return exports;
  } catch {
    return null;
  }
}

/** Memory offsets of one file's work, for `n` bytes of text (skeleton-lexer.ts says what each needs). */
function layout(n: number) {
  const out = TEXT + n + PAD;
  // 8-aligned after the skeleton and its zero bytes
  const work = (out + n + PAD + 7) & ~7;
  const cap = 2 * n + 16;
  const kinds = work;
  const starts = kinds + 4 * cap;
  const ends = starts + 4 * cap;
  const texts = ends + 4 * cap;
  const comments = texts + 4 * cap;
  const stack = comments + 4 * (n + 16);
  const units = stack + 8 * n + 16;
  // the skeleton pass uses `work` for its ranges and the same stack: both fit below the token arrays' end
  return { out, ranges: work, kinds, starts, ends, texts, comments, stack, units, end: units + 4 * n + 64 };
}

/** The skeleton pass over a file's bytes, as it lies in the module's memory. */
interface SkeletonPass {
  lexer: Lexer;
  at: ReturnType<typeof layout>;
  /** the text's length in bytes */
  n: number;
  /** the skeleton's length at `at.out`, or UNCHANGED */
  length: number;
}

/**
 * Copies `bytes` into the module's memory (followed by zero bytes) and runs the skeleton pass over them: null when
 * the whole file must be parsed, undefined when WebAssembly is not used for it (see the module comment).
 */
function skeletonPass(bytes: Uint8Array, dialect: Dialect): SkeletonPass | null | undefined {
  if (dialect === 'tsx') return null;
  const n = bytes.length;
  if (n > WASM_MAX_BYTES) return undefined;
  if (lexer === undefined) lexer = instantiate();
  if (lexer === null) return undefined;
  const at = layout(n);
  const memory = lexer.memory;
  if (at.end > memory.buffer.byteLength) memory.grow(Math.ceil((at.end - memory.buffer.byteLength) / PAGE));
  const heap = new Uint8Array(memory.buffer);
  heap.set(bytes, TEXT);
  heap.fill(0, TEXT + n, TEXT + n + PAD);
  const length = lexer.skeleton(TEXT, n, dialect === 'js' ? 1 : 0, at.out, at.ranges, at.stack);
  return length === BAIL ? null : { lexer, at, n, length };
}

/** The skeleton of a pass as text: `source()` when nothing was dropped, else the bytes the pass wrote, decoded. */
function skeletonText(pass: SkeletonPass, source: () => string): string {
  if (pass.length === UNCHANGED) return source();
  return Buffer.from(pass.lexer.memory.buffer, pass.at.out, pass.length).toString('utf8');
}

/**
 * The skeleton of the text whose UTF-8 bytes are `bytes` (valid UTF-8, BOM removed): a string, the same as
 * skeletonOf(text, dialect) gives; `source()` when nothing is dropped; null when the whole file must be parsed;
 * undefined when WebAssembly is not used for it (see the module comment).
 */
export function skeletonFromBytes(bytes: Uint8Array, dialect: Dialect, source: () => string): string | null | undefined {
  const pass = skeletonPass(bytes, dialect);
  return pass && skeletonText(pass, source);
}

/** A skeleton and its tokens (null when tokenize would give up on it). */
export interface LexedSkeleton {
  text: string;
  tokens: Tokens | null;
}

/**
 * skeletonFromBytes, and the tokens of the skeleton as tokenize(skeleton, dialect) gives them: null when the whole
 * file must be parsed, undefined when WebAssembly is not used for it.
 */
export function lexBytes(bytes: Uint8Array, dialect: Dialect, source: () => string): LexedSkeleton | null | undefined {
  const pass = skeletonPass(bytes, dialect);
  if (!pass) return pass;
  const { lexer, at } = pass;
  const text = skeletonText(pass, source);
  // the skeleton's bytes: the text itself, or what the pass wrote (then followed by zero bytes, as the text is)
  const unchanged = pass.length === UNCHANGED;
  const textAt = unchanged ? TEXT : at.out;
  const textLength = unchanged ? pass.n : pass.length;
  if (!unchanged) new Uint8Array(lexer.memory.buffer).fill(0, at.out + textLength, at.out + textLength + PAD);
  // the token arrays sit after the skeleton, sized for `n` bytes: the skeleton is never longer than the text
  const count = lexer.tokens(textAt, textLength, dialect === 'js' ? 1 : 0, at.kinds, at.starts, at.ends, at.texts, at.comments, at.stack, at.units);
  if (count === BAIL) return { text, tokens: null };
  return { text, tokens: tokensFrom(lexer, at, count, text) };
}

/** The tokens tokens() wrote, copied out of the module's memory, with their texts. */
function tokensFrom(lexer: Lexer, at: ReturnType<typeof layout>, count: number, text: string): Tokens {
  const buffer = lexer.memory.buffer;
  const kinds = new Int32Array(buffer, at.kinds, count).slice();
  const starts = new Int32Array(buffer, at.starts, count).slice();
  const ends = new Int32Array(buffer, at.ends, count).slice();
  const codes = new Int32Array(buffer, at.texts, count);
  const words = LEXER_TABLES.words;
  const texts: string[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const kind = kinds[k];
    const code = codes[k];
    texts[k] = kind === Tok.Name ? (code === 0 ? text.slice(starts[k], ends[k]) : words[code]) : kind === Tok.Punct ? PUNCT_TEXTS[code] : '';
  }
  const comments = new Int32Array(buffer, at.comments, lexer.commentEntries()).slice();
  return { kinds: kinds as ArrayLike<number> as ArrayLike<Tok>, starts, ends, texts, comments };
}
