/**
 * The facts of one C or C++ file. Every file is read by tree-sitter-cpp (the grammars hold no C grammar; C is read
 * through C++'s, which parses C's declarations and directives alike; a C file that uses a C++ keyword as a name, such
 * as `int new;`, loses that declaration only). No syntax error is reported for a C/C++ file: without the preprocessor
 * the tree stumbles on what macros make of a line, in code the compiler takes.
 *
 * Includes come from the directive lines themselves, as the preprocessor reads them (`includeDirectives`): a directive
 * is a line, wherever it sits (inside an initializer, a function, an `extern "C"` block), which the tree does not
 * always place. An include inside `#if`/`#ifdef`/`#else` is a `conditional-import` (an include guard around the whole
 * header is not a condition); one inside `#if 0` is dead text, never compiled: no edge. Declarations come from the
 * tree: top-level functions (definitions, and prototypes in headers), classes, structs, unions, enums, typedefs,
 * `using` aliases, namespaces and macros, walking into include guards and other `#if` blocks, `extern "C" { }` and
 * namespaces; a `static` function or variable is not exported. The doc comment is the file's first comment that is
 * not a licence (a Doxygen `@file` comment first).
 */
import type { ExportRecord, ImportKind, ImportRecord, ParsedFile, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
import { lineOf, type ParseInput } from '../types.js';

export const HEADER = /\.(h|hh|hpp|hxx|h\+\+|inl|ipp|tcc)$/i;

export interface IncludeDirective {
  /** `"a/b.h"` or `<a/b.h>` with its delimiters, or the macro text of a computed include */
  specifier: string;
  line: number;
  conditional: boolean;
}

interface Frame {
  /** this branch is `#if 0` text (or inside one) */
  dead: boolean;
  /** the `#ifndef X` of a candidate include guard */
  guard: string | null;
  /** the 0-based index of the frame's opening directive among all directives */
  opened: number;
}

/**
 * Every `#include`, `#include_next` and `#import` directive of a source text, as the preprocessor sees lines: comments
 * removed (block comments across lines, never inside a string or character literal), backslash-continued lines
 * joined.
 */
export function includeDirectives(source: string): IncludeDirective[] {
  const lines = logicalLines(source);
  const out: Array<IncludeDirective & { depth: number }> = [];
  const stack: Frame[] = [];
  /** the include guard: `#ifndef X` as the first directive with no code before it, `#define X` next */
  let guardFrame: Frame | null = null;
  let codeSeen = false;
  let directives = 0;
  let codeAfterGuard = false;
  let guardClosed = false;
  for (const { text, line } of lines) {
    const t = text.trim();
    if (!t) continue;
    if (!t.startsWith('#')) {
      if (guardClosed) codeAfterGuard = true;
      if (!stack.length) codeSeen = true;
      continue;
    }
    const m = /^#\s*([a-z_]+)\s*(.*)$/.exec(t);
    const index = directives++;
    if (!m) continue;
    const [, word, rest] = m;
    const top = stack[stack.length - 1];
    const dead = top?.dead ?? false;
    switch (word) {
      case 'if':
      case 'ifdef':
      case 'ifndef': {
        const frame: Frame = { dead: dead || (word === 'if' && /^(0|false)\s*$/.test(rest)), guard: null, opened: index };
        if (word === 'ifndef' && index === 0 && !codeSeen) {
          frame.guard = rest.split(/\s/)[0];
          guardFrame = frame;
        }
        stack.push(frame);
        break;
      }
      case 'elif':
      case 'elifdef':
      case 'elifndef':
      case 'else':
        if (top) {
          const parentDead = stack.length > 1 && stack[stack.length - 2].dead;
          top.dead = parentDead; // another branch: live unless its parent is dead (a `#if 0 … #else` branch is live)
          if (top === guardFrame) guardFrame = null; // a guard has no other branch
        }
        break;
      case 'endif': {
        const frame = stack.pop();
        if (frame && frame === guardFrame) guardClosed = true;
        break;
      }
      case 'define':
        if (guardFrame && index === guardFrame.opened + 1 && rest.split(/[\s(]/)[0] !== guardFrame.guard) guardFrame = null;
        if (!stack.length) codeSeen = true;
        break;
      case 'include':
      case 'include_next':
      case 'import': {
        if (guardFrame && index === guardFrame.opened + 1) guardFrame = null; // `#ifndef X` not followed by `#define X`
        if (!dead) out.push({ specifier: includeSpecifier(rest), line, conditional: false, depth: stack.length });
        if (!stack.length) codeSeen = true;
        break;
      }
      default:
        if (guardFrame && index === guardFrame.opened + 1) guardFrame = null;
        if (!stack.length) codeSeen = true;
        break;
    }
  }
  const guarded = guardFrame !== null && guardClosed && !codeAfterGuard;
  return out.map(({ depth, ...d }) => ({ ...d, conditional: depth > (guarded ? 1 : 0) }));
}

/** `"a.h"` / `<a.h>` as written (trailing text after it dropped), else the computed include's macro text. */
function includeSpecifier(rest: string): string {
  const m = /^("[^"]*"|<[^>]*>)/.exec(rest);
  return m ? m[1] : rest.trim();
}

/** The source's lines with comments blanked and continued lines joined (reported at their first line). */
function logicalLines(source: string): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let inBlock = false;
  let pending = '';
  let pendingLine = 0;
  const raw = source.split(/\r?\n/);
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i];
    // most lines hold no comment and no literal: taken as they are
    const plain = !inBlock && !line.includes('/') && !line.includes('"') && !line.includes("'");
    let text = plain ? line : '';
    let j = plain ? line.length : 0;
    while (j < line.length) {
      if (inBlock) {
        const end = line.indexOf('*/', j);
        if (end < 0) {
          j = line.length;
          break;
        }
        inBlock = false;
        j = end + 2;
        text += ' ';
        continue;
      }
      const c = line[j];
      if (c === '/' && line[j + 1] === '*') {
        inBlock = true;
        j += 2;
        continue;
      }
      if (c === '/' && line[j + 1] === '/') break;
      if (c === '"' || (c === "'" && !/[0-9a-fA-F]/.test(line[j - 1] ?? ''))) {
        // a literal: copied through to its closing quote on this line (an unclosed one ends the line)
        let k = j + 1;
        while (k < line.length && line[k] !== c) k += line[k] === '\\' ? 2 : 1;
        text += line.slice(j, k + 1);
        j = k + 1;
        continue;
      }
      text += c;
      j++;
    }
    if (!pending) pendingLine = i + 1;
    if (text.endsWith('\\') && !inBlock) {
      pending += `${text.slice(0, -1)} `;
      continue;
    }
    out.push({ text: pending + text, line: pendingLine });
    pending = '';
  }
  if (pending) out.push({ text: pending, line: pendingLine });
  return out;
}

