import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'directory-index')));
const file = (path: string) => ({ kind: 'file', path });

test('a directory resolves to its index file', () => {
  assert.deepEqual(resolver.resolve('./components', 'src/main.ts', 'import'), file('src/components/index.ts'));
  assert.deepEqual(resolver.resolve('./components/', 'src/main.ts', 'import'), file('src/components/index.ts'));
  assert.deepEqual(resolver.resolve('./jsx-only', 'src/app.js', 'import'), file('src/jsx-only/index.jsx'));
  assert.deepEqual(resolver.resolve('./jsx-only', 'src/main.ts', 'import'), file('src/jsx-only/index.jsx'));
});

test('`.` and `..` name the current and parent directory', () => {
  assert.deepEqual(resolver.resolve('..', 'src/nested/child.ts', 'import'), file('src/index.ts'));
  assert.deepEqual(resolver.resolve('../', 'src/nested/child.ts', 'import'), file('src/index.ts'));
  assert.deepEqual(resolver.resolve('.', 'src/components/button.tsx', 'import'), file('src/components/index.ts'));
  assert.deepEqual(resolver.resolve('./', 'src/components/button.tsx', 'import'), file('src/components/index.ts'));
});

test("a directory with its own package.json uses main (TS-mapped), before index", () => {
  // main: ./widget-main.js → widget-main.ts, although widget/index.ts exists too
  assert.deepEqual(resolver.resolve('./widget', 'src/main.ts', 'import'), file('src/widget/widget-main.ts'));
});

test('package.json types is preferred from TS, main from JS', () => {
  assert.deepEqual(resolver.resolve('./typed', 'src/main.ts', 'import'), file('src/typed/lib/typed.d.ts'));
  assert.deepEqual(resolver.resolve('./typed', 'src/app.js', 'import'), file('src/typed/lib/typed.js'));
});

test('package.json exports "." with conditions: import for import, default for require', () => {
  assert.deepEqual(resolver.resolve('./exported', 'src/app.js', 'import'), file('src/exported/entry.mjs'));
  assert.deepEqual(resolver.resolve('./exported', 'src/app.js', 'require'), file('src/exported/entry.cjs'));
});

test('a directory without index is unresolved and says what was tried', () => {
  const r = resolver.resolve('./empty-dir', 'src/main.ts', 'import');
  assert.equal(r.kind, 'unresolved');
  assert.match(r.kind === 'unresolved' ? r.reason : '', /src\/empty-dir\/index\.\*/);
});
