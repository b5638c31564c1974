/** Small helpers over babel nodes shared by the extractors. */
import type { Node } from '@babel/types';

/** 1-based line where `node` starts. */
export function lineOf(node: Node): number {
  return node.loc?.start.line ?? 1;
}

/** The value of a string literal or of a template literal without `${}`; null for anything else. */
export function staticString(node: Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0 && node.quasis.length === 1) {
    return node.quasis[0].value.cooked ?? node.quasis[0].value.raw;
  }
  return null;
}

/** Name of an identifier or string literal (`export { a as "b c" }`), else null. */
export function nameOf(node: Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'StringLiteral') return node.value;
  return null;
}

/** Static property name of a member expression: `a.b`, `a['b']`, `` a[`b`] ``; null when computed from an expression. */
export function memberName(node: Node): string | null {
  if (node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') return null;
  if (!node.computed) return node.property.type === 'Identifier' ? node.property.name : null;
  return staticString(node.property);
}

/** Names bound by a declaration pattern: `a`, `{ a, b: c }`, `[d, ...e]`, `f = 1` … */
export function patternNames(pattern: Node | null | undefined, into: string[] = []): string[] {
  if (!pattern) return into;
  switch (pattern.type) {
    case 'Identifier':
      into.push(pattern.name);
      break;
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        if (property.type === 'RestElement') patternNames(property.argument, into);
        else patternNames(property.value, into);
      }
      break;
    case 'ArrayPattern':
      for (const element of pattern.elements) patternNames(element, into);
      break;
    case 'AssignmentPattern':
      patternNames(pattern.left, into);
      break;
    case 'RestElement':
      patternNames(pattern.argument, into);
      break;
    case 'TSParameterProperty':
      patternNames(pattern.parameter, into);
      break;
    default:
      break;
  }
  return into;
}

/** `module.exports` (also `module['exports']`). */
export function isModuleExports(node: Node): boolean {
  return (
    (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') &&
    node.object.type === 'Identifier' &&
    node.object.name === 'module' &&
    memberName(node) === 'exports'
  );
}

/** `exports` or `module.exports`: the object CommonJS exports are written to. */
export function isExportsObject(node: Node): boolean {
  return (node.type === 'Identifier' && node.name === 'exports') || isModuleExports(node);
}