const LICENCE = /copyright|licen[cs]e|SPDX-|permission is hereby granted|all rights reserved/i;

/** A comment's text without its delimiters and leading `*`/`//`, trimmed. */
function commentText(text: string): string {
  if (text.startsWith('//')) return text.replace(/^\/\/[/!]?\s?/, '');
  return text
    .replace(/^\/\*[*!]?/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\*+ ?/, '').trimEnd())
    .join('\n')
    .trim();
}

/** The file's leading comment: a Doxygen `@file` comment, else the first comment before any code that is not a licence. */
function docComment(children: TsNode[], source: string): string | null {
  const blocks: string[] = [];
  let current: string[] = [];
  let lastRow = -2;
  const flush = (): void => {
    if (current.length) blocks.push(current.join('\n').trim());
    current = [];
  };
  for (const c of children) {
    if (c.type !== 'comment') {
      // an include guard or a directive before the code: keep looking above the first declaration
      if (c.type === 'preproc_include' || c.type === 'preproc_def' || c.type === 'preproc_call') {
        flush();
        continue;
      }
      break;
    }
    // the file's own text (the grammar read it with declaration macros blanked, decl-macros.ts)
    const raw = source.slice(c.startIndex, c.endIndex);
    const text = commentText(raw);
    if (raw.startsWith('//') && c.startPosition.row === lastRow + 1) current.push(text);
    else {
      flush();
      current.push(text);
    }
    lastRow = c.endPosition.row;
  }
  flush();
  const file = blocks.find((b) => /(^|\s)[@\\]file\b/.test(b));
  const pick = file ?? blocks.find((b) => b && !LICENCE.test(b));
  if (!pick) return null;
  const doc = pick
    .split('\n')
    .filter((l) => !/^\s*[@\\](file|author|date|version|copyright)\b/.test(l) || /^\s*[@\\]file\s+\S+\s+\S/.test(l))
    .map((l) => l.replace(/^\s*[@\\](brief|file\s+\S+)\s*/, ''))
    .join('\n')
    .trim();
  return doc || null;
}

/** The name a declarator declares: `*f(int)` → `f`, `ns::C::m` stays qualified (an out-of-line member). */
function declaratorName(node: TsNode | null): { name: string; isFunction: boolean } | null {
  let n = node;
  let isFunction = false;
  while (n) {
    switch (n.type) {
      case 'identifier':
      case 'field_identifier':
      case 'type_identifier':
      case 'operator_name':
      case 'destructor_name':
        return { name: n.text, isFunction };
      case 'qualified_identifier':
        // `EXPORT_MACRO Type f()` reads as a qualified name with no `::` in it: the name is its last part
        if (!n.text.includes('::')) return { name: n.childForFieldName('name')?.text ?? n.text, isFunction };
        return { name: n.text.replace(/\s+/g, ''), isFunction };
      case 'function_declarator':
        isFunction = true;
        n = n.childForFieldName('declarator');
        break;
      case 'pointer_declarator':
      case 'reference_declarator':
      case 'array_declarator':
      case 'parenthesized_declarator':
      case 'attributed_declarator':
      case 'init_declarator':
        n = n.childForFieldName('declarator') ?? n.namedChildren.find((c) => c.type.endsWith('declarator') || c.type === 'identifier') ?? null;
        break;
      default:
        return null;
    }
  }
  return null;
}

