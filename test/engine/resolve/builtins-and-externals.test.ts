import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import type { ImportKind } from '../../../engine/src/types.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'builtins-and-externals')));
const r = (spec: string, kind: ImportKind = 'import') =>
  resolver.resolve(spec, 'src/main.ts', kind);

test('Node built-ins with and without node:', () => {
  assert.deepEqual(r('node:fs'), { kind: 'builtin', module: 'fs' });
  assert.deepEqual(r('fs'), { kind: 'builtin', module: 'fs' });
  assert.deepEqual(r('fs/promises'), { kind: 'builtin', module: 'fs/promises' });
  assert.deepEqual(r('node:fs/promises'), { kind: 'builtin', module: 'fs/promises' });
  assert.deepEqual(r('path', 'require'), { kind: 'builtin', module: 'path' });
  assert.deepEqual(r('module'), { kind: 'builtin', module: 'module' });
  assert.deepEqual(resolver.resolve('child_process', 'src/app.cjs', 'require'), { kind: 'builtin', module: 'child_process' });
  // prefix-only modules keep their prefix
  assert.deepEqual(r('node:test'), { kind: 'builtin', module: 'node:test' });
});

test('every builtinModules entry is a builtin', async () => {
  const { builtinModules } = await import('node:module');
  for (const m of builtinModules) {
    const res = r(m);
    assert.equal(res.kind, 'builtin', `${m} → ${JSON.stringify(res)}`);
  }
});

test('externals are reported by package name, subpaths stripped', () => {
  assert.deepEqual(r('lodash'), { kind: 'external', package: 'lodash' });
  assert.deepEqual(r('lodash/fp'), { kind: 'external', package: 'lodash' });
  assert.deepEqual(r('@scope/x'), { kind: 'external', package: '@scope/x' });
  assert.deepEqual(r('@scope/x/y'), { kind: 'external', package: '@scope/x' });
  assert.deepEqual(r('@scope/x/y/z.js', 'dynamic-import'), { kind: 'external', package: '@scope/x' });
  assert.deepEqual(r('react-dom/client', 'type-import'), { kind: 'external', package: 'react-dom' });
  // not a built-in although the name looks like one
  assert.deepEqual(r('test'), { kind: 'external', package: 'test' });
  assert.deepEqual(r('npm:lodash@4/fp'), { kind: 'external', package: 'lodash' });
});

test('triple-slash types references are external types packages', () => {
  assert.deepEqual(r('node', 'triple-slash-types'), { kind: 'external', package: 'node' });
});

test('URL specifiers are unresolved with a reason', () => {
  const https = r('https://esm.sh/react');
  assert.equal(https.kind, 'unresolved');
  assert.match(https.kind === 'unresolved' ? https.reason : '', /https: URL imports/);
  const data = r('data:text/javascript,export default 1');
  assert.equal(data.kind, 'unresolved');
  assert.match(data.kind === 'unresolved' ? data.reason : '', /data: URL/);
  const virtual = r('virtual:pwa-register');
  assert.equal(virtual.kind, 'unresolved');
  assert.match(virtual.kind === 'unresolved' ? virtual.reason : '', /virtual: specifiers/);
});

test('names that cannot be packages are unresolved, not external', () => {
  for (const spec of ['~/components/x', '@/components/x', '@scope', '.hidden']) {
    assert.equal(r(spec).kind, 'unresolved', spec);
  }
});
