import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tuneV8ForBuild } from '../../installer/src/v8-tuning.js';

describe('tuneV8ForBuild (the V8 settings of `intel build`)', () => {
  it('leaves V8 alone when GSD_V8_TUNING=0 or on a V8 line it was not measured on', () => {
    assert.equal(tuneV8ForBuild({ GSD_V8_TUNING: '0' }), false);
    assert.equal(tuneV8ForBuild({}, '99.1.0'), false);
    assert.equal(tuneV8ForBuild({}, 'not a version'), false);
  });

  it('applies them on this Node (20 to 24)', () => {
    const major = Number.parseInt(process.versions.node, 10);
    assert.equal(tuneV8ForBuild({}), major >= 20 && major <= 24);
  });
});
