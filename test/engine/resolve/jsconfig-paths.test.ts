import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'jsconfig-paths')));
const file = (path: string) => ({ kind: 'file', path });

test('jsconfig.json paths (with comments) resolve like tsconfig paths', () => {
  assert.deepEqual(resolver.resolve('~/utils/math', 'src/app.js', 'import'), file('src/utils/math.js'));
  assert.deepEqual(resolver.resolve('~/components', 'src/app.js', 'import'), file('src/components/index.js'));
  assert.deepEqual(resolver.resolve('~/components/Button', 'src/app.js', 'import'), file('src/components/Button.jsx'));
});

test('jsconfig.json baseUrl serves bare lookups', () => {
  assert.deepEqual(resolver.resolve('utils/math', 'src/components/Button.jsx', 'import'), file('src/utils/math.js'));
});

test('jsconfig.json is reported as a config file', () => {
  assert.deepEqual(resolver.configFiles().filter((f) => f.endsWith('config.json')), ['jsconfig.json']);
});
