/**
 * The facts of one PHP file from its tree-sitter tree:
 * - `use` declarations (class, `use function`, `use const`, group use `use A\{B, C as D}`): one import per name, its
 *   fully qualified name as the specifier (`function A\f` / `const A\X` for functions and constants);
 * - class names the code refers to (`new`, `extends`, `implements`, type hints, `X::`, `instanceof`, `catch`, trait
 *   `use`, attributes), resolved as PHP resolves a class name: `\A\B` as written, `B\C` and `C` through the file's
 *   `use` aliases, else in the current namespace (kind `same-package` for an unqualified name in its own namespace);
 *   one import per class not already named by a `use`;
 * - `require`/`include`(`_once`) of a path PHP can know before run time: a literal (`'x.php'`), or one built from the
 *   file's own folder (`__DIR__ . '/x.php'`, `dirname(__FILE__) . '/x.php'`, `dirname(__DIR__, 2) . '/x.php'`),
 *   specified as `__DIR__/…` so the resolver knows it is relative to the file; a path computed otherwise is skipped;
 * - declarations at the file's top level, in namespace blocks and in top-level `if` blocks (the `function_exists`
 *   guard): classes, interfaces, traits, enums, functions and constants (`const X`, and `define('X', …)` with a literal
 *   name anywhere), all exported (PHP has no private top level), each with its namespace; the namespaces declared, as
 *   symbols not exported (what the resolver reads of other files);
 * - the purpose: the docblock above the first type declaration, else the file's first docblock that is no licence.
 */
import type { ExportRecord, ImportKind, ImportRecord, ParsedFile, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
import { firstSyntaxError, lineOf, type ParseInput } from '../types.js';

const DECLARATIONS: Record<string, SymbolKind> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  trait_declaration: 'trait',
  enum_declaration: 'enum',
  function_definition: 'function',
};

/** Statements whose bodies hold declarations PHP runs at the top level. */
const CONTAINERS = new Set(['compound_statement', 'if_statement', 'else_clause', 'else_if_clause', 'colon_block', 'declare_statement']);

const INCLUDE = /^(require|include)(_once)?_expression$/;

/** Names that are not classes where a class name may stand. */
const NOT_CLASSES = new Set(['self', 'static', 'parent', 'array', 'callable', 'iterable', 'mixed', 'void', 'null', 'never', 'object', 'int', 'float', 'bool', 'string', 'false', 'true']);

/** The docblock's text without `/**`, `*` margins and `@tags`. */
export function docblockText(text: string): string | null {
  if (!text.startsWith('/**')) return null;
  const lines = text
    .slice(3, -2)
    .split('\n')
    .map((l) => l.replace(/^\s*\*? ?/, '').trimEnd());
  const end = lines.findIndex((l) => l.startsWith('@'));
  const doc = (end >= 0 ? lines.slice(0, end) : lines).join('\n').trim();
  return doc || null;
}

const LICENCE = /copyright|licen[cs]e|this file is part of|\(c\)/i;

/** A name node's text without spaces or comments, and whether it began with `\`. */
function nameText(node: TsNode): { text: string; absolute: boolean } {
  const text = node.text.replace(/\s+/g, '');
  return text.startsWith('\\') ? { text: text.slice(1), absolute: true } : { text, absolute: false };
}

/** The value of a plain string literal (`'a'`, `"a"` without interpolation), else null. */
function stringValue(node: TsNode): string | null {
  if (node.type !== 'string' && node.type !== 'encapsed_string') return null;
  let out = '';
  for (const c of node.namedChildren) {
    if (c.type === 'string_content' || c.type === 'string_value') out += c.text;
    else if (c.type === 'escape_sequence') out += JSON.parse(`"${c.text.replace(/"/g, '\\"')}"`) as string;
    else return null;
  }
  return out;
}

