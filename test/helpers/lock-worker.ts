/**
 * Child process for the lock tests: increments a counter in a JSON file under the lock.
 * Usage: node lock-worker.js <lockDir> <counterFile> <times>. Without arguments (e.g. when `node --test`
 * picks this file up) it does nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withLock } from '../../engine/src/store/lock.js';

const [lockDir, counterFile, timesArg] = process.argv.slice(2);

if (lockDir && counterFile) {
  const times = Number(timesArg ?? '1');
  for (let i = 0; i < times; i++) {
    await withLock(
      lockDir,
      async () => {
        const { count } = JSON.parse(readFileSync(counterFile, 'utf8')) as { count: number };
        // give other processes every chance to interleave between the read and the write
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
        writeFileSync(counterFile, JSON.stringify({ count: count + 1 }));
      },
      { timeoutMs: 120_000 },
    );
  }
}
