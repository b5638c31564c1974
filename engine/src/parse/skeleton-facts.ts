/**
 * The facts of a skeleton (skeleton.ts) read from its tokens, without babel: import and export statements, top-level
 * declarations, and `require()`, `import()`, `import.meta` and CommonJS exports anywhere. It knows the common forms
 * only; for anything else it returns null and babel reads the skeleton instead. Its results must equal parseWhole's
 * (test/engine/parse/skeleton-facts.test.ts and `node bench/skeleton.mjs` check that file by file).
 *
 * It returns null as well for what would make babel report an error at the top level that it can see: a declared
 * name declared twice, an export name exported twice, a reserved word as a name, an operator without its operand.
 * Errors it cannot see (most of them sit in bodies the skeleton dropped anyway) are not reported.
 */
import type { File } from '@babel/types';
import type { ExportKind, ImportRecord, ParsedFile, ReexportBinding, SymbolKind, SymbolRecord } from '../types.js';
import type { Dialect } from './babel-options.js';
import { leadingDocComment, tripleSlashReferences } from './doc-comment.js';
import { orderExports, type PendingExport } from './extract-exports.js';
import type { ImportBinding } from './extract-imports.js';
import { moduleSystem } from './module-system.js';
import { BEFORE_EXPRESSION, Tok, tokenize, type Tokens } from './skeleton.js';

class Unsupported extends Error {}

function unsupported(): never {
  throw new Unsupported();
}

/**
 * Facts of `text` (a skeleton), or null when babel has to read it. `tokens`: its tokens when the caller has them
 * already, else tokenize() makes them.
 */
