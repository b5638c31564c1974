import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir, writeTempTree } from '../../helpers/resolver-host.js';

// git ignores node_modules/, so the shared config package is written next to a copy of the fixture
const temp = writeTempTree({
  'node_modules/@company/tsconfig/package.json': JSON.stringify({ name: '@company/tsconfig', version: '1.0.0' }),
  'node_modules/@company/tsconfig/base.json': '{\n  // shared base\n  "compilerOptions": { "strict": true, "customConditions": ["@company/source"] },\n}\n',
  'node_modules/@company/tsconfig/lib.json': JSON.stringify({ compilerOptions: { paths: { '@lib/*': ['${configDir}/src/*'] } } }),
  'node_modules/@company/tsconfig/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@bare/*': ['${configDir}/src/*'] } } }),
});
cpSync(fixture('resolve', 'tsconfig-extends'), temp.root, { recursive: true });
after(() => temp.cleanup());

const host = hostFromDir(temp.root);
const resolver = createResolver(host);
const file = (p: string) => ({ kind: 'file', path: p });

test('an extends array merges in order: the later config replaces paths of the earlier one', () => {
  // configs/override.json (second) declares @shared/*, replacing @old/* of configs/tsconfig.base (first)
  assert.deepEqual(resolver.resolve('@shared/thing', 'src/main.ts', 'import'), file('shared/thing.ts'));
  assert.notEqual(resolver.resolve('@old/legacy', 'src/main.ts', 'import').kind, 'file');
});

test('paths declared in a base config without baseUrl are relative to that base config', () => {
  // "../shared/*" in configs/override.json → shared/*, not ../shared from the root
  assert.deepEqual(resolver.resolve('@shared/thing', 'src/main.ts', 'import'), file('shared/thing.ts'));
});

test('a baseUrl in the extending config re-bases paths inherited from the base', () => {
  // configs/with-paths.json: "@feature/*": ["./features/*"]; packages/app sets baseUrl "." → packages/app/features
  assert.deepEqual(resolver.resolve('@feature/login', 'packages/app/src/main.ts', 'import'), file('packages/app/features/login.ts'));
});

test('extends from node_modules, with and without .json, and ${configDir}', () => {
  assert.deepEqual(resolver.resolve('@lib/tools', 'packages/lib/src/main.ts', 'import'), file('packages/lib/src/tools.ts'));
  assert.deepEqual(resolver.resolve('@bare/thing', 'packages/bare/src/main.ts', 'import'), file('packages/bare/src/thing.ts'));
});

test('customConditions inherited from a node_modules base steer package.json imports', () => {
  // "#conf": { "@company/source": "./src/conf.ts", "default": "./lib/conf-built.js" } — both exist
  assert.deepEqual(resolver.resolve('#conf', 'src/main.ts', 'import'), file('src/conf.ts'));
});

test('an extends cycle does not hang, and own options still apply', () => {
  assert.deepEqual(resolver.resolve('@cycle/other', 'packages/cycle/src/main.ts', 'import'), file('packages/cycle/src/other.ts'));
});

test('a base that cannot be found is skipped', () => {
  assert.deepEqual(resolver.resolve('@m/other', 'packages/missing-base/src/main.ts', 'import'), file('packages/missing-base/src/other.ts'));
});

test('configFiles lists the whole chain, node_modules included', () => {
  const files = resolver.configFiles();
  for (const f of [
    'tsconfig.json',
    'configs/tsconfig.base.json',
    'configs/override.json',
    'configs/with-paths.json',
    'node_modules/@company/tsconfig/base.json',
    'node_modules/@company/tsconfig/lib.json',
    'node_modules/@company/tsconfig/tsconfig.json',
    'packages/app/tsconfig.json',
    'package.json',
  ]) {
    assert.ok(files.includes(f), `${f} missing from ${files.join(', ')}`);
  }
  assert.ok(files.every((f) => !path.isAbsolute(f) && !f.includes('\\')));
});
