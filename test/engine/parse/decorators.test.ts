import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'decorators', file), 'utf8'));

describe('parseSource: decorators', () => {
  it('parses legacy TypeScript decorators (class, property, parameter) and accessors', () => {
    const parsed = parseFixture('legacy-decorators.ts');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [
      { specifier: './di', kind: 'import', names: ['Injectable', 'Inject'], line: 1 },
      { specifier: './orm', kind: 'import', names: ['Column'], line: 2 },
    ]);
    assert.deepEqual(parsed.exports, [{ name: 'UserService', kind: 'class', line: 4 }]);
  });

  it('parses decorators placed after `export` (TC39 decorators)', () => {
    const parsed = parseFixture('decorator-after-export.ts');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [{ specifier: './sealed', kind: 'import', names: ['sealed'], line: 1 }]);
    assert.deepEqual(parsed.exports, [
      { name: 'Sealed', kind: 'class', line: 3 },
      { name: 'default', kind: 'default', line: 4 },
    ]);
  });

  it('parses decorators in JavaScript', () => {
    const parsed = parseFixture('decorators-in-js.js');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [{ specifier: './mobx-like', kind: 'import', names: ['observable'], line: 1 }]);
    assert.deepEqual(parsed.symbols, [{ name: 'Store', kind: 'class', line: 3, exported: true }]);
  });
});
