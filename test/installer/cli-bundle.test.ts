/**
 * The CLI as package.json "bin" ships it: the esbuild bundle dist/cli/ (scripts/bundle-cli.mjs), split at the
 * dynamic imports. One process must never mix it with the unbundled engine (errors are checked with instanceof), its
 * parse worker must start from the bundle's folder, and @babel/parser (left in node_modules) must load when a file
 * needs it. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { cliPath, repoRoot } from '../helpers/paths.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

const BUNDLE = path.join(repoRoot, 'dist', 'cli');
const temps: string[] = [];
after(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
  cleanupProjects();
});

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

describe('the CLI bundle (package.json "bin")', () => {
  it('is dist/cli/cli.js, an executable with a node shebang', () => {
    assert.equal(path.relative(repoRoot, cliPath).split(path.sep).join('/'), 'dist/cli/cli.js');
    assert.ok(existsSync(cliPath), 'dist/cli/cli.js is missing: run npm run build');
    assert.ok(readFileSync(cliPath, 'utf8').startsWith('#!/usr/bin/env node\n'));
    if (process.platform !== 'win32') {
      assert.ok(statSync(cliPath).mode & 0o100, 'executable');
      const r = spawnSync(cliPath, ['--version'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version);
    }
  });

  it('loads nothing from outside dist/cli but node built-ins and @babel/parser', () => {
    const builtins = new Set(builtinModules);
    for (const file of jsFiles(BUNDLE)) {
      const text = readFileSync(file, 'utf8');
      // import/export … from "x", import "x", import("x"), require("x") (not the words inside strings; a specifier has no
      // comma or space, so prose such as `numbers from","` in a bundled string is not one)
      for (const m of text.matchAll(/(?<![\w$.'"`/-])(?:from|import|require)\s*\(?\s*(["'])([^"'\n,\s]+)\1/g)) {
        const spec = m[2]!;
        if (spec.startsWith('.')) {
          const target = path.resolve(path.dirname(file), spec);
          assert.ok(!path.relative(BUNDLE, target).startsWith('..'), `${path.relative(repoRoot, file)} imports ${spec}, outside dist/cli`);
          assert.ok(existsSync(target), `${path.relative(repoRoot, file)} imports ${spec}, which is missing`);
        } else {
          assert.ok(spec.startsWith('node:') || builtins.has(spec) || spec === '@babel/parser', `${path.relative(repoRoot, file)} loads ${spec}`);
        }
      }
    }
  });

  it('on a machine with many cores `intel build` starts its parse workers from dist/cli/parse-worker.js', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gsd-cli-bundle-'));
    temps.push(dir);
    // pretend 8 cores and report every Worker started (builtin ESM exports follow the patched CJS module)
    const preload = path.join(dir, 'many-cores.cjs');
    writeFileSync(
      preload,
      [
        "const os = require('node:os'); os.availableParallelism = () => 8;",
        "const wt = require('node:worker_threads'); const W = wt.Worker;",
        "wt.Worker = class extends W { constructor(s, o) { super(s, o); this.on('online', () => process.stderr.write('WORKER ONLINE ' + s + '\\n')); this.on('error', (e) => process.stderr.write('WORKER ERROR ' + e.message + '\\n')); } };",
        "require('node:module').syncBuiltinESMExports();",
      ].join('\n'),
    );
    const files: Record<string, string> = {};
    for (let i = 1; i <= 60; i++) files[`src/f${i}.ts`] = `import { y${(i % 60) + 1} } from './f${(i % 60) + 1}';\nexport const y${i} = 1;\n`;
    const root = tempProject(files);
    const r = spawnSync(process.execPath, ['-r', preload, cliPath, 'intel', 'build', root, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /WORKER ERROR/);
    assert.match(r.stderr, new RegExp(`WORKER ONLINE ${pathToFileURL(path.join(BUNDLE, 'parse-worker.js')).href.replace(/[.]/g, '\\.')}`));
    const report = JSON.parse(r.stdout);
    assert.equal(report.files, 60);
    assert.equal(report.edges, 60);
  });

  it('loads @babel/parser from node_modules for a file the skeleton reader cannot vouch for', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gsd-cli-bundle-'));
    temps.push(dir);
    const preload = path.join(dir, 'babel.cjs');
    writeFileSync(preload, "const M = require('node:module'); const load = M._load; M._load = function (r, ...a) { if (r === '@babel/parser') process.stderr.write('BABEL LOADED\\n'); return load.call(this, r, ...a); };\n");
    const root = tempProject({ 'a.ts': "import { b } from './b';\nexport const a = ;\nfunction (\n", 'b.ts': 'export const b = 1;\n' });
    const r = spawnSync(process.execPath, ['-r', preload, cliPath, 'intel', 'build', root, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /BABEL LOADED/);
    const report = JSON.parse(r.stdout);
    assert.equal(report.files, 2);
    assert.equal(report.syntaxErrors, 1);
  });
});
