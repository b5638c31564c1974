import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

// vendor/ is excluded from the index, as a scan config might do
const resolver = createResolver(hostFromDir(fixture('resolve', 'assets'), { exclude: (rel) => rel.startsWith('vendor/') }));
const asset = (path: string) => ({ kind: 'asset', path });

test('json, css and svg files that exist are assets', () => {
  assert.deepEqual(resolver.resolve('./data.json', 'src/main.ts', 'import'), asset('src/data.json'));
  assert.deepEqual(resolver.resolve('./styles.css', 'src/main.ts', 'import'), asset('src/styles.css'));
  assert.deepEqual(resolver.resolve('./data.json', 'src/main.ts', 'require'), asset('src/data.json'));
});

test('queries are stripped from asset specifiers', () => {
  assert.deepEqual(resolver.resolve('./logo.svg?url', 'src/main.ts', 'import'), asset('src/logo.svg'));
  assert.deepEqual(resolver.resolve('../assets/fonts/inter.woff2?inline', 'src/main.ts', 'import'), asset('assets/fonts/inter.woff2'));
});

test('an existing JS file outside the index is an asset', () => {
  assert.deepEqual(resolver.resolve('../vendor/excluded.js', 'src/main.ts', 'import'), asset('vendor/excluded.js'));
});

test('missing assets are unresolved', () => {
  assert.equal(resolver.resolve('./missing.css', 'src/main.ts', 'import').kind, 'unresolved');
});

test('a directory is never an asset', () => {
  const r = resolver.resolve('../assets/fonts', 'src/main.ts', 'import');
  assert.equal(r.kind, 'unresolved');
});
