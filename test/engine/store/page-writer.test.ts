import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { PAGES_PER_THREAD_MIN, pageThreadWanted, startPageWriter, writePagesInBackground, writePagesSync } from '../../../engine/src/store/page-writer.js';

const pagesOf = (count: number, salt = ''): Array<[string, string]> =>
  Array.from({ length: count }, (_, i) => [`page-${i}.md`, `# page ${i}${salt}\n`]);

describe('entity page writer', () => {
  let base: string;
  const threadSetting = process.env.GSD_PAGE_THREAD;
  beforeEach(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'gsd-pages-'));
    // the thread is used from 4 cores up: these tests use it on any machine
    process.env.GSD_PAGE_THREAD = '1';
  });
  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
    if (threadSetting === undefined) delete process.env.GSD_PAGE_THREAD;
    else process.env.GSD_PAGE_THREAD = threadSetting;
  });

  it('uses a thread from 4 cores up, or as GSD_PAGE_THREAD says', () => {
    assert.equal(pageThreadWanted({}, 2), false);
    assert.equal(pageThreadWanted({}, 4), true);
    assert.equal(pageThreadWanted({ GSD_PAGE_THREAD: '0' }, 8), false);
    assert.equal(pageThreadWanted({ GSD_PAGE_THREAD: '1' }, 2), true);
  });

  const contents = (dir: string) => Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(path.join(dir, n), 'utf8')]));

  it('writes a new folder through a thread, in one rename, with no temp files left', async () => {
    const dir = path.join(base, 'entities');
    const pages = pagesOf(PAGES_PER_THREAD_MIN + 50);
    await writePagesInBackground(dir, pages, true);
    assert.deepEqual(contents(dir), Object.fromEntries(pages));
    assert.deepEqual(readdirSync(base), ['entities'], 'no staging folder left');
  });

  it('replaces pages in an existing folder and leaves other files alone', async () => {
    const dir = path.join(base, 'entities');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'manual.md'), 'kept\n');
    writeFileSync(path.join(dir, 'page-0.md'), 'old\n');
    const pages = pagesOf(PAGES_PER_THREAD_MIN + 1, ' v2');
    await writePagesInBackground(dir, pages, false);
    assert.deepEqual(contents(dir), { ...Object.fromEntries(pages), 'manual.md': 'kept\n' });
  });

  it('falls back to page-by-page writes when the folder appeared after the pages were rendered', async () => {
    const dir = path.join(base, 'entities');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'other.md'), 'x\n');
    await writePagesInBackground(dir, pagesOf(PAGES_PER_THREAD_MIN), true);
    assert.equal(readdirSync(dir).length, PAGES_PER_THREAD_MIN + 1);
    assert.deepEqual(readdirSync(base), ['entities']);
  });

  it('started before the pages exist, creates a first build\'s files meanwhile and writes exactly the pages it gets', async () => {
    const dir = path.join(base, 'entities');
    const pages = pagesOf(PAGES_PER_THREAD_MIN + 20);
    // announced: every page but the last, plus one that does not come
    const names = [...pages.slice(0, -1).map(([n]) => n), 'never-rendered.md'];
    const writer = startPageWriter(dir, true, pages.length, names);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await writer.write(pages);
    assert.deepEqual(contents(dir), Object.fromEntries(pages));
    assert.deepEqual(readdirSync(base), ['entities'], 'no staging folder left');
  });

  it('aborted before it is given pages, leaves nothing behind', async () => {
    const dir = path.join(base, 'entities');
    const writer = startPageWriter(dir, true, PAGES_PER_THREAD_MIN + 1, pagesOf(PAGES_PER_THREAD_MIN + 1).map(([n]) => n));
    await new Promise((resolve) => setTimeout(resolve, 100));
    writer.abort();
    for (let k = 0; k < 50 && readdirSync(base).length > 0; k++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(readdirSync(base), []);
  });

  it('writes small batches on this thread, with the same result', () => {
    const dir = path.join(base, 'small');
    writePagesSync(dir, pagesOf(3), true);
    assert.deepEqual(contents(dir), Object.fromEntries(pagesOf(3)));
  });

  it('reports a failure instead of losing it (the folder is a file)', async () => {
    const dir = path.join(base, 'blocked');
    writeFileSync(dir, 'not a folder');
    await assert.rejects(writePagesInBackground(dir, pagesOf(PAGES_PER_THREAD_MIN), false));
    assert.ok(existsSync(dir));
  });
});
