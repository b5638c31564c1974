/**
 * The facts of one Rust file from its tree-sitter tree.
 *
 * Imports, each a path the resolver (resolve.ts) follows by the language's rules:
 * - `mod x;` (kind `mod`, re-exporting the module as `x`, see modImport): specifier `x`, or `a::b::x` inside inline `mod a { mod b { … } }` blocks, with
 *   `=path` appended for a `#[path = "path"]` attribute (`x=sys/unix.rs`); also the `mod x;` items inside macro
 *   invocations at item level (`cfg_if! { … }`, `cfg_rt! { … }`), which expand to them;
 * - `use` (kind `import`, `reexport` for `pub use` / `pub(…) use`, with the re-exports' bindings): one entry per leaf
 *   of a use tree (`use a::{b, c::d}` → `a::b`, `a::c::d`), names the last segment (`*` for a glob, `use a::{self}`).
 *   Paths are made relative to the file's own module: `self::`/`super::` inside inline modules are rewritten
 *   (`mod tests { use super::*; }` → `self::*`), a first segment that names an item or module declared in the same
 *   scope becomes `self::…`, one bound by another `use` of the scope is replaced by that `use`'s path, and one bound by
 *   `extern crate x as y` by the crate's name; also the `use` declarations written in an item-level macro invocation's
 *   tokens (usesInTokens), as for `mod x;`;
 * - `extern crate x` (kind `import`, names `*`, specifier `::x`: a crate, and paths through it are `::x::…`);
 * - `include!("x.rs")` at item level (kind `include`).
 * Exports: `pub` items (fn, struct, enum, union, trait, type, const, static, mod) and `#[macro_export]` macros, with
 * kind and line, plus the names a top-level `pub use` gives (kind `reexport`). The doc comment is the file's `//!`
 * (or `/*! … *\/`) text, else the `///` doc of its first public item.
 */
