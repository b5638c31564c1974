/** A small pre-order walker over babel AST nodes (babel-traverse is deliberately not a dependency). */
import type { Node, Program, Statement } from '@babel/types';
import { LEAF_TYPES, VISITOR_KEYS } from './visitor-keys.js';

/** Keys that hold no child nodes (or hold comments, which are read from `File.comments` instead). */
const NON_CHILD_KEYS = new Set(['type', 'start', 'end', 'loc', 'range', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'comments', 'tokens', 'errors']);

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Child keys of a node type that VISITOR_KEYS does not know, found by scanning an instance. */
function scannedKeys(node: Node): string[] {
  const keys: string[] = [];
  const record = node as unknown as Record<string, unknown>;
  for (const key in record) {
    if (NON_CHILD_KEYS.has(key)) continue;
    const value = record[key];
    if (isNode(value) || (Array.isArray(value) && value.some(isNode))) keys.push(key);
  }
  return keys;
}

/**
 * Visits every node under `root` (root included), parents before children, children in source order.
 * Iterative, so deeply nested generated code cannot overflow the stack.
 */
export function walk(root: Node, enter: (node: Node, parent: Node | null) => void): void {
  const nodes: Node[] = [root];
  const parents: (Node | null)[] = [null];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const parent = parents.pop()!;
    enter(node, parent);
    if (LEAF_TYPES.has(node.type)) continue;
    const keys = VISITOR_KEYS[node.type] ?? scannedKeys(node);
    const record = node as unknown as Record<string, unknown>;
    // push in reverse so that the first child is visited first
    for (let k = keys.length - 1; k >= 0; k--) {
      const value = record[keys[k]];
      if (value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) {
          const item: unknown = value[i];
          if (isNode(item)) {
            nodes.push(item);
            parents.push(node);
          }
        }
      } else if (isNode(value)) {
        nodes.push(value);
        parents.push(node);
      }
    }
  }
}

/**
 * Visits only statements: those of the program and, recursively, of TS `namespace`/`declare module` blocks.
 * Enough for a file whose text shows no `require`, `exports` or `import(`/`import.meta`.
 */
export function walkStatements(program: Program, enter: (node: Node, parent: Node | null) => void): void {
  enter(program, null);
  const visitBody = (statements: readonly Statement[], parent: Node): void => {
    for (const statement of statements) {
      enter(statement, parent);
      let inner: Node = statement;
      if (inner.type === 'ExportNamedDeclaration' && inner.declaration) inner = inner.declaration;
      while (inner.type === 'TSModuleDeclaration') {
        const body: Node = inner.body;
        if (body.type === 'TSModuleBlock') {
          visitBody(body.body, body);
          break;
        }
        inner = body;
      }
    }
  };
  visitBody(program.body, program);
}
