/**
 * The facts of one C# file from its tree-sitter tree:
 * - `using N;`, `global using N;` (names `*`), `using static N.T;` (names `*`) and aliases `using A = N.T;` (at the
 *   top or in a namespace block): one import each, the namespace or type as the specifier; plus one `same-package` import for the file's
 *   own namespace (C# sees its types and its parents' without a using);
 * - the type names the file uses (capitalised identifiers where a type may stand: bases, `new`, declarations,
 *   generic arguments, `typeof`, casts, attributes as `X` and `XAttribute`, the receiver of `X.Member`), minus the types
 *   it declares itself, plus every `partial` type it declares a part of (its other parts, in other files, are the same
 *   type: the file uses their members): the names of every one of those imports, so the resolver can bind each to the
 *   files of the namespace that declare it, as the compiler binds a simple name through the usings in scope;
 * - usings, namespaces and types inside `#if` / `#elif` / `#else` are read in every branch (the condition's symbols
 *   are no types);
 * - types at any nesting (classes, records, structs, interfaces, enums, delegates), exported when `public` (a nested
 *   type only when its container is too), with kind and line;
 * - the purpose: the `<summary>` of the XML doc comment above the first type, else of the file's first doc comment.
 * `.csproj` files are read as C# project files: no facts of their own, but the resolver reads their
 * `ProjectReference`s from them.
 */
import type { ExportRecord, ImportRecord, ParsedFile, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
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
  namespace = '';
  firstTypeDoc: string | null = null;
  firstDoc: string | null = null;

  /** Declarations in a compilation unit, a namespace body or an `#if` branch (its children); `ns` the enclosing namespace. */
  members(children: TsNode[], ns: string, exported: boolean): void {
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
          if (body) this.members(body.namedChildren, full, exported);
          continue;
        }
        case 'preproc_if':
        case 'preproc_elif':
        case 'preproc_else': {
          // `#if` around usings, a namespace or members: every branch is read as if it stood here (the condition names no type)
          const condition = node.childForFieldName('condition');
          const inner = node.namedChildren.filter((c) => !condition || c.startIndex !== condition.startIndex || c.type !== condition.type);
          this.members(inner, current, exported);
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
        this.type(node, kind, children, i, exported);
        continue;
      }
      this.uses(node);
    }
  }

  /** a namespace the file declares: a symbol not exported (resolution reads it: languages/types.ts resolutionKey) */
  private namespaceSymbol(name: string, at: TsNode): void {
    if (name && !this.symbols.some((s) => s.kind === 'namespace' && s.name === name)) this.symbols.push({ name, kind: 'namespace', line: lineOf(at), exported: false });
  }

  private type(node: TsNode, kind: SymbolKind, siblings: TsNode[], index: number, containerExported: boolean): void {
    const name = node.childForFieldName('name')?.text;
    const isPublic = containerExported && node.namedChildren.some((c) => c.type === 'modifier' && c.text === 'public');
    if (name) {
      this.declared.add(name);
      if (node.namedChildren.some((c) => c.type === 'modifier' && c.text === 'partial')) this.partial.add(name);
      if (!this.symbols.some((s) => s.name === name && s.kind !== 'namespace')) this.symbols.push({ name, kind, line: lineOf(node), exported: isPublic });
      if (this.firstTypeDoc === null) this.firstTypeDoc = xmlDocText(this.docLines(siblings, index));
    }
    for (const c of node.namedChildren) {
      if (c.type === 'declaration_list') this.members(c.namedChildren, '', isPublic);
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
    this.imports.push({ specifier: spec, kind: 'import', names: alias ? [alias] : isStatic || isGlobal ? ['*'] : [], line: lineOf(node) });
  }

  /** Collects the capitalised names used where a type may stand under `node`. */
  uses(node: TsNode): void {
    const stack = [node];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'identifier') {
        const text = n.text;
        if (!/^[A-Z]/.test(text)) continue;
        const p = n.parent;
        if (p && DECLARING.has(p.type) && p.childForFieldName('name')?.startIndex === n.startIndex) continue;
        if (p?.type === 'qualified_name') continue;
        // `Name(...)` / `Name<T>(...)` calls a method: never a type
        const called = p?.type === 'generic_name' ? p.parent : p;
        const callee = p?.type === 'generic_name' ? p : n;
        if (called?.type === 'invocation_expression' && called.childForFieldName('function')?.startIndex === callee.startIndex) continue;
        this.used.add(text);
        if (p?.type === 'attribute') this.used.add(`${text}Attribute`);
        continue;
      }
      if (n.type === 'comment' || n.type === 'qualified_name' || n.type === 'using_directive') continue;
      // a preprocessor condition's symbols are no types
      const condition = n.type === 'preproc_if' || n.type === 'preproc_elif' ? n.childForFieldName('condition') : null;
      const kind = TYPES[n.type];
      if (kind) {
        const name = n.childForFieldName('name')?.text;
        if (name) this.declared.add(name);
        if (name && n.namedChildren.some((c) => c.type === 'modifier' && c.text === 'partial')) this.partial.add(name);
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i)!;
        if (!condition || c.startIndex !== condition.startIndex || c.type !== condition.type) stack.push(c);
      }
    }
  }
}

export function parseCsharp({ path, root }: ParseInput): ParsedFile {
  if (path.toLowerCase().endsWith('.csproj')) return { imports: [], exports: [], symbols: [], docComment: null, moduleSystem: 'none', syntaxError: null };
  const r = new Reader();
  r.members(root.namedChildren, '', true);
  const names = [...new Set([...[...r.used].filter((n) => !r.declared.has(n)), ...r.partial])].sort();
  for (const imp of r.imports) if (imp.names.length === 0) imp.names = names;
  r.imports.push({ specifier: r.namespace || '(global namespace)', kind: 'same-package', names, line: 1 });
  const exports: ExportRecord[] = r.symbols.filter((s) => s.exported).map((s) => ({ name: s.name, kind: s.kind, line: s.line }));
  return { imports: r.imports, exports, symbols: r.symbols, docComment: r.firstTypeDoc ?? r.firstDoc, moduleSystem: 'none', syntaxError: firstSyntaxError(root) };
}
