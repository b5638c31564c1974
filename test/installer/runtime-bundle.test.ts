/**
 * dist/runtime/ as an install copies it: the MCP server bundle is split at the engine's lazy imports, so its chunks
 * must load from wherever the folder lands, with no node_modules around. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { appendJournal, buildIntel } from '../../engine/src/index.js';
import { LANGUAGES, languageOf } from '../../engine/src/languages/registry.js';
import { TOOL_TEXT } from '../../mcp-server/src/texts.js';
import { payload, runHookProcess, waitForWorkers } from '../helpers/hooks.js';
import { indexFiles } from '../helpers/language-records.js';
import { repoRoot } from '../helpers/paths.js';
import { cleanupProjects, tempProject, writeFile } from '../helpers/project.js';

const RUNTIME = path.join(repoRoot, 'dist', 'runtime');

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

describe('runtime bundle, copied away from the package', () => {
  let runtime: string;
  before(() => {
    assert.ok(existsSync(path.join(RUNTIME, 'mcp-server.js')), 'dist/runtime is missing: run npm run build');
    runtime = path.join(mkdtempSync(path.join(os.tmpdir(), 'gsd-runtime-')), 'get-shit-done');
    cpSync(RUNTIME, runtime, { recursive: true });
  });
  after(() => {
    rmSync(path.dirname(runtime), { recursive: true, force: true });
    cleanupProjects();
  });

  it('every file that starts parse workers finds parse-worker.js beside it or one folder up', () => {
    const users = jsFiles(runtime).filter((f) => !f.endsWith('parse-worker.js') && readFileSync(f, 'utf8').includes('parse-worker.js'));
    assert.ok(users.length >= 2, `expected the server and the hook worker to reference parse-worker.js, got ${users.join(', ')}`);
    for (const f of users) {
      const dir = path.dirname(f);
      assert.ok(existsSync(path.join(dir, 'parse-worker.js')) || existsSync(path.join(dir, '..', 'parse-worker.js')), f);
    }
  });

  it('on a machine with many cores the bundled server starts its parse workers from the copied folder', async () => {
    // pretend 8 cores and report every Worker the bundle starts (builtin ESM exports follow the patched CJS module)
    const preload = path.join(path.dirname(runtime), 'many-cores.cjs');
    writeFileSync(
      preload,
      [
        "const os = require('node:os'); os.availableParallelism = () => 8;",
        "const wt = require('node:worker_threads'); const W = wt.Worker;",
        "wt.Worker = class extends W { constructor(s, o) { super(s, o); this.on('online', () => process.stderr.write('WORKER ONLINE ' + s + '\\n')); this.on('error', (e) => process.stderr.write('WORKER ERROR ' + e.message + '\\n')); } };",
        "require('node:module').syncBuiltinESMExports();",
      ].join('\n'),
    );
    const files: Record<string, string> = {};
    for (let i = 1; i <= 60; i++) files[`src/f${i}.ts`] = `import { y${(i % 60) + 1} } from './f${(i % 60) + 1}';\nexport const y${i} = 1;\n`;
    const root = tempProject(files);
    appendJournal(root, [{ refresh: true, at: Date.now(), source: 'SessionStart:startup' }]);
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-r', preload, path.join(runtime, 'mcp-server.js')], cwd: root, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), GSD_MCP_MODE: 'in-process' }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'runtime-test', version: '0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'hotspots', arguments: { limit: 50 } })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r.content));
      assert.equal((r.structuredContent as { total: number }).total, 60, 'every file of the journal refresh is indexed');
    } finally {
      await client.close();
    }
    assert.doesNotMatch(stderr, /WORKER ERROR/);
    assert.match(stderr, new RegExp(`WORKER ONLINE ${pathToFileURL(path.join(runtime, 'parse-worker.js')).href.replace(/[.]/g, '\\.')}`));
  });

  it('the server answers, and loads the build pipeline lazily to apply a journal', async () => {
    const root = tempProject({ 'src/a.ts': "import { b } from './b';\nexport const a = b;\n", 'src/b.ts': 'export const b = 1;\n' });
    await buildIntel(root);
    writeFile(root, 'src/zebra.ts', "import { a } from './a';\nexport const zebraStripes = a;\n");
    appendJournal(root, [{ path: 'src/zebra.ts', at: Date.now(), source: 'post-tool-use' }]);
    const client = new Client({ name: 'runtime-test', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(runtime, 'mcp-server.js')], cwd: root, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), GSD_MCP_MODE: 'in-process' } }));
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, Object.keys(TOOL_TEXT).length);
      const r = (await client.callTool({ name: 'blast_radius', arguments: { file: 'src/b.ts' } })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r.content));
      const out = r.structuredContent as { total: number; by_depth: Array<{ files: string[] }> };
      assert.deepEqual(out.by_depth.map((l) => l.files), [['src/a.ts'], ['src/zebra.ts']]);
      // the graph page's script travels inside the bundle: the copied runtime writes a whole page
      const view = (await client.callTool({ name: 'graph_view', arguments: { file: 'src/b.ts' } })) as CallToolResult;
      assert.ok(!view.isError, JSON.stringify(view.content));
      const page = readFileSync((view.structuredContent as { path: string }).path, 'utf8');
      assert.match(page, /cytoscape/);
      assert.match(page, /"focus":1\b/);
    } finally {
      await client.close();
    }
  });
  it('the copied worker and server read a file only babel reads, from babel-parser.cjs beside their bundles', async () => {
    for (const f of jsFiles(runtime).filter((f) => readFileSync(f, 'utf8').includes('babel-parser.cjs'))) {
      const dir = path.dirname(f);
      assert.ok(existsSync(path.join(dir, 'babel-parser.cjs')) || existsSync(path.join(dir, '..', 'babel-parser.cjs')), f);
    }
    const root = tempProject({ 'src/b.ts': 'export const b = 1;\n' });
    await buildIntel(root);
    // JSX: the skeleton reader leaves it to babel
    const view = "import { b } from './b';\nexport const View = () => <div>{b}</div>;\n";
    writeFile(root, 'src/view.tsx', view);
    const run = await runHookProcess(path.join(runtime, 'hooks', 'post-tool-use.cjs'), payload.write(root, path.join(root, 'src/view.tsx'), view, 'create'), { cwd: root, env: { GSD_WORKER_IDLE_MS: '0' } });
    assert.equal(run.code, 0, run.stderr);
    await waitForWorkers(root);
    const file = indexFiles(root)['src/view.tsx'];
    assert.ok(file, 'src/view.tsx is indexed');
    assert.equal(file.syntaxError, null, JSON.stringify(file.syntaxError));
    assert.deepEqual(file.symbols.map((s) => s.name), ['View']);
    // the server's pipeline chunk, from its own folder
    const page = "import { b } from './b';\nexport const Page = () => <main>{b}</main>;\n";
    writeFile(root, 'src/page.tsx', page);
    appendJournal(root, [{ path: 'src/page.tsx', at: Date.now(), source: 'post-tool-use' }]);
    const client = new Client({ name: 'runtime-test', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(runtime, 'mcp-server.js')], cwd: root, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), GSD_MCP_MODE: 'in-process' } }));
    try {
      const r = (await client.callTool({ name: 'blast_radius', arguments: { file: 'src/b.ts' } })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r.content));
      assert.deepEqual((r.structuredContent as { by_depth: Array<{ files: string[] }> }).by_depth.map((l) => l.files), [['src/page.tsx', 'src/view.tsx']]);
    } finally {
      await client.close();
    }
  });
  it('the copied hook and its worker read a file of every tree-sitter language with the grammars the bundle carries', async () => {
    const sources: Record<string, string> = {
      'py/hello.py': 'def hello():\n    return 1\n',
      'go/hello.go': 'package hello\n\nfunc Hello() int { return 1 }\n',
      'rs/hello.rs': 'pub fn hello() -> i32 { 1 }\n',
      'java/p/Hello.java': 'package p;\n\npublic class Hello {}\n',
      'c/hello.c': 'int hello(void) { return 1; }\n',
      'php/hello.php': '<?php\nfunction hello() { return 1; }\n',
      'rb/hello.rb': 'def hello\n  1\nend\n',
      'cs/Hello.cs': 'namespace P { public class Hello {} }\n',
    };
    const covered = new Set(Object.keys(sources).map((f) => languageOf(f)?.grammar));
    for (const l of LANGUAGES) if (l.grammar) assert.ok(covered.has(l.grammar), `no file here for ${l.name}`);
    const root = tempProject({ 'src/a.ts': 'export const a = 1;\n' });
    await buildIntel(root);
    for (const [rel, text] of Object.entries(sources)) {
      writeFile(root, rel, text);
      const run = await runHookProcess(path.join(runtime, 'hooks', 'post-tool-use.cjs'), payload.write(root, path.join(root, rel), text, 'create'), { cwd: root, env: { GSD_WORKER_IDLE_MS: '0' } });
      assert.equal(run.code, 0, run.stderr);
    }
    await waitForWorkers(root);
    const files = indexFiles(root);
    for (const rel of Object.keys(sources)) {
      assert.ok(files[rel], `${rel} is indexed`);
      assert.equal(files[rel].syntaxError, null, `${rel}: ${JSON.stringify(files[rel].syntaxError)}`);
      assert.ok(files[rel].symbols.length > 0, `${rel} has its declaration`);
    }
  });
});
