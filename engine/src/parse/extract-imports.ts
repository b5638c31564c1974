/**
 * Import facts: ES imports and re-exports, `require()`, `import()`, TS `import x = require()` and `import('x').T`.
 * Works on the AST only, so text inside comments and strings is never taken for an import.
 */
import type {
  CallExpression,
  ExportAllDeclaration,
  ExportDefaultDeclaration,
  ExportNamedDeclaration,
  ImportDeclaration,
  Node,
  Program,
  TSEntityName,
  TSImportEqualsDeclaration,
  TSImportType,
} from '@babel/types';
import type { ImportRecord, ReexportBinding } from '../types.js';
import { lineOf, memberName, nameOf, staticString } from './ast-utils.js';

/** What a local name imported by an import statement of this file refers to. */
export interface ImportBinding {
  specifier: string;
  /** name in the imported module: `default`, a named export, or `*` for a namespace / `import x = require()` */
  imported: string;
  typeOnly: boolean;
}

function isTypeKind(kind: string | null | undefined): boolean {
  return kind === 'type' || kind === 'typeof';
}

function importedName(specifier: ImportDeclaration['specifiers'][number]): string {
  if (specifier.type === 'ImportDefaultSpecifier') return 'default';
  if (specifier.type === 'ImportNamespaceSpecifier') return '*';
  return nameOf(specifier.imported) ?? specifier.local.name;
}

/** `import type …`, or every specifier marked `type` (`import { type A, type B }`). */
function isTypeOnlyImport(node: ImportDeclaration): boolean {
  if (isTypeKind(node.importKind)) return true;
  return node.specifiers.length > 0 && node.specifiers.every((s) => s.type === 'ImportSpecifier' && isTypeKind(s.importKind));
}

/** Local bindings created by the top-level import statements of `program`. */
export function collectImportBindings(program: Program): Map<string, ImportBinding> {
  const bindings = new Map<string, ImportBinding>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      const declarationTypeOnly = isTypeKind(statement.importKind);
      for (const specifier of statement.specifiers) {
        bindings.set(specifier.local.name, {
          specifier: statement.source.value,
          imported: importedName(specifier),
          typeOnly: declarationTypeOnly || (specifier.type === 'ImportSpecifier' && isTypeKind(specifier.importKind)),
        });
      }
    } else if (statement.type === 'TSImportEqualsDeclaration' && statement.moduleReference.type === 'TSExternalModuleReference') {
      bindings.set(statement.id.name, {
        specifier: statement.moduleReference.expression.value,
        imported: '*',
        typeOnly: statement.importKind === 'type',
      });
    }
  }
  return bindings;
}

/** Leftmost name of `A.B.C` (the name looked up in the imported module). */
function firstName(entity: TSEntityName): string {
  let node: Node = entity;
  while (node.type === 'TSQualifiedName') node = node.left;
  return node.type === 'Identifier' ? node.name : '*';
}

/** Names a `require()` call takes from the module, judged from where the call sits. */
function requiredNames(call: Node, parent: Node | null): string[] {
  if (!parent) return ['*'];
  if ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.object === call) {
    const name = memberName(parent);
    return name === null ? ['*'] : [name];
  }
  let pattern: Node | null = null;
  if (parent.type === 'VariableDeclarator' && parent.init === call) pattern = parent.id;
  else if (parent.type === 'AssignmentExpression' && parent.right === call) pattern = parent.left;
  if (pattern?.type !== 'ObjectPattern') return ['*'];
  const names: string[] = [];
  for (const property of pattern.properties) {
    const key = property.type === 'ObjectProperty' ? (property.computed ? staticString(property.key) : nameOf(property.key)) : null;
    if (key === null) return ['*']; // `...rest` or a computed key: anything may be used
    names.push(key);
  }
  return names;
}

export class ImportCollector {
  private readonly records: { start: number; record: ImportRecord }[] = [];
  /** an ES import or export statement was seen at the top level */
  esm = false;
  /** a `require()` call or a TS `import x = require()` was seen */
  cjs = false;

  constructor(private readonly bindings: Map<string, ImportBinding>) {}

  private add(node: Node, record: ImportRecord): void {
    this.records.push({ start: node.start ?? 0, record });
  }

  visit(node: Node, parent: Node | null): void {
    switch (node.type) {
      case 'ImportDeclaration':
        this.importDeclaration(node, parent);
        break;
      case 'ExportAllDeclaration':
        this.exportAll(node, parent);
        break;
      case 'ExportNamedDeclaration':
        if (parent?.type === 'Program') this.esm = true;
        if (node.source) this.exportFrom(node);
        else if (parent?.type === 'Program') this.localReexports(node);
        break;
      case 'ExportDefaultDeclaration':
        if (parent?.type === 'Program') {
          this.esm = true;
          this.defaultReexport(node);
        }
        break;
      case 'CallExpression':
        this.call(node, parent);
        break;
      case 'ImportExpression': {
        const specifier = staticString(node.source);
        if (specifier !== null) this.add(node, { specifier, kind: 'dynamic-import', names: ['*'], line: lineOf(node) });
        break;
      }
      case 'MetaProperty':
        if (node.meta.name === 'import' && node.property.name === 'meta') this.esm = true;
        break;
      case 'TSImportEqualsDeclaration':
        this.importEquals(node);
        break;
      case 'TSImportType':
        this.importType(node);
        break;
      default:
        break;
    }
  }

