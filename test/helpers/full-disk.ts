/** A real full disk for tests: a small tmpfs (root on Linux only), filled until a write fails with ENOSPC. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A folder on a tmpfs of `bytes`, or null when this process may not mount one. */
export function smallDisk(bytes: number, cleanups: Array<() => void>): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gsd-full-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  cleanups.push(() => {
    spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/**
 * Fills the file system of `dir` until a write fails with ENOSPC, then frees 32 KB: room for the lock and a few
 * small files, not for the artefacts, so the build fails where it writes them.
 */
export function fillDisk(dir: string): void {
  const chunk = Buffer.alloc(16 * 1024, 120);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(path.join(dir, `filler-${i}`), chunk);
    } catch (error) {
      assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
      rmSync(path.join(dir, `filler-${i - 1}`), { force: true });
      rmSync(path.join(dir, `filler-${i - 2}`), { force: true });
      return;
    }
  }
}

