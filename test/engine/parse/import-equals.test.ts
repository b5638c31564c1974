import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'import-equals', file), 'utf8'));

describe('parseSource: TypeScript import-equals and export =', () => {
  it('records `import x = require()` as require (type-import when `import type`), not namespace aliases', () => {
    const parsed = parseFixture('import-equals.ts');
    assert.deepEqual(parsed.imports, [
      { specifier: 'fs', kind: 'require', names: ['*'], line: 1 },
      { specifier: './type-only', kind: 'type-import', names: ['*'], line: 2 },
      { specifier: './reexported', kind: 'require', names: ['*'], line: 3 },
    ]);
    assert.deepEqual(parsed.exports, [
      { name: 'reexported', kind: 'variable', line: 3 },
      { name: 'export=', kind: 'cjs', line: 9 },
    ]);
    assert.deepEqual(parsed.symbols, [
      { name: 'Namespace', kind: 'const', line: 6, exported: false },
      { name: 'useAll', kind: 'const', line: 7, exported: true },
    ]);
    assert.equal(parsed.moduleSystem, 'cjs');
  });
});
