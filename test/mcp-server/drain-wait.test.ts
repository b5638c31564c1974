/**
 * An answer waits for the hooks' journal to be applied, also while another process holds the intel lock (a hook's
 * worker applying the same edits, another session's server): a file a hook recorded is in the answer. The test holds
 * the lock itself, longer than the server once waited (5 s; it then answered from the graph as it was: "no indexed
 * file matches" for a file the hook had recorded).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { appendJournal, buildIntel, intelPaths } from '../../engine/src/index.js';
import { withLock } from '../../engine/src/store/index.js';
import { startServer } from '../helpers/mcp.js';
import { cleanupProjects, tempProject, writeFile } from '../helpers/project.js';

after(() => cleanupProjects());

describe('mcp server: answers after the journal, whoever holds the intel lock', () => {
  it('waits for a lock held longer than 5 s, then drains and answers with the recorded file', async () => {
    const root = tempProject({ 'src/money.ts': 'export const cents = (n: number) => Math.round(n * 100);\n', 'package.json': '{ "type": "module" }\n' });
    await buildIntel(root);
    const s = await startServer(root, { CLAUDE_PROJECT_DIR: root });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = withLock(intelPaths(root).lock, async () => {
      locked();
      await released;
    });
    try {
      await isLocked;
      // what a PostToolUse hook records, while a worker holds the lock
      writeFile(root, 'src/cart.ts', "import { cents } from './money.js';\nexport const total = (n: number) => cents(n);\n");
      appendJournal(root, [{ path: 'src/cart.ts', at: Date.now(), source: 'PostToolUse:Write' }]);
      const answer = s.call('file_context', { file: 'src/cart.ts' });
      setTimeout(release, 6000).unref();
      const r = await answer;
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      const found = r.structuredContent as { path: string; dependencies: { items: string[] } };
      assert.equal(found.path, 'src/cart.ts');
      assert.deepEqual(found.dependencies.items, ['src/money.ts']);
    } finally {
      release();
      await holder;
      await s.close();
    }
  });
});
