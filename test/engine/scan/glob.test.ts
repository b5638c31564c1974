import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import picomatch from 'picomatch';
import { BUILTIN_EXCLUDE, DEFAULT_INCLUDE } from '../../../engine/src/config.js';
import { globMatcher } from '../../../engine/src/scan/glob.js';

describe('globMatcher: the answer picomatch(globs, { dot: true }) gives, without its per-call objects', () => {
  it('agrees with picomatch on the built-in lists, literal, negated, brace, extglob and dot globs, for every path tried', () => {
    const lists = [
      DEFAULT_INCLUDE,
      BUILTIN_EXCLUDE,
      ['src/**/*.ts', 'lib/*.{js,mjs}'],
      ['src/legacy/**', '**/*.test.ts', 'README.md', 'scripts/x.js'],
      ['!src/**', '**/.env*', '**/*.@(pem|key)', 'a/?/b/**', '**/[abc]*.js', '.planning/**'],
      ['**'],
      ['src/legacy/**', '**/*.min.js', '.planning/**', 'a/./b', './src/**', '**/gen-*/**', 'lib/**/x.js', '**/__tests__/**', 'a//b/**'],
    ];
    const paths = [
      'src/a.ts', 'src/b.tsx', 'src/legacy', 'src/legacy/old.ts', 'src/x.test.ts', 'README.md', 'scripts/x.js', 'lib/a.js', 'lib/a.mjs',
      'lib/sub/a.js', 'node_modules', 'node_modules/x/index.js', 'a/node_modules/b.js', 'a/node_modules', 'packages/p/dist/out.js',
      '.git/HEAD', '.planning/intel/x.js', '.planning', 'x.min.js', 'a/b/c.min.js', '.env', 'cfg/.env.local', 'keys/a.pem', 'a/1/b/c',
      'a/12/b/c', 'b.js', 'z/cat.js', 'dist', 'distant/x.ts', 'a/.hidden/b.ts', 'ünï/cöde.ts', 'a b/c d.ts', '!src/a.ts', '',
    ];
    // and every combination of a few folder and file names, three deep
    const names = ['src', 'legacy', 'node_modules', '.git', 'dist', 'a', 'b', 'gen-x', '__tests__', 'x.js', 'y.min.js', 'z.ts', '.env', 'lib'];
    for (const a of names) for (const b of names) for (const c of names) paths.push(`${a}/${b}/${c}`, `${a}/${b}`, a);
    for (const globs of lists) {
      const reference = picomatch([...globs], { dot: true });
      const ours = globMatcher(globs);
      for (const p of paths) assert.equal(ours(p), p === '' ? false : Boolean(reference(p)), `${JSON.stringify(globs)} on ${JSON.stringify(p)}`);
    }
  });
});
