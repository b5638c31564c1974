import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'syntax-error', file), 'utf8'));

describe('parseSource: syntax errors', () => {
  it('keeps what error recovery found and reports the first error', () => {
    const parsed = parseFixture('recoverable-error.ts');
    assert.deepEqual(parsed.syntaxError, { message: "Identifier 'duplicated' has already been declared.", line: 4 });
    assert.deepEqual(parsed.imports, [{ specifier: './kept-import', kind: 'import', names: ['kept'], line: 1 }]);
    assert.deepEqual(parsed.exports, [{ name: 'alsoKept', kind: 'const', line: 6 }]);
    assert.deepEqual(parsed.symbols, [
      { name: 'duplicated', kind: 'variable', line: 3, exported: false },
      { name: 'alsoKept', kind: 'const', line: 6, exported: true },
    ]);
    assert.equal(parsed.moduleSystem, 'esm');
  });

  it('returns empty facts and the error when nothing can be recovered, without throwing', () => {
    const parsed = parseFixture('fatal-error.js');
    assert.deepEqual(parsed, {
      imports: [],
      exports: [],
      symbols: [],
      docComment: null,
      moduleSystem: 'none',
      syntaxError: { message: 'Unexpected token', line: 3 },
    });
  });

  it('does not report strict-mode errors for a sloppy-mode script', () => {
    const parsed = parseFixture('sloppy-script.js');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [{ specifier: './sloppy-dependency', kind: 'require', names: ['*'], line: 5 }]);
    assert.deepEqual(parsed.exports, [{ name: 'default', kind: 'cjs', line: 5 }]);
    assert.equal(parsed.moduleSystem, 'cjs');
  });

  it('never throws, whatever the input', () => {
    for (const source of ['', '\u0000\u0001', '}}}{{{', 'import', '<div', '`unterminated', '/* open', 'export default', '#!']) {
      const parsed = parseSource('src/garbage.tsx', source);
      assert.ok(Array.isArray(parsed.imports));
    }
  });
});
