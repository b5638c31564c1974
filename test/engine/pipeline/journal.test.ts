import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { appendJournal, buildIntel, drainJournal, hasPendingJournal, intelPaths, journalFiles, journalPath } from '../../../engine/src/index.js';
import { repoRoot } from '../../helpers/paths.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';

const files = (root: string) => Object.keys(JSON.parse(readFileSync(intelPaths(root).index, 'utf8')).files);

describe('the capture journal', () => {
  after(cleanupProjects);

  it('records changes cheaply and a drain applies them once', async () => {
    const root = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    assert.equal(hasPendingJournal(root), false);
    assert.equal(await drainJournal(root), null, 'nothing to do costs nothing');
    writeFile(root, 'b.ts', "import { a } from './a.js';\n");
    appendJournal(root, [{ path: path.join(root, 'b.ts'), at: Date.now(), source: 'test' }, { path: 'b.ts', at: Date.now() }]);
    assert.equal(hasPendingJournal(root), true);
    const report = await drainJournal(root);
    assert.equal(report?.entries, 2);
    assert.deepEqual(files(root), ['a.ts', 'b.ts']);
    assert.equal(hasPendingJournal(root), false);
    assert.deepEqual(journalFiles(root), []);
  });

  it("malformed lines are counted, not fatal, and an older version's journal and the one its dead drain left are applied", async () => {
    const root = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    writeFile(root, 'c.ts', 'export const c = 1;\n');
    writeFile(root, 'd.ts', 'export const d = 1;\n');
    writeFileSync(`${journalPath(root)}.999.1${'.draining'}`, `${JSON.stringify({ path: 'c.ts', at: 1 })}\n`);
    writeFileSync(journalPath(root), `not json\n{"at":1}\n${JSON.stringify({ path: 'd.ts', at: 2 })}\n`);
    const report = await drainJournal(root);
    assert.equal(report?.malformed, 2);
    assert.deepEqual(files(root), ['a.ts', 'c.ts', 'd.ts']);
    assert.deepEqual(readdirSync(intelPaths(root).dir).filter((n) => n.startsWith('journal')), []);
  });

  it('50 processes appending at once lose no line', async () => {
    const root = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    const journal = path.join(repoRoot, 'dist', 'engine', 'src', 'journal.js');
    const script = `import { appendJournal } from ${JSON.stringify(journal)}; appendJournal(process.argv[1], [{ path: 'f' + process.argv[2] + '.ts', at: Date.now() }]);`;
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        writeFile(root, `f${i}.ts`, `export const v${i} = ${i};\n`);
        return new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script, root, String(i)], { stdio: 'inherit' });
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
        });
      }),
    );
    const lines = journalFiles(root).flatMap((n) => readFileSync(path.join(intelPaths(root).dir, n), 'utf8').trim().split('\n'));
    assert.equal(lines.length, 50);
    await drainJournal(root);
    assert.equal(files(root).length, 51);
  });

  it('an entry recorded while a drain runs is never lost: drains back to back under 40 appending processes', async () => {
    const root = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    const journal = path.join(repoRoot, 'dist', 'engine', 'src', 'journal.js');
    const script = `import { appendJournal } from ${JSON.stringify(journal)}; appendJournal(process.argv[1], [{ path: 'g' + process.argv[2] + '.ts', at: Date.now() }]);`;
    let running = 40;
    const children = Array.from({ length: 40 }, (_, i) => {
      writeFile(root, `g${i}.ts`, `export const g${i} = ${i};\n`);
      return new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, root, String(i)], { stdio: 'inherit' });
        child.on('exit', (code) => {
          running--;
          if (code === 0) resolve();
          else reject(new Error(`exit ${code}`));
        });
      });
    });
    // drains as fast as they can go while the appenders run, as a warm follower does
    while (running > 0) {
      await drainJournal(root);
      await new Promise((resolve) => setImmediate(resolve)); // the children's exits are events
    }
    await Promise.all(children);
    await drainJournal(root);
    assert.equal(hasPendingJournal(root), false);
    assert.equal(files(root).filter((f) => f.startsWith('g')).length, 40);
  });
});
