import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const parseFixture = (file: string) =>
  parseSource(`src/${file}`, readFileSync(fixture('parse', 'comments-and-strings', file), 'utf8'));

describe('parseSource: text that only looks like imports', () => {
  it('ignores import/require text in comments, strings, templates, regexes and object keys', () => {
    const parsed = parseFixture('not-imports.js');
    assert.deepEqual(parsed.imports, [{ specifier: './the-only-import', kind: 'import', names: ['default'], line: 20 }]);
    assert.deepEqual(parsed.exports, [
      { name: 'real', kind: 'const', line: 18 },
      { name: 'alsoReal', kind: 'const', line: 19 },
    ]);
    assert.equal(parsed.moduleSystem, 'esm');
    assert.equal(parsed.syntaxError, null);
  });

  it('does not pick up requires from prose even when it forces a full walk', () => {
    const parsed = parseSource('src/prose.ts', "// we used to require('old-thing') and import('older-thing') here\nexport const x = 'exports';\n");
    assert.deepEqual(parsed.imports, []);
    assert.deepEqual(parsed.exports, [{ name: 'x', kind: 'const', line: 2 }]);
    assert.equal(parsed.moduleSystem, 'esm');
  });
});