import type { ExportRecord, ImportRecord, ParsedFile, ReexportBinding, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
import { firstSyntaxError, lineOf, type ParseInput } from '../types.js';

const ITEM_KINDS: Record<string, SymbolKind> = {
  function_item: 'function',
  function_signature_item: 'function',
  struct_item: 'struct',
  union_item: 'struct',
  enum_item: 'enum',
  trait_item: 'trait',
  type_item: 'type',
  const_item: 'const',
  static_item: 'variable',
  mod_item: 'module',
  macro_definition: 'macro',
};

/** One leaf of a use tree. */
interface UseLeaf {
  segments: string[];
  glob: boolean;
  alias: string | null;
  line: number;
  reexport: boolean;
  /** `pub use` (not `pub(crate)`): a top-level one's names are exports */
  exported: boolean;
}

/** What a use tree says of one leaf, before the declaration's line and visibility. */
type LeafPath = Omit<UseLeaf, 'line' | 'reexport' | 'exported'>;

/** A scope that declares names: the file, an inline module, a function body. */
interface Scope {
  /** inline module names from the file's own module to this scope */
  chain: string[];
  /** names declared by items of the scope (modules, types, functions …) */
  items: Set<string>;
  /** names bound by `use` in the scope → their (rewritten) path */
  uses: Map<string, string[]>;
  parent: Scope | null;
}

const segmentsOf = (text: string): string[] => text.replace(/\s+/g, '').split('::').map(unraw);
/** `r#type` → `type` (a raw identifier names the same module or item) */
const unraw = (name: string): string => (name.startsWith('r#') ? name.slice(2) : name);

/** The leaves of a use tree under `prefix`. */
function useLeaves(node: TsNode, prefix: string[], out: LeafPath[]): void {
  switch (node.type) {
    case 'scoped_use_list': {
      const path = node.childForFieldName('path');
      const list = node.childForFieldName('list');
      const next = path ? [...prefix, ...segmentsOf(path.text)] : node.text.trimStart().startsWith('::') ? [...prefix, ''] : prefix;
      if (list) useLeaves(list, next, out);
      return;
    }
    case 'use_list':
      for (const c of node.namedChildren) useLeaves(c, prefix, out);
      return;
    case 'use_as_clause': {
      const path = node.childForFieldName('path');
      if (path) out.push({ segments: [...prefix, ...segmentsOf(path.text)], glob: false, alias: node.childForFieldName('alias')?.text ?? null });
      return;
    }
    case 'use_wildcard': {
      const text = node.text.replace(/\s+/g, '').replace(/::\*$|\*$/, '');
      out.push({ segments: text ? [...prefix, ...text.split('::')] : prefix, glob: true, alias: null });
      return;
    }
    case 'identifier':
    case 'scoped_identifier':
    case 'self':
    case 'crate':
    case 'super':
    case 'metavariable':
      out.push({ segments: [...prefix, ...segmentsOf(node.text)], glob: false, alias: null });
      return;
    default:
      return;
  }
}

/** The text of `//!` / `/*! */` comments (inner) or `///` / `/** */` (outer) in `nodes`. */
function docText(comments: TsNode[]): string {
  return comments
    .map((c) => {
      const doc = c.namedChildren.find((n) => n.type === 'doc_comment');
      const text = doc ? doc.text : '';
      return c.type === 'block_comment' ? text.split('\n').map((l) => l.replace(/^\s*\*? ?/, '')).join('\n') : text.replace(/^ /, '').replace(/\n$/, '');
    })
    .join('\n')
    .trim();
}

const isDoc = (c: TsNode, marker: 'inner_doc_comment_marker' | 'outer_doc_comment_marker'): boolean => (c.type === 'line_comment' || c.type === 'block_comment') && c.namedChildren.some((n) => n.type === marker);

/** The value of `#[path = "…"]` among `attributes`, else null. */
function pathAttribute(attributes: TsNode[]): string | null {
  for (const a of attributes) {
    const attr = a.namedChildren.find((n) => n.type === 'attribute');
    if (attr?.namedChildren[0]?.text !== 'path') continue;
    const value = attr.namedChildren.find((n) => n.type === 'string_literal' || n.type === 'raw_string_literal');
    if (value) return value.namedChildren.find((n) => n.type === 'string_content')?.text ?? '';
  }
  return null;
}

const hasAttribute = (attributes: TsNode[], name: string): boolean => attributes.some((a) => a.namedChildren.find((n) => n.type === 'attribute')?.namedChildren[0]?.text === name);

/**
 * Whether an inner scope (a block, an impl) can add facts: an import needs a `use`, `mod`, `extern crate` or
 * `include!` in it, whose text it then holds; one without any is not walked (most function bodies).
 */
const mayDeclare = (node: TsNode): boolean => /use|mod|extern|include/.test(node.text);

/** `mod x;` declarations inside a macro invocation's token trees: the tokens `mod`, an identifier, `;`. */
function modsInTokens(tree: TsNode, out: Array<{ name: string; line: number; path: string | null }>): void {
  const kids = tree.children;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k.type === 'token_tree') modsInTokens(k, out);
    else if (k.text === 'mod' && /^(r#)?[A-Za-z_]\w*$/.test(kids[i + 1]?.text ?? '') && kids[i + 2]?.text === ';') {
      // `#[path = "x"]` right before: `#`, then a token tree `[path = "x"]`
      let path: string | null = null;
      let j = i - 1;
      if (kids[j]?.text === 'pub' || kids[j]?.type === 'token_tree') {
        // `pub(crate) mod x;`: skip the visibility
        if (kids[j]?.type === 'token_tree' && kids[j - 1]?.text === 'pub') j -= 2;
        else if (kids[j]?.text === 'pub') j -= 1;
      }
      const attr = kids[j];
      if (attr?.type === 'token_tree' && kids[j - 1]?.text === '#') {
        const m = /^\[\s*path\s*=\s*"([^"]*)"\s*\]$/.exec(attr.text);
        if (m) path = m[1];
      }
      out.push({ name: unraw(kids[i + 1].text), line: lineOf(k), path });
    }
  }
}

/**
 * A scope's child as an item and its type: `include!(…);` and other macro calls at item level parse as expression
 * statements, the call then, else the node. The type is read once (each read of a node's type crosses into wasm).
 */
function itemAt(node: TsNode): { node: TsNode; type: string } {
  const type = node.type;
  if (type === 'expression_statement') {
    const first = node.namedChildren[0];
    if (first?.type === 'macro_invocation') return { node: first, type: 'macro_invocation' };
  }
  return { node, type };
}