/** The folder an expression names relative to the file's own folder (`__DIR__` → '', `dirname(__DIR__)` → '..'), else null. */
function fileDir(node: TsNode): string | null {
  if (node.type === 'parenthesized_expression') return node.namedChildren[0] ? fileDir(node.namedChildren[0]) : null;
  if (node.type === 'name' && node.text === '__DIR__') return '';
  if (node.type !== 'function_call_expression') return null;
  if (node.childForFieldName('function')?.text.replace(/^\\/, '').toLowerCase() !== 'dirname') return null;
  const args = (node.childForFieldName('arguments')?.namedChildren ?? []).map((a) => a.namedChildren[0] ?? a);
  if (!args.length) return null;
  let inner: string | null;
  if (args[0].type === 'name' && args[0].text === '__FILE__') inner = null;
  else {
    inner = fileDir(args[0]);
    if (inner === null) return null;
  }
  const levels = args[1] ? Number(args[1].text) : 1;
  if (!Number.isInteger(levels) || levels < 1 || levels > 20) return null;
  // dirname(__FILE__) is the file's folder; dirname(<folder>, n) goes n folders up
  const up = inner === null ? levels - 1 : levels;
  const parts = [...(inner ? inner.split('/') : []), ...Array<string>(up).fill('..')];
  return parts.join('/');
}

/** The path a require/include names, as a specifier: `__DIR__/<path>` when built from the file's folder, the literal otherwise. */
function includePath(node: TsNode): string | null {
  if (node.type === 'parenthesized_expression') return node.namedChildren[0] ? includePath(node.namedChildren[0]) : null;
  const literal = stringValue(node);
  if (literal !== null) return literal || null;
  if (node.type !== 'binary_expression' || node.childForFieldName('operator')?.text !== '.') return null;
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (!left || !right) return null;
  const rest = stringValue(right);
  if (rest === null) return null;
  const dir = fileDir(left);
  if (dir !== null) return `__DIR__${dir ? `/${dir}` : ''}${rest.startsWith('/') ? '' : '/'}${rest}`;
  const head = includePath(left);
  return head === null ? null : head + rest;
}

interface Scope {
  namespace: string;
  /** alias (lower-case) → fully qualified class name, from `use` */
  aliases: Map<string, string>;
  /** class names already named by a `use` of this scope */
  used: Set<string>;
  /** class references recorded in this scope */
  referenced: Set<string>;
}

class Reader {
  imports: ImportRecord[] = [];
  symbols: SymbolRecord[] = [];
  private readonly seen = new Set<string>();
  firstTypeDoc: string | null = null;
  fileDoc: string | null = null;
  private scope: Scope = { namespace: '', aliases: new Map(), used: new Set(), referenced: new Set() };
  private readonly references: Array<{ node: TsNode; scope: Scope }> = [];
  /** the fully qualified names (lower-case) of the types this file declares: never an import of its own */
  private readonly declared = new Set<string>();

  statements(parent: TsNode, top: boolean): void {
    const children = parent.namedChildren;
    for (let i = 0; i < children.length; i++) this.statement(children[i], children[i - 1] ?? null, top);
  }

  /** a declaration, with its namespace when not the global one (the resolver binds names to the files declaring them) */
  private symbol(name: string | undefined, kind: SymbolKind, at: TsNode, namespace = this.scope.namespace): void {
    if (!name || this.seen.has(`${kind}:${namespace}\\${name}`)) return;
    this.seen.add(`${kind}:${namespace}\\${name}`);
    const symbol: SymbolRecord = { name, kind, line: lineOf(at), exported: true };
    if (namespace) symbol.namespace = namespace;
    this.symbols.push(symbol);
  }

  /** the namespace a file declares, a symbol not exported (resolution reads it: languages/types.ts resolutionKey) */
  private namespaceSymbol(name: string, at: TsNode): void {
    if (this.seen.has(`namespace:${name}`)) return;
    this.seen.add(`namespace:${name}`);
    this.symbols.push({ name, kind: 'namespace', line: lineOf(at), exported: false });
  }

