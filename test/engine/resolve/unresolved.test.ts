import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResolver } from '../../../engine/src/resolve/index.js';
import type { ImportKind, Resolution } from '../../../engine/src/types.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const resolver = createResolver(hostFromDir(fixture('resolve', 'unresolved')));

function reason(spec: string, kind: ImportKind = 'import', from = 'src/main.ts'): string {
  const r: Resolution = resolver.resolve(spec, from, kind);
  assert.equal(r.kind, 'unresolved', `${spec} → ${JSON.stringify(r)}`);
  return r.kind === 'unresolved' ? r.reason : '';
}

test('a missing relative file names the specifier, what was tried and the importer', () => {
  assert.match(reason('./nope'), /^no file \.\/nope \(tried src\/nope \+ \.ts, \.tsx, \.d\.ts, \.js, \.jsx, …, src\/nope\/index\.\*\) from src\/main\.ts$/);
  assert.match(reason('../lib/gone.js'), /no file \.\.\/lib\/gone\.js \(tried lib\/gone \+ \.ts, \.tsx, \.d\.ts, \.js, \.jsx/);
});

test('a relative path above the root', () => {
  assert.match(reason('../../../outside'), /points outside the project root/);
});

test('an absolute path outside the root', () => {
  assert.match(reason('/etc/passwd-like/thing'), /absolute path \/etc\/passwd-like\/thing is outside the project root/);
});

test('#imports without an imports field', () => {
  assert.match(reason('#internal'), /package\.json has no "imports" field/);
});

test('a paths alias whose target does not exist', () => {
  assert.match(reason('@app/missing'), /tsconfig paths "@app\/\*" \(tsconfig\.json\) matched, but no file exists at src\/app\/missing/);
  // the same alias resolves when the file exists
  assert.deepEqual(resolver.resolve('@app/existing', 'src/main.ts', 'import'), { kind: 'file', path: 'src/app/existing.ts' });
});

test('URL schemes and empty specifiers', () => {
  assert.match(reason('https://cdn.example.com/x.js'), /https: URL imports are not resolved/);
  assert.match(reason(''), /empty specifier/);
});

test('unresolved reasons name the importing file even when another file of the directory asked first', () => {
  assert.match(reason('./nope', 'import', 'src/main.ts'), /from src\/main\.ts$/);
  assert.match(reason('./nope', 'import', 'src/other.ts'), /from src\/other\.ts$/);
});

test('nothing throws, whatever the input', () => {
  const odd = ['\0', '..', '.', '...', '/', '//', '#', '#/', '@', '@/', 'node:', ':', 'a:b', './a/../../..', '?', '#?', './x?y#z', ' '];
  for (const spec of odd) {
    for (const kind of ['import', 'require', 'triple-slash'] as const) {
      const r = resolver.resolve(spec, 'src/main.ts', kind);
      assert.ok(['file', 'asset', 'external', 'builtin', 'unresolved'].includes(r.kind), `${spec}: ${JSON.stringify(r)}`);
    }
  }
});
