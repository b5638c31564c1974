/**
 * The tree-sitter runtime (web-tree-sitter as shipped by @vscode/tree-sitter-wasm: one JavaScript file, the runtime's
 * wasm and the grammars' wasm, no native code, nothing downloaded) and the grammars a project needs, each loaded on
 * first need. Loading is asynchronous (WebAssembly instantiation), parsing is not: a caller awaits `loadGrammars`
 * for the files it is about to parse (pool.ts, worker.ts, update.ts), then parses them synchronously.
 *
 * Where the files are: `$GSD_TREE_SITTER` (a folder), else a `tree-sitter/` folder beside the running bundle or one
 * folder up (an installed runtime, scripts/bundle-runtime.mjs copies the grammars it needs there), else the package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The part of web-tree-sitter's API the engine uses (the package's own d.ts is a global module declaration). */
export interface TsPoint {
  row: number;
  column: number;
}
export interface TsNode {
  type: string;
  text: string;
  startPosition: TsPoint;
  endPosition: TsPoint;
  startIndex: number;
  endIndex: number;
  isNamed: boolean;
  isMissing: boolean;
  hasError: boolean;
  childCount: number;
  namedChildCount: number;
  children: TsNode[];
  namedChildren: TsNode[];
  parent: TsNode | null;
  firstChild: TsNode | null;
  firstNamedChild: TsNode | null;
  nextNamedSibling: TsNode | null;
  child(index: number): TsNode | null;
  namedChild(index: number): TsNode | null;
  childForFieldName(field: string): TsNode | null;
  childrenForFieldName(field: string): TsNode[];
  descendantsOfType(type: string | string[]): TsNode[];
  walk(): TsCursor;
}
/** A walk over a tree without a node object per step (web-tree-sitter's TreeCursor); delete() it when done. */
export interface TsCursor {
  nodeType: string;
  nodeIsNamed: boolean;
  currentFieldName: string | null | undefined;
  currentNode: TsNode;
  startIndex: number;
  endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}
export interface TsTree {
  rootNode: TsNode;
  edit(edit: TsEdit): void;
  delete(): void;
}
/** One changed span of a text, in UTF-16 code units as web-tree-sitter counts (Tree.edit). */
export interface TsEdit {
  startIndex: number;
  oldEndIndex: number;
  newEndIndex: number;
  startPosition: TsPoint;
  oldEndPosition: TsPoint;
  newEndPosition: TsPoint;
}
export interface TsLanguage {
  abiVersion: number;
}
interface TsParser {
  setLanguage(language: TsLanguage): void;
  parse(text: string, oldTree?: TsTree | null): TsTree | null;
  delete(): void;
}
interface TsModule {
  Parser: { init(options?: object): Promise<void>; new (): TsParser };
  Language: { load(input: Uint8Array): Promise<TsLanguage> };
}

/** The folder holding tree-sitter.js, tree-sitter.wasm and the grammars. */
export function treeSitterDir(): string {
  const override = process.env.GSD_TREE_SITTER;
  if (override) return override;
  const here = import.meta.url;
  for (const rel of ['./tree-sitter/', '../tree-sitter/']) {
    const dir = fileURLToPath(new URL(rel, here));
    if (existsSync(path.join(dir, 'tree-sitter.js'))) return dir;
  }
  return path.dirname(createRequire(here).resolve('@vscode/tree-sitter-wasm'));
}

let runtime: Promise<TsModule> | null = null;
let loadedModule: TsModule | null = null;
const grammars = new Map<string, Promise<TsLanguage>>();
const ready = new Map<string, TsLanguage>();
/** why a grammar's last load failed, for the error each of its files then reports */
const failures = new Map<string, string>();
const parsers = new Map<string, TsParser>();

function loadRuntime(): Promise<TsModule> {
  runtime ??= (async () => {
    const dir = treeSitterDir();
    const ts = createRequire(import.meta.url)(path.join(dir, 'tree-sitter.js')) as TsModule;
    loadedModule = ts;
    await ts.Parser.init({ wasmBinary: readFileSync(path.join(dir, 'tree-sitter.wasm')), locateFile: (file: string) => path.join(dir, file) });
    return ts;
  })();
  return runtime;
}

