/**
 * The facts of one C# file from its tree-sitter tree:
 * - `using N;`, `global using N;` (names `*`, marked `global`), `using static N.T;` (names `*`) and aliases
 *   `using A = N.T;` (at the top or in a namespace block): one import each, the namespace or type as the specifier;
 *   plus one `same-package` import for the file's own namespace (C# sees its types and its parents' without a using);
 * - the type names the file uses (capitalised identifiers where a type may stand: bases, `new`, declarations,
 *   generic arguments, `typeof`, casts, attributes as `X` and `XAttribute`, the receiver of `X.Member`), minus the types
 *   it declares itself, plus every `partial` type it declares a part of (its other parts, in other files, are the same
 *   type: the file uses their members): the names of the `same-package` import, which the resolver binds through the
 *   file's own namespace and through each plain `using N;` (those keep no names of their own), as the compiler binds
 *   a simple name through the usings in scope; on the same record, `calls`: the member names the file calls
 *   (`x.M(...)`, `x?.M(...)`), which bind extension methods;
 * - usings, namespaces and types inside `#if` / `#elif` / `#else` are read in every branch (the condition's symbols
 *   are no types);
 * - types at any nesting (classes, records, structs, interfaces, enums, delegates), exported when `public` (a nested
 *   type only when its container is too), with kind, line, namespace (a nested type: its container's, and
 *   `container`, the type it is in: the compiler sees it only through that type), whether a class is static, a
 *   top-level static class's extension methods (first parameter `this`, in every `#if` branch), and the namespaces
 *   the file declares: what the resolver reads of every file;
 * - the purpose: the `<summary>` of the XML doc comment above the first type, else of the file's first doc comment.
 * `.csproj` files are read as C# project files: no facts of their own, but the resolver reads their
 * `ProjectReference`s from them.
 */
import type { ExportRecord, ImportRecord, ParsedFile, SymbolKind, SymbolRecord } from '../../types.js';
import { withTree, type TsNode } from '../runtime.js';

/** the grammar the C# module reads with (index.ts) */
export const GRAMMAR = 'tree-sitter-c-sharp.wasm';
import { firstSyntaxError, lineOf, type ParseInput } from '../types.js';

const TYPES: Record<string, SymbolKind> = {
  class_declaration: 'class',
  record_declaration: 'class',
  record_struct_declaration: 'struct',
  struct_declaration: 'struct',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  delegate_declaration: 'type',
};

/** Parents whose `name` field declares rather than uses a name. */
const DECLARING = new Set([
  ...Object.keys(TYPES),
  'method_declaration',
  'constructor_declaration',
  'destructor_declaration',
  'property_declaration',
  'event_declaration',
  'variable_declarator',
  'parameter',
  'type_parameter',
  'enum_member_declaration',
  'local_function_statement',
  'namespace_declaration',
  'file_scoped_namespace_declaration',
  'member_access_expression',
  'qualified_name',
  'name_colon',
  'name_equals',
  'labeled_statement',
  'tuple_element',
  'using_directive',
]);

/**
 * Parents where a simple name stands as a value (an argument, an operand, a value assigned or returned): never a type
 * there, but a property or field, often one named as its type (`Color Color`), or `nameof`'s argument. Not an
 * operator's operand: the grammar reads `t is A || t is B` as a pattern holding `A || t is B`.
 */
const VALUE = new Set(['argument', 'assignment_expression', 'return_statement', 'arrow_expression_clause', 'equals_value_clause', 'variable_declarator', 'conditional_expression', 'initializer_expression', 'interpolation', 'yield_statement']);

/** The text of an XML doc comment's `<summary>` (or the whole comment when it has none), tags stripped. */
export function xmlDocText(lines: string[]): string | null {
  const xml = lines.map((l) => l.replace(/^\s*\/\/\/ ?/, '')).join('\n');
  const summary = /<summary>([\s\S]*?)<\/summary>/.exec(xml)?.[1] ?? xml;
  const text = summary
    .replace(/<(see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)="(?:[A-Z]:)?([^"]+)"\s*\/>/g, '$2')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .trim();
  return text || null;
}

class Reader {
  imports: ImportRecord[] = [];
  symbols: SymbolRecord[] = [];
  readonly declared = new Set<string>();
  /** partial types the file declares a part of: the other parts (other files) are the same type, so they count as used */
  readonly partial = new Set<string>();
  readonly used = new Set<string>();
  /** member names the file calls (`x.M(...)`, `x?.M(...)`): what an extension method binds by */
  readonly calls = new Set<string>();
  namespace = '';
  firstTypeDoc: string | null = null;
  firstDoc: string | null = null;

