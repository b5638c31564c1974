import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'dynamic-import', file), 'utf8'));

describe('parseSource: dynamic import()', () => {
  it('records import() of string literals and expression-free templates only', () => {
    const parsed = parseFixture('dynamic-imports.js');
    assert.deepEqual(parsed.imports, [
      { specifier: './plain', kind: 'dynamic-import', names: ['*'], line: 2 },
      { specifier: './template', kind: 'dynamic-import', names: ['*'], line: 3 },
      { specifier: './not-awaited', kind: 'dynamic-import', names: ['*'], line: 4 },
      { specifier: './with-options.json', kind: 'dynamic-import', names: ['*'], line: 5 },
    ]);
    assert.equal(parsed.moduleSystem, 'cjs');
  });

  it('does not make a file an ES module by itself', () => {
    const parsed = parseFixture('only-dynamic.mjs');
    assert.deepEqual(parsed.imports, [{ specifier: './lazy-module', kind: 'dynamic-import', names: ['*'], line: 1 }]);
    assert.equal(parsed.moduleSystem, 'none');
  });
});