  private importDeclaration(node: ImportDeclaration, parent: Node | null): void {
    if (parent?.type === 'Program') this.esm = true;
    this.add(node, {
      specifier: node.source.value,
      kind: isTypeOnlyImport(node) ? 'type-import' : 'import',
      names: node.specifiers.map(importedName),
      line: lineOf(node),
    });
  }

  private exportAll(node: ExportAllDeclaration, parent: Node | null): void {
    if (parent?.type === 'Program') this.esm = true;
    this.add(node, {
      specifier: node.source.value,
      kind: node.exportKind === 'type' ? 'type-import' : 'reexport',
      names: ['*'],
      line: lineOf(node),
      reexports: [{ imported: '*', exported: '*' }],
    });
  }

  /** `export { a as b } from './x'`, `export * as ns from './x'`, `export v from './x'` */
  private exportFrom(node: ExportNamedDeclaration): void {
    const reexports: ReexportBinding[] = [];
    for (const specifier of node.specifiers) {
      if (specifier.type === 'ExportNamespaceSpecifier') {
        reexports.push({ imported: '*', exported: specifier.exported.name });
      } else if (specifier.type === 'ExportDefaultSpecifier') {
        reexports.push({ imported: 'default', exported: specifier.exported.name });
      } else {
        const imported = nameOf(specifier.local) ?? 'default';
        reexports.push({ imported, exported: nameOf(specifier.exported) ?? imported });
      }
    }
    const specifier = node.source!.value;
    const line = lineOf(node);
    if (reexports.length === 0) {
      // `export {} from './x'` only runs the module
      this.add(node, { specifier, kind: 'import', names: [], line });
      return;
    }
    const typeOnly =
      node.exportKind === 'type' || node.specifiers.every((s) => s.type === 'ExportSpecifier' && s.exportKind === 'type');
    this.add(node, {
      specifier,
      kind: typeOnly ? 'type-import' : 'reexport',
      names: reexports.map((r) => r.imported),
      line,
      reexports,
    });
  }

  /** `import { a } from './x'; export { a as b }` re-exports `./x`'s `a`: one record per imported module. */
  private localReexports(node: ExportNamedDeclaration): void {
    const groups = new Map<string, { specifier: string; typeOnly: boolean; reexports: ReexportBinding[] }>();
    for (const specifier of node.specifiers) {
      if (specifier.type !== 'ExportSpecifier') continue;
      const local = nameOf(specifier.local);
      const binding = local === null ? undefined : this.bindings.get(local);
      if (!binding) continue;
      const typeOnly = binding.typeOnly || node.exportKind === 'type' || specifier.exportKind === 'type';
      const key = `${typeOnly ? 'type' : 'value'}\u0000${binding.specifier}`;
      let group = groups.get(key);
      if (!group) {
        group = { specifier: binding.specifier, typeOnly, reexports: [] };
        groups.set(key, group);
      }
      group.reexports.push({ imported: binding.imported, exported: nameOf(specifier.exported) ?? local! });
    }
    for (const group of groups.values()) {
      this.add(node, {
        specifier: group.specifier,
        kind: group.typeOnly ? 'type-import' : 'reexport',
        names: group.reexports.map((r) => r.imported),
        line: lineOf(node),
        reexports: group.reexports,
      });
    }
  }

  /** `import a from './x'; export default a` */
  private defaultReexport(node: ExportDefaultDeclaration): void {
    if (node.declaration.type !== 'Identifier') return;
    const binding = this.bindings.get(node.declaration.name);
    if (!binding) return;
    this.add(node, {
      specifier: binding.specifier,
      kind: binding.typeOnly ? 'type-import' : 'reexport',
      names: [binding.imported],
      line: lineOf(node),
      reexports: [{ imported: binding.imported, exported: 'default' }],
    });
  }

  private call(node: CallExpression, parent: Node | null): void {
    const callee = node.callee;
    if (callee.type === 'Import') {
      const specifier = staticString(node.arguments[0]);
      if (specifier !== null) this.add(node, { specifier, kind: 'dynamic-import', names: ['*'], line: lineOf(node) });
      return;
    }
    if (callee.type !== 'Identifier' || callee.name !== 'require' || node.arguments.length !== 1) return;
    const specifier = staticString(node.arguments[0]);
    if (specifier === null) return;
    this.cjs = true;
    this.add(node, { specifier, kind: 'require', names: requiredNames(node, parent), line: lineOf(node) });
  }

  private importEquals(node: TSImportEqualsDeclaration): void {
    if (node.moduleReference.type !== 'TSExternalModuleReference') return; // `import A = B.C` is a namespace alias
    const typeOnly = node.importKind === 'type';
    if (!typeOnly) this.cjs = true;
    this.add(node, {
      specifier: node.moduleReference.expression.value,
      kind: typeOnly ? 'type-import' : 'require',
      names: ['*'],
      line: lineOf(node),
    });
  }

  /** `import('./x').Foo` in a type; `typeof import('./x')` */
  private importType(node: TSImportType): void {
    const argument = node.argument as Node;
    const specifier =
      argument.type === 'TSLiteralType' ? staticString(argument.literal as Node) : staticString(argument);
    if (specifier === null) return;
    this.add(node, {
      specifier,
      kind: 'type-import',
      names: node.qualifier ? [firstName(node.qualifier)] : ['*'],
      line: lineOf(node),
    });
  }

  /** The records in source order. */
  result(): ImportRecord[] {
    return this.records.sort((a, b) => a.start - b.start).map((r) => r.record);
  }
}