  private statement(node: TsNode, previous: TsNode | null, top: boolean): void {
    switch (node.type) {
      case 'comment': {
        if (top && this.fileDoc === null && this.symbols.length === 0) {
          const doc = docblockText(node.text);
          if (doc && !LICENCE.test(doc)) this.fileDoc = doc;
        }
        return;
      }
      case 'namespace_definition': {
        const name = node.childForFieldName('name');
        const body = node.childForFieldName('body');
        const scope: Scope = { namespace: name ? nameText(name).text : '', aliases: new Map(), used: new Set(), referenced: new Set() };
        if (scope.namespace) this.namespaceSymbol(scope.namespace, node);
        if (body) {
          const outer = this.scope;
          this.scope = scope;
          this.statements(body, true);
          this.scope = outer;
        } else this.scope = scope; // `namespace A;` holds until the next namespace statement
        return;
      }
      case 'namespace_use_declaration':
        this.use(node);
        return;
      case 'const_declaration':
        for (const el of node.namedChildren) if (el.type === 'const_element') this.symbol(el.namedChildren.find((c) => c.type === 'name')?.text, 'const', el);
        this.collect(node);
        return;
      default:
        break;
    }
    const kind = DECLARATIONS[node.type];
    if (kind) {
      const name = node.childForFieldName('name')?.text;
      this.symbol(name, kind, node);
      if (name && kind !== 'function') this.declared.add(`${this.scope.namespace ? `${this.scope.namespace}\\` : ''}${name}`.toLowerCase());
      if (kind !== 'function' && this.firstTypeDoc === null && previous?.type === 'comment' && previous.endPosition.row >= node.startPosition.row - 1) {
        this.firstTypeDoc = docblockText(previous.text);
      }
      this.collect(node);
      return;
    }
    if (CONTAINERS.has(node.type)) {
      for (const c of node.namedChildren) {
        if (CONTAINERS.has(c.type) || c.type === 'compound_statement') this.statements(c, false);
        else if (c.type !== 'comment') this.statement(c, null, false);
      }
      return;
    }
    this.collect(node);
  }

  /** `use A\B;`, `use A\B as C;`, `use function A\f;`, `use A\{B, C as D, function e};` */
  private use(node: TsNode): void {
    const declType = node.children.find((c) => !c.isNamed && (c.type === 'function' || c.type === 'const'))?.type ?? null;
    const group = node.childForFieldName('body');
    const prefix = group ? nameText(node.namedChildren.find((c) => c.type === 'namespace_name') ?? node).text : '';
    const clauses = group ? group.namedChildren.filter((c) => c.type === 'namespace_use_clause' || c.type === 'namespace_use_group_clause') : node.namedChildren.filter((c) => c.type === 'namespace_use_clause');
    for (const clause of clauses) {
      const type = clause.childForFieldName('type')?.type ?? clause.children.find((c) => !c.isNamed && (c.type === 'function' || c.type === 'const'))?.type ?? declType;
      const target = clause.namedChildren.find((c) => c.type === 'qualified_name' || c.type === 'name' || c.type === 'namespace_name');
      if (!target) continue;
      const alias = clause.childForFieldName('alias')?.text;
      const name = (prefix ? `${prefix}\\` : '') + nameText(target).text;
      const short = alias ?? name.slice(name.lastIndexOf('\\') + 1);
      if (type === 'function' || type === 'const') {
        this.imports.push({ specifier: `${type} ${name}`, kind: 'import', names: [short], line: lineOf(clause) });
        continue;
      }
      this.scope.aliases.set(short.toLowerCase(), name);
      this.scope.used.add(name.toLowerCase());
      this.imports.push({ specifier: name, kind: 'import', names: [short], line: lineOf(clause) });
    }
  }

  /** `require`/`include`(`_once`) of a path known before run time. */
  private include(target: TsNode): void {
    const arg = target.namedChildren[0];
    const path = arg ? includePath(arg) : null;
    if (path === null) return;
    const kind: ImportKind = target.type.startsWith('require') ? 'require' : 'include';
    this.imports.push({ specifier: path, kind, names: ['*'], line: lineOf(target) });
  }

