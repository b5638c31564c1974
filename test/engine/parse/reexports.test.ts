import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'reexports', file), 'utf8'));

describe('parseSource: re-exports', () => {
  it('records `export … from` with its bindings, type-only ones as type-import', () => {
    const parsed = parseFixture('reexports-from.ts');
    assert.deepEqual(parsed.imports, [
      {
        specifier: './named',
        kind: 'reexport',
        names: ['alpha', 'beta'],
        line: 1,
        reexports: [
          { imported: 'alpha', exported: 'alpha' },
          { imported: 'beta', exported: 'renamedBeta' },
        ],
      },
      { specifier: './star', kind: 'reexport', names: ['*'], line: 2, reexports: [{ imported: '*', exported: '*' }] },
      {
        specifier: './namespace',
        kind: 'reexport',
        names: ['*'],
        line: 3,
        reexports: [{ imported: '*', exported: 'namespaceExport' }],
      },
      {
        specifier: './default-passthrough',
        kind: 'reexport',
        names: ['default'],
        line: 4,
        reexports: [{ imported: 'default', exported: 'default' }],
      },
      {
        specifier: './default-renamed',
        kind: 'reexport',
        names: ['default'],
        line: 5,
        reexports: [{ imported: 'default', exported: 'NamedDefault' }],
      },
      {
        specifier: './type-only',
        kind: 'type-import',
        names: ['OnlyType'],
        line: 6,
        reexports: [{ imported: 'OnlyType', exported: 'OnlyType' }],
      },
      {
        specifier: './mixed-members',
        kind: 'reexport',
        names: ['TypeMember', 'valueMember'],
        line: 7,
        reexports: [
          { imported: 'TypeMember', exported: 'TypeMember' },
          { imported: 'valueMember', exported: 'valueMember' },
        ],
      },
      { specifier: './type-star', kind: 'type-import', names: ['*'], line: 8, reexports: [{ imported: '*', exported: '*' }] },
      { specifier: './side-effect-reexport', kind: 'import', names: [], line: 9 },
    ]);
    // plain `export *` exports no name of its own
    assert.deepEqual(parsed.exports, [
      { name: 'alpha', kind: 'reexport', line: 1 },
      { name: 'renamedBeta', kind: 'reexport', line: 1 },
      { name: 'namespaceExport', kind: 'reexport', line: 3 },
      { name: 'default', kind: 'reexport', line: 4 },
      { name: 'NamedDefault', kind: 'reexport', line: 5 },
      { name: 'OnlyType', kind: 'reexport', line: 6 },
      { name: 'TypeMember', kind: 'reexport', line: 7 },
      { name: 'valueMember', kind: 'reexport', line: 7 },
    ]);
    assert.deepEqual(parsed.symbols, []);
    assert.equal(parsed.moduleSystem, 'esm');
  });

  it('adds a reexport record when a binding imported by this file is exported again', () => {
    const parsed = parseFixture('local-reexports.ts');
    assert.deepEqual(parsed.imports, [
      { specifier: './originals', kind: 'import', names: ['original', 'other'], line: 1 },
      { specifier: './namespace-source', kind: 'import', names: ['*'], line: 2 },
      { specifier: './default-source', kind: 'import', names: ['default'], line: 3 },
      { specifier: './type-source', kind: 'type-import', names: ['SomeType'], line: 4 },
      { specifier: './not-reexported', kind: 'import', names: ['notReexported'], line: 5 },
      {
        specifier: './originals',
        kind: 'reexport',
        names: ['original', 'other'],
        line: 9,
        reexports: [
          { imported: 'original', exported: 'renamed' },
          { imported: 'other', exported: 'other' },
        ],
      },
      {
        specifier: './namespace-source',
        kind: 'reexport',
        names: ['*'],
        line: 9,
        reexports: [{ imported: '*', exported: 'ns' }],
      },
      {
        specifier: './type-source',
        kind: 'type-import',
        names: ['SomeType'],
        line: 10,
        reexports: [{ imported: 'SomeType', exported: 'SomeType' }],
      },
      {
        specifier: './default-source',
        kind: 'reexport',
        names: ['default'],
        line: 11,
        reexports: [{ imported: 'default', exported: 'default' }],
      },
    ]);
    assert.deepEqual(parsed.exports, [
      { name: 'renamed', kind: 'reexport', line: 9 },
      { name: 'other', kind: 'reexport', line: 9 },
      { name: 'ns', kind: 'reexport', line: 9 },
      { name: 'localValue', kind: 'const', line: 9 },
      { name: 'SomeType', kind: 'reexport', line: 10 },
      { name: 'default', kind: 'default', line: 11 },
    ]);
    assert.deepEqual(parsed.symbols, [{ name: 'localValue', kind: 'const', line: 7, exported: true }]);
  });
});