const isStatic = (decl: TsNode): boolean => decl.namedChildren.some((c) => c.type === 'storage_class_specifier' && c.text === 'static');

export function parseCpp({ path, source, root }: ParseInput): ParsedFile {
  const imports: ImportRecord[] = includeDirectives(source).map((d) => ({
    specifier: d.specifier,
    kind: (d.conditional ? 'conditional-import' : 'include') satisfies ImportKind,
    names: ['*'],
    line: d.line,
  }));
  const header = HEADER.test(path);
  const symbols: SymbolRecord[] = [];
  const seen = new Set<string>();
  /** inside an anonymous namespace: internal linkage, nothing exported */
  let internal = false;
  const symbol = (name: string | undefined, kind: SymbolKind, at: TsNode, exported = true): void => {
    if (!name || seen.has(name)) return;
    seen.add(name);
    symbols.push({ name, kind, line: lineOf(at), exported: exported && !internal });
  };
  /** a struct/class/union/enum specifier with a body (a definition) or named by a typedef */
  const typeSpecifier = (spec: TsNode | null, at: TsNode): void => {
    if (!spec) return;
    const kind: SymbolKind | null =
      spec.type === 'class_specifier' ? 'class' : spec.type === 'struct_specifier' || spec.type === 'union_specifier' ? 'struct' : spec.type === 'enum_specifier' ? 'enum' : null;
    if (!kind || !spec.childForFieldName('body')) return;
    symbol(spec.childForFieldName('name')?.text, kind, at);
  };
  const visit = (nodes: TsNode[], template: TsNode | null): void => {
    for (const node of nodes) {
      const at = template ?? node;
      switch (node.type) {
        case 'preproc_ifdef': {
          // an include guard's `#define X` under `#ifndef X` names no part of the file's interface
          const guard = node.childForFieldName('name')?.text;
          visit(
            node.namedChildren.filter((c) => !(c.type === 'preproc_def' && !c.childForFieldName('value') && c.childForFieldName('name')?.text === guard)),
            null,
          );
          break;
        }
        case 'preproc_if':
        case 'preproc_else':
        case 'preproc_elif':
        case 'preproc_elifdef':
        case 'linkage_specification':
        case 'declaration_list':
          visit(node.namedChildren, null);
          break;
        case 'namespace_definition': {
          const name = node.childForFieldName('name')?.text;
          if (name) symbol(name, 'namespace', node);
          const outer = internal;
          internal ||= !name;
          visit(node.childForFieldName('body')?.namedChildren ?? [], null);
          internal = outer;
          break;
        }
        case 'template_declaration':
          visit(node.namedChildren.filter((c) => c.type !== 'template_parameter_list'), node);
          break;
        case 'preproc_def':
        case 'preproc_function_def':
          symbol(node.childForFieldName('name')?.text, 'macro', node);
          break;
        case 'function_definition': {
          // `class EXPORT_MACRO Name { … };` reads as a function `Name` returning `class EXPORT_MACRO`, with a body
          const type = node.childForFieldName('type');
          const declarator = node.childForFieldName('declarator');
          if (type && /^(class|struct|union)_specifier$/.test(type.type) && !type.childForFieldName('body') && declarator?.type === 'identifier') {
            symbol(declarator.text, type.type === 'class_specifier' ? 'class' : 'struct', at);
            break;
          }
          const d = declaratorName(declarator);
          if (d) symbol(d.name, 'function', at, !isStatic(node));
          break;
        }
        case 'declaration': {
          typeSpecifier(node.childForFieldName('type'), at);
          for (const decl of node.childrenForFieldName('declarator')) {
            const d = declaratorName(decl);
            if (!d) continue;
            // a prototype names a function of the header's interface; a variable definition is a top-level symbol
            if (d.isFunction) {
              if (header) symbol(d.name, 'function', at, !isStatic(node));
            } else symbol(d.name, 'variable', at, !isStatic(node));
          }
          break;
        }
        case 'type_definition': {
          typeSpecifier(node.childForFieldName('type'), at);
          for (const decl of node.childrenForFieldName('declarator')) symbol(declaratorName(decl)?.name, 'type', at);
          break;
        }
        case 'alias_declaration':
          symbol(node.childForFieldName('name')?.text, 'type', at);
          break;
        case 'class_specifier':
        case 'struct_specifier':
        case 'union_specifier':
        case 'enum_specifier':
          typeSpecifier(node, at);
          break;
        default:
          break;
      }
    }
  };
  const children = root.namedChildren;
  visit(children, null);
  const exports: ExportRecord[] = symbols.filter((s) => s.exported).map((s) => ({ name: s.name, kind: s.kind, line: s.line }));
    // no syntax error is reported: without the preprocessor, tree-sitter stumbles on what macros make of a line
  // (`API_EXPORT int f(void);`, `int x GUARDED_BY(mu);`) in code the compiler takes; the compiler is the judge
  return { imports, exports, symbols, docComment: docComment(children, source), moduleSystem: 'none', syntaxError: null };
}
