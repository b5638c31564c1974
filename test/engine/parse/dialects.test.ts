import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'dialects', file), 'utf8'));

describe('parseSource: dialects chosen from the extension', () => {
  it('parses Flow files with a @flow pragma', () => {
    const parsed = parseFixture('flow-with-pragma.js');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [
      { specifier: './flow-types', kind: 'type-import', names: ['Node'], line: 2 },
      { specifier: './renderer', kind: 'import', names: ['render'], line: 3 },
    ]);
    assert.deepEqual(parsed.exports, [
      { name: 'Props', kind: 'type', line: 5 },
      { name: 'view', kind: 'function', line: 6 },
    ]);
    assert.equal(parsed.docComment, null);
  });

  it('falls back to Flow for type-annotated .js files without the pragma', () => {
    const parsed = parseFixture('flow-without-pragma.js');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [{ specifier: './flow-helper', kind: 'import', names: ['helper'], line: 1 }]);
    assert.deepEqual(parsed.symbols, [{ name: 'typed', kind: 'function', line: 3, exported: true }]);
  });

  it('parses `<T>value` type assertions in .ts files (no JSX)', () => {
    const parsed = parseFixture('angle-bracket-cast.ts');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [{ specifier: './reader', kind: 'import', names: ['read'], line: 1 }]);
    assert.deepEqual(parsed.exports, [{ name: 'length', kind: 'const', line: 4 }]);
  });

  it('parses .mts and .cts as TypeScript', () => {
    const mts = parseFixture('module-ts.mts');
    assert.equal(mts.syntaxError, null);
    assert.deepEqual(mts.imports, [{ specifier: 'node:url', kind: 'import', names: ['fileURLToPath'], line: 1 }]);
    const cts = parseFixture('commonjs-ts.cts');
    assert.equal(cts.syntaxError, null);
    assert.deepEqual(cts.imports, [{ specifier: 'node:assert', kind: 'require', names: ['*'], line: 1 }]);
    assert.deepEqual(cts.exports, [{ name: 'export=', kind: 'cjs', line: 2 }]);
    assert.equal(cts.moduleSystem, 'cjs');
  });

  it('parses .d.mts declaration files', () => {
    const parsed = parseFixture('declarations.d.mts');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.exports, [
      { name: 'declared', kind: 'function', line: 1 },
      { name: 'Declared', kind: 'interface', line: 2 },
    ]);
  });

  it('parses script-only syntax such as HTML-like comments', () => {
    const parsed = parseFixture('script-with-html-comment.js');
    assert.equal(parsed.syntaxError, null);
    assert.deepEqual(parsed.imports, [{ specifier: './legacy-script', kind: 'require', names: ['*'], line: 2 }]);
  });
});
