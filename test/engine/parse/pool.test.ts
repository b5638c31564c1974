import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { createParsePool, loadFile } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const root = fixture('parse');
const opts = { maxFileBytes: 100_000 };

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** Every parse fixture, some twice, plus a path that does not exist: more than enough to use the workers. */
const paths = [...listFiles(root), 'missing/file.ts', ...listFiles(root).slice(0, 10)];
const expected = paths.map((p) => loadFile(root, p, opts));
const workerFixture = (name: string) => pathToFileURL(fixture('parse', 'pool', name));

describe('createParsePool', () => {
  it('returns the same results as in-process loading, in input order', async () => {
    assert.ok(paths.length >= 60, `only ${paths.length} paths`);
    const pool = createParsePool(root, { ...opts, threads: 2 });
    try {
      const progress: [number, number][] = [];
      const results = await pool.load(paths, (done, total) => progress.push([done, total]));
      assert.deepEqual(results, expected);
      assert.deepEqual(progress.at(-1), [paths.length, paths.length]);
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i][0] > progress[i - 1][0]);
      // the workers are reused by later and concurrent loads
      const [again, reversed] = await Promise.all([pool.load(paths), pool.load([...paths].reverse())]);
      assert.deepEqual(again, expected);
      assert.deepEqual(reversed, [...expected].reverse());
      const stats = pool.stats();
      assert.equal(stats.workerFailures, 0);
      assert.equal(stats.workerFiles + stats.inProcessFiles, paths.length * 3);
      assert.ok(stats.workerFiles > 0, 'the workers loaded nothing');
    } finally {
      await pool.close();
    }
  });

  it('returns known facts unparsed when the content hash matches, in workers and in-process', async () => {
    const known = new Map<string, { hash: string; parsed: any }>();
    const marker = { imports: [], exports: [], symbols: [], docComment: 'from the index', moduleSystem: 'none' as const, syntaxError: null };
    const stale = { hash: '0'.repeat(40), parsed: marker };
    expected.forEach((l, i) => {
      if ('parsed' in l) known.set(paths[i], i % 2 ? { hash: l.hash, parsed: marker } : stale);
    });
    for (const threads of [2, 0]) {
      const pool = createParsePool(root, { ...opts, threads });
      try {
        const results = await pool.load(paths, undefined, known);
        results.forEach((r, i) => {
          const k = known.get(paths[i]);
          if (!k || !('parsed' in r)) return assert.deepEqual(r, expected[i]);
          if (k === stale) assert.deepEqual(r, expected[i], `${paths[i]}: another hash is parsed`);
          else assert.deepEqual(r, { ...expected[i], parsed: marker, reused: true }, `${paths[i]}: same hash is reused`);
        });
        if (threads) assert.ok(pool.stats().workerFiles > 0);
      } finally {
        await pool.close();
      }
    }
  });

  it('loads small batches in-process and keeps working after close()', async () => {
    const pool = createParsePool(root, { ...opts, threads: 2 });
    const few = paths.slice(0, 5);
    assert.deepEqual(await pool.load(few), expected.slice(0, 5));
    assert.deepEqual(pool.stats(), { workerFiles: 0, inProcessFiles: 5, workerFailures: 0 });
    await pool.close();
    assert.deepEqual(await pool.load(paths), expected);
    assert.deepEqual(await pool.load([]), []);
    assert.equal(pool.stats().workerFiles, 0);
  });

  it('loads in-process with threads: 0', async () => {
    const pool = createParsePool(root, { ...opts, threads: 0 });
    assert.deepEqual(await pool.load(paths), expected);
    await pool.close();
  });

  it('loads the batches of a crashing worker in-process, losing no file', async () => {
    const pool = createParsePool(root, { ...opts, threads: 2, workerScript: workerFixture('crashing-worker.mjs') });
    try {
      assert.deepEqual(await pool.load(paths), expected);
      assert.deepEqual(pool.stats(), { workerFiles: 0, inProcessFiles: paths.length, workerFailures: 2 });
      // a second load tries fresh workers, which die as well; after that the pool stops starting workers
      assert.deepEqual(await pool.load(paths), expected);
      assert.deepEqual(await pool.load(paths), expected);
      assert.equal(pool.stats().workerFailures, 4);
    } finally {
      await pool.close();
    }
  });

  it('falls back to in-process loading when workers cannot start', async () => {
    const pool = createParsePool(root, { ...opts, threads: 2, workerScript: workerFixture('failing-startup-worker.mjs') });
    try {
      assert.deepEqual(await pool.load(paths), expected);
      assert.equal(pool.stats().workerFiles, 0);
      assert.equal(pool.stats().workerFailures, 2);
    } finally {
      await pool.close();
    }
  });
});
