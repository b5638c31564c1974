import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'package-imports')));
const file = (path: string) => ({ kind: 'file', path });
const reasonOf = (r: { kind: string; reason?: string }) => (r.kind === 'unresolved' ? r.reason ?? '' : `(${r.kind})`);

test('#name maps to a target, with the TS extension convention', () => {
  // "#config": "./src/config.js" → src/config.ts
  assert.deepEqual(resolver.resolve('#config', 'src/main.ts', 'import'), file('src/config.ts'));
  assert.deepEqual(resolver.resolve('#config', 'src/deep/er/file.ts', 'import'), file('src/config.ts'));
});

test('conditions: types for TS importers, import for JS, require for require', () => {
  assert.deepEqual(resolver.resolve('#env', 'src/main.ts', 'import'), file('src/env.d.ts'));
  assert.deepEqual(resolver.resolve('#env', 'src/app.js', 'import'), file('src/env.js'));
  assert.deepEqual(resolver.resolve('#env', 'src/app.js', 'require'), file('src/env.cjs'));
  assert.deepEqual(resolver.resolve('#platform', 'src/app.js', 'import'), file('src/platform/esm.mjs'));
  assert.deepEqual(resolver.resolve('#platform', 'src/app.js', 'require'), file('src/platform/cjs.cjs'));
});

test('node comes before default', () => {
  assert.deepEqual(resolver.resolve('#db', 'src/main.ts', 'import'), file('src/db/node.ts'));
});

test('nested condition objects are followed', () => {
  assert.deepEqual(resolver.resolve('#nested', 'src/main.ts', 'import'), file('src/nested/types.d.ts'));
  assert.deepEqual(resolver.resolve('#nested', 'src/app.js', 'import'), file('src/nested/impl.js'));
});

test('* patterns substitute, and the longer pattern wins', () => {
  assert.deepEqual(resolver.resolve('#utils/strings', 'src/main.ts', 'import'), file('src/utils/strings.ts'));
  assert.deepEqual(resolver.resolve('#utils/special/picked', 'src/main.ts', 'import'), file('src/special/picked.ts'));
});

test('fallback arrays pick the first target that exists', () => {
  assert.deepEqual(resolver.resolve('#fallback', 'src/main.ts', 'import'), file('src/fallback.ts'));
});

test('a dist/ target that does not exist maps back to its source', () => {
  assert.deepEqual(resolver.resolve('#built', 'src/main.ts', 'import'), file('src/built.ts'));
  assert.deepEqual(resolver.resolve('#built', 'src/app.js', 'import'), file('src/built.ts'));
});

test('a bare target is a package', () => {
  assert.deepEqual(resolver.resolve('#dep', 'src/main.ts', 'import'), { kind: 'external', package: 'lodash' });
  assert.deepEqual(resolver.resolve('#dep-sub', 'src/main.ts', 'import'), { kind: 'external', package: '@scope/tool' });
});

test('unknown, null-mapped and missing targets are unresolved with a reason', () => {
  assert.match(reasonOf(resolver.resolve('#nope', 'src/main.ts', 'import')), /#nope is not defined in the "imports" of package\.json/);
  assert.match(reasonOf(resolver.resolve('#blocked', 'src/main.ts', 'import')), /mapped to null/);
  assert.match(reasonOf(resolver.resolve('#missing', 'src/main.ts', 'import')), /\.\/dist\/nowhere\/gone\.js: no such file/);
});
