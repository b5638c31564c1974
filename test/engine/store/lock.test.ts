import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LockTimeoutError, acquireLock, tryLock, withLock } from '../../../engine/src/store/lock.js';
import { repoRoot } from '../../helpers/paths.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-lock-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = () => path.join(tmp, `case-${n++}`, '.lock');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runNode(args: string[]): Promise<{ code: number | null; pid: number; stderr: string }> {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, pid: child.pid ?? -1, stderr }));
  });
}

/** the worker script next to this test's helpers, as .ts under tsx or as compiled .js */
function workerArgs(): string[] {
  const here = fileURLToPath(import.meta.url);
  const ts = here.endsWith('.ts');
  const worker = path.join(path.dirname(here), '..', '..', 'helpers', `lock-worker.${ts ? 'ts' : 'js'}`);
  return ts ? ['--import', 'tsx', worker] : [worker];
}

function writeOwner(lockDir: string, owner: object): void {
  mkdirSync(lockDir, { recursive: true });
  writeFileSync(path.join(lockDir, 'owner.json'), JSON.stringify(owner));
}

describe('withLock', () => {
  it('serialises 20 processes incrementing a counter 10 times each', { timeout: 180_000 }, async () => {
    const lockDir = fresh();
    const counter = path.join(path.dirname(lockDir), 'counter.json');
    mkdirSync(path.dirname(lockDir), { recursive: true });
    writeFileSync(counter, JSON.stringify({ count: 0 }));
    const results = await Promise.all(Array.from({ length: 20 }, () => runNode([...workerArgs(), lockDir, counter, '10'])));
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(counter, 'utf8')), { count: 200 });
    assert.equal(existsSync(lockDir), false, 'lock released');
    assert.deepEqual(readdirSync(path.dirname(lockDir)).sort(), ['counter.json'], 'no graves or guards left');
  });

  it('serialises concurrent callers inside one process', async () => {
    const lockDir = fresh();
    let inside = 0;
    let maxInside = 0;
    let total = 0;
    await Promise.all(
      Array.from({ length: 30 }, () =>
        withLock(lockDir, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await sleep(1);
          total++;
          inside--;
        }),
      ),
    );
    assert.equal(maxInside, 1);
    assert.equal(total, 30);
  });

  it('returns the value of fn, records the owner and releases the lock', async () => {
    const lockDir = fresh();
    const value = await withLock(lockDir, async () => {
      const owner = JSON.parse(readFileSync(path.join(lockDir, 'owner.json'), 'utf8'));
      assert.equal(owner.pid, process.pid);
      assert.equal(owner.host, os.hostname());
      assert.ok(!Number.isNaN(Date.parse(owner.startedAt)));
      return 42;
    });
    assert.equal(value, 42);
    assert.equal(existsSync(lockDir), false);
  });

  it('releases the lock when fn throws and keeps the error', async () => {
    const lockDir = fresh();
    await assert.rejects(
      withLock(lockDir, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(existsSync(lockDir), false);
  });

  it('recovers a lock left by a dead process', async () => {
    const lockDir = fresh();
    const dead = await runNode(['-e', '']);
    writeOwner(lockDir, { pid: dead.pid, host: os.hostname(), startedAt: new Date().toISOString(), token: 'dead' });
    const started = Date.now();
    assert.equal(await withLock(lockDir, async () => 'ok', { timeoutMs: 5_000 }), 'ok');
    assert.ok(Date.now() - started < 2_000, 'broken at once, not after the stale age');
    assert.deepEqual(readdirSync(path.dirname(lockDir)), []);
  });

  it('recovers a lock of this pid that this process does not hold (pid reuse)', async () => {
    const lockDir = fresh();
    writeOwner(lockDir, { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), token: 'old' });
    assert.equal(await withLock(lockDir, async () => 'ok', { timeoutMs: 2_000 }), 'ok');
  });

  it('breaks a lock that has not been refreshed for staleMs (other host)', async () => {
    const lockDir = fresh();
    writeOwner(lockDir, { pid: 1, host: 'another-host', startedAt: new Date(Date.now() - 60_000).toISOString(), token: 'x' });
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(lockDir, 'owner.json'), old, old);
    utimesSync(lockDir, old, old);
    assert.equal(await withLock(lockDir, async () => 'ok', { timeoutMs: 2_000, staleMs: 10_000 }), 'ok');
  });

  it('times out with LockTimeoutError while a live lock is held', async () => {
    const lockDir = fresh();
    const owner = { pid: 1, host: 'another-host', startedAt: new Date().toISOString(), token: 'live' };
    writeOwner(lockDir, owner);
    const started = Date.now();
    const err = await withLock(lockDir, async () => 'never', { timeoutMs: 200 }).catch((e: unknown) => e);
    assert.ok(err instanceof LockTimeoutError, String(err));
    assert.equal(err.lockPath, lockDir);
    assert.equal(err.holder?.host, 'another-host');
    assert.match(err.message, /another-host/);
    const waited = Date.now() - started;
    assert.ok(waited >= 190 && waited < 2_000, `waited ${waited} ms`);
    assert.deepEqual(JSON.parse(readFileSync(path.join(lockDir, 'owner.json'), 'utf8')), owner, 'the live lock is untouched');
  });

  it('keeps a long-held lock fresh with a heartbeat', async () => {
    const lockDir = fresh();
    const holder = withLock(lockDir, () => sleep(800), { staleMs: 300 });
    await sleep(600); // twice staleMs after the lock was taken
    assert.equal(await tryLock(lockDir, { staleMs: 300 }), null);
    await holder;
    const handle = await tryLock(lockDir, { staleMs: 300 });
    assert.ok(handle);
    await handle.release();
  });

  it('does not remove a lock that was broken and re-taken by someone else', async () => {
    const lockDir = fresh();
    const handle = await acquireLock(lockDir);
    // simulate: our lock was broken, and another host took it
    rmSync(lockDir, { recursive: true });
    const other = { pid: 1, host: 'another-host', startedAt: new Date().toISOString(), token: 'theirs' };
    writeOwner(lockDir, other);
    await handle.release();
    assert.deepEqual(JSON.parse(readFileSync(path.join(lockDir, 'owner.json'), 'utf8')), other);
  });

  it('creates missing parent folders', async () => {
    const lockDir = path.join(tmp, 'deep', 'er', 'still', '.lock');
    assert.equal(await withLock(lockDir, async () => existsSync(lockDir)), true);
  });
});
