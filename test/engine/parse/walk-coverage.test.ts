import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Node } from '@babel/types';
import { parseAst } from '../../../engine/src/parse/parse-ast.js';
import { parseSource } from '../../../engine/src/parse/index.js';
import { parseWhole } from '../../../engine/src/parse/parse-source.js';
import { walk } from '../../../engine/src/parse/walk.js';
import { fixture } from '../../helpers/paths.js';

/** Counts node types by scanning every key of every node: slow, but misses nothing. */
function countByScanning(root: Node): Map<string, number> {
  const counts = new Map<string, number>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> & { type: string };
    counts.set(node.type, (counts.get(node.type) ?? 0) + 1);
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'extra') continue;
      const value = node[key];
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        if (item && typeof item === 'object' && typeof (item as { type?: unknown }).type === 'string') stack.push(item);
      }
    }
  }
  return counts;
}

describe('walk: child keys table', () => {
  const folder = fixture('parse', 'walk-coverage');
  for (const file of readdirSync(folder)) {
    it(`visits every node of ${file}`, () => {
      const source = readFileSync(`${folder}/${file}`, 'utf8');
      const { ast, problems } = parseAst(file, source);
      assert.deepEqual(problems, []);
      assert.ok(ast);
      const walked = new Map<string, number>();
      walk(ast.program, (node) => walked.set(node.type, (walked.get(node.type) ?? 0) + 1));
      assert.deepEqual(Object.fromEntries([...walked].sort()), Object.fromEntries([...countByScanning(ast.program)].sort()));
    });
  }

  it('visits parents before children and children in source order', () => {
    const { ast } = parseAst('order.js', 'a(b, c); d;');
    assert.ok(ast);
    const names: string[] = [];
    walk(ast.program, (node) => {
      if (node.type === 'Identifier') names.push(node.name);
    });
    assert.deepEqual(names, ['a', 'b', 'c', 'd']);
  });

  it('survives nesting far deeper than the call stack', () => {
    // babel itself cannot parse this deep, so build the tree by hand
    let node: Node = { type: 'Identifier', name: 'leaf' } as Node;
    for (let i = 0; i < 200_000; i++) node = { type: 'ArrayExpression', elements: [node] } as Node;
    let count = 0;
    walk(node, () => count++);
    assert.equal(count, 200_001);
  });

  it('reports input too deep for babel as a syntax error instead of throwing', () => {
    const source = `x = ${Array(50_000).fill('a').join(' + ')};`;
    assert.equal(parseWhole('src/deep.js', source).syntaxError?.message, 'Maximum call stack size exceeded');
    // the skeleton's token reader does not recurse: parseSource reads the file
    const parsed = parseSource('src/deep.js', source);
    assert.equal(parsed.syntaxError, null);
    assert.equal(parsed.moduleSystem, 'none');
  });
});
