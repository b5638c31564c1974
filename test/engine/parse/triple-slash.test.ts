import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`types/${file}`, readFileSync(fixture('parse', 'triple-slash', file), 'utf8'));

describe('parseSource: triple-slash references', () => {
  it('records path and types references at the top of the file, not lib references or later ones', () => {
    const parsed = parseFixture('references.d.ts');
    assert.deepEqual(parsed.imports, [
      { specifier: './globals.d.ts', kind: 'triple-slash', names: [], line: 1 },
      { specifier: 'node', kind: 'triple-slash-types', names: [], line: 2 },
      { specifier: './single-quoted.d.ts', kind: 'triple-slash', names: [], line: 4 },
    ]);
    assert.deepEqual(parsed.exports, [{ name: 'answer', kind: 'const', line: 9 }]);
    assert.deepEqual(parsed.symbols, [{ name: 'answer', kind: 'const', line: 6, exported: true }]);
    assert.equal(parsed.docComment, null);
  });
});
