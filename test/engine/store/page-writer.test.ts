import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { PageStage, writePagesSync } from '../../../engine/src/store/page-writer.js';
import { fillDisk, smallDisk } from '../../helpers/full-disk.js';

const pagesOf = (count: number, salt = ''): Array<[string, string]> =>
  Array.from({ length: count }, (_, i) => [`page-${i}.md`, `# page ${i}${salt}\n`]);

describe('entity page writer', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'gsd-pages-'));
  });
  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  const contents = (dir: string) => Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(path.join(dir, n), 'utf8')]));

  it('stages a first build\'s pages and puts the folder in place in one rename, with no temp files left', () => {
    const dir = path.join(base, 'entities');
    const pages = pagesOf(250);
    const stage = new PageStage(dir, true);
    for (const [n, t] of pages) stage.add(n, t);
    assert.equal(existsSync(dir), false, 'nothing in place before commit');
    stage.commit(new Set(pages.map(([n]) => n)));
    assert.deepEqual(contents(dir), Object.fromEntries(pages));
    assert.deepEqual(readdirSync(base), ['entities'], 'no staging folder left');
  });

  it('on a rebuild, renames the changed pages in, removes pages not kept, and leaves other files alone', () => {
    const dir = path.join(base, 'entities');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'notes.txt'), 'kept\n');
    writeFileSync(path.join(dir, 'page-0.md'), 'old\n');
    writeFileSync(path.join(dir, 'page-1.md'), 'unchanged\n');
    writeFileSync(path.join(dir, 'gone.md'), 'a file that is gone\n');
    const stage = new PageStage(dir, false);
    stage.add('page-0.md', 'new\n');
    stage.add('page-2.md', 'added\n');
    stage.commit(new Set(['page-0.md', 'page-1.md', 'page-2.md']));
    assert.deepEqual(contents(dir), { 'notes.txt': 'kept\n', 'page-0.md': 'new\n', 'page-1.md': 'unchanged\n', 'page-2.md': 'added\n' });
    assert.deepEqual(readdirSync(base), ['entities']);
  });

  it('falls back to page-by-page renames when the folder appeared after the stage started', () => {
    const dir = path.join(base, 'entities');
    const stage = new PageStage(dir, true);
    for (const [n, t] of pagesOf(5)) stage.add(n, t);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'other.txt'), 'x\n');
    stage.commit(new Set(pagesOf(5).map(([n]) => n)));
    assert.equal(readdirSync(dir).length, 6);
    assert.deepEqual(readdirSync(base), ['entities']);
  });

  it('discarded, leaves the folder as it was and nothing behind', () => {
    const dir = path.join(base, 'entities');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'page-0.md'), 'old\n');
    const stage = new PageStage(dir, false);
    stage.add('page-0.md', 'new\n');
    stage.discard();
    assert.deepEqual(contents(dir), { 'page-0.md': 'old\n' });
    assert.deepEqual(readdirSync(base), ['entities']);
  });

  it('on its writer thread, writes every page in order while add() keeps at most maxQueued pages waiting', () => {
    const dir = path.join(base, 'entities');
    const pages = pagesOf(1500, ' on the thread');
    const stage = new PageStage(dir, true, { maxQueued: 16 });
    for (const [n, t] of pages) stage.add(n, t);
    stage.finish();
    stage.commit(new Set(pages.map(([n]) => n)));
    assert.deepEqual(contents(dir), Object.fromEntries(pages));
    assert.deepEqual(readdirSync(base), ['entities']);
  });

  it('writes the same pages with and without the writer thread', () => {
    const pages = pagesOf(300, ' ünïcödé ✓');
    for (const thread of [true, false]) {
      const dir = path.join(base, `entities-${thread}`);
      const stage = new PageStage(dir, true, { thread });
      for (const [n, t] of pages) stage.add(n, t);
      stage.commit(new Set(pages.map(([n]) => n)));
      assert.deepEqual(contents(dir), Object.fromEntries(pages), `thread: ${thread}`);
    }
  });

  it('throws the writer thread\'s failure with its code, and discarded leaves nothing behind', () => {
    const dir = path.join(base, 'entities');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'page-0.md'), 'old\n');
    const stage = new PageStage(dir, false, { maxQueued: 8 });
    // the same name twice: the second write into the staging folder fails (pages are created, never overwritten);
    // it is met by add() once the thread has failed, or by finish(): the same error, with its code, every time
    const late = Array.from({ length: 400 }, (_, i): [string, string] => [`late-${i}.md`, `late ${i}\n`]);
    const seen: NodeJS.ErrnoException[] = [];
    for (const [n, t] of [...pagesOf(10), ['page-7.md', 'again\n'] as [string, string], ...late]) {
      try {
        stage.add(n, t);
      } catch (error) {
        seen.push(error as NodeJS.ErrnoException);
      }
    }
    assert.throws(() => stage.finish(), (error: NodeJS.ErrnoException) => {
      seen.push(error);
      return true;
    });
    assert.ok(seen.length > 1, 'add() met the failure too');
    for (const error of seen) {
      assert.equal(error.code, 'EEXIST');
      assert.match(error.message, /page-7\.md/);
    }
    stage.discard();
    assert.deepEqual(contents(dir), { 'page-0.md': 'old\n' }, 'the entity folder as it was');
    assert.deepEqual(readdirSync(base), ['entities'], 'no staging folder left');
  });

  it('on a full disk, throws the writer thread\'s ENOSPC naming the page, and discarded leaves nothing behind', { skip: process.platform !== 'linux' || process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false }, () => {
    const cleanups: Array<() => void> = [];
    try {
      const disk = smallDisk(2 * 1024 * 1024, cleanups);
      assert.ok(disk, 'a tmpfs could be mounted');
      fillDisk(disk);
      const stage = new PageStage(path.join(disk, 'entities'), true, { maxQueued: 16 });
      let thrown: NodeJS.ErrnoException | null = null;
      try {
        for (const [n, t] of pagesOf(400, 'x'.repeat(4096))) stage.add(n, t);
        stage.finish();
      } catch (error) {
        thrown = error as NodeJS.ErrnoException;
      }
      assert.equal(thrown?.code, 'ENOSPC');
      assert.match(String(thrown?.message), /\(writing .*\.entities\.[^/]+\.tmp\/page-\d+\.md\)$/);
      stage.discard();
      assert.deepEqual(readdirSync(disk).filter((n) => !n.startsWith('filler-')), [], 'no staging folder left');
    } finally {
      for (const c of cleanups) c();
    }
  });

  it('writes an incremental update\'s pages in place', () => {
    const dir = path.join(base, 'small');
    writePagesSync(dir, pagesOf(3));
    assert.deepEqual(contents(dir), Object.fromEntries(pagesOf(3)));
  });

  it('reports a failure instead of losing it (the folder is a file)', () => {
    const dir = path.join(base, 'blocked');
    writeFileSync(dir, 'not a folder');
    assert.throws(() => writePagesSync(dir, pagesOf(3)));
    assert.ok(existsSync(dir));
  });
});