/**
 * The `use` declarations in a macro invocation's token trees, as cfg_if!-style macros that expand to the items written
 * in them have them (`cfg_if! { if #[cfg(unix)] { pub use self::unix::*; } }`): the leaves of each, as useLeaves
 * gives them. Not inside the bodies of items the tokens declare (a `fn`, `mod`, `impl` … body is not this scope),
 * nor a declaration with a metavariable (`$x`: what it stands for is the macro's).
 */
function usesInTokens(tree: TsNode, out: UseLeaf[]): void {
  const kids = tree.children;
  let itemBody = false;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k.type === 'token_tree') {
      if (k.firstChild?.text === '{') {
        if (!itemBody) usesInTokens(k, out);
        itemBody = false;
      }
      continue;
    }
    const t = k.text;
    if (t === ';') itemBody = false;
    else if (ITEM_KEYWORDS.has(t)) itemBody = true;
    else if (t === 'use') {
      let end = i + 1;
      while (end < kids.length && kids[end].text !== ';') end++;
      const tokens = kids.slice(i + 1, end);
      const before = kids[i - 1];
      const pub = before?.text === 'pub' || (before?.type === 'token_tree' && before.firstChild?.text === '(' && kids[i - 2]?.text === 'pub');
      if (end < kids.length && !tokens.some((x) => x.text.includes('$'))) {
        const raw: LeafPath[] = [];
        leavesOfTokens(tokens, [], raw);
        for (const l of raw) out.push({ ...l, line: lineOf(k), reexport: pub, exported: before?.text === 'pub' });
      }
      i = end;
    }
  }
}

/** Keywords of items whose brace group is the item's body (its `use`s are not the macro's scope). */
const ITEM_KEYWORDS = new Set(['fn', 'mod', 'impl', 'trait', 'struct', 'enum', 'union', 'macro_rules']);

/** The leaves of a use tree written as tokens (`a::{b as c, d::*}`), under `prefix`. */
function leavesOfTokens(tokens: TsNode[], prefix: string[], out: LeafPath[]): void {
  let item: TsNode[] = [];
  const flush = (): void => {
    const segments = [...prefix];
    for (let j = 0; j < item.length; j++) {
      const t = item[j];
      if (t.type === 'token_tree') {
        if (t.firstChild?.text === '{') leavesOfTokens(t.children.slice(1, -1), segments, out);
        return void (item = []);
      }
      if (t.text === '::') {
        if (!segments.length) segments.push(''); // `::a`: a crate
      } else if (t.text === '*') {
        out.push({ segments, glob: true, alias: null });
        return void (item = []);
      } else if (t.text === 'as') {
        out.push({ segments, glob: false, alias: item[j + 1]?.text ?? null });
        return void (item = []);
      } else segments.push(unraw(t.text));
    }
    if (segments.length > prefix.length) out.push({ segments, glob: false, alias: null });
    item = [];
  };
  for (const t of tokens) {
    if (t.text === ',') flush();
    else item.push(t);
  }
  flush();
}

/**
 * A `mod x;` declaration. Its file is the parent's namespace `x`, as `export * as x from` is in JS: the edge's binding
 * (`*` as `x`) lets a symbol's blast radius reach the parent, and its importers only when they name `x` (no names
 * of its own: the parent does not use the module's items by declaring it).
 */
function modImport(path: string[], attribute: string | null, line: number): ImportRecord {
  const name = path[path.length - 1];
  return { specifier: path.join('::') + (attribute !== null ? `=${attribute}` : ''), kind: 'mod', names: [], line, reexports: [{ imported: '*', exported: name }] };
}

