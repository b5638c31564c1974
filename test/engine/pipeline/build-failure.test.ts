/**
 * A full build that cannot finish — the disk fills up, the process dies (out of memory, killed) — leaves the previous
 * intelligence byte for byte as it was, says why, and the next build clears what the dead one left behind.
 * The disk really fills: a small tmpfs when the tests run as root (mounting needs it), else a folder the build may
 * not write into (EACCES, the same failing write path).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths } from '../../../engine/src/index.js';
import { fillDisk, smallDisk } from '../../helpers/full-disk.js';
import { cliPath } from '../../helpers/paths.js';

/** Every file under `dir`, path → bytes (base64), so two states compare byte for byte. */
function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

/** The four artefacts' files: the intel folder without temp files and what is not an artefact (lock, logs). */
function artefacts(root: string): Record<string, string> {
  const all = filesUnder(intelPaths(root).dir);
  for (const name of Object.keys(all)) if (!/^(index\.json|graph\.db|summary\.md|entities\/[^/]+\.md)$/.test(name)) delete all[name];
  return all;
}

const tempNames = (root: string): string[] => {
  const dir = intelPaths(root).dir;
  return [...readdirSync(dir), ...readdirSync(path.join(dir, 'entities'))].filter((n) => n.endsWith('.tmp'));
};

function writeProject(root: string, files: number, salt = ''): void {
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(path.join(root, '.planning'), { recursive: true });
  for (let i = 0; i < files; i++) {
    const imports = i > 0 ? `import { value${i - 1} } from './file${i - 1}.js';\n` : '';
    writeFileSync(path.join(root, 'src', `file${i}.ts`), `${imports}/** File ${i}${salt}. */\nexport const value${i} = ${i};\nexport function run${i}${salt.replace(/\W/g, '')}() { return value${i}; }\n`);
  }
}

function cli(args: string[], cwd: string) {
  return spawnSync(process.execPath, [cliPath, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

const cleanups: Array<() => void> = [];
after(() => {
  for (const c of cleanups.reverse()) c();
});

/**
 * Builds a project of `files` files, changes every file, fills its disk (a tmpfs of `diskBytes`; without root, makes
 * the intel folder read-only instead) and checks that a rebuild fails with BuildWriteError (ENOSPC on the disk),
 * leaving every artefact byte for byte and no temp file or staging folder; `more` checks more while the disk is full.
 * With room again, a rebuild goes through. Returns the project's root.
 */
async function rebuildOnFullDisk(files: number, diskBytes: number, more?: (root: string, before: Record<string, string>) => void): Promise<string> {
  const disk = smallDisk(diskBytes, cleanups);
  const base = disk ?? mkdtempSync(path.join(os.tmpdir(), 'gsd-no-space-'));
  if (!disk) cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  const root = path.join(base, 'project');
  writeProject(root, files);
  await buildIntel(root);
  const before = artefacts(root);
  // the sources change, so a rebuild has different artefacts to write
  writeProject(root, files, ' changed');
  if (disk) fillDisk(base);
  else chmodSync(intelPaths(root).dir, 0o555);
  try {
    await assert.rejects(buildIntel(root, { cache: false }), (error: Error & { code?: string }) => {
      assert.equal(error.name, 'BuildWriteError');
      if (disk) {
        assert.equal(error.code, 'ENOSPC');
        assert.match(error.message, /out of disk space/);
      }
      assert.match(error.message, /previous intelligence was left as it was/);
      return true;
    });
    assert.deepEqual(artefacts(root), before, 'every artefact byte for byte as before');
    assert.deepEqual(tempNames(root), [], 'no temp file or staging folder left');
    more?.(root, before);
  } finally {
    if (disk) for (const name of readdirSync(base)) if (name.startsWith('filler-')) rmSync(path.join(base, name));
    else chmodSync(intelPaths(root).dir, 0o755);
  }
  // with room again, the build goes through
  const report = await buildIntel(root, { cache: false });
  assert.equal(report.files, files);
  assert.match(readFileSync(path.join(intelPaths(root).dir, 'index.json'), 'utf8'), /run3changed/);
  return root;
}

describe('a full build that cannot finish', () => {
  it('on a full disk (or a folder it may not write), fails with a clear message and leaves the previous intelligence intact', async () => {
    await rebuildOnFullDisk(80, 4 * 1024 * 1024, (root, before) => {
      // the CLI says so, with a hint, and exits with the problem code
      const r = cli(['intel', 'build', root, '--no-cache'], root);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /^error: could not write the intelligence in .*previous intelligence was left as it was/m);
      assert.match(r.stderr, /hint: free some disk space/);
      assert.deepEqual(artefacts(root), before);
    });
  });

  it('fails the same way when the entity pages are written on the writer thread (2,000 files and more)', async () => {
    // the pages (on the writer thread) and graph.db (on the build's thread) are written at the same time: either may
    // meet the full disk first, and the staging folder must go only once the thread has stopped writing
    await rebuildOnFullDisk(2000, 48 * 1024 * 1024);
  });

  it('out of memory (a child with a small heap), leaves the previous intelligence intact; the next build clears its leftovers', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'gsd-oom-'));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const root = path.join(base, 'project');
    writeProject(root, 3000);
    await buildIntel(root);
    const before = artefacts(root);
    writeProject(root, 3000, ' changed');
    const r = spawnSync(process.execPath, ['--max-old-space-size=16', cliPath, 'intel', 'build', root, '--no-cache'], { encoding: 'utf8', env: { ...process.env, GSD_V8_TUNING: '0' } });
    assert.notEqual(r.status, 0, 'the build ran out of memory');
    assert.match(r.stderr, /heap out of memory/);
    assert.deepEqual(artefacts(root), before, 'every artefact byte for byte as before');

    await buildIntel(root, { cache: false });
    assert.deepEqual(tempNames(root), [], 'no temp file or staging folder left');
    assert.match(readFileSync(path.join(intelPaths(root).dir, 'index.json'), 'utf8'), /run3changed/);
  });
});
