import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir, writeTempTree } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'npm-workspaces')));
const file = (path: string) => ({ kind: 'file', path });
const from = 'apps/web/src/main.ts';

test('a workspace package whose main/types point to an unbuilt dist resolves to src', () => {
  assert.deepEqual(resolver.resolve('@acme/core', from, 'import'), file('packages/core/src/index.ts'));
});

test('subpaths of a package without exports are files in the package', () => {
  assert.deepEqual(resolver.resolve('@acme/core/src/helpers', from, 'import'), file('packages/core/src/helpers.ts'));
  // dist/helpers.js does not exist → src/helpers.ts
  assert.deepEqual(resolver.resolve('@acme/core/dist/helpers.js', from, 'import'), file('packages/core/src/helpers.ts'));
});

test('exports: a source entry, conditional dist subpaths and patterns map to source', () => {
  assert.deepEqual(resolver.resolve('@acme/ui', from, 'import'), file('packages/ui/src/index.tsx'));
  assert.deepEqual(resolver.resolve('@acme/ui/button', from, 'import'), file('packages/ui/src/button.tsx'));
  assert.deepEqual(resolver.resolve('@acme/ui/icons/star', from, 'import'), file('packages/ui/src/icons/star.tsx'));
});

test('a flavour folder in the build output (dist/esm) is dropped when mapping back', () => {
  assert.deepEqual(resolver.resolve('utils-lib/format', from, 'import'), file('packages/utils/src/format.ts'));
});

test("the package's tsconfig outDir → rootDir mapping is used first", () => {
  assert.deepEqual(resolver.resolve('custom-out', from, 'import'), file('packages/custom-out/source/main.ts'));
});

test('a plain JS package resolves to its main', () => {
  assert.deepEqual(resolver.resolve('plain-js', 'apps/web/src/legacy.js', 'require'), file('packages/plain-js/lib/entry.js'));
});

test('packages outside the workspace globs are external', () => {
  assert.deepEqual(resolver.resolve('outsider', from, 'import'), { kind: 'external', package: 'outsider' });
  assert.deepEqual(resolver.resolve('react', from, 'import'), { kind: 'external', package: 'react' });
});

test('a workspace subpath that does not exist is unresolved with the package named', () => {
  const r = resolver.resolve('@acme/ui/nothing', from, 'import');
  assert.equal(r.kind, 'unresolved');
  assert.match(r.kind === 'unresolved' ? r.reason : '', /@acme\/ui \(packages\/ui\)/);
});

test('configFiles holds the root and the workspace package.json files', () => {
  const files = resolver.configFiles();
  for (const f of ['package.json', 'packages/core/package.json', 'packages/ui/package.json', 'packages/custom-out/tsconfig.json']) {
    assert.ok(files.includes(f), `${f} missing from ${files.join(', ')}`);
  }
});

test('the yarn form { "workspaces": { "packages": [...] } } works too', () => {
  const temp = writeTempTree({
    'package.json': JSON.stringify({ private: true, workspaces: { packages: ['libs/*'], nohoist: ['**/x'] } }),
    'libs/shared/package.json': JSON.stringify({ name: '@yarn/shared', main: 'lib/index.js' }),
    'libs/shared/src/index.ts': 'export const shared = 1;\n',
    'app/main.ts': "import '@yarn/shared';\n",
  });
  after(() => temp.cleanup());
  const r = createResolver(hostFromDir(temp.root));
  assert.deepEqual(r.resolve('@yarn/shared', 'app/main.ts', 'import'), file('libs/shared/src/index.ts'));
});
