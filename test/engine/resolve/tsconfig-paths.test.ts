import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const host = hostFromDir(fixture('resolve', 'tsconfig-paths'));
const resolver = createResolver(host);
const file = (path: string) => ({ kind: 'file', path });

test('wildcard paths resolve relative to baseUrl', () => {
  assert.deepEqual(resolver.resolve('@/utils/format', 'src/main.ts', 'import'), file('src/utils/format.ts'));
  assert.deepEqual(resolver.resolve('@/config', 'src/main.ts', 'import'), file('src/config/index.ts'));
  assert.deepEqual(resolver.resolve('@app/store', 'src/main.ts', 'import'), file('src/app/store.ts'));
  assert.deepEqual(resolver.resolve('@/utils/format.js', 'src/main.ts', 'import'), file('src/utils/format.ts'));
});

test('the longest matching prefix wins', () => {
  // "@app/special/*" beats "@app/*" although src/app/special/not-this.ts would match the shorter one
  assert.deepEqual(resolver.resolve('@app/special/widget', 'src/main.ts', 'import'), file('src/special/widget.ts'));
  assert.equal(resolver.resolve('@app/special/not-this', 'src/main.ts', 'import').kind, 'unresolved');
});

test('exact keys map to their target', () => {
  assert.deepEqual(resolver.resolve('@lib', 'src/main.ts', 'import'), file('src/lib/index.ts'));
});

test('multiple targets are tried in order', () => {
  assert.deepEqual(resolver.resolve('@multi/shared', 'src/main.ts', 'import'), file('src/first/shared.ts'));
  assert.deepEqual(resolver.resolve('@multi/only-first', 'src/main.ts', 'import'), file('src/first/only-first.ts'));
  assert.deepEqual(resolver.resolve('@multi/only-second', 'src/main.ts', 'import'), file('src/second/only-second.ts'));
});

test('bare specifiers are looked up relative to baseUrl', () => {
  assert.deepEqual(resolver.resolve('utils/format', 'src/app/store.ts', 'import'), file('src/utils/format.ts'));
  assert.deepEqual(resolver.resolve('config', 'src/main.ts', 'import'), file('src/config/index.ts'));
});

test('paths apply to JS importers too', () => {
  assert.deepEqual(resolver.resolve('@app/store', 'src/legacy.js', 'require'), file('src/app/store.ts'));
});

test('a paths target into node_modules is an external package', () => {
  assert.deepEqual(resolver.resolve('@typed/react', 'src/main.ts', 'import'), { kind: 'external', package: '@types/react' });
});

test('a paths target that is not source is an asset', () => {
  assert.deepEqual(resolver.resolve('@assets/logo.svg', 'src/main.ts', 'import'), { kind: 'asset', path: 'assets/logo.svg' });
});

test('unmatched bare specifiers are still externals and built-ins', () => {
  assert.deepEqual(resolver.resolve('react', 'src/main.ts', 'import'), { kind: 'external', package: 'react' });
  assert.deepEqual(resolver.resolve('fs', 'src/main.ts', 'import'), { kind: 'builtin', module: 'fs' });
});

test('a matched pattern without an existing target is unresolved with the pattern in the reason', () => {
  const r = resolver.resolve('@app/missing', 'src/main.ts', 'import');
  assert.equal(r.kind, 'unresolved');
  assert.match(r.kind === 'unresolved' ? r.reason : '', /tsconfig paths "@app\/\*" \(tsconfig\.json\).*src\/app\/missing/);
});

test('configFiles lists the tsconfig that was read', () => {
  assert.ok(resolver.configFiles().includes('tsconfig.json'));
});
