import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'jsx', file), 'utf8'));

describe('parseSource: JSX', () => {
  it('parses .jsx, ignoring import-like JSX text and JSX comments', () => {
    const parsed = parseFixture('component.jsx');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [
      { specifier: 'react', kind: 'import', names: ['default'], line: 1 },
      { specifier: './button', kind: 'import', names: ['Button'], line: 2 },
      { specifier: './lazy-dialog', kind: 'dynamic-import', names: ['*'], line: 8 },
    ]);
    assert.deepEqual(parsed.exports, [{ name: 'Panel', kind: 'function', line: 4 }]);
  });

  it('parses .tsx with generics and type imports', () => {
    const parsed = parseFixture('typed-component.tsx');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [
      { specifier: 'react', kind: 'type-import', names: ['ReactNode'], line: 1 },
      { specifier: 'react', kind: 'import', names: ['useState'], line: 2 },
    ]);
    assert.deepEqual(parsed.exports, [
      { name: 'List', kind: 'const', line: 9 },
      { name: 'default', kind: 'default', line: 14 },
    ]);
    assert.deepEqual(parsed.symbols, [
      { name: 'Props', kind: 'interface', line: 4, exported: false },
      { name: 'List', kind: 'const', line: 9, exported: true },
    ]);
  });

  it('parses JSX inside a plain .js CommonJS file', () => {
    const parsed = parseFixture('jsx-in-plain.js');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [{ specifier: 'react', kind: 'require', names: ['*'], line: 1 }]);
    assert.deepEqual(parsed.exports, [{ name: 'default', kind: 'cjs', line: 3 }]);
    assert.equal(parsed.moduleSystem, 'cjs');
  });
});