  /** Declarations in a compilation unit, a namespace body or an `#if` branch (its children); `ns` the enclosing namespace. */
  members(children: TsNode[], ns: string, exported: boolean, container?: string): void {
    let current = ns;
    for (let i = 0; i < children.length; i++) {
      const node = children[i];
      switch (node.type) {
        case 'using_directive':
          this.using(node);
          continue;
        case 'file_scoped_namespace_declaration': {
          const name = node.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';
          current = ns ? `${ns}.${name}` : name;
          this.namespace ||= current;
          this.namespaceSymbol(current, node);
          continue;
        }
        case 'namespace_declaration': {
          const name = node.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';
          const full = current ? `${current}.${name}` : name;
          this.namespace ||= full;
          this.namespaceSymbol(full, node);
          const body = node.childForFieldName('body');
          if (body) this.members(body.namedChildren, full, exported, container);
          continue;
        }
        case 'preproc_if':
        case 'preproc_elif':
        case 'preproc_else': {
          // `#if` around usings, a namespace or members: every branch is read as if it stood here (the condition names no type)
          const condition = node.childForFieldName('condition');
          const inner = node.namedChildren.filter((c) => !condition || c.startIndex !== condition.startIndex || c.type !== condition.type);
          this.members(inner, current, exported, container);
          continue;
        }
        case 'comment':
          if (this.firstDoc === null && node.text.startsWith('///')) this.firstDoc = xmlDocText(this.docLines(children, i + 1));
          continue;
        default:
          break;
      }
      const kind = TYPES[node.type];
      if (kind) {
        this.type(node, kind, children, i, exported, current, container);
        continue;
      }
      this.uses(node);
    }
  }

  /** a namespace the file declares: a symbol not exported (resolution reads it: languages/types.ts resolutionKey) */
  private namespaceSymbol(name: string, at: TsNode): void {
    if (name && !this.symbols.some((s) => s.kind === 'namespace' && s.name === name)) this.symbols.push({ name, kind: 'namespace', line: lineOf(at), exported: false });
  }

  /** A type declaration in namespace `ns` (a nested type: its container's, `container` the type it is in), and the types nested in it. */
  private type(node: TsNode, kind: SymbolKind, siblings: TsNode[], index: number, containerExported: boolean, ns: string, container?: string): void {
    const name = node.childForFieldName('name')?.text;
    const isPublic = containerExported && hasModifier(node, 'public');
    if (name) {
      this.declared.add(name);
      if (hasModifier(node, 'partial')) this.partial.add(name);
      const existing = this.symbols.find((s) => s.name === name && s.kind !== 'namespace' && (s.namespace ?? '') === ns && s.container === container);
      const isStatic = kind === 'class' && hasModifier(node, 'static');
      // extension methods live in top-level static classes only
      const extensions = isStatic && !container ? extensionMethods(node) : [];
      if (!existing) {
        const symbol: SymbolRecord = { name, kind, line: lineOf(node), exported: isPublic };
        if (ns) symbol.namespace = ns;
        if (container) symbol.container = container;
        if (isStatic) symbol.static = true;
        if (extensions.length) symbol.extensions = extensions;
        this.symbols.push(symbol);
      } else if (extensions.length) {
        // a partial static class's part in another #if branch
        existing.extensions = [...new Set([...(existing.extensions ?? []), ...extensions])].sort();
      }
      if (this.firstTypeDoc === null) this.firstTypeDoc = xmlDocText(this.docLines(siblings, index));
    }
    for (const c of node.namedChildren) {
      if (c.type === 'declaration_list') this.members(c.namedChildren, ns, isPublic, name ? (container ? `${container}.${name}` : name) : container);
      else if (c.type !== 'identifier' || c.startIndex !== node.childForFieldName('name')?.startIndex) this.uses(c);
    }
  }

  /** The `///` lines ending right above siblings[index]. */
  private docLines(siblings: TsNode[], index: number): string[] {
    const lines: string[] = [];
    const target = siblings[index];
    if (!target) return lines;
    let expect = target.startPosition.row - 1;
    for (let i = index - 1; i >= 0; i--) {
      const c = siblings[i];
      if (c.type !== 'comment' || !c.text.startsWith('///') || c.endPosition.row !== expect) break;
      lines.unshift(c.text);
      expect = c.startPosition.row - 1;
    }
    return lines;
  }