export function factsFromSkeleton(text: string, dialect: Dialect, tokens: Tokens | null = tokenize(text, dialect)): ParsedFile | null {
  if (tokens === null) return null;
  try {
    return new SkeletonReader(text, dialect, tokens).read();
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

/** A line break before one of these does not end a statement: it continues the expression. */
const CONTINUES = new Set(['.', '?.', '(', '[', '${', '+', '-', '*', '/', '%', '=', '==', '<', '>', '&', '|', '^', '?', ':', ',', '=>']);
const CONTINUES_WORDS = new Set(['in', 'instanceof', 'as', 'satisfies', 'extends']);
/** Words an expression cannot end with: a line break after them continues the statement. */
const NO_END = new Set(['in', 'instanceof', 'typeof', 'new', 'void', 'delete', 'await', 'case', 'do', 'else', 'extends', 'keyof', 'infer', 'is', 'as', 'satisfies', 'readonly', 'unique', 'asserts', 'import', 'export', 'const', 'let', 'var', 'function', 'class', 'type', 'interface', 'enum', 'declare', 'abstract', 'async', 'from']);
/** Operators that need an operand after them: one followed by `)`, `]`, `}` or `;` is a syntax error. */
const NEEDS_OPERAND = new Set(['+', '-', '*', '/', '%', '=', '==', '&', '|', '^', '~', '.', '?.', '...']);
const CLOSERS = new Set([')', ']', '}', ';']);
const OPENERS = new Set(['{', '(', '[', '${']);

/** OPENERS.has(t) for the text of a punctuator, by its first character: no other punctuator starts like one of them. */
function isOpener(t: string): boolean {
  const c = t.charCodeAt(0);
  return c === 123 || c === 40 || c === 91 || c === 36;
}

/** NEEDS_OPERAND.has(t) for the text of a punctuator: its one-character members by character code, then the others. */
const NEEDS_OPERAND_CHAR = new Uint8Array(128);
for (const t of NEEDS_OPERAND) if (t.length === 1) NEEDS_OPERAND_CHAR[t.charCodeAt(0)] = 1;
function needsOperand(t: string): boolean {
  return t.length === 1 ? NEEDS_OPERAND_CHAR[t.charCodeAt(0)] === 1 : NEEDS_OPERAND.has(t);
}

/** `text` has a line break other than `\n` and `\r\n` (`/\r(?!\n)|[\u2028\u2029]/`, without a regular expression's pass). */
function otherLineBreaks(text: string): boolean {
  for (let j = text.indexOf('\r'); j !== -1; j = text.indexOf('\r', j + 1)) if (text.charCodeAt(j + 1) !== 10) return true;
  return text.indexOf('\u2028') !== -1 || text.indexOf('\u2029') !== -1;
}

/** Line numbers (lines counted at `\n` only) of ascending offsets in a text, found in one forward pass. */
class LineCounter {
  private line = 1;
  private pos = 0;
  /** the first `\n` at or after `pos`, -1 when there is none */
  private nextLf: number;

  constructor(private readonly text: string) {
    this.nextLf = text.indexOf('\n');
  }

  /** The line at `offset`: the line at the previous offset plus the `\n`s between them (none if `offset` is before). */
  at(offset: number): number {
    if (offset >= this.pos) {
      let nextLf = this.nextLf;
      while (nextLf !== -1 && nextLf < offset) {
        this.line++;
        nextLf = this.text.indexOf('\n', nextLf + 1);
      }
      this.nextLf = nextLf;
    } else this.nextLf = this.text.indexOf('\n', offset);
    this.pos = offset;
    return this.line;
  }
}

/**
 * The per-token arrays of SkeletonReader, reused from file to file (a reader runs synchronously, one at a time):
 * allocating four typed arrays per file cost more than filling them.
 */
let scratchSize = 0;
let scratchMatch = new Int32Array(0);
let scratchDepth = new Int32Array(0);
let scratchLines = new Int32Array(0);
let scratchNewline = new Uint8Array(0);

function reserveScratch(n: number): void {
  if (n <= scratchSize) return;
  scratchSize = Math.max(n, scratchSize * 2, 1024);
  scratchMatch = new Int32Array(scratchSize);
  scratchDepth = new Int32Array(scratchSize);
  scratchLines = new Int32Array(scratchSize);
  scratchNewline = new Uint8Array(scratchSize);
}
const RESERVED = new Set(['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'await']);
/** Before a `{` in a type, these make it a type literal, not a body. */
const TYPE_BEFORE_BRACE = new Set([':', '|', '&', ',', '<', '=>', '(', '[', '?', '=', 'is', 'keyof', 'typeof', 'extends', 'infer', 'readonly', 'asserts', 'unique']);

interface Declared {
  name: string;
  kind: SymbolKind;
  line: number;
}

interface LocalExport {
  start: number;
  line: number;
  typeOnly: boolean;
  specifiers: { local: string; exported: string; typeOnly: boolean }[];
}

class SkeletonReader {
  private readonly kinds: ArrayLike<Tok>;
  private readonly starts: ArrayLike<number>;
  private readonly ends: ArrayLike<number>;
  private readonly texts: ArrayLike<string>;
  private readonly n: number;
  /** index of the matching bracket of each bracket token, -1 for others */
  private readonly match: Int32Array;
  /** bracket depth of each token */
  private readonly depth: Int32Array;
  private readonly lines: Int32Array;
  /** the token starts a new line */
  private readonly newline: Uint8Array;
  private readonly typed: boolean;
  /** [start, end) pairs of the comments (only the leading ones are left in a skeleton) */
  private readonly comments: ArrayLike<number>;

  private readonly imports: { start: number; record: ImportRecord }[] = [];
  private readonly exports: PendingExport[] = [];
  private readonly exportedLocals = new Set<string>();
  private readonly esExportNames = new Map<string, boolean>();
  private readonly declared: { declared: Declared; exported: boolean }[] = [];
  private readonly bindings = new Map<string, ImportBinding>();
  private readonly localExports: LocalExport[] = [];
  private readonly defaultLocals: { start: number; line: number; name: string }[] = [];
  private esm = false;
  private cjs = false;
  /** `require` tokens of `import x = require('x')` */
  private readonly externalReferences = new Set<number>();

  constructor(
    private readonly text: string,
    private readonly dialect: Dialect,
    tokens: Tokens,
  ) {
    this.kinds = tokens.kinds;
    this.starts = tokens.starts;
    this.ends = tokens.ends;
    this.texts = tokens.texts;
    this.n = this.kinds.length;
    this.typed = dialect !== 'js';
    reserveScratch(this.n);
    // every entry of the last three is written by index()
    this.match = scratchMatch.subarray(0, this.n).fill(-1);
    this.depth = scratchDepth.subarray(0, this.n);
    this.lines = scratchLines.subarray(0, this.n);
    this.newline = scratchNewline.subarray(0, this.n);
    this.comments = tokens.comments;
    this.index();
  }

  /** Bracket matching, depths, lines; and the operand check. */
  private index(): void {
    const open: number[] = [];
    const lines = new LineCounter(this.text);
    let lastEndLine = 0;
    for (let i = 0; i < this.n; i++) {
      const start = this.starts[i];
      const line = lines.at(start);
      this.lines[i] = line;
      this.newline[i] = i > 0 && line !== lastEndLine ? 1 : 0;
      // multi-line tokens (templates) end on a later line
      lastEndLine = lines.at(this.kinds[i] === Tok.Punct ? start + this.texts[i].length : this.ends[i]);
      if (this.kinds[i] !== Tok.Punct) {
        this.depth[i] = open.length;
        continue;
      }
      const t = this.texts[i];
      if (isOpener(t)) {
        this.depth[i] = open.length;
        open.push(i);
      } else if (t === ')' || t === ']' || t === '}') {
        const o = open.pop();
        if (o === undefined) unsupported();
        this.match[o] = i;
        this.match[i] = o;
        this.depth[i] = open.length;
      } else {
        this.depth[i] = open.length;
      }
      if (needsOperand(t)) {
        const next = i + 1 < this.n && this.kinds[i + 1] === Tok.Punct ? this.texts[i + 1] : null;
        if (i + 1 >= this.n || (next !== null && CLOSERS.has(next))) unsupported();
      }
    }
    if (open.length > 0) unsupported();
  }

  // ------------------------------------------------------------ token helpers

  private isName(i: number, word?: string): boolean {
    return i < this.n && this.kinds[i] === Tok.Name && (word === undefined || this.texts[i] === word);
  }

  private isPunct(i: number, text: string): boolean {
    return i < this.n && this.kinds[i] === Tok.Punct && this.texts[i] === text;
  }

  private expectName(i: number): string {
    if (!this.isName(i)) unsupported();
    return this.texts[i];
  }

  /** The value of a string token, or of a template token without `${}`; null for other tokens. */
  private staticString(i: number): string | null {
    if (i >= this.n) return null;
    const kind = this.kinds[i];
    if (kind !== Tok.String && kind !== Tok.Template) return null;
    const s = this.starts[i];
    const e = this.ends[i];
    if (kind === Tok.Template && (this.text.charCodeAt(s) !== 96 || this.text.charCodeAt(e - 1) !== 96 || e - s < 2)) return null;
    const raw = this.text.slice(s + 1, e - 1);
    // escapes, and a template's own line-break rules, are left to babel
    if (raw.includes('\\') || (kind === Tok.Template && raw.includes('\r'))) unsupported();
    return raw;
  }

  private stringAt(i: number): string {
    if (this.kinds[i] !== Tok.String) unsupported();
    return this.staticString(i)!;
  }

  /** A token that an expression can end with. */
  private canEnd(i: number): boolean {
    switch (this.kinds[i]) {
      case Tok.Name:
        // `x as const` ends an expression: `const` is the type, not a declaration to come
        // a property name (`internal.as`), or `x as const` (`const` is the type, not a declaration to come)
        return !NO_END.has(this.texts[i]) || (i > 0 && (this.isPunct(i - 1, '.') || this.isPunct(i - 1, '?.'))) || (this.texts[i] === 'const' && this.typed && i > 0 && this.isName(i - 1, 'as'));
      case Tok.Punct: {
        const t = this.texts[i];
        return t === ')' || t === ']' || t === '}' || t === '++' || t === '--';
      }
      default:
        return true;
    }
  }

  private continuesLine(i: number): boolean {
    const kind = this.kinds[i];
    if (kind === Tok.Punct) return CONTINUES.has(this.texts[i]);
    if (kind === Tok.Template) return true;
    return kind === Tok.Name && CONTINUES_WORDS.has(this.texts[i]);
  }

  /** A line break before `i` ends the statement that `i - 1` is part of. */
  private asiBefore(i: number): boolean {
    if (i >= this.n || this.newline[i] !== 1) return false;
    // a line that starts with `export` starts a statement whatever the last line ended with (`let a: Map<K, V>`)
    if (this.isName(i, 'export')) return true;
    return this.canEnd(i - 1) && !this.continuesLine(i);
  }

  /** Index after the statement or expression that starts at `i`: past a `;`, or at a line break that ends it. */
  private statementEnd(i: number, stopAtComma = false): number {
    let j = i;
    while (j < this.n) {
      if (j > i && this.asiBefore(j)) return j;
      if (this.kinds[j] === Tok.Punct) {
        const t = this.texts[j];
        if (t === ';') return stopAtComma ? j : j + 1;
        if (stopAtComma && t === ',') return j;
        if (t === '}' || t === ')' || t === ']') return j; // the end of an enclosing group
        if (isOpener(t)) {
          j = this.match[j] + 1;
          continue;
        }
      }
      j++;
    }
    return j;
  }

  /**
   * Index after a type alias from `i`: as statementEnd, and a line break after the `>` that closes the alias's last
   * type arguments (`type A = B<C>` then `type D = …`), or after `void` (a type here, not the operator), ends it too.
   */
  private typeAliasEnd(i: number): number {
    let j = i;
    let angles = 0;
    while (j < this.n) {
      if (j > i && this.newline[j] === 1 && !this.continuesLine(j) && (this.canEnd(j - 1) || this.isName(j - 1, 'void') || (angles === 0 && /^>+$/.test(this.texts[j - 1] ?? '')))) return j;
      if (this.kinds[j] === Tok.Punct) {
        const t = this.texts[j];
        if (t === ';') return j + 1;
        if (t === '}' || t === ')' || t === ']') return j;
        if (isOpener(t)) {
          j = this.match[j] + 1;
          continue;
        }
        if (t === '<') angles++;
        else if (/^>+$/.test(t)) angles = Math.max(0, angles - t.length);
      }
      j++;
    }
    return j;
  }

  /** The next `,` from `j` at this bracket level (brackets in between skipped whole), or `close`. */
  private nextComma(j: number, close: number): number {
    while (j < close && !this.isPunct(j, ',')) j = this.kinds[j] === Tok.Punct && isOpener(this.texts[j]) ? this.match[j] + 1 : j + 1;
    return j;
  }

  /** Past an optional `;` at `i`. */
  private semicolon(i: number): number {
    return this.isPunct(i, ';') ? i + 1 : i;
  }

  /** Index after a `<…>` list of type parameters or arguments starting at `i` (a `<`). */
  private skipAngles(i: number): number {
    let level = 0;
    for (let j = i; j < this.n; j++) {
      if (this.kinds[j] !== Tok.Punct) continue;
      const t = this.texts[j];
      if (t === '<') level++;
      else if (t === '>') {
        level--;
        if (level === 0) return j + 1;
      } else if (isOpener(t)) j = this.match[j];
      else if (t === ';' || t === ')' || t === ']' || t === '}') unsupported();
    }
    return unsupported();
  }

  /**
   * Index after a declaration whose body is the first `{…}` from `i` that is not a type literal (class, interface,
   * function with a return type, enum, namespace); a declaration without a body ends like a statement.
   */
  private bodyEnd(i: number): number {
    let angles = 0;
    for (let j = i; j < this.n; j++) {
      if (j > i && angles === 0 && this.asiBefore(j)) return j;
      if (this.kinds[j] !== Tok.Punct) continue;
      const t = this.texts[j];
      if (t === ';' && angles === 0) return j + 1;
      if (t === '<' && this.typed) angles++;
      else if (t === '>' && this.typed && angles > 0) angles--;
      else if (t === '{') {
        const before = j > i ? j - 1 : -1;
        const typeLiteral = before >= 0 && (angles > 0 || TYPE_BEFORE_BRACE.has(this.texts[before]));
        if (!typeLiteral) return this.match[j] + 1;
        j = this.match[j];
      } else if (isOpener(t)) j = this.match[j];
      else if (t === '}' || t === ')' || t === ']') return j;
    }
    return this.n;
  }

  // ------------------------------------------------------------ records

  private addImport(at: number, record: ImportRecord): void {
    this.imports.push({ start: this.starts[at], record });
  }

  private addExport(at: number, name: string, kind: ExportKind, line = this.lines[at], weak = false): void {
    this.exports.push({ start: this.starts[at], record: { name, kind, line }, weak });
  }

  /** An ES export name: babel refuses one exported twice in JavaScript (its TypeScript plugin does not check). */
  private esExport(name: string, overload: boolean): void {
    if (this.typed) return;
    const previous = this.esExportNames.get(name);
    if (previous !== undefined && !(previous && overload)) unsupported();
    this.esExportNames.set(name, overload);
  }

  /**
   * Records declared names; `exported` marks the symbols, `record` adds export records (not for `export default
   * function f`, whose export is `default`).
   */
  private declare(names: Declared[], exported: boolean, at: number, record = exported): void {
    for (const d of names) {
      if (RESERVED.has(d.name) || d.name === 'eval' || d.name === 'arguments') unsupported();
      this.declared.push({ declared: d, exported });
      if (record) {
        this.esExport(d.name, this.typed && d.kind === 'function');
        this.addExport(at, d.name, d.kind, d.line);
      }
    }
  }

  // ------------------------------------------------------------ the program

  read(): ParsedFile {
    // lines are counted at \n only
    if (otherLineBreaks(this.text)) unsupported();
    if (this.dialect === 'js' && /@flow\b/.test(this.text.slice(0, 2048))) unsupported();
    let i = 0;
    const directives: number[] = [];
    while (i < this.n && this.kinds[i] === Tok.String) {
      const end = this.statementEnd(i);
      if (end !== i + 1 && !(end === i + 2 && this.isPunct(i + 1, ';'))) break;
      directives.push(this.starts[i]);
      i = end;
    }
    const bodyStart = i < this.n ? this.starts[i] : null;
    while (i < this.n) i = this.statement(i);
    this.scanDeep();
    return this.result(directives, bodyStart);
  }

  /** One top-level statement at `i`; returns the index after it. */
  private statement(i: number): number {
    if (this.kinds[i] === Tok.Punct) {
      const t = this.texts[i];
      if (t === ';') return i + 1;
      if (t === '@') unsupported(); // decorators
      if (t === '{') return this.match[i] + 1;
      return Math.max(i + 1, this.statementEnd(i));
    }
    if (this.kinds[i] !== Tok.Name) return Math.max(i + 1, this.statementEnd(i));
    const word = this.texts[i];
    if (word === 'import') {
      if (this.isPunct(i + 1, '(') || this.isPunct(i + 1, '.')) return this.statementEnd(i);
      return this.importStatement(i);
    }
    if (word === 'export') return this.exportStatement(i);
    const declaration = this.declaration(i, false);
    if (declaration !== null) return declaration;
    return this.skipStatement(i);
  }

  /**
   * Index after the statement at `i`, recording nothing (it declares nothing at the top level). Compound statements
   * end where their grammar says, not at a line break: minified code puts the next statement right after the `}`.
   */
  private skipStatement(i: number): number {
    if (i >= this.n) return i;
    if (this.isPunct(i, '{')) return this.match[i] + 1;
    if (this.isPunct(i, ';')) return i + 1;
    const word = this.kinds[i] === Tok.Name ? this.texts[i] : '';
    const paren = (j: number): number => (this.isPunct(j, '(') ? this.match[j] + 1 : unsupported());
    switch (word) {
      case 'if': {
        let j = this.skipStatement(paren(i + 1));
        if (this.isName(j, 'else')) j = this.skipStatement(j + 1);
        return j;
      }
      case 'for':
        return this.skipStatement(paren(this.isName(i + 1, 'await') ? i + 2 : i + 1));
      case 'while':
      case 'with':
        return this.skipStatement(paren(i + 1));
      case 'do': {
        const j = this.skipStatement(i + 1);
        if (!this.isName(j, 'while')) unsupported();
        return this.semicolon(paren(j + 1));
      }
      case 'switch':
        return this.isPunct(paren(i + 1), '{') ? this.match[paren(i + 1)] + 1 : unsupported();
      case 'try': {
        if (!this.isPunct(i + 1, '{')) unsupported();
        let j = this.match[i + 1] + 1;
        if (this.isName(j, 'catch')) {
          j++;
          if (this.isPunct(j, '(')) j = this.match[j] + 1;
          if (!this.isPunct(j, '{')) unsupported();
          j = this.match[j] + 1;
        }
        if (this.isName(j, 'finally')) {
          if (!this.isPunct(j + 1, '{')) unsupported();
          j = this.match[j + 1] + 1;
        }
        return j;
      }
      case 'function':
      case 'class':
        // a declaration inside a statement (`if (a) function f() {}`): not a top-level symbol
        return this.bodyEnd(i + 1);
      default:
        if (word !== '' && this.isPunct(i + 1, ':') && !RESERVED.has(word)) return this.skipStatement(i + 2); // a label
        return Math.max(i + 1, this.statementEnd(i));
    }
  }

  /**
   * A declaration at `i` (`function`, `class`, `const` …, with `declare`/`async`/`abstract`), recorded as
   * exported or not; returns the index after it, or null when `i` does not start one. `line` is where babel starts
   * the declaration (after `declare`, at the `declare`); variables keep their declarators' lines.
   */
  private declaration(i: number, exported: boolean, at = i, line = this.lines[i]): number | null {
    const word = this.texts[i];
    const next = i + 1;
    const sameLine = (j: number) => j < this.n && this.newline[j] === 0;
    switch (word) {
      case 'function':
        return this.functionDeclaration(i, line, exported, at);
      case 'async':
        if (this.isName(next, 'function') && sameLine(next)) return this.functionDeclaration(next, line, exported, at);
        return null;
      case 'class':
        return this.classDeclaration(next, line, exported, at);
      case 'abstract':
        if (this.typed && this.isName(next, 'class') && sameLine(next)) return this.classDeclaration(next + 1, line, exported, at);
        return null;
      case 'const':
        if (this.typed && this.isName(next, 'enum')) return this.namedBody(next + 1, 'enum', line, exported, at);
        return this.variableDeclaration(next, 'const', exported, at);
      case 'var':
        return this.variableDeclaration(next, 'variable', exported, at);
      case 'let':
        if (this.isName(next) || this.isPunct(next, '{') || this.isPunct(next, '[')) return this.variableDeclaration(next, 'variable', exported, at);
        return null;
      case 'using':
        if (this.isName(next) && sameLine(next)) unsupported();
        return null;
      default:
        break;
    }
    if (!this.typed) return null;
    switch (word) {
      case 'type':
        if (this.isName(next) && (this.isPunct(next + 1, '=') || this.isPunct(next + 1, '<'))) {
          this.declare([{ name: this.texts[next], kind: 'type', line }], exported, at);
          return this.typeAliasEnd(next + 1);
        }
        return null;
      case 'interface':
        if (this.isName(next)) return this.namedBody(next, 'interface', line, exported, at);
        return null;
      case 'enum':
        if (this.isName(next)) return this.namedBody(next, 'enum', line, exported, at);
        return null;
      case 'namespace':
      case 'module':
        if (this.isName(next) && sameLine(next)) return this.namedBody(next, 'namespace', line, exported, at);
        if (word === 'module' && this.kinds[next] === Tok.String) return this.bodyEnd(next + 1);
        return null;
      case 'global':
        return null;
      case 'declare': {
        if (!sameLine(next) || !this.isName(next)) return null;
        const inner = this.texts[next];
        if (inner === 'global') return this.bodyEnd(next + 1);
        if (inner === 'module' && this.kinds[next + 1] === Tok.String) return this.bodyEnd(next + 2);
        const end = this.declaration(next, exported, at, line);
        if (end === null) unsupported();
        return end;
      }
      default:
        return null;
    }
  }

  /** `function` at `i`; `isDefault`: `export default function [name]`, exported as `default`. */
  private functionDeclaration(i: number, line: number, exported: boolean, at: number, isDefault = false): number {
    let j = i + 1;
    if (this.isPunct(j, '*')) j++;
    if (this.isName(j)) {
      this.declare([{ name: this.texts[j], kind: 'function', line }], exported, at, exported && !isDefault);
      j++;
    } else if (!isDefault) unsupported();
    if (this.typed && this.isPunct(j, '<')) j = this.skipAngles(j);
    if (!this.isPunct(j, '(')) unsupported();
    return this.bodyEnd(this.match[j] + 1);
  }

  private classDeclaration(i: number, line: number, exported: boolean, at: number, isDefault = false): number {
    let j = i;
    if (this.isName(j) && !this.isName(j, 'extends') && !this.isName(j, 'implements')) {
      this.declare([{ name: this.texts[j], kind: 'class', line }], exported, at, exported && !isDefault);
      j++;
    } else if (!isDefault) unsupported();
    return this.bodyEnd(j);
  }

  /** `interface X …{}`, `enum X {}`, `namespace X.Y {}`: the name at `i`. */
  private namedBody(i: number, kind: SymbolKind, line: number, exported: boolean, at: number, isDefault = false): number {
    this.declare([{ name: this.expectName(i), kind, line }], exported, at, exported && !isDefault);
    return this.bodyEnd(i + 1);
  }

  private variableDeclaration(i: number, kind: SymbolKind, exported: boolean, at: number): number {
    let j = i;
    const names: Declared[] = [];
    for (;;) {
      const line = this.lines[j];
      if (this.isName(j)) {
        names.push({ name: this.texts[j], kind, line });
        j++;
      } else if (this.isPunct(j, '{') || this.isPunct(j, '[')) {
        for (const name of this.patternNames(j)) names.push({ name, kind, line });
        j = this.match[j] + 1;
      } else unsupported();
      if (this.typed && this.isPunct(j, '!')) j++;
      if (this.typed && this.isPunct(j, ':')) j = this.skipType(j + 1);
      j = this.isPunct(j, '=') ? this.initializerEnd(j) : j;
      if (this.isPunct(j, ',')) {
        j++;
        continue;
      }
      if (j < this.n && !this.isPunct(j, ';') && !this.asiBefore(j) && !this.isPunct(j, '}')) unsupported();
      break;
    }
    this.declare(names, exported, at);
    return this.semicolon(j);
  }

  /** Index after a type annotation starting at `i`: at a `=`, `,` or `;` outside `<…>`, a closer, or a statement end. */
  private skipType(i: number): number {
    let angles = 0;
    for (let j = i; j < this.n; j++) {
      if (j > i && angles === 0 && this.asiBefore(j)) return j;
      if (this.kinds[j] !== Tok.Punct) continue;
      const t = this.texts[j];
      if (t === '<') angles++;
      else if (t === '>') {
        if (angles > 0) angles--;
      } else if (isOpener(t)) j = this.match[j];
      else if (t === ')' || t === ']' || t === '}') return j;
      else if (angles === 0 && (t === '=' || t === ',' || t === ';')) return j;
    }
    return this.n;
  }

  /**
   * End of the initializer that starts at `i` (its `=`): at a `,` that separates declarators, a `;` or a statement end.
   * In TypeScript a `,` inside type arguments or parameters (`new Map<K, V>()`, `<A, B>(…) =>`) separates nothing:
   * it counts `<` and `>` (`>=` aside) and leaves to babel what does not balance.
   */
  private initializerEnd(i: number): number {
    let from = i;
    for (;;) {
      const end = this.statementEnd(from, true);
      if (!this.typed || !this.isPunct(end, ',')) {
        if (this.typed && this.angleBalance(i, end) !== 0 && this.isPunct(end, ',')) unsupported();
        return end;
      }
      const balance = this.angleBalance(i, end);
      if (balance === 0) return end;
      if (balance < 0) unsupported();
      from = end + 1;
    }
  }

  /** `<` minus `>` between `from` and `to` at the top bracket level of `from`; `>=` and `=>` are not angles. */
  private angleBalance(from: number, to: number): number {
    let balance = 0;
    for (let k = from; k < to; k++) {
      if (this.kinds[k] !== Tok.Punct) continue;
      const t = this.texts[k];
      if (isOpener(t)) k = this.match[k];
      else if (t === '<') balance++;
      else if (t === '>' && !(this.isPunct(k + 1, '=') && this.ends[k] === this.starts[k + 1])) {
        balance--;
        if (balance < 0) return balance;
      }
    }
    return balance;
  }

  /** Names bound by the destructuring pattern whose bracket is at `i` (patternNames of ast-utils). */
  private patternNames(i: number, into: string[] = []): string[] {
    const object = this.texts[i] === '{';
    const close = this.match[i];
    let j = i + 1;
    while (j < close) {
      if (this.isPunct(j, ',')) {
        j++;
        continue;
      }
      let target = j;
      if (this.isPunct(j, '...')) target = j + 1;
      else if (object) {
        // key: name, string, number or [computed], then `: pattern`, or a shorthand name
        let k = j;
        if (this.isPunct(k, '[')) k = this.match[k] + 1;
        else if (this.kinds[k] === Tok.Name || this.kinds[k] === Tok.String || this.kinds[k] === Tok.Number) k++;
        else unsupported();
        if (this.isPunct(k, ':')) target = k + 1;
        else if (this.kinds[j] !== Tok.Name) unsupported();
      }
      if (this.isName(target)) {
        into.push(this.texts[target]);
        j = target + 1;
      } else if (this.isPunct(target, '{') || this.isPunct(target, '[')) {
        this.patternNames(target, into);
        j = this.match[target] + 1;
      } else unsupported();
      // a default value, up to the next element
      j = this.nextComma(j, close);
    }
    return into;
  }

  // ------------------------------------------------------------ import statements

  private importStatement(i: number): number {
    const line = this.lines[i];
    let j = i + 1;
    if (this.kinds[j] === Tok.String) {
      this.esm = true;
      this.addImport(i, { specifier: this.stringAt(j), kind: 'import', names: [], line });
      return this.afterSource(j + 1);
    }
    let typeOnly = false;
    if (this.isName(j, 'type') && !this.isPunct(j + 1, ',') && !this.isName(j + 1, 'from') && !this.isPunct(j + 1, '=')) {
      if (!this.typed) unsupported();
      typeOnly = true;
      j++;
    }
    if (this.isName(j, 'typeof')) unsupported();
    // import x = require('x') / import x = A.B
    if (this.isName(j) && this.isPunct(j + 1, '=')) {
      if (!this.typed) unsupported();
      return this.importEquals(i, j, typeOnly, false);
    }
    this.esm = true;
    const names: string[] = [];
    const locals: { local: string; imported: string; typeOnly: boolean; named?: boolean }[] = [];
    if (this.isName(j) && !this.isName(j, 'from')) {
      locals.push({ local: this.texts[j], imported: 'default', typeOnly });
      j++;
      if (this.isPunct(j, ',')) j++;
    } else if (this.isName(j, 'from') && (this.isName(j + 1, 'from') || this.isPunct(j + 1, ','))) {
      locals.push({ local: 'from', imported: 'default', typeOnly });
      j++;
      if (this.isPunct(j, ',')) j++;
    }
    if (this.isPunct(j, '*')) {
      if (!this.isName(j + 1, 'as')) unsupported();
      locals.push({ local: this.expectName(j + 2), imported: '*', typeOnly });
      j += 3;
    } else if (this.isPunct(j, '{')) {
      const close = this.match[j];
      for (const spec of this.specifiers(j + 1, close)) {
        // `import { "a" }` needs an `as`
        if (!spec.localIsName && !spec.hasAs) unsupported();
        locals.push({ local: spec.exported ?? spec.local, imported: spec.local, typeOnly: typeOnly || spec.typeOnly, named: spec.typeOnly });
      }
      j = close + 1;
    }
    if (!this.isName(j, 'from') || this.kinds[j + 1] !== Tok.String) unsupported();
    const specifier = this.stringAt(j + 1);
    for (const l of locals) {
      if (RESERVED.has(l.local) || l.local === 'eval' || l.local === 'arguments') unsupported();
      names.push(l.imported);
      this.bindings.set(l.local, { specifier, imported: l.imported, typeOnly: l.typeOnly });
    }
    // isTypeOnlyImport: `import type`, or every specifier a named one marked `type`
    const kind = typeOnly || (locals.length > 0 && locals.every((l) => l.named === true)) ? 'type-import' : 'import';
    this.addImport(i, { specifier, kind, names, line });
    return this.afterSource(j + 2);
  }

  /** `import x = require('x')` (`export import …` when `exported`): `j` is the name. */
  private importEquals(at: number, j: number, typeOnly: boolean, exported: boolean): number {
    const name = this.texts[j];
    const line = this.lines[at];
    if (exported) this.addExport(at, name, 'variable');
    if (this.isName(j + 2, 'require') && this.isPunct(j + 3, '(') && this.kinds[j + 4] === Tok.String && this.isPunct(j + 5, ')')) {
      const specifier = this.stringAt(j + 4);
      this.externalReferences.add(j + 2); // not a require() call to babel
      this.bindings.set(name, { specifier, imported: '*', typeOnly });
      if (!typeOnly) this.cjs = true;
      this.addImport(at, { specifier, kind: typeOnly ? 'type-import' : 'require', names: ['*'], line });
      return this.semicolon(this.statementEnd(j + 6, true));
    }
    // `import A = B.C`: a namespace alias
    let k = j + 2;
    if (!this.isName(k)) unsupported();
    k++;
    while (this.isPunct(k, '.') && this.isName(k + 1)) k += 2;
    return this.statementEnd(k);
  }

  /** After a module specifier: import attributes (`with {…}`, `assert {…}`) and the `;`. */
  private afterSource(i: number): number {
    let j = i;
    if ((this.isName(j, 'with') || (this.isName(j, 'assert') && this.newline[j] === 0)) && this.isPunct(j + 1, '{')) j = this.match[j + 1] + 1;
    if (j < this.n && !this.isPunct(j, ';') && !this.asiBefore(j)) unsupported();
    return this.semicolon(j);
  }

  /** The specifiers of `{ a, b as c, type d, "e" as f }` between `from` and `to`. */
  private specifiers(from: number, to: number): { local: string; exported: string | null; typeOnly: boolean; localIsName: boolean; hasAs: boolean }[] {
    const out: { local: string; exported: string | null; typeOnly: boolean; localIsName: boolean; hasAs: boolean }[] = [];
    let j = from;
    while (j < to) {
      let typeOnly = false;
      if (this.isName(j, 'type') && (this.kinds[j + 1] === Tok.Name || this.kinds[j + 1] === Tok.String) && j + 1 < to) {
        if (this.isName(j + 1, 'as')) unsupported();
        if (!this.typed) unsupported();
        typeOnly = true;
        j++;
      }
      const localIsName = this.kinds[j] === Tok.Name;
      if (!localIsName && this.kinds[j] !== Tok.String) unsupported();
      const local = localIsName ? this.texts[j] : this.stringAt(j);
      j++;
      let exported: string | null = local;
      let hasAs = false;
      if (this.isName(j, 'as')) {
        hasAs = true;
        if (this.kinds[j + 1] === Tok.Name) exported = this.texts[j + 1];
        else if (this.kinds[j + 1] === Tok.String) exported = this.stringAt(j + 1);
        else unsupported();
        j += 2;
      }
      out.push({ local, exported, typeOnly, localIsName, hasAs });
      if (j < to) {
        if (!this.isPunct(j, ',')) unsupported();
        j++;
      }
    }
    return out;
  }

  // ------------------------------------------------------------ export statements

  private exportStatement(i: number): number {
    const line = this.lines[i];
    let j = i + 1;
    if (this.isPunct(j, '=')) {
      // TS `export = x`
      if (!this.typed) unsupported();
      this.cjs = true;
      const end = this.statementEnd(j + 1);
      if (this.isName(j + 1) && this.exprEndsAt(j + 2)) this.exportedLocals.add(this.texts[j + 1]);
      this.addExport(i, 'export=', 'cjs');
      return end;
    }
    if (this.isName(j, 'as') && this.isName(j + 1, 'namespace')) return this.statementEnd(j);
    if (this.isName(j, 'import')) {
      if (!this.typed || !this.isName(j + 1) || !this.isPunct(j + 2, '=')) unsupported();
      return this.importEquals(i, j + 1, false, true);
    }
    this.esm = true;
    let typeOnly = false;
    if (this.isName(j, 'type') && (this.isPunct(j + 1, '{') || this.isPunct(j + 1, '*'))) {
      typeOnly = true;
      j++;
    }
    if (this.isPunct(j, '*')) {
      let exportedAs: string | null = null;
      let k = j + 1;
      if (this.isName(k, 'as')) {
        exportedAs = this.expectName(k + 1);
        k += 2;
      }
      if (!this.isName(k, 'from') || this.kinds[k + 1] !== Tok.String) unsupported();
      const specifier = this.stringAt(k + 1);
      const kind = typeOnly ? 'type-import' : 'reexport';
      if (exportedAs === null) {
        this.addImport(i, { specifier, kind, names: ['*'], line, reexports: [{ imported: '*', exported: '*' }] });
      } else {
        this.addImport(i, { specifier, kind, names: ['*'], line, reexports: [{ imported: '*', exported: exportedAs }] });
        this.esExport(exportedAs, false);
        this.addExport(i, exportedAs, 'reexport');
      }
      return this.afterSource(k + 2);
    }
    if (this.isPunct(j, '{')) return this.exportList(i, j, typeOnly);
    if (this.isName(j, 'default')) return this.exportDefault(i, j + 1);
    if (!this.isName(j)) unsupported();
    const end = this.declaration(j, true, i);
    if (end === null) unsupported();
    return end;
  }

  /** `export {…}` and `export {…} from 'x'` (`{` at `j`). */
  private exportList(i: number, j: number, typeOnly: boolean): number {
    const line = this.lines[i];
    const close = this.match[j];
    const specs = this.specifiers(j + 1, close);
    if (this.isName(close + 1, 'from')) {
      if (this.kinds[close + 2] !== Tok.String) unsupported();
      const specifier = this.stringAt(close + 2);
      if (specs.length === 0) {
        this.addImport(i, { specifier, kind: 'import', names: [], line });
      } else {
        const reexports: ReexportBinding[] = specs.map((s) => ({ imported: s.local, exported: s.exported ?? s.local }));
        const allTyped = typeOnly || specs.every((s) => s.typeOnly);
        this.addImport(i, { specifier, kind: allTyped ? 'type-import' : 'reexport', names: reexports.map((r) => r.imported), line, reexports });
        for (const r of reexports) {
          this.esExport(r.exported, false);
          this.addExport(i, r.exported, 'reexport');
        }
      }
      return this.afterSource(close + 3);
    }
    const specifiers: LocalExport['specifiers'] = [];
    for (const s of specs) {
      if (!s.localIsName) unsupported();
      this.esExport(s.exported ?? s.local, false);
      specifiers.push({ local: s.local, exported: s.exported ?? s.local, typeOnly: s.typeOnly });
    }
    this.localExports.push({ start: this.starts[i], line, typeOnly, specifiers });
    const end = close + 1;
    if (end < this.n && !this.isPunct(end, ';') && !this.asiBefore(end)) unsupported();
    return this.semicolon(end);
  }

  /** `export default …` (`j` after `default`). */
  private exportDefault(i: number, j: number): number {
    this.esExport('default', false);
    this.addExport(i, 'default', 'default');
    const line = this.lines[j];
    const word = this.isName(j) ? this.texts[j] : '';
    if (word === 'function') return this.functionDeclaration(j, line, true, i, true);
    if (word === 'async' && this.isName(j + 1, 'function') && this.newline[j + 1] === 0) return this.functionDeclaration(j + 1, line, true, i, true);
    if (word === 'class') return this.classDeclaration(j + 1, line, true, i, true);
    if (this.typed && word === 'abstract' && this.isName(j + 1, 'class')) return this.classDeclaration(j + 2, line, true, i, true);
    if (this.typed && word === 'interface' && this.isName(j + 1)) return this.namedBody(j + 1, 'interface', line, true, i, true);
    // `export default (a)` is the identifier a to babel
    if (this.isPunct(j, '(') && this.isName(j + 1) && this.match[j] === j + 2) unsupported();
    if (this.isName(j) && this.exprEndsAt(j + 1)) {
      if (RESERVED.has(word) && word !== 'this' && word !== 'null' && word !== 'true' && word !== 'false') unsupported();
      if (word !== 'this' && word !== 'null' && word !== 'true' && word !== 'false') {
        this.exportedLocals.add(word);
        this.defaultLocals.push({ start: this.starts[i], line: this.lines[i], name: word });
      }
    }
    return this.statementEnd(j);
  }

  /** The expression that ended just before `i` is complete: a `;`, a closer, a `,`, the end, or a line break. */
  private exprEndsAt(i: number): boolean {
    if (i >= this.n) return true;
    if (this.kinds[i] === Tok.Punct) {
      const t = this.texts[i];
      if (t === ';' || t === ')' || t === ']' || t === '}' || t === ',') return true;
    }
    return this.asiBefore(i);
  }

  // ------------------------------------------------------------ facts anywhere in the code

  private scanDeep(): void {
    for (let i = 0; i < this.n; i++) {
      if (this.kinds[i] !== Tok.Name) continue;
      const word = this.texts[i];
      const member = i > 0 && this.kinds[i - 1] === Tok.Punct && (this.texts[i - 1] === '.' || this.texts[i - 1] === '?.');
      if (member) continue;
      switch (word) {
        case 'require':
          this.requireCall(i);
          break;
        case 'import':
          this.importUse(i);
          break;
        case 'export':
          if (this.depth[i] > 0) this.nestedExport(i);
          break;
        case 'exports':
          this.exportsUse(i, i + 1);
          break;
        case 'module':
          if (this.isPunct(i + 1, '[')) unsupported();
          if (this.isPunct(i + 1, '.') && this.isName(i + 2, 'exports')) this.exportsUse(i, i + 3, true);
          break;
        case 'Object':
          if (this.isPunct(i + 1, '[')) unsupported();
          if (this.isPunct(i + 1, '.') && this.isName(i + 2, 'defineProperty') && this.isPunct(i + 3, '(')) this.defineProperty(i, i + 4);
          break;
        default:
          break;
      }
    }
  }

  /** `require('x')` at `i`. */
  private requireCall(i: number): void {
    if (this.externalReferences.has(i)) return;
    if (this.isPunct(i + 1, '<')) unsupported();
    if (!this.isPunct(i + 1, '(')) return;
    if (i > 0 && this.isName(i - 1, 'new')) return;
    const close = this.match[i + 1];
    let arg = i + 2;
    // `require(/** @type {string} */ ("x"))`: the parentheses are no node to babel
    if (this.isPunct(arg, '(')) {
      if (this.match[arg] !== arg + 2 || !(this.match[arg] === close - 1 || (this.match[arg] === close - 2 && this.isPunct(close - 1, ',')))) unsupported();
      arg++;
      const specifier = this.staticString(arg);
      if (specifier === null) return;
      this.cjs = true;
      this.addImport(i, { specifier, kind: 'require', names: this.requiredNames(i, close), line: this.lines[i] });
      return;
    }
    const specifier = this.staticString(arg);
    // one argument (a trailing comma allowed), a static string: anything else is not an import to babel either
    const oneArgument = close === arg + 1 || (close === arg + 2 && this.isPunct(arg + 1, ','));
    if (specifier === null || !oneArgument) return;
    this.cjs = true;
    this.addImport(i, { specifier, kind: 'require', names: this.requiredNames(i, close), line: this.lines[i] });
  }

  /** requiredNames of extract-imports.ts, from the tokens around the call `require(…)` at `start`…`end`. */
  private requiredNames(start: number, end: number): string[] {
    // parentheses around the call are no node to babel: `(require('x')).a`, `const { a } = (require('x'))`
    let i = start;
    let close = end;
    while (this.isPunct(i - 1, '(') && this.match[i - 1] === close + 1 && this.groupingParen(i - 1)) {
      i--;
      close++;
    }
    const after = close + 1;
    if (this.isPunct(after, '.') || this.isPunct(after, '?.')) return this.isName(after + 1) ? [this.texts[after + 1]] : unsupported();
    if (this.isPunct(after, '[')) {
      const key = this.staticString(after + 1);
      return key !== null && this.match[after] === after + 2 ? [key] : ['*'];
    }
    if (!this.isPunct(i - 1, '=') || i < 2) return ['*'];
    if (!this.exprEndsAt(after)) return ['*'];
    const left = i - 2;
    if (this.kinds[left] === Tok.Punct && (this.texts[left] === '+' || this.texts[left] === '-' || this.texts[left] === '*' || this.texts[left] === '/' || this.texts[left] === '%' || this.texts[left] === '&' || this.texts[left] === '|' || this.texts[left] === '^' || this.texts[left] === '?' || this.texts[left] === '<' || this.texts[left] === '>' || this.texts[left] === '!')) {
      return ['*']; // `+=` … are assignments too, but not to a pattern
    }
    if (!this.isPunct(left, '}')) {
      if (this.typed && this.annotatedDeclarator(left)) unsupported();
      return ['*'];
    }
    const open = this.match[left];
    const before = open - 1;
    // a declarator (`const {a} = require()`) or an assignment (`({a} = require())`), not a default value
    if (this.isName(before, 'const') || this.isName(before, 'let') || this.isName(before, 'var')) return this.patternKeys(open);
    if (this.isPunct(before, '(')) {
      const afterParen = this.match[before] + 1;
      if (this.isPunct(afterParen, '{') || this.isPunct(afterParen, '=>') || this.isPunct(afterParen, ':')) return ['*'];
      return this.patternKeys(open);
    }
    return unsupported();
  }

  /** The `(` at `i` groups an expression (it is not the argument list of a call). */
  private groupingParen(i: number): boolean {
    const before = i - 1;
    if (before < 0) return true;
    if (this.kinds[before] === Tok.Punct) return !(this.texts[before] === ')' || this.texts[before] === ']' || this.texts[before] === '}');
    return this.kinds[before] === Tok.Name && BEFORE_EXPRESSION.has(this.texts[before]);
  }

  /** `const x: T = require(…)`: a type annotation before the `=` at `left`. */
  private annotatedDeclarator(left: number): boolean {
    for (let k = left; k >= 0 && this.depth[k] >= this.depth[left]; k--) {
      if (this.kinds[k] === Tok.Punct) {
        const t = this.texts[k];
        if (t === ':') return true;
        if (t === ';' || t === ',' || t === '{' || t === '(' || t === '=') return false;
        if (t === '}' || t === ')' || t === ']') k = this.match[k];
      } else if (this.kinds[k] === Tok.Name && (this.texts[k] === 'const' || this.texts[k] === 'let' || this.texts[k] === 'var')) return false;
    }
    return false;
  }

  /** Keys of the object pattern at `open`; `*` when a rest element or a computed key takes anything. */
  private patternKeys(open: number): string[] {
    const close = this.match[open];
    const keys: string[] = [];
    let j = open + 1;
    while (j < close) {
      if (this.isPunct(j, '...')) return ['*'];
      if (this.isPunct(j, '[')) {
        const key = this.staticString(j + 1);
        if (key === null || this.match[j] !== j + 2) return ['*'];
        keys.push(key);
      } else if (this.kinds[j] === Tok.Name) keys.push(this.texts[j]);
      else if (this.kinds[j] === Tok.String) keys.push(this.stringAt(j));
      else return ['*'];
      j = this.nextComma(j, close);
      j++;
    }
    return keys;
  }

  /** `import(…)`, `import.meta`, or an import declaration inside a block. */
  private importUse(i: number): void {
    if (this.isPunct(i + 1, '.')) {
      if (this.isName(i + 2, 'meta')) this.esm = true;
      return;
    }
    if (!this.isPunct(i + 1, '(')) {
      // `{ import: … }` is a property; anything else inside a block is a declaration in a `declare module` block
      if (this.depth[i] > 0 && !this.isPunct(i + 1, ':')) unsupported();
      return;
    }
    // in a .ts file `import('x')` is a value or a type (`import('x').T`): only after these words is it surely a value
    if (this.dialect === 'ts' && !(this.isName(i - 1, 'await') || this.isName(i - 1, 'return') || this.isName(i - 1, 'void'))) unsupported();
    const arg = i + 2;
    if (this.isPunct(arg, '(')) unsupported();
    const specifier = this.staticString(arg);
    if (specifier === null) return;
    if (this.dialect === 'dts') {
      if (!this.isPunct(arg + 1, ')')) unsupported();
      const after = arg + 2;
      const names = this.isPunct(after, '.') && this.isName(after + 1) ? [this.texts[after + 1]] : ['*'];
      this.addImport(i, { specifier, kind: 'type-import', names, line: this.lines[i] });
      return;
    }
    this.addImport(i, { specifier, kind: 'dynamic-import', names: ['*'], line: this.lines[i] });
  }

  /** `export` inside a block: only `export … from` is a fact there (babel keeps it), so leave those to babel. */
  private nestedExport(i: number): void {
    let j = i + 1;
    if (this.isName(j, 'type')) j++;
    if (this.isPunct(j, '*')) unsupported();
    if (this.isPunct(j, '{') && this.isName(this.match[j] + 1, 'from')) unsupported();
  }

  /**
   * `exports` (or `module.exports`, starting at `at`) with the next token at `j`: `module.exports = …`,
   * `exports.a = …`, `exports['a'] = …`.
   */
  private exportsUse(at: number, j: number, isModuleExports = false): void {
    if (isModuleExports && this.isPunct(j, '=')) {
      this.cjs = true;
      const right = j + 1;
      this.noParenthesizedName(right);
      if (this.isName(right) && this.exprEndsAt(right + 1)) this.exportedLocals.add(this.texts[right]);
      if (this.isPunct(right, '{')) this.objectKeys(right);
      this.addExport(at, 'default', 'cjs');
      return;
    }
    let name: string | null;
    let eq: number;
    if (this.isPunct(j, '.') && this.isName(j + 1)) {
      name = this.texts[j + 1];
      eq = j + 2;
    } else if (this.isPunct(j, '[')) {
      name = this.staticString(j + 1);
      if (this.match[j] !== j + 2) name = null;
      eq = this.match[j] + 1;
    } else return;
    if (!this.isPunct(eq, '=')) return;
    if (name === null) return;
    // a compound assignment comes as two tokens (`+` `=`): `.a +` is not `.a =`
    this.cjs = true;
    const right = eq + 1;
    this.noParenthesizedName(right);
    if (this.isName(right) && this.exprEndsAt(right + 1)) this.exportedLocals.add(this.texts[right]);
    if (name !== '__esModule') this.addExport(at, name, 'cjs', this.lines[at], this.voidPlaceholder(right));
  }

  /** `(a)` is the identifier `a` to babel: left to babel. */
  private noParenthesizedName(i: number): void {
    if (this.isPunct(i, '(') && this.isName(i + 1) && this.match[i] === i + 2) unsupported();
  }

  /** `exports.a = exports.b = void 0`: after the assignment chain from `i`, a `void`. */
  private voidPlaceholder(i: number): boolean {
    let j = i;
    for (;;) {
      // a simple target: name (.name | [string])*, then `=`
      let k = j;
      if (!this.isName(k)) break;
      k++;
      while (k < this.n) {
        if (this.isPunct(k, '.') && this.isName(k + 1)) k += 2;
        else if (this.isPunct(k, '[') && this.staticString(k + 1) !== null && this.match[k] === k + 2) k += 3;
        else break;
      }
      if (!this.isPunct(k, '=')) break;
      j = k + 1;
    }
    return this.isName(j, 'void');
  }

  /** `module.exports = { a, b: c, d() {} }`: each key, and the names its plain values refer to. */
  private objectKeys(open: number): void {
    const close = this.match[open];
    let j = open + 1;
    while (j < close) {
      const start = j;
      let keyAt = j;
      if (this.isPunct(j, '...')) keyAt = -1;
      else if ((this.isName(j, 'get') || this.isName(j, 'set') || this.isName(j, 'async')) && !this.isPunct(j + 1, ',') && !this.isPunct(j + 1, ':') && !this.isPunct(j + 1, '(') && j + 1 < close) {
        keyAt = j + 1;
        if (this.isPunct(keyAt, '*')) keyAt++;
      } else if (this.isPunct(j, '*')) keyAt = j + 1;
      if (keyAt >= 0) {
        let key: string | null = null;
        if (this.kinds[keyAt] === Tok.Name) key = this.texts[keyAt];
        else if (this.kinds[keyAt] === Tok.String) key = this.stringAt(keyAt);
        else if (!this.isPunct(keyAt, '[') && this.kinds[keyAt] !== Tok.Number) unsupported();
        if (key !== null) {
          const after = keyAt + 1;
          if (keyAt === start && (this.isPunct(after, ',') || after === close)) {
            if (this.kinds[keyAt] !== Tok.Name) unsupported();
            this.exportedLocals.add(key);
          } else if (keyAt === start && this.isPunct(after, ':') && this.isName(after + 1) && (this.isPunct(after + 2, ',') || after + 2 === close)) {
            this.exportedLocals.add(this.texts[after + 1]);
          } else if (keyAt === start && this.isPunct(after, '=')) unsupported();
          this.addExport(start, key, 'cjs');
        }
      }
      j = this.nextComma(j, close);
      j++;
    }
  }

  /** `Object.defineProperty(exports, 'a', …)` (`Object` at `at`, first argument at `j`). */
  private defineProperty(at: number, j: number): void {
    let k = j;
    if (this.isName(k, 'exports')) k++;
    else if (this.isName(k, 'module') && this.isPunct(k + 1, '.') && this.isName(k + 2, 'exports')) k += 3;
    else return;
    if (!this.isPunct(k, ',') || this.kinds[k + 1] !== Tok.String) return;
    this.cjs = true;
    const key = this.stringAt(k + 1);
    if (key !== '__esModule') this.addExport(at, key, 'cjs');
  }

  // ------------------------------------------------------------ the result

  private result(directives: number[], bodyStart: number | null): ParsedFile {
    // symbols, de-duplicated by kind and name; a name declared twice is left to babel unless TypeScript merges it
    const symbols: SymbolRecord[] = [];
    // by name: the kinds it is declared as (once per declaration), and its records (one per kind)
    const byName = new Map<string, { kinds: SymbolKind[]; records: SymbolRecord[] }>();
    for (const { declared, exported } of this.declared) {
      let named = byName.get(declared.name);
      if (named === undefined) byName.set(declared.name, (named = { kinds: [], records: [] }));
      named.kinds.push(declared.kind);
      const previous = named.records.find((r) => r.kind === declared.kind);
      if (previous) {
        previous.exported ||= exported;
        continue;
      }
      const record: SymbolRecord = { name: declared.name, kind: declared.kind, line: declared.line, exported };
      named.records.push(record);
      symbols.push(record);
    }
    for (const { kinds } of byName.values()) {
      if (kinds.length < 2) continue;
      const values = kinds.filter((k) => k === 'const' || k === 'variable' || k === 'class').length;
      if (!this.typed || values > 1 || (values === 1 && kinds.some((k) => k === 'function' || k === 'enum'))) unsupported();
    }
    const localKinds = new Map<string, SymbolKind>();
    for (const s of symbols) if (!localKinds.has(s.name)) localKinds.set(s.name, s.kind);

    for (const group of this.localExports) this.finishLocalExports(group, localKinds);
    for (const d of this.defaultLocals) {
      const binding = this.bindings.get(d.name);
      if (!binding) continue;
      this.imports.push({
        start: d.start,
        record: {
          specifier: binding.specifier,
          kind: binding.typeOnly ? 'type-import' : 'reexport',
          names: [binding.imported],
          line: d.line,
          reexports: [{ imported: binding.imported, exported: 'default' }],
        },
      });
    }
    for (const symbol of symbols) if (this.exportedLocals.has(symbol.name)) symbol.exported = true;

    const file = this.fileForComments(directives, bodyStart);
    return {
      imports: [...tripleSlashReferences(file), ...this.imports.sort((a, b) => a.start - b.start).map((r) => r.record)],
      exports: orderExports(this.exports),
      symbols,
      docComment: leadingDocComment(file),
      moduleSystem: moduleSystem(this.esm, this.cjs),
      syntaxError: null,
    };
  }

  /** `export { a, b as c }` without `from`: the export records, and a re-export per imported module. */
  private finishLocalExports(group: LocalExport, localKinds: Map<string, SymbolKind>): void {
    const groups = new Map<string, { specifier: string; typeOnly: boolean; reexports: ReexportBinding[] }>();
    for (const s of group.specifiers) {
      this.exportedLocals.add(s.local);
      const binding = this.bindings.get(s.local);
      const kind: ExportKind = binding ? 'reexport' : (localKinds.get(s.local) ?? (group.typeOnly ? 'type' : 'variable'));
      this.exports.push({ start: group.start, record: { name: s.exported, kind, line: group.line }, weak: false });
      if (!binding) continue;
      const typeOnly = binding.typeOnly || group.typeOnly || s.typeOnly;
      const key = `${typeOnly ? 'type' : 'value'}\u0000${binding.specifier}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { specifier: binding.specifier, typeOnly, reexports: [] }));
      g.reexports.push({ imported: binding.imported, exported: s.exported });
    }
    for (const g of groups.values()) {
      this.imports.push({
        start: group.start,
        record: { specifier: g.specifier, kind: g.typeOnly ? 'type-import' : 'reexport', names: g.reexports.map((r) => r.imported), line: group.line, reexports: g.reexports },
      });
    }
  }

  /** What doc-comment.ts reads of a babel File: the comments and where the first statements start. */
  private fileForComments(directives: number[], bodyStart: number | null): File {
    const comments = [];
    const lines = new LineCounter(this.text);
    for (let k = 0; k < this.comments.length; k += 2) {
      const start = this.comments[k];
      const end = this.comments[k + 1];
      const startLine = lines.at(start);
      const line = lines.at(end);
      const block = this.text.charCodeAt(start + 1) === 42;
      comments.push({
        type: block ? 'CommentBlock' : 'CommentLine',
        value: this.text.slice(start + 2, block ? end - 2 : end),
        start,
        loc: { start: { line: startLine }, end: { line } },
      });
    }
    return {
      comments,
      program: { directives: directives.map((start) => ({ start })), body: bodyStart === null ? [] : [{ start: bodyStart }] },
    } as unknown as File;
  }
}
