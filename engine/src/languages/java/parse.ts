/**
 * The facts of one Java file from its tree-sitter tree.
 *
 * Imports, one record per statement: `import a.b.C;` → `a.b.C` (names `C`), `import a.b.*;` → `a.b.*` (names: the
 * simple type names the file uses that nothing nearer declares: the resolver keeps those the package has),
 * `import static a.b.C.m;` → `a.b.C.m` (names `m`), `import static a.b.C.*;` → `a.b.C.*`. Then the references the
 * language allows without an import: one `same-package` record, specifier `<package>.*`, whose names are those same
 * used type names; each fully-qualified type name written in the code (`a.b.C x;`, `a.b.C.f` in an expression,
 * leading parts lower-case) as an `import` of `a.b.C` marked `reference` (it imports nothing: a supertype named `C`
 * elsewhere in the file is not that one); in `module-info.java`, the types `uses` and `provides` name.
 *
 * "Used type names" follow Java's scoping (JLS 6.4.1): a simple name that is a type somewhere in the file (a type,
 * `new X()`, a cast, an annotation, the qualifier of `X.m()`, `X.F`, `X::m`), minus the file's own type declarations
 * and type parameters and minus what single-type imports name (they shadow the package and on-demand imports).
 *
 * Exports: the public top-level types (class, interface, enum, record → `class`, `@interface` → `interface`) and the
 * public methods, fields, nested types and enum constants of those (`Type.member`), at their names' lines. Symbols:
 * the package (a `namespace` symbol, not exported), every top-level type and every member type (`Outer.Inner`,
 * exported when public, marked `private` when private), each with its supertypes as written (what the resolver
 * follows for inherited member types). The doc comment: the Javadoc of the file's first public top-level type (else its first
 * type), or the package's Javadoc in `package-info.java`.
 */
import type { ExportKind, ExportRecord, ImportRecord, ParsedFile, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
import { firstSyntaxError, lineOf, type ParseInput } from '../types.js';

const TYPE_DECLARATIONS: Record<string, SymbolKind & ExportKind> = {
  class_declaration: 'class',
  record_declaration: 'class',
  interface_declaration: 'interface',
  annotation_type_declaration: 'interface',
  enum_declaration: 'enum',
};

const upper = (name: string): boolean => /^\p{Lu}/u.test(name);

/** The nodes the reader of used names looks at, in one walk. */
const WALKED = [...Object.keys(TYPE_DECLARATIONS), 'type_parameter', 'type_identifier', 'scoped_type_identifier', 'field_access', 'method_invocation', 'method_reference', 'marker_annotation', 'annotation'];

/** `a.b.C` with whitespace and comments between the parts dropped. */
const dotted = (node: TsNode): string => node.text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|\s+/g, '');

function modifiersOf(decl: TsNode): string {
  const m = decl.namedChildren.find((c) => c.type === 'modifiers');
  return m ? m.text : '';
}
const isPublic = (decl: TsNode): boolean => /(^|\s)public(\s|$)/.test(modifiersOf(decl).replace(/@\w+(\([^)]*\))?/g, ' '));

/** The text of a Javadoc comment: `/** … *\/` without its frame, leading `*`s, block tags and inline-tag braces. */
export function javadocText(comment: string): string | null {
  if (!comment.startsWith('/**') || comment === '/**/') return null;
  const lines = comment
    .slice(3, -2)
    .split('\n')
    .map((l) => l.replace(/^\s*\*? ?/, ''));
  const tag = lines.findIndex((l) => /^\s*@\w/.test(l));
  const body = (tag >= 0 ? lines.slice(0, tag) : lines)
    .join('\n')
    .replace(/\{@(?:code|link|linkplain|literal|value)\s+([^}]*)\}/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .trim();
  return body || null;
}

/** The Javadoc right before `node` among its siblings (comments in between that are not Javadoc are skipped). */
function javadocBefore(node: TsNode, siblings: TsNode[]): string | null {
  for (let i = siblings.indexOf(node) - 1; i >= 0; i--) {
    const c = siblings[i];
    if (c.type !== 'block_comment' && c.type !== 'line_comment' && c.type !== 'comment') return null;
    if (c.text.startsWith('/**')) return javadocText(c.text);
  }
  return null;
}

