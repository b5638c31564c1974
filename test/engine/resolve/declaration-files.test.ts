import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'declaration-files')));
const file = (path: string) => ({ kind: 'file', path });

test('a .d.ts importing ./x.js picks x.d.ts before x.ts and x.js', () => {
  assert.deepEqual(resolver.resolve('./model.js', 'types/api.d.ts', 'reexport'), file('types/model.d.ts'));
  assert.deepEqual(resolver.resolve('./model', 'types/extensionless.d.ts', 'reexport'), file('types/model.d.ts'));
});

test('a .d.mts importing ./x.mjs picks x.d.mts', () => {
  assert.deepEqual(resolver.resolve('./esm-model.mjs', 'types/esm.d.mts', 'reexport'), file('types/esm-model.d.mts'));
});

test('a .js importing ./x.js picks x.js; a .ts importing it picks x.ts', () => {
  assert.deepEqual(resolver.resolve('./model.js', 'types/plain.js', 'reexport'), file('types/model.js'));
  assert.deepEqual(resolver.resolve('./model.js', 'types/model.ts', 'import'), file('types/model.ts'));
});

test('arbitrary-extension declaration files (x.d.css.ts) count as declarations', () => {
  assert.deepEqual(resolver.resolve('./model.js', 'types/styles.d.css.ts', 'import'), file('types/model.d.ts'));
});

test('triple-slash path references are relative even without ./', () => {
  assert.deepEqual(resolver.resolve('globals.d.ts', 'types/ambient.d.ts', 'triple-slash'), file('types/globals.d.ts'));
  assert.deepEqual(resolver.resolve('../globals.d.ts', 'types/sub/refs.d.ts', 'triple-slash'), file('types/globals.d.ts'));
});

test('a triple-slash path reference never names a package', () => {
  const r = resolver.resolve('node', 'types/ambient.d.ts', 'triple-slash');
  assert.equal(r.kind, 'unresolved');
});

test('triple-slash types references name a types package', () => {
  assert.deepEqual(resolver.resolve('node', 'types/ambient.d.ts', 'triple-slash-types'), { kind: 'external', package: 'node' });
  assert.deepEqual(resolver.resolve('@testing-library/jest-dom', 'types/ambient.d.ts', 'triple-slash-types'), {
    kind: 'external',
    package: '@testing-library/jest-dom',
  });
  assert.deepEqual(resolver.resolve('vite/client', 'types/ambient.d.ts', 'triple-slash-types'), { kind: 'external', package: 'vite' });
});

test('a written .ts extension may name the declaration file (emitted declarations keep .ts specifiers)', () => {
  assert.deepEqual(resolver.resolve('./globals.ts', 'types/api.d.ts', 'import'), file('types/globals.d.ts'));
  assert.deepEqual(resolver.resolve('./model.ts', 'types/api.d.ts', 'import'), file('types/model.ts'));
  assert.deepEqual(resolver.resolve('./esm-model.mts', 'types/esm.d.mts', 'import'), file('types/esm-model.d.mts'));
});
