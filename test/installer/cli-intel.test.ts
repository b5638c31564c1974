import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliPath, repoRoot } from '../helpers/paths.js';
import { cleanupProjects, copyProject } from '../helpers/project.js';

const CLI = cliPath;

function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('get-shit-done-cc intel (the built CLI, spawned)', () => {
  let root: string;
  before(() => {
    root = copyProject('shop');
  });
  after(cleanupProjects);

  it('builds a folder and reports what it indexed', () => {
    const r = cli(['intel', 'build', root], repoRoot);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Indexed 12 files/);
    // the V8 settings of a build (installer/src/v8-tuning.ts) are flags this V8 knows: it says nothing about them
    assert.doesNotMatch(r.stderr, /flag/i);
    const json = cli(['intel', 'build', root, '--json'], repoRoot);
    const report = JSON.parse(json.stdout);
    assert.equal(report.files, 12);
    assert.equal(report.reused, 12, 'the second build reuses unchanged files');
  });

  it('status says fresh, then stale after a change', async () => {
    assert.match(cli(['intel', 'status'], root).stdout, /Up to date/);
    const { appendFileSync } = await import('node:fs');
    appendFileSync(path.join(root, 'src/lazy.ts'), '// touched\n');
    const stale = cli(['intel', 'status', '--json'], root);
    assert.equal(stale.code, 0);
    assert.deepEqual(JSON.parse(stale.stdout).pending.changed, ['src/lazy.ts']);
  });

  it('status applies the edits the hooks recorded before it reports', async () => {
    const { appendJournal } = await import('../../engine/src/index.js');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path.join(root, 'src/extra.ts'), "import { pad } from './legacy/format.cjs';\n");
    appendJournal(root, [{ path: 'src/extra.ts', at: Date.now(), source: 'test' }]);
    // the statuses before left index-facts.bin for the index.json the drain replaces: it is carried, not split again
    const r = cli(['intel', 'status', '--json'], root, { GSD_PERF: '1' });
    const s = JSON.parse(r.stdout);
    assert.ok(!s.pending.added.includes('src/extra.ts'), 'the journaled file is indexed, not pending');
    assert.equal(s.files, 13);
    assert.match(r.stderr, /index-facts\.bin carried to the new index\.json/);
    assert.match(r.stderr, /index\.json's facts \(sidecar\)/);
  });

  it('answers every query from a subfolder of the project, in text and JSON', () => {
    const sub = path.join(root, 'src', 'cart');
    const blast = cli(['intel', 'query', 'blast-radius', 'src/lib/money.ts', '--json'], root);
    assert.equal(blast.code, 0, blast.stderr);
    assert.equal(JSON.parse(blast.stdout).total, 8);
    const fromSub = cli(['intel', 'query', 'deps', 'cart.ts'], sub);
    assert.equal(fromSub.code, 0, fromSub.stderr);
    assert.match(fromSub.stdout, /src\/lib\/money\.ts \[import, type-import\]/);
    const symbol = cli(['intel', 'query', 'blast-radius', 'src/lib/strings.ts', '--symbol', 'capitalize'], root);
    assert.match(symbol.stdout, /2 dependent files/);
    assert.equal(cli(['intel', 'query', 'hotspots', '--limit', '2'], root).stdout.split('\n')[1].split(/\s+/)[0], 'src/lib/money.ts');
    const search = JSON.parse(cli(['intel', 'query', 'search', 'checkout', '--json'], root).stdout);
    assert.equal(search.results[0].path, 'src/cart/checkout.ts');
    const chain = cli(['intel', 'query', 'path', 'src/lazy.ts', 'src/lib/strings.ts'], root);
    assert.equal(chain.code, 0);
    assert.match(chain.stdout, /→ src\/catalog\/search\.ts/);
  });

  it('exit 1 for a problem the user must fix, with a clear message', () => {
    const unknown = cli(['intel', 'query', 'deps', 'src/nope.ts'], root);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no indexed file matches "src\/nope\.ts"/);
    const noPath = cli(['intel', 'query', 'path', 'src/lib/strings.ts', 'src/lazy.ts'], root);
    assert.equal(noPath.code, 1);
    const noIntel = cli(['intel', 'query', 'hotspots'], '/');
    assert.equal(noIntel.code, 1);
    assert.match(noIntel.stderr, /no codebase intelligence found/);
    assert.match(noIntel.stderr, /intel build/);
  });

  it('exit 2 for usage errors', () => {
    for (const args of [['intel', 'query'], ['intel', 'query', 'blast-radius'], ['intel', 'query', 'hotspots', '--limit', 'many'], ['intel', 'frobnicate'], ['nope'], ['intel', 'build', '--wat']]) {
      const r = cli(args, root);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /error: /);
    }
  });

  it('--version and --help', () => {
    assert.match(cli(['--version'], root).stdout, /^\d+\.\d+\.\d+\n$/);
    const help = cli(['--help'], root);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /intel build/);
    assert.match(cli(['intel', '--help'], root).stdout, /blast-radius/);
  });
});
