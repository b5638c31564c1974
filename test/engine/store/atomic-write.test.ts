import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { stageCopy, stageFile, tempPathFor, writeFileAtomic, writeFileAtomicSync } from '../../../engine/src/store/atomic-write.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-atomic-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const freshDir = () => {
  const dir = path.join(tmp, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const posix = process.platform !== 'win32';

for (const [name, write] of [
  ['writeFileAtomic', writeFileAtomic],
  ['writeFileAtomicSync', async (f: string, d: string | Uint8Array) => writeFileAtomicSync(f, d)],
] as const) {
  describe(name, () => {
    it('writes strings and bytes, creating parent folders', async () => {
      const dir = freshDir();
      const file = path.join(dir, 'a', 'b', 'out.json');
      await write(file, '{"ok":true}');
      assert.equal(readFileSync(file, 'utf8'), '{"ok":true}');
      await write(file, new Uint8Array([1, 2, 3]));
      assert.deepEqual([...readFileSync(file)], [1, 2, 3]);
      assert.deepEqual(readdirSync(path.dirname(file)), ['out.json'], 'no temp file left');
    });

    it('keeps the mode of an existing file', { skip: !posix }, async () => {
      const dir = freshDir();
      const file = path.join(dir, 'script.sh');
      writeFileSync(file, 'old');
      chmodSync(file, 0o750);
      await write(file, 'new');
      assert.equal(statSync(file).mode & 0o777, 0o750);
      assert.equal(readFileSync(file, 'utf8'), 'new');
    });

    it('removes the temp file and rethrows when the rename fails', async () => {
      const dir = freshDir();
      const target = path.join(dir, 'occupied');
      mkdirSync(path.join(target, 'child'), { recursive: true }); // a non-empty folder cannot be replaced by a file
      await assert.rejects(write(target, 'data'));
      assert.deepEqual(readdirSync(dir), ['occupied']);
    });
  });
}

describe('atomic writes under contention', () => {
  it('leaves exactly one complete version when many writers race', async () => {
    const dir = freshDir();
    const file = path.join(dir, 'race.txt');
    const versions = Array.from({ length: 25 }, (_, i) => `${i}:`.padEnd(64 * 1024, String.fromCharCode(97 + (i % 26))));
    await Promise.all(versions.map((v) => writeFileAtomic(file, v)));
    assert.ok(versions.includes(readFileSync(file, 'utf8')));
    assert.deepEqual(readdirSync(dir), ['race.txt']);
  });

  it('gives every replacement a later mtime, so (device, inode, size, mtime) names one version of a file', async () => {
    // readers and warm caches tell versions apart by that stamp; a file system's clock moves in ticks of a few ms and
    // a replaced file's inode is handed to the next new file, so same-size versions written quickly could share it
    const file = path.join(freshDir(), 'graph.db');
    writeFileSync(file, 'v0');
    const writers: Array<(data: string) => Promise<void> | void> = [
      (d) => writeFileAtomic(file, d, { durable: false }),
      (d) => writeFileAtomicSync(file, d),
      (d) => stageFile(file, (fd) => writeFileSync(fd, d)).commit(),
      (d) => {
        const staged = stageCopy(file);
        writeFileSync(staged.path, d);
        staged.commit();
      },
    ];
    const stamps: string[] = [];
    let last = statSync(file).mtimeMs;
    for (let i = 0; i < 60; i++) {
      await writers[i % writers.length](`v${i % 10}`); // same size every time
      const st = statSync(file);
      assert.ok(st.mtimeMs > last, `write ${i}: mtime ${st.mtimeMs} is not later than ${last}`);
      last = st.mtimeMs;
      stamps.push(`${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`);
    }
    assert.equal(new Set(stamps).size, stamps.length);
  });

  it('names temp files .<name>.<pid>.<random>.tmp next to the target', () => {
    const t = tempPathFor('/x/y/graph.db');
    assert.equal(path.dirname(t), '/x/y'.split('/').join(path.sep));
    assert.match(path.basename(t), new RegExp(`^\\.graph\\.db\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`));
    assert.notEqual(tempPathFor('/x/y/graph.db'), t);
  });
});
