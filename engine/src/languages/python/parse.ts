/**
 * The facts of one Python file from its tree-sitter tree: every import statement (wherever it is, with a kind that
 * says when it runs), the top-level names (functions, classes, assignments; `__all__` decides what is exported when
 * present), and the module docstring.
 */
import type { ExportRecord, ImportKind, ImportRecord, ParsedFile, ReexportBinding, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
import { firstSyntaxError, lineOf, type ParseInput } from '../types.js';

/** Statements that hold other statements: an import may sit in any of them. Expressions never hold one. */
const CONTAINERS = new Set([
  'block',
  'if_statement',
  'elif_clause',
  'else_clause',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'with_statement',
  'for_statement',
  'while_statement',
  'function_definition',
  'class_definition',
  'decorated_definition',
  'match_statement',
  'case_clause',
]);

/** Where a statement sits decides its kind: in a function it runs lazily; under `if TYPE_CHECKING` never at run time. */
interface Context {
  inFunction: boolean;
  typeOnly: boolean;
  conditional: boolean;
  /** at the module's top level (through top-level if/try blocks too: `conditional` says which) */
  topLevel: boolean;
}

const TYPE_CHECKING = /^(?:typing\.|t\.)?TYPE_CHECKING$/;

function kindOf(ctx: Context): ImportKind {
  if (ctx.typeOnly) return 'type-import';
  if (ctx.inFunction) return 'lazy-import';
  if (ctx.conditional) return 'conditional-import';
  return 'import';
}

/** The text of a string literal without prefix and quotes (a docstring or an `__all__` entry); null for an f-string. */
export function stringValue(node: TsNode): string | null {
  if (node.type !== 'string') return null;
  let text = '';
  for (const c of node.namedChildren) {
    if (c.type === 'string_content') text += c.text;
    else if (c.type === 'interpolation') return null;
  }
  return text;
}

function dottedName(node: TsNode | null): string | null {
  if (!node) return null;
  return node.type === 'dotted_name' ? node.text.replace(/\s+/g, '') : null;
}

class Reader {
  imports: ImportRecord[] = [];
  symbols: SymbolRecord[] = [];
  private readonly symbolNames = new Set<string>();
  all: string[] | null = null;
  /** names bound at the top level by imports: exported only when `__all__` lists them */
  importedNames = new Map<string, number>();

  /** names bound at the top level by `from … import` (what a package's __init__.py re-exports) */
  fromNames = new Map<string, number>();

  constructor(readonly isPackageInit: boolean) {}

  statements(parent: TsNode, ctx: Context): void {
    for (const node of parent.namedChildren) this.statement(node, ctx);
  }

  statement(node: TsNode, ctx: Context): void {
    switch (node.type) {
      case 'import_statement':
        this.importStatement(node, ctx);
        return;
      case 'import_from_statement':
        this.fromStatement(node, ctx);
        return;
      case 'future_import_statement':
        this.imports.push({ specifier: '__future__', kind: kindOf(ctx), names: node.childrenForFieldName('name').map((n) => n.text), line: lineOf(node) });
        return;
      case 'function_definition':
        if (ctx.topLevel) this.symbol(node.childForFieldName('name'), 'function', node);
        this.statements(node.childForFieldName('body') ?? node, { ...ctx, inFunction: true, topLevel: false });
        return;
      case 'class_definition':
        if (ctx.topLevel) this.symbol(node.childForFieldName('name'), 'class', node);
        // a class body runs when the module loads: its imports are the module's, but its names are not top-level
        this.statements(node.childForFieldName('body') ?? node, { ...ctx, topLevel: false });
        return;
      case 'decorated_definition': {
        const def = node.childForFieldName('definition');
        if (def) this.statement(def, ctx);
        return;
      }
      case 'expression_statement':
        if (ctx.topLevel) this.assignment(node);
        return;
      case 'type_alias_statement':
        if (ctx.topLevel) {
          const left = node.childForFieldName('left');
          const name = left?.namedChildren.find((c) => c.type === 'identifier') ?? left;
          this.symbol(name ?? null, 'type', node);
        }
        return;
      case 'if_statement': {
        const condition = node.childForFieldName('condition');
        const typeOnly = condition !== null && TYPE_CHECKING.test(condition.text.replace(/\s+/g, ''));
        for (const c of node.namedChildren) {
          if (c === condition) continue;
          // the `else` of `if TYPE_CHECKING:` runs at run time
          const inner = typeOnly && c.type === 'block' ? { ...ctx, typeOnly: true } : { ...ctx, conditional: true };
          if (c.type === 'block') this.statements(c, inner);
          else if (CONTAINERS.has(c.type)) this.statement(c, { ...ctx, conditional: true });
        }
        return;
      }
      case 'elif_clause':
      case 'else_clause':
      case 'except_clause':
      case 'except_group_clause':
      case 'finally_clause':
      case 'case_clause':
      case 'match_statement':
      case 'try_statement':
      case 'with_statement':
      case 'for_statement':
      case 'while_statement': {
        // a `with` body runs unconditionally, the others may not run (or fail and be caught: try)
        const inner = node.type === 'with_statement' ? ctx : { ...ctx, conditional: true };
        for (const c of node.namedChildren) if (CONTAINERS.has(c.type)) this.statement(c, inner);
        return;
      }
      case 'block':
        this.statements(node, ctx);
        return;
      default:
        return;
    }
  }

  importStatement(node: TsNode, ctx: Context): void {
    const kind = kindOf(ctx);
    for (const n of node.childrenForFieldName('name')) {
      const aliased = n.type === 'aliased_import';
      const name = dottedName(aliased ? n.childForFieldName('name') : n);
      if (!name) continue;
      this.imports.push({ specifier: name, kind, names: ['*'], line: lineOf(node) });
      if (ctx.topLevel) this.importedNames.set(aliased ? (n.childForFieldName('alias')?.text ?? name) : name.split('.')[0], lineOf(node));
    }
  }

  fromStatement(node: TsNode, ctx: Context): void {
    const module = node.childForFieldName('module_name');
    if (!module) return;
    const specifier = module.text.replace(/\s+/g, '');
    const names: string[] = [];
    const reexports: ReexportBinding[] = [];
    if (node.namedChildren.some((c) => c.type === 'wildcard_import')) {
      names.push('*');
      reexports.push({ imported: '*', exported: '*' });
    }
    for (const n of node.childrenForFieldName('name')) {
      const aliased = n.type === 'aliased_import';
      const name = dottedName(aliased ? n.childForFieldName('name') : n);
      if (!name) continue;
      const local = aliased ? (n.childForFieldName('alias')?.text ?? name) : name;
      names.push(name);
      reexports.push({ imported: name, exported: local });
      if (ctx.topLevel) this.importedNames.set(local, lineOf(node));
      if (ctx.topLevel && !ctx.conditional && !ctx.typeOnly) this.fromNames.set(local, lineOf(node));
    }
    const kind = kindOf(ctx);
    // what a package's __init__.py imports at load time is the package's own namespace: `from pkg import X` reaches it
    if (this.isPackageInit && kind === 'import') this.imports.push({ specifier, kind: 'reexport', names, line: lineOf(node), reexports });
    else this.imports.push({ specifier, kind, names, line: lineOf(node) });
  }

  assignment(statement: TsNode): void {
    for (const node of statement.namedChildren) {
      if (node.type === 'augmented_assignment') {
        const left = node.childForFieldName('left');
        if (left?.text === '__all__') this.allNames(node.childForFieldName('right'), true);
        continue;
      }
      let n: TsNode | null = node;
      while (n && n.type === 'assignment') {
        const left = n.childForFieldName('left');
        for (const target of left ? targets(left) : []) {
          if (target.text === '__all__') this.allNames(n.childForFieldName('right'), false);
          else this.symbol(target, /^[A-Z][A-Z0-9_]*$/.test(target.text) ? 'const' : 'variable', statement);
        }
        n = n.childForFieldName('right');
      }
    }
  }

  allNames(value: TsNode | null, extend: boolean): void {
    if (!value || (value.type !== 'list' && value.type !== 'tuple')) return;
    const names = value.namedChildren.map(stringValue).filter((s): s is string => s !== null);
    this.all = extend && this.all ? [...this.all, ...names] : names;
  }

  symbol(name: TsNode | null, kind: SymbolKind, at: TsNode): void {
    if (!name || name.type !== 'identifier') return;
    if (this.symbolNames.has(name.text)) return; // the first binding is where to look (a later one is usually a fallback or an override)
    this.symbolNames.add(name.text);
    this.symbols.push({ name: name.text, kind, line: lineOf(at), exported: false });
  }
}

/** The names an assignment's left side binds: `a`, `a, b`, `(a, b)`, `[a, b]`; never attributes or subscripts. */
function targets(left: TsNode): TsNode[] {
  if (left.type === 'identifier') return [left];
  if (left.type === 'pattern_list' || left.type === 'tuple_pattern' || left.type === 'list_pattern') return left.namedChildren.flatMap(targets);
  return [];
}

/** The module docstring: a string as the first statement. */
function docstring(root: TsNode): string | null {
  const first = root.namedChildren.find((c) => c.type !== 'comment');
  if (!first || first.type !== 'expression_statement') return null;
  const s = first.namedChild(0);
  if (!s || s.type !== 'string') return null;
  if (/^[a-zA-Z]*[bBfF]/.test(s.text)) return null; // bytes and f-strings are not docstrings
  const text = stringValue(s);
  if (text === null) return null;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  // PEP 257 trimming: the indentation of the lines after the first, and blank lines around
  const indent = Math.min(...lines.slice(1).filter((l) => l.trim()).map((l) => l.length - l.trimStart().length), Infinity);
  const trimmed = [lines[0].trim(), ...lines.slice(1).map((l) => (indent === Infinity ? l : l.slice(indent)).trimEnd())].join('\n').trim();
  return trimmed || null;
}

export function parsePython({ path, root }: ParseInput): ParsedFile {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const reader = new Reader(name === '__init__.py' || name === '__init__.pyi');
  reader.statements(root, { inFunction: false, typeOnly: false, conditional: false, topLevel: true });
  const exports: ExportRecord[] = [];
  if (reader.all !== null) {
    const seen = new Set<string>();
    for (const n of reader.all) {
      if (seen.has(n)) continue;
      seen.add(n);
      const symbol = reader.symbols.find((s) => s.name === n);
      if (symbol) {
        symbol.exported = true;
        exports.push({ name: n, kind: symbol.kind, line: symbol.line });
      } else if (reader.importedNames.has(n)) exports.push({ name: n, kind: 'reexport', line: reader.importedNames.get(n)! });
    }
  } else {
    for (const s of reader.symbols) {
      if (s.name.startsWith('_')) continue;
      s.exported = true;
      exports.push({ name: s.name, kind: s.kind, line: s.line });
    }
    // a package's __init__.py: what it imports by name is the package's API (`from pkg import X`)
    if (reader.isPackageInit) {
      for (const [name, line] of reader.fromNames) if (!name.startsWith('_') && !reader.symbols.some((s) => s.name === name)) exports.push({ name, kind: 'reexport', line });
    }
  }
  exports.sort((a, b) => a.line - b.line || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { imports: reader.imports, exports, symbols: reader.symbols, docComment: docstring(root), moduleSystem: 'none', syntaxError: firstSyntaxError(root) };
}
