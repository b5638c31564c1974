import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'ts-js-extension')));
const file = (path: string) => ({ kind: 'file', path });

test('./x.js from TypeScript means x.ts, x.tsx or x.d.ts when they exist', () => {
  assert.deepEqual(resolver.resolve('./source-file.js', 'src/main.ts', 'import'), file('src/source-file.ts'));
  assert.deepEqual(resolver.resolve('./view.js', 'src/main.ts', 'import'), file('src/view.tsx'));
  assert.deepEqual(resolver.resolve('./view.jsx', 'src/main.ts', 'import'), file('src/view.tsx'));
  assert.deepEqual(resolver.resolve('./declared-only.js', 'src/main.ts', 'import'), file('src/declared-only.d.ts'));
});

test('./x.js falls back to x.js when there is no TS counterpart', () => {
  assert.deepEqual(resolver.resolve('./plain.js', 'src/main.ts', 'import'), file('src/plain.js'));
  assert.deepEqual(resolver.resolve('./runtime.js', 'src/view.tsx', 'import'), file('src/runtime.js'));
});

test('.mjs → .mts and .cjs → .cts', () => {
  assert.deepEqual(resolver.resolve('./esm-module.mjs', 'src/main.ts', 'import'), file('src/esm-module.mts'));
  assert.deepEqual(resolver.resolve('./cjs-module.cjs', 'src/main.ts', 'import'), file('src/cjs-module.cts'));
  assert.deepEqual(resolver.resolve('./script.mjs', 'src/main.ts', 'import'), file('src/script.mjs'));
});

test('when both x.ts and x.js exist, TS importers get x.ts and JS importers x.js', () => {
  assert.deepEqual(resolver.resolve('./both.js', 'src/main.ts', 'import'), file('src/both.ts'));
  assert.deepEqual(resolver.resolve('./both.js', 'src/plain.js', 'import'), file('src/both.js'));
  assert.deepEqual(resolver.resolve('./both.js', 'src/script.mjs', 'import'), file('src/both.js'));
});

test('a JS importer asking for ./x.js gets x.ts when only that exists', () => {
  assert.deepEqual(resolver.resolve('./source-file.js', 'src/plain.js', 'import'), file('src/source-file.ts'));
});

test('a missing ./x.js is unresolved with the mapped names in the reason', () => {
  const r = resolver.resolve('./nothing.js', 'src/main.ts', 'import');
  assert.equal(r.kind, 'unresolved');
  assert.match(r.kind === 'unresolved' ? r.reason : '', /no file \.\/nothing\.js .*src\/nothing \+ \.ts, \.tsx, \.d\.ts, \.js, \.jsx.* from src\/main\.ts/);
});
