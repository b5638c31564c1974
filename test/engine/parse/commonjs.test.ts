import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`lib/${file}`, readFileSync(fixture('parse', 'commonjs', file), 'utf8'));

describe('parseSource: CommonJS', () => {
  it('records require() calls with the names the code takes from them', () => {
    const parsed = parseFixture('requires.js');
    assert.deepEqual(parsed.imports, [
      { specifier: './whole', kind: 'require', names: ['*'], line: 2 },
      { specifier: './destructured', kind: 'require', names: ['first', 'second'], line: 3 },
      { specifier: './member', kind: 'require', names: ['pick'], line: 4 },
      { specifier: './brackets', kind: 'require', names: ['picked-name'], line: 5 },
      { specifier: './side-effect', kind: 'require', names: ['*'], line: 6 },
      { specifier: './template-literal', kind: 'require', names: ['*'], line: 7 },
      { specifier: './rest-pattern', kind: 'require', names: ['*'], line: 8 },
      { specifier: 'node:path', kind: 'require', names: ['join'], line: 11 },
    ]);
    assert.equal(parsed.moduleSystem, 'cjs');
    assert.equal(parsed.syntaxError, null);
  });

  it('marks top-level declarations exported through module.exports', () => {
    const parsed = parseFixture('requires.js');
    const exported = parsed.symbols.filter((s) => s.exported).map((s) => s.name);
    assert.deepEqual(exported, [
      'whole', 'first', 'renamed', 'member', 'viaBrackets', 'template', 'rest', 'lazy', 'resolved', 'dynamicName', 'withExpression',
    ]);
    assert.deepEqual(parsed.symbols.find((s) => s.name === 'fake'), { name: 'fake', kind: 'const', line: 16, exported: false });
  });

  it('exports the keys of an object assigned to module.exports, plus default', () => {
    const parsed = parseFixture('module-exports-object.cjs');
    assert.deepEqual(parsed.exports, [
      { name: 'default', kind: 'cjs', line: 4 },
      { name: 'helper', kind: 'cjs', line: 5 },
      { name: 'renamedValue', kind: 'cjs', line: 6 },
      { name: 'inline', kind: 'cjs', line: 7 },
      { name: 'quoted-key', kind: 'cjs', line: 8 },
    ]);
    assert.deepEqual(parsed.symbols, [
      { name: 'helper', kind: 'function', line: 1, exported: true },
      { name: 'value', kind: 'const', line: 2, exported: true },
    ]);
    assert.deepEqual(parsed.imports, []);
    assert.equal(parsed.moduleSystem, 'cjs');
  });

  it('records exports.x, module.exports.x and Object.defineProperty(exports, …), first assignment wins', () => {
    const parsed = parseFixture('named-exports.js');
    assert.deepEqual(parsed.exports, [
      { name: 'alpha', kind: 'cjs', line: 1 },
      { name: 'beta', kind: 'cjs', line: 2 },
      { name: 'gamma', kind: 'cjs', line: 3 },
      { name: 'delta', kind: 'cjs', line: 5 },
      { name: 'epsilon', kind: 'cjs', line: 6 },
    ]);
  });

  it('prefers the real assignment over the `exports.x = void 0` placeholder of TypeScript output', () => {
    const parsed = parseFixture('typescript-output.js');
    assert.deepEqual(parsed.imports, [{ specifier: './dep', kind: 'require', names: ['*'], line: 4 }]);
    assert.deepEqual(parsed.exports, [
      { name: 'first', kind: 'cjs', line: 6 },
      { name: 'second', kind: 'cjs', line: 7 },
    ]);
    assert.deepEqual(parsed.symbols, [
      { name: 'dep_1', kind: 'const', line: 4, exported: false },
      { name: 'first', kind: 'const', line: 5, exported: true },
    ]);
  });

  it('records module.exports = function / identifier as the default export', () => {
    assert.deepEqual(parseFixture('module-exports-function.js').exports, [{ name: 'default', kind: 'cjs', line: 1 }]);
    const identifier = parseFixture('module-exports-identifier.js');
    assert.deepEqual(identifier.exports, [{ name: 'default', kind: 'cjs', line: 3 }]);
    assert.deepEqual(identifier.symbols, [{ name: 'Service', kind: 'class', line: 1, exported: true }]);
  });
});