/** Loads the runtime and each named grammar (`tree-sitter-python.wasm`) not loaded yet. Rejects when one cannot be. */
export async function loadGrammars(files: Iterable<string>): Promise<void> {
  const waits: Promise<TsLanguage>[] = [];
  for (const file of files) {
    let p = grammars.get(file);
    if (!p) {
      p = loadRuntime().then(async (ts) => {
        const language = await ts.Language.load(readFileSync(path.join(treeSitterDir(), file)));
        ready.set(file, language);
        failures.delete(file);
        return language;
      });
      // a failure is reported to every caller of this round, and the next round tries again (the runtime too)
      p.catch((error: unknown) => {
        grammars.delete(file);
        if (!loadedModule) runtime = null;
        failures.set(file, (error as Error)?.message ?? String(error));
      });
      grammars.set(file, p);
    }
    waits.push(p);
  }
  await Promise.all(waits);
}

export function grammarLoaded(file: string): boolean {
  return ready.has(file);
}

/**
 * Trees kept for the next parse of the same file (withTree's `keep`): a process that stays between edits (the hook's
 * worker, the shared daemon) re-parses an edited file incrementally, tree-sitter reusing every subtree outside the
 * changed span, which gives the tree a fresh parse gives (2,580 edits of Newtonsoft.Json, composer and libuv files
 * compared node by node). Measured on a loaded 2-core machine, parse and facts of a file after a comment appended:
 * composer's `TestCase.php` (14 KB) 5.1 ms from scratch, 2.7 ms from its kept tree (the tree-sitter part 15 → 0.8 ms
 * there); Newtonsoft.Json's `TestFixtureBase.cs` (read twice for its `#if` directives) 14.5 → 9.5 ms. What is left is
 * the reader's walk over the tree, and the parse of a region tree-sitter reads as one error (the edit falls inside
 * it, so nothing around it is reused). The last few files are kept: an edit session goes back to the same ones.
 */
const MAX_KEPT_TREES = 4;
const kept = new Map<string, { grammar: string; text: string; tree: TsTree }>();

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** The row and column (UTF-16 code units) of `index` in `text`. */
function pointAt(text: string, index: number): TsPoint {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** The one span where `after` differs from `before`: their common start and common end left out. */
export function editBetween(before: string, after: string): TsEdit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // never inside a surrogate pair
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let oldEnd = before.length;
  let newEnd = after.length;
  while (oldEnd > start && newEnd > start && before.charCodeAt(oldEnd - 1) === after.charCodeAt(newEnd - 1)) {
    oldEnd--;
    newEnd--;
  }
  if (oldEnd < before.length && isHighSurrogate(before.charCodeAt(oldEnd - 1))) {
    oldEnd++;
    newEnd++;
  }
  return { startIndex: start, oldEndIndex: oldEnd, newEndIndex: newEnd, startPosition: pointAt(before, start), oldEndPosition: pointAt(before, oldEnd), newEndPosition: pointAt(after, newEnd) };
}

/** Frees every kept tree (tests, benchmarks). */
export function dropKeptTrees(): void {
  for (const k of kept.values()) k.tree.delete();
  kept.clear();
}

/**
 * Parses `text` with a loaded grammar and hands the tree to `read`; the tree's WebAssembly memory is freed after.
 * With `keep` (a file's key), the tree is kept under it instead, and the tree kept under it before is the base of an
 * incremental parse (MAX_KEPT_TREES above).
 * Throws when the grammar is not loaded (a caller that did not await loadGrammars) or the parser gives up.
 */
export function withTree<T>(grammar: string, text: string, read: (root: TsNode) => T, keep?: string): T {
  const language = ready.get(grammar);
  if (!language) throw new Error(`tree-sitter grammar ${grammar} is not loaded${failures.has(grammar) ? `: ${failures.get(grammar)}` : ''}`);
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new loadedModule!.Parser();
    parser.setLanguage(language);
    parsers.set(grammar, parser);
  }
  const previous = keep === undefined ? undefined : kept.get(keep);
  if (previous) kept.delete(keep!);
  let tree: TsTree | null;
  try {
    if (previous?.grammar === grammar) previous.tree.edit(editBetween(previous.text, text));
    tree = parser.parse(text, previous?.grammar === grammar ? previous.tree : null);
  } finally {
    previous?.tree.delete();
  }
  if (!tree) throw new Error(`tree-sitter gave no tree for this file (${grammar})`);
  if (keep === undefined) {
    try {
      return read(tree.rootNode);
    } finally {
      tree.delete();
    }
  }
  kept.set(keep, { grammar, text, tree });
  while (kept.size > MAX_KEPT_TREES) {
    const [oldest, entry] = kept.entries().next().value!;
    kept.delete(oldest);
    entry.tree.delete();
  }
  return read(tree.rootNode);
}
