/**
 * skeletonOf for a file's bytes, by the WebAssembly copy of the lexer (engine/assembly/skeleton-lexer.ts).
 *
 * Why: a build lexes every byte of the project once, in a short-lived process. The JavaScript lexer runs most of that
 * time unoptimized while V8 compiles it on the other core (its big loop is compiled several times, 150-250 ms of
 * TurboFan time on zod), so a cold build lexed at a fraction of its warm speed. WebAssembly is compiled in about a
 * millisecond and runs at full speed from the first file (figures in bench/RESULTS.md, "Skeleton parse").
 *
 * skeleton.ts stays the reference: skeletonFromBytes gives exactly skeletonOf's result for the same text (the same
 * string, or null when the lexer gives up), which test/engine/parse/skeleton-wasm.test.ts and bench/skeleton.mjs
 * check file by file. When WebAssembly cannot be used, it answers undefined and the caller uses skeletonOf.
 */
import { Buffer } from 'node:buffer';
import type { Dialect } from './babel-options.js';
import { SKELETON_LEXER_WASM } from './generated/skeleton-lexer-wasm.js';
import { LEXER_TABLES } from './skeleton.js';

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

/** The lexer's results other than a length (skeleton-lexer.ts). */
const BAIL = -1;
const UNCHANGED = -2;

interface Lexer {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  skeleton(text: number, n: number, plainJs: number, out: number, work: number): number;
}

/** The part of the WebAssembly global used here (the project's lib settings have no WebAssembly types). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

let lexer: Lexer | null | undefined;

function instantiate(): Lexer | null {
  if (process.env.GSD_WASM_LEXER === '0') return null;
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined) return null;
  try {
    const module = new wasm.Module(Buffer.from(SKELETON_LEXER_WASM, 'base64'));
    const exports = new wasm.Instance(module, {}).exports as Lexer;
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

/**
 * The skeleton of the text whose UTF-8 bytes are `bytes` (valid UTF-8, BOM removed): a string, the same as
 * skeletonOf(text, dialect) gives; `source` when nothing is dropped (`source()` makes the text then); null when the
 * whole file must be parsed; undefined when WebAssembly is not available here.
 */
export function skeletonFromBytes(bytes: Uint8Array, dialect: Dialect, source: () => string): string | null | undefined {
  if (dialect === 'tsx') return null;
  if (lexer === undefined) lexer = instantiate();
  if (lexer === null) return undefined;
  const n = bytes.length;
  const out = TEXT + n + PAD;
  const work = out + n;
  const needed = work + 12 * n + 64;
  const memory = lexer.memory;
  if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
  const heap = new Uint8Array(memory.buffer);
  heap.set(bytes, TEXT);
  heap.fill(0, TEXT + n, TEXT + n + PAD);
  const length = lexer.skeleton(TEXT, n, dialect === 'js' ? 1 : 0, out, work);
  if (length === BAIL) return null;
  if (length === UNCHANGED) return source();
  return Buffer.from(memory.buffer, out, length).toString('utf8');
}
