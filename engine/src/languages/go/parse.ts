/**
 * The facts of one Go file from its tree-sitter tree: every import spec (the package's import path), the package
 * clause (a `namespace` symbol, not exported) and the top-level declarations (funcs, types, consts, vars, methods as
 * `Type.Method`; a capitalised name is exported), and the package doc comment (the comment right above the `package`
 * clause).
 *
 * Then what the language allows without an import: the unqualified names the file uses (identifiers and type names,
 * not selectors' fields nor a qualified type's name, not the predeclared ones, not the file's own top-level
 * declarations), as `same-package` records whose specifier is the package clause's name; the resolver binds them to
 * the files of the package declaring them. A name the file also declares locally (a parameter, `:=`, a local var,
 * const or type, a range variable) may be shadowed where it is used: those go in a second record, specifier
 * `<package> (also local)`, whose edges are inferred.
 */
import type { ExportRecord, ImportRecord, ParsedFile, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
import { firstSyntaxError, lineOf, type ParseInput } from '../types.js';

const exported = (name: string): boolean => /^\p{Lu}/u.test(name);

/** Go's universe block: names no package declares in practice (a package that does shadows them for itself only). */
const PREDECLARED = new Set(
  'any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close complex copy delete imag len make max min new panic print println real recover _'.split(' '),
);

/** The nodes the reader of used names looks at, in one walk of the tree. */
const WALKED = ['identifier', 'type_identifier', 'parameter_declaration', 'variadic_parameter_declaration', 'short_var_declaration', 'range_clause', 'var_spec', 'const_spec', 'type_spec', 'type_alias', 'type_parameter_declaration', 'qualified_type'];

/** The same-package records: the names `root` uses that it does not declare at top level (see the header). */
function samePackage(root: TsNode, pkg: string, line: number, topLevel: ReadonlySet<string>): ImportRecord[] {
  const used = new Set<string>();
  const local = new Set<string>();
  /** start offsets of identifiers that name no use: a qualified type's name, a declared name */
  const skip = new Set<number>();
  const declare = (n: TsNode | null | undefined): void => {
    if (n?.type === 'identifier' || n?.type === 'type_identifier') {
      skip.add(n.startIndex);
      local.add(n.text);
    }
  };
  for (const n of root.descendantsOfType(WALKED)) {
    switch (n.type) {
      case 'identifier':
      case 'type_identifier':
        if (!skip.has(n.startIndex)) used.add(n.text);
        break;
      case 'qualified_type': {
        const name = n.childForFieldName('name');
        if (name) skip.add(name.startIndex);
        break;
      }
      case 'parameter_declaration':
      case 'variadic_parameter_declaration':
      case 'var_spec':
      case 'const_spec':
      case 'type_parameter_declaration':
        // the declared names lead the node (`a, b int`, `T any`, `x = 1`; an unnamed parameter's type is a type
        // name, not a declaration); a top-level spec's names are the file's declarations (topLevel): never a use
        // either. Siblings, not field lookups: this runs for every parameter.
        for (let c = n.firstNamedChild; c?.type === 'identifier'; c = c.nextNamedSibling) declare(c);
        break;
      case 'type_spec':
      case 'type_alias':
        declare(n.firstNamedChild);
        break;
      case 'short_var_declaration':
      case 'range_clause': {
        // `a, b := …`, `for k, v := range …` (no names in `for range x`)
        const left = n.firstChild?.type === 'range' ? null : n.firstNamedChild;
        if (left?.type === 'expression_list') for (let c = left.firstNamedChild; c; c = c.nextNamedSibling) declare(c);
        else declare(left);
        break;
      }
      default:
        break;
    }
  }
  const exact: string[] = [];
  const shadowable: string[] = [];
  for (const name of [...used].sort()) {
    if (PREDECLARED.has(name) || topLevel.has(name)) continue;
    (local.has(name) ? shadowable : exact).push(name);
  }
  const out: ImportRecord[] = [];
  if (exact.length) out.push({ specifier: pkg, kind: 'same-package', names: exact, line });
  if (shadowable.length) out.push({ specifier: `${pkg} (also local)`, kind: 'same-package', names: shadowable, line });
  return out;
}

/** The value of a Go string literal (`"a/b"` or `` `a/b` ``). */
function literal(node: TsNode | null): string | null {
  if (!node) return null;
  const t = node.text;
  if (node.type === 'raw_string_literal') return t.slice(1, -1);
  if (node.type === 'interpreted_string_literal') {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  return null;
}

/** The receiver's type name of a method: `func (s *Server[T]) X()` → `Server`. */
function receiverType(method: TsNode): string | null {
  const receiver = method.childForFieldName('receiver');
  const param = receiver?.namedChildren.find((c) => c.type === 'parameter_declaration');
  let type = param?.childForFieldName('type') ?? null;
  while (type && (type.type === 'pointer_type' || type.type === 'generic_type' || type.type === 'parenthesized_type')) {
    type = type.type === 'generic_type' ? type.childForFieldName('type') : (type.namedChildren[0] ?? null);
  }
  return type?.type === 'type_identifier' ? type.text : null;
}

/** `// a` lines (or one block comment) ending on the line above `node`, with no blank line between. */
function docAbove(node: TsNode, siblings: TsNode[]): string | null {
  const lines: string[] = [];
  let expect = node.startPosition.row - 1;
  for (let i = siblings.indexOf(node) - 1; i >= 0; i--) {
    const c = siblings[i];
    if (c.type !== 'comment' || c.endPosition.row !== expect) break;
    const text = c.text;
    if (text.startsWith('//')) {
      if (/^\/\/(go:|\s*\+build)/.test(text)) break; // a directive, not documentation
      lines.unshift(text.slice(2).replace(/^ /, ''));
    } else
      lines.unshift(
        ...text
          .slice(2, -2)
          .split('\n')
          .map((l) => l.replace(/^\s*\*? ?/, '')),
      );
    expect = c.startPosition.row - 1;
  }
  const doc = lines.join('\n').trim();
  return doc || null;
}

export function parseGo({ root }: ParseInput): ParsedFile {
  const imports: ImportRecord[] = [];
  const symbols: SymbolRecord[] = [];
  const seen = new Set<string>();
  const symbol = (name: string | undefined, kind: SymbolKind, at: TsNode): void => {
    if (!name || name === '_' || seen.has(name)) return;
    seen.add(name);
    symbols.push({ name, kind, line: lineOf(at), exported: exported(name.slice(name.lastIndexOf('.') + 1)) && exported(name) });
  };
  const specs = (decl: TsNode, type: string): TsNode[] => decl.namedChildren.flatMap((c) => (c.type === type ? [c] : c.type.endsWith('_list') ? c.namedChildren.filter((s) => s.type === type) : []));
  const children = root.namedChildren;
  let docComment: string | null = null;
  let pkg: { name: string; line: number } | null = null;
  for (const node of children) {
    switch (node.type) {
      case 'package_clause': {
        docComment ??= docAbove(node, children);
        const name = node.namedChildren.find((c) => c.type === 'package_identifier')?.text;
        if (name && !pkg) pkg = { name, line: lineOf(node) };
        break;
      }
      case 'import_declaration':
        for (const spec of specs(node, 'import_spec')) {
          const path = literal(spec.childForFieldName('path'));
          if (path === null) continue;
          const alias = spec.childForFieldName('name')?.text;
          imports.push({ specifier: path, kind: 'import', names: alias === '_' ? [] : ['*'], line: lineOf(spec) });
        }
        break;
      case 'function_declaration':
        symbol(node.childForFieldName('name')?.text, 'function', node);
        break;
      case 'method_declaration': {
        const type = receiverType(node);
        const name = node.childForFieldName('name')?.text;
        if (type && name) symbol(`${type}.${name}`, 'function', node);
        break;
      }
      case 'type_declaration':
        for (const spec of node.namedChildren) {
          if (spec.type !== 'type_spec' && spec.type !== 'type_alias') continue;
          const t = spec.childForFieldName('type')?.type;
          symbol(spec.childForFieldName('name')?.text, t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type', spec);
        }
        break;
      case 'const_declaration':
      case 'var_declaration':
        for (const spec of specs(node, node.type === 'const_declaration' ? 'const_spec' : 'var_spec')) {
          // every name of `a, b = …` (web-tree-sitter's field children include the commas between them)
          for (const name of spec.childrenForFieldName('name')) if (name.type === 'identifier') symbol(name.text, node.type === 'const_declaration' ? 'const' : 'variable', spec);
        }
        break;
      default:
        break;
    }
  }
  if (pkg) {
    imports.push(...samePackage(root, pkg.name, pkg.line, new Set(symbols.map((s) => s.name))));
    // the package clause, a symbol not exported: the resolver groups a folder's files by it (resolve.ts)
    symbols.unshift({ name: pkg.name, kind: 'namespace', line: pkg.line, exported: false });
  }
  const exports: ExportRecord[] = symbols.filter((s) => s.exported).map((s) => ({ name: s.name, kind: s.kind, line: s.line }));
  return { imports, exports, symbols, docComment, moduleSystem: 'none', syntaxError: firstSyntaxError(root) };
}
