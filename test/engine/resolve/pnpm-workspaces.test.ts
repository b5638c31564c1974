import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'pnpm-workspaces')));
const file = (path: string) => ({ kind: 'file', path });
const from = 'apps/site/src/main.ts';

test('pnpm-workspace.yaml packages (quoted, commented) are workspace packages', () => {
  assert.deepEqual(resolver.resolve('alpha', from, 'import'), file('packages/alpha/src/index.ts'));
  assert.deepEqual(resolver.resolve('alpha/src/math', from, 'import'), file('packages/alpha/src/math.ts'));
});

test('** globs reach nested packages; exports types target pointing at source is taken', () => {
  assert.deepEqual(resolver.resolve('@tools/cli', from, 'import'), file('tools/build/cli/src/index.ts'));
});

test('negated globs exclude packages', () => {
  assert.deepEqual(resolver.resolve('ignored-fixture', from, 'import'), { kind: 'external', package: 'ignored-fixture' });
});

test('directories not listed are not workspace packages', () => {
  // apps/* is not in pnpm-workspace.yaml
  assert.deepEqual(resolver.resolve('site', 'packages/alpha/src/index.ts', 'import'), { kind: 'external', package: 'site' });
});

test('pnpm-workspace.yaml is reported as a config file', () => {
  assert.ok(resolver.configFiles().includes('pnpm-workspace.yaml'));
});
