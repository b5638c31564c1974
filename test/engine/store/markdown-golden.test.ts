import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { goldenCases, renderGolden } from '../../golden/regenerate.js';

describe('markdown goldens (regenerate: node --import tsx test/golden/regenerate.ts)', () => {
  const cases = goldenCases();
  it('has at least 4 cases', () => assert.ok(cases.length >= 4, `${cases.length} cases`));
  for (const c of cases) {
    it(c.name, () => {
      assert.ok(existsSync(c.expectedFile), `missing ${c.expectedFile}`);
      const actual = renderGolden(c.input);
      assert.equal(actual, readFileSync(c.expectedFile, 'utf8'));
      assert.equal(renderGolden(structuredClone(c.input)), actual, 'deterministic');
    });
  }
});
