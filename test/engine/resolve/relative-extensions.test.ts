import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createResolver } from '../../../engine/src/resolve/index.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const host = hostFromDir(fixture('resolve', 'relative-extensions'));
const resolver = createResolver(host);
const file = (path: string) => ({ kind: 'file', path });

test('extensionless relative specifiers probe .ts, .tsx, .d.ts, .js from a TS file', () => {
  assert.deepEqual(resolver.resolve('./util', 'src/main.ts', 'import'), file('src/util.ts'));
  assert.deepEqual(resolver.resolve('./component', 'src/main.ts', 'import'), file('src/component.tsx'));
  assert.deepEqual(resolver.resolve('./globals', 'src/main.ts', 'import'), file('src/globals.d.ts'));
  assert.deepEqual(resolver.resolve('./legacy', 'src/main.ts', 'import'), file('src/legacy.js'));
  assert.deepEqual(resolver.resolve('../lib/helper', 'src/main.ts', 'import'), file('lib/helper.ts'));
  assert.deepEqual(resolver.resolve('../../util', 'src/nested/deep/leaf.ts', 'import'), file('src/util.ts'));
});

test('.ts wins over .tsx, and the importer decides between .ts and .js', () => {
  assert.deepEqual(resolver.resolve('./both', 'src/main.ts', 'import'), file('src/both.ts'));
  assert.deepEqual(resolver.resolve('./dual', 'src/main.ts', 'import'), file('src/dual.ts'));
  assert.deepEqual(resolver.resolve('./dual', 'src/app.js', 'import'), file('src/dual.js'));
  assert.deepEqual(resolver.resolve('./dual', 'src/app.js', 'require'), file('src/dual.js'));
  // allowJs mixed projects: a JS file reaches TS sources too
  assert.deepEqual(resolver.resolve('./util', 'src/app.js', 'import'), file('src/util.ts'));
});

test('.mjs/.cjs/.mts/.cts files are found extensionless as a last resort', () => {
  assert.deepEqual(resolver.resolve('./esm-only', 'src/app.js', 'import'), file('src/esm-only.mjs'));
  assert.deepEqual(resolver.resolve('./cjs-only', 'src/app.js', 'require'), file('src/cjs-only.cjs'));
  assert.deepEqual(resolver.resolve('./module-helper', 'src/module-entry.mts', 'import'), file('src/module-helper.mts'));
  assert.deepEqual(resolver.resolve('./util', 'src/common-entry.cts', 'require'), file('src/util.ts'));
});

test('dotted names that are not extensions get extensions appended', () => {
  assert.deepEqual(resolver.resolve('./user.service', 'src/main.ts', 'import'), file('src/user.service.ts'));
});

test('query strings and hash fragments are stripped before probing', () => {
  assert.deepEqual(resolver.resolve('./util?raw', 'src/main.ts', 'import'), file('src/util.ts'));
  assert.deepEqual(resolver.resolve('./util.js#frag', 'src/main.ts', 'import'), file('src/util.ts'));
});

test('absolute specifiers inside the root, and root-relative ones', () => {
  assert.deepEqual(resolver.resolve(`${host.root}/src/util`, 'src/main.ts', 'import'), file('src/util.ts'));
  assert.deepEqual(resolver.resolve('/lib/helper', 'src/main.ts', 'import'), file('lib/helper.ts'));
  const outside = resolver.resolve('/definitely/not/here', 'src/main.ts', 'import');
  assert.equal(outside.kind, 'unresolved');
  // file: URLs inside the root are absolute paths
  assert.deepEqual(resolver.resolve(pathToFileURL(`${host.root}/src/util.ts`).href, 'src/main.ts', 'import'), file('src/util.ts'));
});

test('an exact file name is taken as is', () => {
  assert.deepEqual(resolver.resolve('./util.ts', 'src/main.ts', 'import'), file('src/util.ts'));
  assert.deepEqual(resolver.resolve('./component.tsx', 'src/main.ts', 'import'), file('src/component.tsx'));
  assert.equal(resolver.resolve('./missing.ts', 'src/main.ts', 'import').kind, 'unresolved');
});

test('repeated calls give equal answers (memoised per directory) and touch no config twice', () => {
  const again = createResolver(host);
  const before = host.reads.length;
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(again.resolve('./util', 'src/main.ts', 'import'), file('src/util.ts'));
    assert.deepEqual(again.resolve('./util', 'src/app.js', 'import'), file('src/util.ts'));
    assert.deepEqual(again.resolve('lodash', 'src/main.ts', 'import'), { kind: 'external', package: 'lodash' });
  }
  const reads = host.reads.slice(before);
  assert.equal(new Set(reads).size, reads.length, `duplicate reads: ${reads.join(', ')}`);
});

test('memoised answers are dropped when the file set changes size', () => {
  const files = new Set(host.files);
  const r = createResolver({ ...host, files });
  assert.deepEqual(r.resolve('./dual', 'src/main.ts', 'import'), file('src/dual.ts'));
  files.delete('src/dual.ts');
  assert.deepEqual(r.resolve('./dual', 'src/main.ts', 'import'), file('src/dual.js'));
  files.add('src/dual.ts');
  assert.deepEqual(r.resolve('./dual', 'src/main.ts', 'import'), file('src/dual.ts'));
});
