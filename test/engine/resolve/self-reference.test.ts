import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'self-reference')));
const file = (path: string) => ({ kind: 'file', path });

test('a package imports itself by name; an unbuilt dist entry maps to src', () => {
  // ".": { "types": "./dist/index.d.ts", "import": "./dist/index.js" } and no dist/ → src/index.ts
  assert.deepEqual(resolver.resolve('@acme/lib', 'test/lib.test.ts', 'import'), file('src/index.ts'));
  assert.deepEqual(resolver.resolve('@acme/lib', 'src/feature.ts', 'import'), file('src/index.ts'));
});

test('exported subpaths and subpath patterns', () => {
  assert.deepEqual(resolver.resolve('@acme/lib/feature', 'test/lib.test.ts', 'import'), file('src/feature.ts'));
  assert.deepEqual(resolver.resolve('@acme/lib/utils/strings', 'test/lib.test.ts', 'import'), file('src/utils/strings.ts'));
});

test('a subpath excluded with null is unresolved', () => {
  const r = resolver.resolve('@acme/lib/internal/secret', 'test/lib.test.ts', 'import');
  assert.equal(r.kind, 'unresolved');
  assert.match(r.kind === 'unresolved' ? r.reason : '', /excluded by the exports of @acme\/lib/);
});

test('./package.json export is an asset', () => {
  assert.deepEqual(resolver.resolve('@acme/lib/package.json', 'test/lib.test.ts', 'import'), { kind: 'asset', path: 'package.json' });
});

test('another package name is external', () => {
  assert.deepEqual(resolver.resolve('@acme/other', 'test/lib.test.ts', 'import'), { kind: 'external', package: '@acme/other' });
});

test('without "exports" a package does not resolve its own name (Node looks it up in node_modules): external', () => {
  const plain = createResolver(hostFromDir(fixture('resolve', 'self-reference-no-exports')));
  assert.deepEqual(plain.resolve('plain-lib', 'lib/a.js', 'require'), { kind: 'external', package: 'plain-lib' });
  assert.deepEqual(plain.resolve('plain-lib/lib/index.js', 'lib/a.js', 'require'), { kind: 'external', package: 'plain-lib' });
  assert.deepEqual(plain.resolve('./a', 'lib/index.js', 'require'), file('lib/a.js'));
});
