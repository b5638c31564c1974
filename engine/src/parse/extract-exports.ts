/**
 * Export facts: ES export statements (top level only: `export` inside a TS namespace is not a module export)
 * and CommonJS exports (`module.exports = …`, `exports.x = …`, `Object.defineProperty(exports, 'x', …)`) anywhere.
 */
import type {
  AssignmentExpression,
  CallExpression,
  ExportDefaultDeclaration,
  ExportNamedDeclaration,
  Node,
} from '@babel/types';
import type { ExportKind, ExportRecord, SymbolKind } from '../types.js';
import { isExportsObject, isModuleExports, lineOf, memberName, nameOf } from './ast-utils.js';
import { declaredSymbols } from './extract-symbols.js';
import type { ImportBinding } from './extract-imports.js';

/** `exports.a = exports.b = void 0`: what TypeScript emits to declare CommonJS exports before assigning them. */
function isVoidPlaceholder(node: AssignmentExpression): boolean {
  let value: Node = node.right;
  while (value.type === 'AssignmentExpression') value = value.right;
  return value.type === 'UnaryExpression' && value.operator === 'void';
}

/** An export found at offset `start`; `weak`: a TypeScript-style `exports.a = void 0` placeholder, superseded by a later real assignment of `a`. */
export interface PendingExport {
  start: number;
  record: ExportRecord;
  weak: boolean;
}

/** Records in source order, de-duplicated by name (first wins, placeholders only when nothing else exports the name). */
export function orderExports(records: PendingExport[]): ExportRecord[] {
  const strong = new Set<string>();
  for (const { record, weak } of records) if (!weak) strong.add(record.name);
  const seen = new Set<string>();
  const out: ExportRecord[] = [];
  for (const { record, weak } of records.sort((a, b) => a.start - b.start)) {
    if (seen.has(record.name) || (weak && strong.has(record.name))) continue;
    seen.add(record.name);
    out.push(record);
  }
  return out;
}

export class ExportCollector {
  private readonly records: PendingExport[] = [];
  /** local names exported by name (`export { a }`, `export default a`, `module.exports = { a }` …) */
  readonly exportedLocals = new Set<string>();
  /** a CommonJS (or TS `export =`) export was seen */
  cjs = false;

  /**
   * @param localKinds kind of each top-level declaration, by name
   * @param bindings   names bound by this file's import statements
   */
  constructor(
    private readonly localKinds: Map<string, SymbolKind>,
    private readonly bindings: Map<string, ImportBinding>,
  ) {}

  private add(node: Node, name: string, kind: ExportKind, line = lineOf(node), weak = false): void {
    this.records.push({ start: node.start ?? 0, record: { name, kind, line }, weak });
  }

  visit(node: Node, parent: Node | null): void {
    const topLevel = parent?.type === 'Program';
    switch (node.type) {
      case 'ExportNamedDeclaration':
        if (topLevel) this.exportNamed(node);
        break;
      case 'ExportDefaultDeclaration':
        if (topLevel) this.exportDefault(node);
        break;
      case 'DeclareExportDeclaration':
        // Flow `declare export function f(): void;`, `declare export default T;`
        if (topLevel && node.declaration) {
          if (node.default) this.add(node, 'default', 'default');
          else for (const { name, kind, line } of declaredSymbols(node.declaration)) this.add(node, name, kind, line);
        }
        break;
      case 'TSExportAssignment':
        if (topLevel) {
          this.cjs = true;
          if (node.expression.type === 'Identifier') this.exportedLocals.add(node.expression.name);
          this.add(node, 'export=', 'cjs');
        }
        break;
      case 'TSImportEqualsDeclaration':
        if (topLevel && node.isExport) this.add(node, node.id.name, 'variable');
        break;
      case 'AssignmentExpression':
        this.assignment(node);
        break;
      case 'CallExpression':
        this.defineProperty(node);
        break;
      default:
        break;
    }
  }

  private exportNamed(node: ExportNamedDeclaration): void {
    if (node.declaration) {
      for (const { name, kind, line } of declaredSymbols(node.declaration)) this.add(node, name, kind, line);
      return;
    }
    for (const specifier of node.specifiers) {
      if (specifier.type !== 'ExportSpecifier') {
        // `export * as ns from`, `export v from`
        this.add(node, specifier.exported.name, 'reexport');
        continue;
      }
      const local = nameOf(specifier.local);
      const exported = nameOf(specifier.exported) ?? local;
      if (exported === null) continue;
      if (node.source) {
        this.add(node, exported, 'reexport');
        continue;
      }
      if (local !== null) this.exportedLocals.add(local);
      const kind: ExportKind | undefined =
        local === null ? undefined : this.bindings.has(local) ? 'reexport' : this.localKinds.get(local);
      this.add(node, exported, kind ?? (node.exportKind === 'type' ? 'type' : 'variable'));
    }
  }

  private exportDefault(node: ExportDefaultDeclaration): void {
    if (node.declaration.type === 'Identifier') this.exportedLocals.add(node.declaration.name);
    this.add(node, 'default', 'default');
  }

  /** `module.exports = …`, `module.exports.a = …`, `exports.a = …` */
  private assignment(node: AssignmentExpression): void {
    if (node.operator !== '=') return;
    const left = node.left as Node;
    if (isModuleExports(left)) {
      this.cjs = true;
      const right = node.right;
      if (right.type === 'Identifier') this.exportedLocals.add(right.name);
      if (right.type === 'ObjectExpression') {
        for (const property of right.properties) {
          if (property.type === 'SpreadElement') continue;
          const key = property.computed ? null : nameOf(property.key);
          if (key === null) continue;
          if (property.type === 'ObjectProperty' && property.value.type === 'Identifier') {
            this.exportedLocals.add(property.value.name);
          }
          this.add(property, key, 'cjs', lineOf(property));
        }
      }
      this.add(node, 'default', 'cjs');
      return;
    }
    if ((left.type === 'MemberExpression' || left.type === 'OptionalMemberExpression') && isExportsObject(left.object)) {
      const name = memberName(left);
      if (name === null) return;
      this.cjs = true;
      if (node.right.type === 'Identifier') this.exportedLocals.add(node.right.name);
      if (name !== '__esModule') this.add(node, name, 'cjs', lineOf(node), isVoidPlaceholder(node));
    }
  }

  /** `Object.defineProperty(exports, 'a', { … })` */
  private defineProperty(node: CallExpression): void {
    const callee = node.callee;
    if (
      callee.type !== 'MemberExpression' ||
      callee.object.type !== 'Identifier' ||
      callee.object.name !== 'Object' ||
      memberName(callee) !== 'defineProperty'
    ) {
      return;
    }
    const [target, key] = node.arguments;
    if (!target || !key || !isExportsObject(target) || key.type !== 'StringLiteral') return;
    this.cjs = true;
    if (key.value !== '__esModule') this.add(node, key.value, 'cjs');
  }

  result(): ExportRecord[] {
    return orderExports(this.records);
  }
}