export function parseRust({ root }: ParseInput): ParsedFile {
  const imports: ImportRecord[] = [];
  const symbols: SymbolRecord[] = [];
  const exports: ExportRecord[] = [];
  const externAlias = new Map<string, string>();
  let firstPubDoc: string | null = null;

  const nameOf = (node: TsNode): string | undefined => {
    const text = node.childForFieldName('name')?.text;
    return text === undefined ? undefined : unraw(text);
  };
  const isPub = (node: TsNode): boolean => node.namedChildren.some((c) => c.type === 'visibility_modifier');
  const isPlainPub = (node: TsNode): boolean => node.namedChildren.some((c) => c.type === 'visibility_modifier' && c.text === 'pub');

  /** Rewrites a use path to be relative to the file's own module, by the scope it sits in. */
  const rewrite = (segments: string[], scope: Scope): string[] => {
    const [first, ...rest] = segments;
    if (first === 'crate' || first === '') return segments;
    if (first === 'self') return ['self', ...scope.chain, ...rest];
    if (first === 'super') {
      let k = 0;
      while (segments[k] === 'super') k++;
      const chain = scope.chain;
      return k <= chain.length ? ['self', ...chain.slice(0, chain.length - k), ...segments.slice(k)] : [...segments.slice(0, k - chain.length), ...segments.slice(k)];
    }
    // a function body sees its module's names; an inline module does not see its parent's
    for (let s: Scope | null = scope; s && s.chain.length === scope.chain.length; s = s.parent) {
      if (s.items.has(first)) return ['self', ...s.chain, ...segments];
      const bound = s.uses.get(first);
      if (bound) return [...bound, ...rest];
    }
    // a crate declared by `extern crate` is a crate whatever Cargo.toml says (rustc_private, --extern): `::name`
    const crate = externAlias.get(first);
    return crate ? ['', crate, ...rest] : segments;
  };

  /** Reads the items of one scope (the file, an inline module's body, a function's or method's block). */
  const readScope = (container: TsNode, chain: string[], parent: Scope | null, topLevel: boolean): void => {
    const scope: Scope = { chain, items: new Set(), uses: new Map(), parent };
    const items = container.namedChildren.map(itemAt);
    // first pass: the names the scope declares, so that a use path can be rewritten whatever the order
    const leavesOf = new Map<TsNode, UseLeaf[]>();
    for (const { node, type } of items) {
      if (type === 'use_declaration' || type === 'macro_invocation') {
        let leaves: UseLeaf[] = [];
        if (type === 'use_declaration') {
          const arg = node.childForFieldName('argument');
          const raw: LeafPath[] = [];
          if (arg) useLeaves(arg, [], raw);
          leaves = raw.map((l) => ({ ...l, line: lineOf(node), reexport: isPub(node), exported: isPlainPub(node) }));
        } else {
          // a declaration in the tokens has a token `use`: a macro whose text has none is not walked token by token
          const tokens = node.namedChildren.find((c) => c.type === 'token_tree');
          if (tokens && tokens.text.includes('use')) usesInTokens(tokens, leaves);
        }
        leavesOf.set(node, leaves);
        for (const l of leaves) {
          if (l.glob) continue;
          const last = l.segments[l.segments.length - 1];
          const bound = l.alias ?? (last === 'self' ? l.segments[l.segments.length - 2] : last);
          if (bound && bound !== '_' && bound !== l.segments[0]) scope.uses.set(bound, last === 'self' ? l.segments.slice(0, -1) : l.segments);
        }
      } else if (type === 'extern_crate_declaration') {
        const name = node.childForFieldName('name')?.text;
        const alias = node.childForFieldName('alias')?.text;
        if (name && name !== 'self') externAlias.set(alias ?? name, name);
      } else if (ITEM_KINDS[type]) {
        const name = nameOf(node);
        if (name) scope.items.add(name);
      }
    }
    // the use bindings' own paths, rewritten by the scope (a binding naming another binding is followed)
    for (const [name, path] of [...scope.uses]) scope.uses.set(name, rewrite(path, scope));
    /** The import records of a scope's `use` leaves (a use declaration's, or those in a macro's tokens). */
    const emitUses = (leaves: UseLeaf[]): void => {
      for (const leaf of leaves) {
        let segments = leaf.segments;
        let names: string[];
        if (leaf.glob) names = ['*'];
        else if (segments[segments.length - 1] === 'self') {
          segments = segments.slice(0, -1);
          names = ['*'];
        } else names = [segments[segments.length - 1]];
        if (!segments.length || (segments.length === 1 && segments[0] === '')) continue;
        const path = rewrite(segments, scope);
        const exported = leaf.alias ?? (names[0] === '*' ? segments[segments.length - 1] : names[0]);
        const specifier = (path[0] === '' ? '::' + path.slice(1).join('::') : path.join('::')) + (leaf.glob ? '::*' : '');
        if (leaf.reexport) {
          const reexports: ReexportBinding[] = [{ imported: leaf.glob ? '*' : names[0] === '*' ? '*' : names[0], exported: leaf.glob ? '*' : exported }];
          imports.push({ specifier, kind: 'reexport', names, line: leaf.line, reexports });
          if (topLevel && leaf.exported && !leaf.glob && exported !== '_' && !exports.some((e) => e.name === exported)) exports.push({ name: exported, kind: 'reexport', line: leaf.line });
        } else imports.push({ specifier, kind: 'import', names, line: leaf.line });
      }
    };
    let attributes: TsNode[] = [];
    let docs: TsNode[] = [];
    for (const { node, type } of items) {
      if (type === 'attribute_item') {
        attributes.push(node);
        continue;
      }
      if (type === 'line_comment' || type === 'block_comment') {
        // an item's doc comment is read at the top level only (the file's purpose)
        if (topLevel && isDoc(node, 'outer_doc_comment_marker')) docs.push(node);
        continue;
      }
      const attrs = attributes;
      const itemDocs = docs;
      attributes = [];
      docs = [];
      switch (type) {
        case 'use_declaration':
          emitUses(leavesOf.get(node) ?? []);
          break;
        case 'extern_crate_declaration': {
          const name = node.childForFieldName('name')?.text;
          if (name && name !== 'self') imports.push({ specifier: `::${name}`, kind: 'import', names: ['*'], line: lineOf(node) });
          break;
        }
        case 'mod_item': {
          const name = nameOf(node);
          if (!name) break;
          const body = node.childForFieldName('body');
          if (body) {
            if (mayDeclare(body)) readScope(body, [...chain, name], scope, false);
          }
          else {
            const path = pathAttribute(attrs);
            imports.push(modImport([...chain, name], path, lineOf(node)));
          }
          break;
        }
        case 'function_item': {
          const body = node.childForFieldName('body');
          if (body && mayDeclare(body)) readScope(body, chain, scope, false);
          break;
        }
        case 'impl_item':
        case 'trait_item':
          // methods' bodies: a `use` inside one sees the module's names
          if (!mayDeclare(node)) break;
          for (const method of node.childForFieldName('body')?.namedChildren ?? []) {
            const body = method.type === 'function_item' ? method.childForFieldName('body') : null;
            if (body) readScope(body, chain, scope, false);
          }
          break;
        case 'macro_invocation': {
          emitUses(leavesOf.get(node) ?? []);
          const tokens = node.namedChildren.find((c) => c.type === 'token_tree');
          if (!tokens) break;
          const macro = node.childForFieldName('macro')?.text;
          if (macro === 'include' || macro === 'std::include' || macro === 'core::include') {
            // `include!("x.rs")`: the file's items are compiled here; its path is relative to this file's folder
            const literal = tokens.namedChildren.find((c) => c.type === 'string_literal');
            const path = literal?.namedChildren.find((c) => c.type === 'string_content')?.text;
            if (path) imports.push({ specifier: path, kind: 'include', names: ['*'], line: lineOf(node) });
            break;
          }
          const mods: Array<{ name: string; line: number; path: string | null }> = [];
          // as for `use` above: no token `mod` without the text `mod`
          if (tokens.text.includes('mod')) modsInTokens(tokens, mods);
          for (const m of mods) imports.push(modImport([...chain, m.name], m.path, m.line));
          break;
        }
        default:
          break;
      }
      if (!topLevel) continue;
      const kind = ITEM_KINDS[type];
      const name = kind ? nameOf(node) : undefined;
      if (!kind || !name || symbols.some((s) => s.name === name && s.kind === kind)) continue;
      const exported = kind === 'macro' ? hasAttribute(attrs, 'macro_export') : isPlainPub(node);
      symbols.push({ name, kind, line: lineOf(node), exported });
      if (exported) {
        exports.push({ name, kind, line: lineOf(node) });
        if (firstPubDoc === null && itemDocs.length) firstPubDoc = docText(itemDocs) || null;
      }
    }
  };

  readScope(root, [], null, true);
  const inner = root.namedChildren.filter((c) => isDoc(c, 'inner_doc_comment_marker'));
  const docComment = (inner.length ? docText(inner) : '') || firstPubDoc;
  return { imports, exports, symbols, docComment: docComment || null, moduleSystem: 'none', syntaxError: firstSyntaxError(root) };
}
