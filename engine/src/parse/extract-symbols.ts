/** Top-level declarations of a program: the symbols of a file. */
import type { Node, Program } from '@babel/types';
import type { SymbolKind, SymbolRecord } from '../types.js';
import { lineOf, patternNames } from './ast-utils.js';

export interface DeclaredName {
  name: string;
  kind: SymbolKind;
  line: number;
}

/** The symbols one declaration statement introduces (none for expressions and anonymous defaults). */
export function declaredSymbols(node: Node | null | undefined): DeclaredName[] {
  if (!node) return [];
  const line = lineOf(node);
  switch (node.type) {
    case 'FunctionDeclaration':
    case 'TSDeclareFunction':
      return node.id ? [{ name: node.id.name, kind: 'function', line }] : [];
    case 'ClassDeclaration':
      return node.id ? [{ name: node.id.name, kind: 'class', line }] : [];
    // Flow `declare function f(): void;`, `declare class C {}`, `declare var v: T;`
    case 'DeclareFunction':
      return [{ name: node.id.name, kind: 'function', line }];
    case 'DeclareClass':
      return [{ name: node.id.name, kind: 'class', line }];
    case 'DeclareVariable':
      return [{ name: node.id.name, kind: 'variable', line }];
    case 'VariableDeclaration': {
      const kind: SymbolKind = node.kind === 'let' || node.kind === 'var' ? 'variable' : 'const';
      const names: DeclaredName[] = [];
      for (const declarator of node.declarations) {
        const declaratorLine = lineOf(declarator);
        for (const name of patternNames(declarator.id)) names.push({ name, kind, line: declaratorLine });
      }
      return names;
    }
    case 'TSTypeAliasDeclaration':
    case 'TypeAlias':
    case 'OpaqueType':
      return [{ name: node.id.name, kind: 'type', line }];
    case 'TSInterfaceDeclaration':
    case 'InterfaceDeclaration':
      return [{ name: node.id.name, kind: 'interface', line }];
    case 'TSEnumDeclaration':
      return [{ name: node.id.name, kind: 'enum', line }];
    case 'EnumDeclaration':
      return [{ name: node.id.name, kind: 'enum', line }];
    case 'TSModuleDeclaration':
      // `declare module "pkg"` and `declare global` declare no name of this file
      return node.id.type === 'Identifier' && node.kind !== 'global' && !node.global
        ? [{ name: node.id.name, kind: 'namespace', line }]
        : [];
    default:
      return [];
  }
}

/** The declaration an export statement carries, if any (`export const a`, `export default function f`). */
function exportedDeclaration(node: Node): Node | null {
  if (node.type === 'ExportNamedDeclaration' || node.type === 'DeclareExportDeclaration') return node.declaration ?? null;
  if (node.type === 'ExportDefaultDeclaration') return node.declaration;
  return null;
}

/**
 * Top-level declarations, de-duplicated by name and kind (overloads, declaration merging).
 * `exported` is true for declarations inside an export statement; parse-source marks the others exported
 * when they are exported by name later on.
 */
export function collectSymbols(program: Program): SymbolRecord[] {
  const symbols: SymbolRecord[] = [];
  const seen = new Map<string, SymbolRecord>();
  for (const statement of program.body) {
    const inner = exportedDeclaration(statement);
    const declaration = inner ?? statement;
    const exported = inner !== null;
    for (const { name, kind, line } of declaredSymbols(declaration)) {
      const key = `${kind}:${name}`;
      const previous = seen.get(key);
      if (previous) {
        previous.exported ||= exported;
        continue;
      }
      const record: SymbolRecord = { name, kind, line, exported };
      seen.set(key, record);
      symbols.push(record);
    }
  }
  return symbols;
}