export function parseJava({ root }: ParseInput): ParsedFile {
  const imports: ImportRecord[] = [];
  const symbols: SymbolRecord[] = [];
  const exports: ExportRecord[] = [];
  const children = root.namedChildren;
  let pkg = '';
  let pkgLine = 1;
  let docComment: string | null = null;
  let firstDoc: string | null = null;
  let publicDoc: string | null = null;
  const singleImported = new Set<string>();
  const onDemand: ImportRecord[] = [];

  for (const node of children) {
    if (node.type === 'package_declaration') {
      const name = node.namedChildren.find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
      if (name) pkg = dotted(name);
      pkgLine = lineOf(node);
      docComment ??= javadocBefore(node, children);
    } else if (node.type === 'import_declaration') {
      const name = node.namedChildren.find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
      if (!name) continue;
      const isStatic = node.children.some((c) => c.type === 'static');
      const star = node.namedChildren.some((c) => c.type === 'asterisk');
      const path = dotted(name);
      const last = path.slice(path.lastIndexOf('.') + 1);
      const record: ImportRecord = { specifier: star ? `${path}.*` : path, kind: 'import', names: star ? ['*'] : [last], line: lineOf(node) };
      imports.push(record);
      if (star && !isStatic) onDemand.push(record);
      else if (!isStatic) singleImported.add(last);
    } else if (node.type === 'module_declaration') {
      // module-info.java: the services a module uses and provides name types (`uses a.b.S;`, `provides a.b.S with c.D;`)
      for (const d of node.descendantsOfType(['uses_module_directive', 'provides_module_directive'])) {
        for (const n of d.namedChildren) {
          if (n.type !== 'scoped_identifier' && n.type !== 'identifier') continue;
          const path = dotted(n);
          imports.push({ specifier: path, kind: 'import', names: [path.slice(path.lastIndexOf('.') + 1)], line: lineOf(d) });
        }
      }
    } else if (node.type in TYPE_DECLARATIONS) {
      const nameNode = node.childForFieldName('name');
      if (!nameNode) continue;
      const name = nameNode.text;
      const kind = TYPE_DECLARATIONS[node.type];
      const pub = isPublic(node);
      // the line of the name: a declaration's node starts at its annotations
      const line = lineOf(nameNode);
      symbols.push(typeSymbol(node, name, line, pub));
      memberTypes(node, name, symbols);
      const doc = javadocBefore(node, children);
      firstDoc ??= doc;
      if (pub) {
        publicDoc ??= doc;
        exports.push({ name, kind, line });
        exports.push(...publicMembers(node, name));
      }
    }
  }
  docComment ??= publicDoc ?? firstDoc;

  // the simple type names the file uses, and fully-qualified names written out: one walk of the tree (each
  // descendantsOfType is a walk of its own), parents met before their children
  const declared = new Set<string>();
  const used = new Set<string>();
  const qualified = new Map<string, number>();
  /** start offsets of type_identifiers that are no name looked up in scope (`Outer.Inner`'s Inner, a type parameter) */
  const skip = new Set<number>();
  /** field accesses and scoped type names that are part of a longer one (`a.b` of `a.b.C`) */
  const inner = new Set<string>();
  const fqInCode = /^[\p{Ll}_$][\w$]*(\.[\p{Ll}_$][\w$]*)+\.\p{Lu}[\w$]*/u;
  for (const n of root.descendantsOfType(WALKED)) {
    switch (n.type) {
      case 'type_identifier':
        if (!skip.has(n.startIndex) && n.text !== 'var') used.add(n.text);
        break;
      case 'scoped_type_identifier': {
        // `Outer.Inner` or `a.b.C`: only the leftmost part is a name looked up in scope
        const [left, right] = n.namedChildren.filter((c) => c.type === 'type_identifier' || c.type === 'scoped_type_identifier');
        if (right) skip.add(right.startIndex);
        if (left?.type === 'type_identifier' && !upper(left.text)) skip.add(left.startIndex);
        if (!inner.has(`${n.startIndex}:${n.endIndex}`)) {
          const fq = qualifiedType(dotted(n));
          if (fq && !qualified.has(fq)) qualified.set(fq, lineOf(n));
        }
        if (left?.type === 'scoped_type_identifier') inner.add(`${left.startIndex}:${left.endIndex}`);
        break;
      }
      case 'type_parameter': {
        const name = n.namedChildren.find((c) => c.type === 'type_identifier' || c.type === 'identifier');
        if (name) {
          declared.add(name.text);
          skip.add(name.startIndex);
        }
        break;
      }
      case 'field_access': {
        const object = n.childForFieldName('object');
        if (object?.type === 'field_access') inner.add(`${object.startIndex}:${object.endIndex}`);
        if (!inner.has(`${n.startIndex}:${n.endIndex}`)) {
          // `a.b.C.x` in an expression: a qualified type when two or more lower-case names lead to a capitalised one
          const fq = fqInCode.exec(dotted(n))?.[0];
          if (fq && !qualified.has(fq)) qualified.set(fq, lineOf(n));
        }
        if (object?.type === 'identifier' && upper(object.text)) used.add(object.text);
        break;
      }
      case 'method_invocation': {
        const object = n.childForFieldName('object');
        if (object?.type === 'identifier' && upper(object.text)) used.add(object.text);
        break;
      }
      case 'method_reference': {
        const q = n.namedChild(0);
        if (q?.type === 'identifier' && upper(q.text)) used.add(q.text);
        break;
      }
      case 'marker_annotation':
      case 'annotation': {
        const q = n.childForFieldName('name');
        if (q?.type === 'identifier') used.add(q.text);
        break;
      }
      default: {
        const name = n.childForFieldName('name')?.text; // a type declaration
        if (name) declared.add(name);
      }
    }
  }
  const names = [...used].filter((n) => !declared.has(n) && !singleImported.has(n)).sort();
  for (const r of onDemand) if (names.length) r.names = names;
  if (names.length) imports.push({ specifier: pkg ? `${pkg}.*` : '*', kind: 'same-package', names, line: pkgLine });
  const explicit = new Set(imports.map((i) => i.specifier));
  for (const [fq, line] of qualified) if (!explicit.has(fq)) imports.push({ specifier: fq, kind: 'import', names: [fq.slice(fq.lastIndexOf('.') + 1)], line, reference: true });
  // the package, a symbol not exported (the resolver reads it: inherited member types named from the file's package)
  if (pkg) symbols.unshift({ name: pkg, kind: 'namespace', line: pkgLine, exported: false });

  return { imports, exports, symbols, docComment, moduleSystem: 'none', syntaxError: firstSyntaxError(root) };
}

