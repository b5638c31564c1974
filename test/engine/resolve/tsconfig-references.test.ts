import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'tsconfig-references')));

test('a solution-style tsconfig (files: [], references) uses the paths of the referenced projects', () => {
  assert.deepEqual(resolver.resolve('@/components/App', 'src/main.tsx', 'import'), { kind: 'file', path: 'src/components/App.tsx' });
  assert.deepEqual(resolver.resolve('vite', 'vite.config.ts', 'import'), { kind: 'external', package: 'vite' });
  assert.ok(resolver.configFiles().includes('tsconfig.app.json'));
});