  /** `using N;` / `global using N;` / `using static N.T;` / `using A = N.T;` */
  private using(node: TsNode): void {
    const alias = node.childForFieldName('name')?.text;
    const target = node.namedChildren.filter((c) => c.type === 'qualified_name' || c.type === 'identifier' || c.type === 'generic_name' || c.type === 'alias_qualified_name').pop();
    if (!target || (alias && target.startIndex === node.childForFieldName('name')?.startIndex)) return;
    const isStatic = node.children.some((c) => !c.isNamed && c.type === 'static');
    const isGlobal = node.children.some((c) => !c.isNamed && c.type === 'global');
    const spec = target.text.replace(/\s+/g, '').replace(/^global::/, '').replace(/<.*$/, '');
    const imp: ImportRecord = { specifier: spec, kind: 'import', names: alias ? [alias] : isStatic || isGlobal ? ['*'] : [], line: lineOf(node) };
    if (isGlobal) imp.global = true;
    this.imports.push(imp);
  }

  /** `text`: what the grammar read (a node's indices are its offsets) */
  constructor(private readonly text: string) {}

  /**
   * Collects the capitalised names used where a type may stand under `node`: the node itself by its parent, then its
   * descendants by a cursor, which walks with each ancestor's type and each node's field in hand instead of a node
   * object per step and per parent asked (the walk was most of a C# file's read: ~1.8× faster over Newtonsoft.Json,
   * the same names).
   */
  uses(node: TsNode): void {
    if (node.type === 'identifier') {
      const p = node.parent;
      const called = p?.type === 'generic_name' ? p.parent : p;
      const callee = p?.type === 'generic_name' ? p : node;
      const field = p && DECLARING.has(p.type) && p.childForFieldName('name')?.startIndex === node.startIndex ? 'name' : null;
      const calleeField = called?.type === 'invocation_expression' && called.childForFieldName('function')?.startIndex === callee.startIndex ? 'function' : null;
      this.identifier(node.startIndex, node.endIndex, p?.type ?? null, field, called?.type ?? null, calleeField);
      return;
    }
    if (!this.visit(node)) return;
    const cursor = node.walk();
    // per level from `node` down: the type of the node whose children the cursor is among, and that node's field
    const types = [node.type];
    const fields: Array<string | null> = [null];
    try {
      if (!cursor.gotoFirstChild()) return;
      for (;;) {
        if (cursor.nodeIsNamed) {
          const type = cursor.nodeType;
          const field = cursor.currentFieldName ?? null;
          const parent = types[types.length - 1];
          // a preprocessor condition's symbols are no types
          const condition = (parent === 'preproc_if' || parent === 'preproc_elif') && field === 'condition';
          if (!condition) {
            if (type === 'identifier') {
              const generic = parent === 'generic_name';
              this.identifier(cursor.startIndex, cursor.endIndex, parent, field, generic ? types[types.length - 2] : parent, generic ? fields[fields.length - 1] : field);
            } else if ((type === 'invocation_expression' || TYPES[type] ? this.visit(cursor.currentNode) : this.descends(type)) && cursor.gotoFirstChild()) {
              types.push(type);
              fields.push(field);
              continue;
            }
          }
        }
        while (!cursor.gotoNextSibling()) {
          if (types.length === 1 || !cursor.gotoParent()) return;
          types.pop();
          fields.pop();
        }
      }
    } finally {
      cursor.delete();
    }
  }

  /** An identifier at [start, end) among the children of a `parent`, in its `field`; `called`: the node a call would be (its parent, or its grandparent through a generic name), `calleeField` the field there. */
  private identifier(start: number, end: number, parent: string | null, field: string | null, called: string | null, calleeField: string | null): void {
    const first = end > start ? this.text.charCodeAt(start) : 0;
    if (first < 65 || first > 90) return;
    if (parent !== null && DECLARING.has(parent) && field === 'name') return;
    if (parent === 'qualified_name' || (parent !== null && VALUE.has(parent))) return;
    // `Name(...)` / `Name<T>(...)` calls a method: never a type
    if (called === 'invocation_expression' && calleeField === 'function') return;
    const text = this.text.slice(start, end);
    this.used.add(text);
    if (parent === 'attribute') this.used.add(`${text}Attribute`);
  }

  private descends(type: string): boolean {
    return type !== 'comment' && type !== 'qualified_name' && type !== 'using_directive';
  }

  /** What a node other than an identifier adds itself (a member call, a type it declares); whether its children are read. */
  private visit(n: TsNode): boolean {
    if (!this.descends(n.type)) return false;
    if (n.type === 'invocation_expression') {
      // `x.M(...)`, `x.M<T>(...)`, `x?.M(...)`: a member call, maybe of an extension method
      const f = n.childForFieldName('function');
      const access = f?.type === 'conditional_access_expression' ? f.namedChildren.find((c) => c.type === 'member_binding_expression') : f;
      const member = access?.type === 'member_access_expression' || access?.type === 'member_binding_expression' ? access.childForFieldName('name') : null;
      const id = member?.type === 'generic_name' ? member.namedChildren.find((c) => c.type === 'identifier') : member;
      if (id?.type === 'identifier') this.calls.add(id.text);
    }
    if (TYPES[n.type]) {
      const name = n.childForFieldName('name')?.text;
      if (name) this.declared.add(name);
      if (name && hasModifier(n, 'partial')) this.partial.add(name);
    }
    return true;
  }
}

