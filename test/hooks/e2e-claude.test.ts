/**
 * End to end with the real `claude` CLI (pinned @anthropic-ai/claude-code@2.1.330), offline: a loopback mock of the
 * Messages API scripts a Write of a new file, a Read and an Edit of an existing one; the hooks are the built
 * dist/hooks/src/*.js, wired with --settings. The CLI is installed on first use into a cache outside the repository
 * (~/.cache/get-shit-done-cc/claude-2.1.330, or $GSD_CLAUDE_CACHE); when it cannot be installed the test is skipped.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths } from '../../engine/src/index.js';
import { readGraphRows } from '../../engine/src/store/index.js';
import { CLAUDE_VERSION, ensureClaude, runClaude as run } from '../helpers/claude-cli.js';
import { HOOKS, everywhere, hookLog, presence, waitForWorkers } from '../helpers/hooks.js';
import { E2eScratch } from '../helpers/e2e-scratch.js';
import { offlineClaudeEnv, startMessagesMock } from '../helpers/messages-mock.js';
import { tempProject } from '../helpers/project.js';

const claude = ensureClaude();

describe('end to end: the real claude CLI against a loopback Messages API mock', () => {
  const scratch = new E2eScratch();
  after(() => scratch.clear());

  it(
    `a scripted Write and Edit land in graph.db, and the SessionStart context reaches the model (claude ${CLAUDE_VERSION})`,
    { skip: 'skip' in claude ? claude.skip : false, timeout: 300_000 },
    async () => {
      if (!('bin' in claude)) return;
      const root = tempProject({
        'src/money.ts': '/** Money helpers. */\nexport function addTax(c: number): number {\n  return Math.round(c * 1.2);\n}\n',
        'src/cart.ts': "import { addTax } from './money.js';\nexport const total = (c: number) => addTax(c);\n",
        'package.json': '{ "name": "e2e-shop", "type": "module" }\n',
      });
      await buildIntel(root);
      const written = path.join(root, 'src', 'discount.ts');
      const edited = path.join(root, 'src', 'cart.ts');
      const before = readFileSync(edited, 'utf8');
      const mock = (scratch.mock = await startMessagesMock([
        { name: 'Write', input: { file_path: written, content: '/** Discounts. */\nexport const discount = (c: number) => Math.round(c * 0.9);\n' } },
        { name: 'Read', input: { file_path: edited } },
        {
          name: 'Edit',
          input: {
            file_path: edited,
            old_string: "import { addTax } from './money.js';",
            new_string: "import { addTax } from './money.js';\nimport { discount } from './discount.js';\nexport const sale = (c: number) => discount(addTax(c));",
          },
        },
      ]));

      const home = mkdtempSync(path.join(os.tmpdir(), 'gsd-e2e-home-'));
      scratch.homes.push(home);
      const settings = path.join(home, 'settings.json');
      const hook = (script: string) => ({ type: 'command', command: process.execPath, args: [script], timeout: 30 });
      writeFileSync(
        settings,
        JSON.stringify({
          hooks: {
            PostToolUse: [{ matcher: 'Write|Edit|MultiEdit|NotebookEdit', hooks: [hook(HOOKS.postToolUse)] }],
            SessionStart: [{ hooks: [hook(HOOKS.sessionStart)] }],
          },
        }),
      );
      const env = offlineClaudeEnv({ home, mockUrl: mock.url });
      const r = await run(
        claude.bin,
        ['-p', 'SCRIPT: write, read, edit', '--output-format', 'json', '--permission-mode', 'acceptEdits', '--allowedTools', 'Write', 'Edit', 'Read', '--settings', settings, '--debug-file', path.join(home, 'debug.log')],
        { cwd: root, env, capMs: 240_000 },
      );
      const debug = () => (existsSync(path.join(home, 'debug.log')) ? readFileSync(path.join(home, 'debug.log'), 'utf8').slice(-3000) : '(no debug log)');
      assert.equal(r.code, 0, `claude exited ${r.code}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}\ndebug: ${debug()}`);
      const result = JSON.parse(r.stdout) as { result?: string };
      assert.equal(result.result, 'DONE: Write,Read,Edit', `the script ran to its end (${r.stdout.slice(0, 500)})`);
      assert.notEqual(readFileSync(edited, 'utf8'), before, 'the Edit changed the file');

      // the SessionStart context reached a request body the model received
      const bodies = mock.bodies.join('\n');
      assert.match(bodies, /SessionStart hook additional context/);
      assert.match(bodies, /get-shit-done-cc codebase intelligence for/);
      assert.match(bodies, /src\/money\.ts/);

      // the Write and the Edit land in graph.db once the journal is drained
      await waitForWorkers(root);
      assert.equal(hookLog(root), '', 'no hook reported a problem');
      assert.deepEqual(await presence(root, 'src/discount.ts'), everywhere);
      const graph = await readGraphRows(intelPaths(root).graph);
      const id = (rel: string) => graph.nodes.find((n) => n.path === rel)?.id;
      assert.ok(
        graph.edges.some((e) => e.source === id('src/cart.ts') && e.target === id('src/discount.ts')),
        `the edge cart.ts → discount.ts the Edit added is in graph.db (edges: ${JSON.stringify(graph.edges.map((e) => [e.source, e.target]))})`,
      );
    },
  );
});
