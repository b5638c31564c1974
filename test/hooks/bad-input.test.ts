import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, hasPendingJournal, intelPaths } from '../../engine/src/index.js';
import { HOOKS, everywhere, hookLog, payload, presence, runHookProcess, waitForWorkers } from '../helpers/hooks.js';
import { cleanupProjects, tempProject, writeFile } from '../helpers/project.js';

const SCRIPTS = [
  ['PostToolUse', HOOKS.postToolUse],
  ['SessionStart', HOOKS.sessionStart],
] as const;

describe('hooks given bad stdin: exit 0, print nothing, leave a note in hook.log', () => {
  let root: string;
  before(async () => {
    root = tempProject({ 'a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
  });
  after(async () => {
    await waitForWorkers(root).catch(() => undefined);
    cleanupProjects();
  });

  const cases: Array<[string, string | Buffer]> = [
    ['empty stdin', ''],
    ['whitespace only', ' \n\t '],
    ['not JSON', 'hello, hook'],
    ['truncated JSON', '{"hook_event_name":"PostToolUse","tool_input":{"file_path":'],
    ['a JSON array', '[1,2,3]'],
    ['a JSON string', '"just a string"'],
    ['null', 'null'],
    ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x7b, 0x80])],
  ];
  for (const [name, hook] of SCRIPTS) {
    for (const [what, stdin] of cases) {
      it(`${name}: ${what}`, async () => {
        const before = hookLog(root).length;
        const r = await runHookProcess(hook, stdin, { cwd: root });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, '');
        assert.ok(hookLog(root).length > before, 'a note was logged');
        assert.match(hookLog(root).slice(before), new RegExp(`hook:${name}\\[\\d+\\] ignored: `));
      });
    }
  }

  it('PostToolUse: missing fields (no tool_input) and an unknown tool are noted and ignored', async () => {
    for (const input of [
      { hook_event_name: 'PostToolUse', cwd: root },
      { hook_event_name: 'PostToolUse', cwd: root, tool_name: 'Write', tool_input: 'not an object' },
      { hook_event_name: 'PostToolUse', cwd: root, tool_name: 'Write', tool_input: { file_path: 42 } },
      { hook_event_name: 'PostToolUse', cwd: root, tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_response: { stdout: '' } },
      { hook_event_name: 'PostToolUse', cwd: root, tool_name: 'mcp__gsd__query', tool_input: { q: 1 }, tool_response: 'text', mcp_server: { name: 'gsd', source: 'dynamic' } },
    ]) {
      const before = hookLog(root).length;
      const r = await runHookProcess(HOOKS.postToolUse, input, { cwd: root });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
      assert.match(hookLog(root).slice(before), /ignored: no tool_input\.file_path or notebook_path/);
    }
    assert.equal(hasPendingJournal(root), false);
  });

  it('PostToolUse: a tool that does not write (a matcher of "*") is noted and ignored, even with a file_path', async () => {
    const before = hookLog(root).length;
    const input = { hook_event_name: 'PostToolUse', cwd: root, tool_name: 'Read', tool_input: { file_path: path.join(root, 'a.ts') }, tool_response: {} };
    const r = await runHookProcess(HOOKS.postToolUse, input, { cwd: root });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(hookLog(root).slice(before), /ignored: tool "Read" does not write files/);
    assert.equal(hasPendingJournal(root), false);
  });

  it('SessionStart: missing cwd and source fall back to the process cwd', async () => {
    const r = await runHookProcess(HOOKS.sessionStart, { hook_event_name: 'SessionStart' }, { cwd: root });
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout);
    assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    await waitForWorkers(root);
  });

  it('paths with spaces, quotes, $(…), backticks and unicode are captured as plain data, never run', async () => {
    const canary = path.join(os.tmpdir(), `gsd-hook-canary-${process.pid}`);
    const names = [
      'with space/my file.ts',
      `quote"double.ts`,
      "quote'single.ts",
      `dollar$(touch ${canary}).ts`,
      `back\`touch ${canary}\`tick.ts`,
      'semi;colon && echo.ts',
      'ünïcødé/日本語-ファイル.ts',
      'emoji-😀.ts',
    ];
    for (const rel of names) writeFile(root, rel, `export const v = ${JSON.stringify(rel)};\n`);
    for (const rel of names) {
      const r = await runHookProcess(HOOKS.postToolUse, payload.write(root, path.join(root, rel), '', 'create'), { cwd: root });
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
    }
    await waitForWorkers(root);
    for (const rel of names) assert.deepEqual(await presence(root, rel), everywhere, rel);
    assert.equal(existsSync(canary), false, 'no input reached a shell');
  });

  it('a relative file_path is taken relative to the input cwd', async () => {
    writeFile(root, 'rel/x.ts', 'export const x = 1;\n');
    const r = await runHookProcess(HOOKS.postToolUse, payload.write(root, 'rel/x.ts', '', 'create'), { cwd: os.tmpdir() });
    assert.equal(r.code, 0);
    await waitForWorkers(root);
    assert.deepEqual(await presence(root, 'rel/x.ts'), everywhere);
  });

  it('no project anywhere (bad stdin outside any .planning/): exit 0, the note goes to stderr only', async () => {
    const r = await runHookProcess(HOOKS.postToolUse, 'garbage', { cwd: os.tmpdir() });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /ignored: stdin is not JSON/);
  });

  it('hook.log is bounded: it rotates once past 256 KB', async () => {
    const log = intelPaths(root).log;
    writeFileSync(log, 'x'.repeat(256 * 1024));
    const r = await runHookProcess(HOOKS.postToolUse, 'not json', { cwd: root });
    assert.equal(r.code, 0);
    assert.ok(statSync(`${log}.1`).size >= 256 * 1024);
    assert.ok(statSync(log).size < 4096);
    assert.match(readFileSync(log, 'utf8'), /ignored: stdin is not JSON/);
  });

  it('a stdin that never closes hits the deadline: exit 0, and a refresh is recorded instead', async () => {
    const { spawn } = await import('node:child_process');
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [HOOKS.postToolUse], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stdin.write('{"hook_event_name":"PostToolUse",'); // and never end
      child.on('close', (code) => {
        child.stdin.destroy();
        resolve({ code, stdout });
      });
    });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(hookLog(root), /deadline of \d+ ms reached while reading stdin/);
    await waitForWorkers(root);
    assert.equal(hasPendingJournal(root), false, 'the recorded refresh was drained');
  });
});