  /** `define('A\\X', …)` with a literal name: the constant X of namespace A (a name without `\\` is global wherever it is defined). */
  private define(call: TsNode): void {
    if (call.childForFieldName('function')?.text.replace(/^\\/, '').toLowerCase() !== 'define') return;
    const first = call.childForFieldName('arguments')?.namedChildren[0];
    const name = first ? stringValue(first.namedChildren[0] ?? first) : null;
    if (!name || !/^\\?[A-Za-z_\x80-\uffff][\w\x80-\uffff]*(\\[A-Za-z_\x80-\uffff][\w\x80-\uffff]*)*$/.test(name)) return;
    const fq = name.replace(/^\\/, '');
    const last = fq.lastIndexOf('\\');
    this.symbol(fq.slice(last + 1), 'const', call, last >= 0 ? fq.slice(0, last) : '');
  }

  /** Remembers the class references under `node`, resolved at the end against the scope's complete `use` list. */
  private collect(node: TsNode): void {
    const stack = [node];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'name' || n.type === 'qualified_name') {
        if (isClassPosition(n)) this.references.push({ node: n, scope: this.scope });
        continue;
      }
      if (n.type === 'namespace_use_declaration') continue;
      if (INCLUDE.test(n.type)) this.include(n);
      if (n.type === 'function_call_expression') this.define(n);
      for (let i = n.namedChildCount - 1; i >= 0; i--) stack.push(n.namedChild(i)!);
    }
  }

  /** One import per class a scope refers to and names by no `use`. */
  resolveReferences(): void {
    for (const { node, scope } of this.references) {
      const { text, absolute } = nameText(node);
      if (!text || (!absolute && !text.includes('\\') && NOT_CLASSES.has(text.toLowerCase()))) continue;
      let name: string;
      let kind: ImportKind = 'import';
      if (absolute) name = text;
      else if (text.toLowerCase().startsWith('namespace\\')) name = (scope.namespace ? `${scope.namespace}\\` : '') + text.slice(10);
      else {
        const first = text.split('\\')[0];
        const alias = scope.aliases.get(first.toLowerCase());
        if (alias) name = alias + text.slice(first.length);
        else {
          name = (scope.namespace ? `${scope.namespace}\\` : '') + text;
          if (!text.includes('\\')) kind = 'same-package';
        }
      }
      const key = name.toLowerCase();
      if (scope.used.has(key) || scope.referenced.has(key) || this.declared.has(key)) continue;
      scope.referenced.add(key);
      this.imports.push({ specifier: name, kind, names: [name.slice(name.lastIndexOf('\\') + 1)], line: lineOf(node) });
    }
  }
}

/** Whether a name node stands where PHP expects a class name. */
function isClassPosition(n: TsNode): boolean {
  const p = n.parent;
  if (!p) return false;
  switch (p.type) {
    case 'base_clause':
    case 'class_interface_clause':
    case 'named_type':
    case 'object_creation_expression':
    case 'attribute':
    case 'use_declaration':
    case 'type_list':
      return true;
    case 'scoped_call_expression':
    case 'class_constant_access_expression':
    case 'scoped_property_access_expression':
      return p.namedChildren[0]?.startIndex === n.startIndex;
    case 'binary_expression':
      return p.childForFieldName('operator')?.text === 'instanceof' && p.childForFieldName('right')?.startIndex === n.startIndex;
    default:
      return false;
  }
}

export function parsePhp({ root }: ParseInput): ParsedFile {
  const r = new Reader();
  r.statements(root, true);
  r.resolveReferences();
  const exports: ExportRecord[] = r.symbols.filter((s) => s.exported).map((s) => ({ name: s.name, kind: s.kind, line: s.line }));
  return { imports: r.imports, exports, symbols: r.symbols, docComment: r.firstTypeDoc ?? r.fileDoc, moduleSystem: 'none', syntaxError: firstSyntaxError(root) };
}
