import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'malformed-tsconfig')));
const file = (path: string) => ({ kind: 'file', path });

test('comments and trailing commas are stripped; strings containing // and /* survive', () => {
  // the key "@/*" contains `/*`, "$schema" holds a URL with `//`
  assert.deepEqual(resolver.resolve('@/util', 'src/main.ts', 'import'), file('src/util.ts'));
  assert.deepEqual(resolver.resolve('@urls/site', 'src/main.ts', 'import'), file('src/urls/site.ts'));
});

test('a broken tsconfig does not throw and is treated as empty', () => {
  const r = resolver.resolve('@/thing', 'broken/main.ts', 'import');
  assert.equal(r.kind, 'unresolved');
  // relative imports are unaffected
  assert.deepEqual(resolver.resolve('./sibling', 'broken/main.ts', 'import'), file('broken/sibling.ts'));
  assert.deepEqual(resolver.resolve('react', 'broken/main.ts', 'import'), { kind: 'external', package: 'react' });
});

test('a tsconfig that is valid JSON but not an object is treated as empty', () => {
  assert.deepEqual(resolver.resolve('react', 'not-object/main.ts', 'import'), { kind: 'external', package: 'react' });
  assert.equal(resolver.resolve('@/util', 'not-object/main.ts', 'import').kind, 'unresolved');
});

test('broken config files are still reported, so fixing them triggers re-resolution', () => {
  const files = resolver.configFiles();
  assert.ok(files.includes('tsconfig.json'));
  assert.ok(files.includes('broken/tsconfig.json'));
  assert.ok(files.includes('not-object/tsconfig.json'));
});
