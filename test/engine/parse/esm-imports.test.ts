import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'esm-imports', file), 'utf8'));

describe('parseSource: ES import declarations', () => {
  it('records every import form with the names taken from the imported module', () => {
    const parsed = parseFixture('all-import-forms.ts');
    assert.deepEqual(parsed.imports, [
      { specifier: './default-export', kind: 'import', names: ['default'], line: 1 },
      { specifier: './named-exports', kind: 'import', names: ['alpha', 'beta'], line: 2 },
      { specifier: './namespace-target', kind: 'import', names: ['*'], line: 3 },
      { specifier: './side-effect-only', kind: 'import', names: [], line: 4 },
      { specifier: './default-and-named', kind: 'import', names: ['default', 'helper'], line: 5 },
      { specifier: './default-and-namespace', kind: 'import', names: ['default', '*'], line: 6 },
      { specifier: './string-named', kind: 'import', names: ['string-name'], line: 7 },
      { specifier: './explicit-default', kind: 'import', names: ['default'], line: 8 },
      { specifier: './empty-braces', kind: 'import', names: [], line: 9 },
      { specifier: './data.json', kind: 'import', names: ['default'], line: 10 },
      { specifier: './legacy.json', kind: 'import', names: ['default'], line: 11 },
    ]);
    assert.equal(parsed.moduleSystem, 'esm');
    assert.equal(parsed.syntaxError, null);
  });

  it('accepts import declarations after other statements', () => {
    const parsed = parseFixture('imports-after-code.mjs');
    assert.deepEqual(parsed.imports, [{ specifier: 'late-package', kind: 'import', names: ['default'], line: 3 }]);
    assert.deepEqual(parsed.exports, [{ name: 'default', kind: 'default', line: 5 }]);
    assert.deepEqual(parsed.symbols, [{ name: 'before', kind: 'const', line: 1, exported: false }]);
  });
});
