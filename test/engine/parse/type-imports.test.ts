import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'type-imports', file), 'utf8'));

describe('parseSource: type-only imports', () => {
  it("uses kind 'type-import' when the declaration or every specifier is type-only", () => {
    const parsed = parseFixture('type-only-imports.ts');
    assert.deepEqual(parsed.imports, [
      { specifier: './config', kind: 'type-import', names: ['Config'], line: 1 },
      { specifier: './default-type', kind: 'type-import', names: ['default'], line: 2 },
      { specifier: './types-namespace', kind: 'type-import', names: ['*'], line: 3 },
      { specifier: './all-specifiers-type', kind: 'type-import', names: ['Alpha', 'Beta'], line: 4 },
      { specifier: './mixed-specifiers', kind: 'import', names: ['Gamma', 'delta'], line: 5 },
      { specifier: './value-named-like-type', kind: 'import', names: ['default'], line: 6 },
    ]);
  });

  it("records `import('./x').T` type queries with the first qualifier name, and never reads JSDoc", () => {
    const parsed = parseFixture('import-type-queries.ts');
    assert.deepEqual(parsed.imports, [
      { specifier: './options', kind: 'type-import', names: ['Options'], line: 1 },
      { specifier: './deep', kind: 'type-import', names: ['Outer'], line: 2 },
      { specifier: './whole-module', kind: 'type-import', names: ['*'], line: 3 },
      { specifier: './generic', kind: 'type-import', names: ['Box'], line: 4 },
      { specifier: './in-annotation', kind: 'type-import', names: ['Value'], line: 7 },
    ]);
    assert.deepEqual(parsed.exports, [
      { name: 'Options', kind: 'type', line: 1 },
      { name: 'Deep', kind: 'type', line: 2 },
      { name: 'WholeModule', kind: 'type', line: 3 },
      { name: 'Generic', kind: 'type', line: 4 },
      { name: 'value', kind: 'const', line: 7 },
    ]);
  });
});