/** A type's symbol, with its supertypes as written when it has any. */
function typeSymbol(decl: TsNode, name: string, line: number, exported: boolean): SymbolRecord {
  const symbol: SymbolRecord = { name, kind: TYPE_DECLARATIONS[decl.type], line, exported };
  const supertypes: string[] = [];
  for (const c of decl.namedChildren) {
    if (c.type !== 'superclass' && c.type !== 'super_interfaces' && c.type !== 'extends_interfaces') continue;
    const list = c.namedChildren.find((x) => x.type === 'type_list');
    for (const t of list ? list.namedChildren : c.namedChildren) {
      const named = t.type === 'generic_type' ? t.namedChildren.find((x) => x.type === 'type_identifier' || x.type === 'scoped_type_identifier') : t;
      if (named && (named.type === 'type_identifier' || named.type === 'scoped_type_identifier')) supertypes.push(dotted(named).replace(/@[\w.]+/g, ''));
    }
  }
  if (supertypes.length) symbol.supertypes = supertypes;
  return symbol;
}

/** The member types of a type (`Outer.Inner`, nested ones below), as symbols: what a subtype inherits unless private. */
function memberTypes(decl: TsNode, outer: string, out: SymbolRecord[]): void {
  const body = decl.childForFieldName('body');
  if (!body) return;
  const inInterface = decl.type === 'interface_declaration' || decl.type === 'annotation_type_declaration';
  const members = body.namedChildren.flatMap((m) => (m.type === 'enum_body_declarations' ? m.namedChildren : [m]));
  for (const m of members) {
    if (!(m.type in TYPE_DECLARATIONS)) continue;
    const nameNode = m.childForFieldName('name');
    if (!nameNode) continue;
    const name = `${outer}.${nameNode.text}`;
    const isPrivate = /(^|\s)private(\s|$)/.test(modifiersOf(m).replace(/@\w+(\([^)]*\))?/g, ' '));
    const symbol = typeSymbol(m, name, lineOf(nameNode), isPublic(m) || (inInterface && !isPrivate));
    if (isPrivate) symbol.private = true;
    out.push(symbol);
    memberTypes(m, name, out);
  }
}

/** `a.b.C.Inner` → `a.b.C` (up to the first capitalised part); null when no part is capitalised. */
function qualifiedType(name: string): string | null {
  const parts = name.split('.');
  const at = parts.findIndex(upper);
  return at > 0 ? parts.slice(0, at + 1).join('.') : null;
}

/** The public methods, fields, nested types and enum constants of a public type's body (an interface's members are public unless private). */
function publicMembers(decl: TsNode, typeName: string): ExportRecord[] {
  const body = decl.childForFieldName('body');
  if (!body) return [];
  const inInterface = decl.type === 'interface_declaration' || decl.type === 'annotation_type_declaration';
  const out: ExportRecord[] = [];
  const seen = new Set<string>();
  const add = (nameNode: TsNode | null, kind: ExportKind): void => {
    const name = nameNode?.text;
    if (!nameNode || !name || seen.has(name)) return;
    seen.add(name);
    out.push({ name: `${typeName}.${name}`, kind, line: lineOf(nameNode) });
  };
  for (const m of body.namedChildren) {
    const pub = isPublic(m) || (inInterface && !/(^|\s)private(\s|$)/.test(modifiersOf(m)));
    if (m.type === 'enum_body_declarations') continue;
    if (m.type === 'enum_constant') {
      add(m.childForFieldName('name'), 'const');
      continue;
    }
    if (!pub) continue;
    if (m.type in TYPE_DECLARATIONS) add(m.childForFieldName('name'), TYPE_DECLARATIONS[m.type]);
    else if (m.type === 'method_declaration' || m.type === 'annotation_type_element_declaration') add(m.childForFieldName('name'), 'function');
    else if (m.type === 'field_declaration' || m.type === 'constant_declaration') {
      const isConst = /(^|\s)static(\s|$)/.test(modifiersOf(m)) && /(^|\s)final(\s|$)/.test(modifiersOf(m));
      for (const d of m.childrenForFieldName('declarator')) add(d.childForFieldName('name'), isConst || m.type === 'constant_declaration' ? 'const' : 'variable');
    }
  }
  return out;
}
