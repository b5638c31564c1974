import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const systemOf = (file: string) =>
  parseSource(`src/${file}`, readFileSync(fixture('parse', 'module-system', file), 'utf8')).moduleSystem;

describe('parseSource: module system', () => {
  it('tells ES modules, CommonJS, mixed files and plain scripts apart', () => {
    assert.equal(systemOf('esm-only.mjs'), 'esm');
    assert.equal(systemOf('cjs-only.cjs'), 'cjs');
    assert.equal(systemOf('mixed.js'), 'mixed');
    assert.equal(systemOf('no-modules.js'), 'none');
  });

  it('counts import.meta as ES module syntax', () => {
    assert.equal(systemOf('import-meta-only.js'), 'esm');
  });
});
