import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'esm-exports', file), 'utf8'));

describe('parseSource: ES exports and top-level symbols', () => {
  it('records every kind of exported declaration, destructuring included, overloads once', () => {
    const parsed = parseFixture('declarations.ts');
    const expected = [
      { name: 'plainFunction', kind: 'function', line: 1 },
      { name: 'asyncGenerator', kind: 'function', line: 2 },
      { name: 'PlainClass', kind: 'class', line: 3 },
      { name: 'AbstractClass', kind: 'class', line: 4 },
      { name: 'constant', kind: 'const', line: 5 },
      { name: 'secondConstant', kind: 'const', line: 5 },
      { name: 'destructuredA', kind: 'const', line: 6 },
      { name: 'destructuredB', kind: 'const', line: 6 },
      { name: 'firstItem', kind: 'const', line: 7 },
      { name: 'restItems', kind: 'const', line: 7 },
      { name: 'mutable', kind: 'variable', line: 8 },
      { name: 'legacy', kind: 'variable', line: 9 },
      { name: 'Alias', kind: 'type', line: 10 },
      { name: 'Shape', kind: 'interface', line: 11 },
      { name: 'Color', kind: 'enum', line: 12 },
      { name: 'Flags', kind: 'enum', line: 13 },
      { name: 'Tools', kind: 'namespace', line: 14 },
      { name: 'declared', kind: 'function', line: 15 },
      { name: 'declaredConst', kind: 'const', line: 16 },
      { name: 'overloaded', kind: 'function', line: 17 },
    ] as const;
    assert.deepEqual(parsed.exports, expected);
    assert.deepEqual(
      parsed.symbols,
      expected.map((e) => ({ ...e, exported: true })),
    );
    // `export const inner` inside the namespace is not an export of the file
    assert.equal(parsed.exports.some((e) => e.name === 'inner'), false);
    assert.equal(parsed.moduleSystem, 'esm');
  });

  it('gives `export { local as name }` the kind of the local declaration', () => {
    const parsed = parseFixture('local-and-default.ts');
    assert.deepEqual(parsed.exports, [
      { name: 'helper', kind: 'function', line: 11 },
      { name: 'RenamedModel', kind: 'class', line: 11 },
      { name: 'settings', kind: 'const', line: 11 },
      { name: 'counter', kind: 'variable', line: 11 },
      { name: 'Status', kind: 'enum', line: 11 },
      { name: 'Space', kind: 'namespace', line: 11 },
      { name: 'Id', kind: 'type', line: 12 },
      { name: 'Entity', kind: 'interface', line: 12 },
      { name: 'undeclared', kind: 'variable', line: 13 },
      { name: 'default', kind: 'default', line: 14 },
    ]);
    assert.deepEqual(parsed.symbols, [
      { name: 'helper', kind: 'function', line: 1, exported: true },
      { name: 'Model', kind: 'class', line: 2, exported: true },
      { name: 'settings', kind: 'const', line: 3, exported: true },
      { name: 'counter', kind: 'variable', line: 4, exported: true },
      { name: 'Id', kind: 'type', line: 5, exported: true },
      { name: 'Entity', kind: 'interface', line: 6, exported: true },
      { name: 'Status', kind: 'enum', line: 7, exported: true },
      { name: 'Space', kind: 'namespace', line: 8, exported: true },
      { name: 'notExported', kind: 'const', line: 9, exported: false },
      { name: 'main', kind: 'function', line: 14, exported: true },
    ]);
  });

  it('records `export default <expression>` as default and de-duplicates by name', () => {
    const parsed = parseFixture('default-expression.js');
    assert.deepEqual(parsed.exports, [
      { name: 'default', kind: 'default', line: 3 },
      { name: 'default2', kind: 'const', line: 4 },
      { name: 'config', kind: 'const', line: 5 },
    ]);
    assert.deepEqual(parsed.symbols, [{ name: 'config', kind: 'const', line: 1, exported: true }]);
  });

  it('names a default class as a symbol and ignores `declare module` / `declare global` contents', () => {
    const parsed = parseFixture('default-class.ts');
    assert.deepEqual(parsed.exports, [{ name: 'default', kind: 'default', line: 1 }]);
    assert.deepEqual(parsed.symbols, [{ name: 'Widget', kind: 'class', line: 1, exported: true }]);
  });
});
