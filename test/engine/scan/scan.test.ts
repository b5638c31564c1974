import assert from 'node:assert/strict';
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createFileFilter, scanProject } from '../../../engine/src/scan/index.js';
import { defaultConfig, readIntelConfig } from '../../../engine/src/config.js';
import { loadFile } from '../../../engine/src/parse/index.js';
import type { LoadedFile } from '../../../engine/src/types.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';

const skippedReason = (file: LoadedFile) => ('skipped' in file ? file.skipped : null);
const paths = async (root: string) => (await scanProject(root, readIntelConfig(root))).map((f) => f.path);

describe('scan: which files are indexed', () => {
  after(cleanupProjects);

  it('takes the JS/TS family, declarations included, and skips dependencies, VCS, .planning and build output', async () => {
    const root = tempProject({
      'src/a.ts': '', 'src/b.tsx': '', 'src/c.mts': '', 'src/d.cts': '', 'src/e.js': '', 'src/f.jsx': '', 'src/g.mjs': '', 'src/h.cjs': '',
      'src/types.d.ts': '', 'src/readme.md': '', 'src/data.json': '', 'src/app.min.js': '',
      'node_modules/x/index.js': '', 'packages/p/node_modules/y/index.js': '', '.git/hooks/pre-commit.js': '',
      '.planning/intel/x.js': '', 'dist/out.js': '', 'packages/p/build/out.js': '', 'coverage/lcov.js': '', '.next/server.js': '',
    });
    assert.deepEqual(await paths(root), ['src/a.ts', 'src/b.tsx', 'src/c.mts', 'src/d.cts', 'src/e.js', 'src/f.jsx', 'src/g.mjs', 'src/h.cjs', 'src/types.d.ts']);
  });

  it('keeps build/ and out/ folders a language compiles as source: a Go package, a Python package; the full scan and the one-file filter agree', async () => {
    const root = tempProject({
      'svc/go.mod': 'module example.com/svc\n', 'svc/build/version.go': 'package build\n', 'svc/out/sub/x.go': 'package sub\n',
      'app/__init__.py': '', 'app/build/__init__.py': '', 'app/build/steps.py': '', 'app/build/sub/__init__.py': '',
      'build/lib/app/__init__.py': '', 'build/lib/app/models.py': '', 'web/build/bundle.js': '', 'web/out/index.ts': '', 'web/src/a.ts': '',
    });
    const expected = ['app/__init__.py', 'app/build/__init__.py', 'app/build/steps.py', 'app/build/sub/__init__.py', 'svc/build/version.go', 'svc/out/sub/x.go', 'web/src/a.ts'];
    assert.deepEqual(await paths(root), expected);
    const accept = createFileFilter(root, readIntelConfig(root));
    for (const f of ['build/lib/app/models.py', 'web/build/bundle.js', 'web/out/index.ts', ...expected]) assert.equal(accept(f), expected.includes(f), f);
  });

  it('honours .gitignore files, nested ones only below their folder', async () => {
    const root = tempProject({
      '.gitignore': 'generated/\n*.gen.ts\n',
      'src/.gitignore': 'local.ts\n',
      'src/a.ts': '', 'src/local.ts': '', 'src/x.gen.ts': '', 'generated/api.ts': '', 'local.ts': '', 'lib/deep/generated/z.ts': '',
    });
    assert.deepEqual(await paths(root), ['local.ts', 'src/a.ts']);
  });

  it('include and exclude globs come from .planning/config.json', async () => {
    const root = tempProject({
      '.planning/config.json': JSON.stringify({ intel: { include: ['src/**/*.ts'], exclude: ['src/legacy/**'] } }),
      'src/a.ts': '', 'src/legacy/old.ts': '', 'scripts/s.ts': '', 'src/b.js': '',
    });
    assert.deepEqual(await paths(root), ['src/a.ts']);
  });

  it('lists the same files without stats (size and mtime 0), and never enters a linked folder', async () => {
    const root = tempProject({ 'src/a.ts': 'x', 'src/b/c.ts': 'yy', 'elsewhere/d.ts': '' });
    symlinkSync(path.join(root, 'src/a.ts'), path.join(root, 'src/link.ts'));
    symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'src/linked-folder'));
    const config = readIntelConfig(root);
    const withStats = await scanProject(root, config);
    const without = await scanProject(root, config, { stats: false });
    assert.deepEqual(without.map((f) => f.path), withStats.map((f) => f.path));
    assert.ok(!withStats.some((f) => f.path.startsWith('src/linked-folder/')), 'a linked folder is not entered (loadFile walked relies on it)');
    assert.ok(without.every((f) => f.size === 0 && f.mtimeMs === 0));
    assert.equal(withStats.find((f) => f.path === 'src/b/c.ts')?.size, 2);
  });

  it('with ownsProcess (the CLI) stats each file from inside its folder: the same answer, and the working directory put back', async () => {
    const files = { 'src/a.ts': 'x', 'src/b/c.ts': 'yy', 'src/d e/ü.ts': 'zzz', 'elsewhere/c.ts': 'a longer one', 'lib/g.ts': 'g' };
    const scan = (root: string, ownsProcess: boolean, onListed?: (rel: string) => void) =>
      scanProject(root, readIntelConfig(root), { ownsProcess, onListed: onListed && ((rel) => onListed(rel)) });
    const home = process.cwd();
    const plain = tempProject(files);
    symlinkSync(path.join(plain, 'elsewhere'), path.join(plain, 'src/linked-folder'));
    symlinkSync(path.join(plain, 'src/a.ts'), path.join(plain, 'src/link.ts'));
    assert.deepEqual(await scan(plain, true), await scan(plain, false));
    assert.equal((await scan(plain, true)).find((f) => f.path === 'src/d e/ü.ts')?.size, 3);
    assert.equal(process.cwd(), home);
    // a project reached through a linked path
    const linked = `${plain}-link`;
    symlinkSync(plain, linked);
    try {
      assert.deepEqual(await scan(linked, true), await scan(plain, false));
    } finally {
      rmSync(linked);
    }
    // a folder removed after it was listed, and one swapped for a link to another folder: as the full paths resolve
    for (const change of ['remove', 'swap'] as const) {
      const answers: string[][] = [];
      for (const ownsProcess of [true, false]) {
        const root = tempProject(files);
        const scanned = await scan(root, ownsProcess, (rel) => {
          if (rel !== 'src/b') return;
          if (change === 'remove') rmSync(path.join(root, 'src/b'), { recursive: true });
          else {
            renameSync(path.join(root, 'src/b'), path.join(root, 'src/b-old'));
            symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'src/b'));
          }
        });
        answers.push(scanned.map((f) => `${f.path} ${f.size}`)); // two projects: their mtimes differ
        assert.equal(process.cwd(), home);
      }
      assert.deepEqual(answers[0], answers[1], change);
      assert.equal(answers[0].find((f) => f.startsWith('src/b/c.ts ')), change === 'remove' ? undefined : 'src/b/c.ts 12', change);
    }
  });

  it('lists no symbolic link, to a file inside the project or outside it, as fast-glob (onlyFiles, followSymbolicLinks: false) did', async () => {
    const outside = tempProject({ 'secret.ts': 'export const secret = 1;\n' }, { planning: false });
    const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
    symlinkSync(path.join(root, 'src/a.ts'), path.join(root, 'src/inside-link.ts'));
    symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src/outside-link.ts'));
    const config = readIntelConfig(root);
    for (const stats of [true, false]) assert.deepEqual((await scanProject(root, config, { stats })).map((f) => f.path), ['src/a.ts']);
    // the filter (the hook's single-file check) takes both names: a link a hook reports goes to the loader, which
    // reads the one inside and refuses the one outside (as test/engine/parse/load-file.test.ts checks in detail)
    assert.deepEqual(['src/inside-link.ts', 'src/outside-link.ts'].map(createFileFilter(root, config)), [true, true]);
    assert.equal(skippedReason(loadFile(root, 'src/outside-link.ts', { maxFileBytes: 1024 })), 'not-a-file');
    assert.equal(skippedReason(loadFile(root, 'src/inside-link.ts', { maxFileBytes: 1024 })), null);
  });

  it('walks from the include globs\' bases, skips folders an exclusion or a .gitignore names, and agrees with the filter on the rest', async () => {
    const files = {
      '.gitignore': 'ignored/\n!ignored/keep.ts\nlogs\n', 'src/.gitignore': '/gen\n',
      'src/a.ts': '', 'src/gen/g.ts': '', 'src/deep/gen/h.ts': '', 'src/legacy/old.ts': '', 'src/legacy.ts': '', 'ignored/keep.ts': '', 'ignored/deep/x.ts': '',
      'logs/a.ts': '', 'src/logs/b.ts': '', '.hidden/c.ts': '', 'lib/d.ts': '', 'lib/vendor/e.js': '',
    };
    const root = tempProject({ ...files, '.planning/config.json': JSON.stringify({ intel: { exclude: ['src/legacy', 'lib/vendor/**'] } }) });
    const config = readIntelConfig(root);
    const accept = createFileFilter(root, config);
    // a folder an exclude glob matches is not entered (as the glob walker did): src/legacy/old.ts, which the filter alone would take
    const expected = Object.keys(files).filter((f) => accept(f) && !f.startsWith('src/legacy/')).sort();
    assert.deepEqual(expected, ['.hidden/c.ts', 'lib/d.ts', 'src/a.ts', 'src/deep/gen/h.ts', 'src/legacy.ts']);
    assert.deepEqual(await paths(root), expected);
    writeFileSync(path.join(root, '.planning/config.json'), JSON.stringify({ intel: { include: ['src/**/*.ts', './lib/*.ts'] } }));
    assert.deepEqual(await paths(root), ['lib/d.ts', 'src/a.ts', 'src/deep/gen/h.ts', 'src/legacy.ts', 'src/legacy/old.ts']);
  });

  it('the single-file filter agrees with the full scan', async () => {
    const root = tempProject({ '.gitignore': 'tmp/\n', 'src/a.ts': '', 'tmp/b.ts': '', 'node_modules/c.js': '', 'README.md': '' });
    const accept = createFileFilter(root, defaultConfig());
    assert.deepEqual(['src/a.ts', 'tmp/b.ts', 'node_modules/c.js', 'README.md', '../x.ts', ''].map(accept), [true, false, false, false, false, false]);
    assert.deepEqual(await paths(root), ['src/a.ts']);
  });
});