/** Whether a declaration (or a parameter) carries modifier `word` (`public`, `static`, `partial`, `this`). */
function hasModifier(node: TsNode, word: string): boolean {
  return node.namedChildren.some((c) => c.type === 'modifier' && c.text === word);
}

/** The extension methods a static class declares: its methods whose first parameter is `this`. */
function extensionMethods(node: TsNode): string[] {
  const names = new Set<string>();
  const body = node.childForFieldName('body') ?? node.namedChildren.find((c) => c.type === 'declaration_list');
  const scan = (children: TsNode[]): void => {
    for (const m of children) {
      // methods inside `#if` branches too
      if (m.type === 'preproc_if' || m.type === 'preproc_elif' || m.type === 'preproc_else') scan(m.namedChildren);
      if (m.type !== 'method_declaration') continue;
      const first = m.childForFieldName('parameters')?.namedChildren.find((c) => c.type === 'parameter');
      const name = m.childForFieldName('name')?.text;
      if (name && first && hasModifier(first, 'this')) names.add(name);
    }
  };
  if (body) scan(body.namedChildren);
  return [...names].sort();
}

/**
 * The source as the compiler sees it with the first branch of every `#if` taken: directive lines and the lines of
 * `#elif` / `#else` branches blanked (line numbers kept). For a file the grammar cannot read with its directives in
 * place (one inside a class header: `class A\n#if X\n : IB\n#endif\n{`).
 */
export function firstBranch(source: string): string {
  const open: boolean[] = []; // per open `#if`: whether its current branch is left out
  let skipped = 0;
  return source
    .split('\n')
    .map((line) => {
      const directive = /^\s*#\s*(\w+)/.exec(line)?.[1];
      if (directive === 'if') open.push(false);
      else if ((directive === 'elif' || directive === 'else') && open.length && !open[open.length - 1]) (open[open.length - 1] = true, skipped++);
      else if (directive === 'endif' && open.length && open.pop()) skipped--;
      return directive !== undefined || skipped > 0 ? line.replace(/[^\r]/g, ' ') : line;
    })
    .join('\n');
}

function read(root: TsNode, text: string): Omit<ParsedFile, 'syntaxError'> {
  const r = new Reader(text);
  r.members(root.namedChildren, '', true);
  // a plain `using N;` keeps no names: the resolver reads the file's used names off its same-package record
  const names = [...new Set([...[...r.used].filter((n) => !r.declared.has(n)), ...r.partial])].sort();
  const own: ImportRecord = { specifier: r.namespace || '(global namespace)', kind: 'same-package', names, line: 1 };
  if (r.calls.size) own.calls = [...r.calls].sort();
  r.imports.push(own);
  const exports: ExportRecord[] = r.symbols.filter((s) => s.exported).map((s) => ({ name: s.name, kind: s.kind, line: s.line }));
  return { imports: r.imports, exports, symbols: r.symbols, docComment: r.firstTypeDoc ?? r.firstDoc, moduleSystem: 'none' };
}

export function parseCsharp({ path, source, root, keep }: ParseInput): ParsedFile {
  if (path.toLowerCase().endsWith('.csproj')) return { imports: [], exports: [], symbols: [], docComment: null, moduleSystem: 'none', syntaxError: null };
  const error = firstSyntaxError(root);
  // a syntax error where directives are: read the first branch of each instead, when that parses cleanly
  if (error && /^\s*#\s*(if|elif|else|endif)\b/m.test(source)) {
    const first = firstBranch(source);
    const clean = withTree(GRAMMAR, first, (again) => (firstSyntaxError(again) ? null : read(again, first)), keep && `${keep}#first-branch`);
    if (clean) {
      // the names the other branches use too, as far as the grammar read them
      const own = clean.imports[clean.imports.length - 1];
      const all = read(root, source).imports;
      own.names = [...new Set([...own.names, ...all[all.length - 1].names])].sort();
      const calls = [...new Set([...(own.calls ?? []), ...(all[all.length - 1].calls ?? [])])].sort();
      if (calls.length) own.calls = calls;
      return { ...clean, syntaxError: null };
    }
  }
  return { ...read(root, source), syntaxError: error };
}
