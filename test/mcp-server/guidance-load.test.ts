/**
 * guidance_load through the SDK's real Client against the built server: focus filtering, scoring order, the project
 * bonus and shadowing, load-by-number per session, `@` references (cycles, depth, refusal outside the allowed folders),
 * malformed frontmatter, HOME / CLAUDE_CONFIG_DIR, the shipped starter set and the runtime bundle's copy of it.
 * HOME is always a temp folder, so the machine's own ~/.claude/guidance never leaks in.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ServerContext } from '../../mcp-server/src/context.js';
import { buildServer } from '../../mcp-server/src/server.js';
import { type Session, startServer } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';
import { cleanupProjects, tempProject, writeFile } from '../helpers/project.js';

type Answer = {
  loaded: Array<{ n?: number; path: string; source?: string; why?: string[]; from?: string; depth?: number; content: string; truncated: boolean; focus_levels?: string[] | null; tags?: string[] }>;
  matches: { total: number; truncated: boolean; items: Array<{ n: number; path: string; source: string; why: string[] }> };
  issues: Array<{ kind: string; path: string; from?: string; problem: string }>;
  performanceMetrics: { filesScanned: number; filesMatched: number; searchMs: number };
  hint?: string;
};

function doc(frontmatter: string | null, body: string): string {
  return frontmatter === null ? body : `---\n${frontmatter}\n---\n${body}`;
}

const temps: string[] = [];
function tempDir(prefix: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(d);
  return d;
}

const base = (p: string) => path.basename(p);

describe('guidance_load', () => {
  let home: string;
  let root: string;
  let outside: string;
  let s: Session;

  before(async () => {
    home = tempDir('gsd-home-');
    outside = tempDir('gsd-outside-');
    writeFile(outside, 'stolen.md', 'SECRET-OUTSIDE');
    const user = (rel: string, text: string | Uint8Array) => writeFile(home, path.join('.claude', 'guidance', rel), text);
    // scoring: one keyword, four places it can match (all user guidance, so no project bonus)
    user('qorvex-name.md', doc('type: guide\ncategory: misc\nfocus_levels: [design]\ntags: [alpha]', 'Nothing relevant here.\n'));
    user('by-content.md', doc('type: guide\ncategory: misc\nfocus_levels: [design]\ntags: [alpha]', 'How to handle qorvex records.\n'));
    user('by-tag.md', doc('type: guide\ncategory: misc\nfocus_levels: [design]\ntags: [qorvex]', 'Unrelated text.\n'));
    user('by-category.md', doc('type: guide\ncategory: qorvex\nfocus_levels: [design]\ntags: [alpha]', 'Unrelated words.\n'));
    // focus filtering, both list styles
    user('flow-style.md', doc('type: guide\ncategory: x\nfocus_levels: [strategic, design]\ntags: [wumbat]', 'wumbat at the strategic and design levels\n'));
    user('block-style.md', doc('type: guide\ncategory: x\nfocus_levels:\n  - implementation\ntags:\n  - wumbat', 'wumbat at the implementation level\n'));
    user('scalar-style.md', doc('type: guide\nfocus_levels: implementation\ntags: wumbat', 'wumbat as a plain string level\n'));
    // malformed frontmatter: searched as untagged, named in the answer
    user('broken-yaml.md', doc('type: guide\nfocus_levels: [design\ntags: [wumbat]', 'wumbat in a file whose YAML is broken\n'));
    user('no-frontmatter.md', '# Just markdown\n\nwumbat without any frontmatter\n');
    user('unknown-level.md', doc('focus_levels: [tactical]', 'wumbat at a level that does not exist\n'));
    user('unclosed.md', '---\nfocus_levels: [design]\nwumbat and no closing line\n');
    user('binary.md', Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02]));

    root = tempProject({});
    const proj = (rel: string, text: string) => writeFile(root, path.join('.planning', 'guidance', rel), text);
    // project bonus: the same content match in the project and in the user folder
    proj('zindle-project.md', doc('focus_levels: [implementation]', 'zindle zindle\n'));
    user('zindle-user.md', doc('focus_levels: [implementation]', 'zindle zindle\n'));
    // shadowing: the project's file hides the user's one with the same relative path
    proj('shared/style.md', doc('focus_levels: [implementation]', 'krumple from the project\n'));
    user('shared/style.md', doc('focus_levels: [implementation]', 'krumple from the user\n'));
    // references: a cycle, a chain deeper than the cap, a missing file, one outside, a secret, a project file
    proj('cycle-a.md', doc('focus_levels: [implementation]', 'cyclone A\n\n@cycle-b.md\n'));
    proj('cycle-b.md', doc('focus_levels: [implementation]', 'B text\n\nSee @cycle-a.md and @./deep/d1.md, not `@in-code.md`.\n'));
    proj('deep/d1.md', 'D1 @d2.md');
    proj('deep/d2.md', 'D2 @d3.md');
    proj('deep/d3.md', 'D3 @d4.md');
    proj('deep/d4.md', 'D4 too deep');
    proj('refs.md', doc('focus_levels: [implementation]', `refsy\n\n@missing.md\n@${path.join(outside, 'stolen.md')}\n@../../.env.md\n@../../docs/conventions.md\nmail me@example.com, use @types/node.\n`));
    writeFile(root, '.env.md', 'TOKEN=1');
    writeFile(root, 'docs/conventions.md', 'PROJECT-CONVENTIONS');
    // many matches for numbering
    for (let i = 1; i <= 6; i++) proj(`numbered-${i}.md`, doc('focus_levels: [design]', `${'plonk '.repeat(7 - i)}\n`));

    s = await startServer(root, { HOME: home });
  });

  after(async () => {
    await s?.close();
    cleanupProjects();
    for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is listed read-only with its three arguments', () => {
    const t = s.tools.find((x) => x.name === 'guidance_load');
    assert.ok(t);
    assert.deepEqual(Object.keys(t.inputSchema.properties ?? {}).sort(), ['focus_level', 'max_auto_load', 'max_tokens', 'query', 'root']);
    assert.deepEqual(t.inputSchema.required?.slice().sort(), ['focus_level', 'query']);
    assert.equal(t.annotations?.readOnlyHint, true);
  });

  it('scores a file-name match over content over tag over category', async () => {
    const out = await s.ok<Answer>('guidance_load', { query: 'qorvex', focus_level: 'design', max_auto_load: 1 });
    assert.deepEqual(out.loaded.map((l) => base(l.path)), ['qorvex-name.md']);
    assert.deepEqual(out.loaded[0].why, ['name:qorvex']);
    assert.deepEqual(out.matches.items.map((m) => [m.n, base(m.path), m.why]), [
      [2, 'by-content.md', ['content:qorvex']],
      [3, 'by-tag.md', ['tag:qorvex']],
      [4, 'by-category.md', ['category:qorvex']],
    ]);
    assert.equal(out.matches.total, 3);
    assert.equal(out.performanceMetrics.filesMatched, 4);
    assert.ok(out.performanceMetrics.filesScanned >= 30, `scanned ${out.performanceMetrics.filesScanned}`);
    assert.equal(typeof out.performanceMetrics.searchMs, 'number');
    assert.match(out.hint ?? '', /query "2,3"/);
  });

  it('keeps only files whose focus_levels hold the level (flow, block and scalar lists); untagged files at every level', async () => {
    const names = async (focus: string) => {
      const out = await s.ok<Answer>('guidance_load', { query: 'wumbat', focus_level: focus, max_auto_load: 5 });
      return [...out.loaded.map((l) => l.path), ...out.matches.items.map((m) => m.path)].map(base).sort();
    };
    const untagged = ['broken-yaml.md', 'no-frontmatter.md', 'unclosed.md', 'unknown-level.md'];
    assert.deepEqual(await names('strategic'), ['flow-style.md', ...untagged].sort());
    assert.deepEqual(await names('design'), ['flow-style.md', ...untagged].sort());
    assert.deepEqual(await names('implementation'), ['block-style.md', 'scalar-style.md', ...untagged].sort());
  });

  it('names the files with missing or malformed frontmatter and keeps searching', async () => {
    const out = await s.ok<Answer>('guidance_load', { query: 'wumbat', focus_level: 'implementation' });
    const issue = (name: string) => out.issues.find((i) => base(i.path) === name);
    assert.equal(issue('broken-yaml.md')?.kind, 'untagged');
    assert.match(issue('broken-yaml.md')?.problem ?? '', /^YAML error at line \d+/);
    assert.equal(issue('no-frontmatter.md')?.problem, 'no frontmatter');
    assert.match(issue('unknown-level.md')?.problem ?? '', /no known level/);
    assert.match(issue('unclosed.md')?.problem ?? '', /not closed/);
    assert.deepEqual(issue('binary.md'), { kind: 'skipped', path: path.join(home, '.claude', 'guidance', 'binary.md'), problem: 'binary content' });
    assert.ok(!out.issues.some((i) => i.path.includes(`${path.sep}guidance${path.sep}`) && i.path.startsWith(repoRoot)), 'the shipped guidance is all tagged');
    assert.match(out.hint ?? '', /Untagged files/);
  });

  it('gives project guidance a bonus, and a project file shadows the user file of the same name', async () => {
    const out = await s.ok<Answer>('guidance_load', { query: 'zindle', focus_level: 'implementation' });
    assert.deepEqual(out.loaded.map((l) => [base(l.path), l.source]), [['zindle-project.md', 'project'], ['zindle-user.md', 'user']]);
    assert.ok(out.loaded[0].why?.includes('project'));
    assert.equal(out.loaded[0].path, '.planning/guidance/zindle-project.md');
    const shadow = await s.ok<Answer>('guidance_load', { query: 'krumple', focus_level: 'implementation' });
    assert.deepEqual(shadow.loaded.map((l) => [l.path, l.content.trim()]), [['.planning/guidance/shared/style.md', 'krumple from the project']]);
  });

  it('loads matches by number from the previous search of the session', async () => {
    const first = await s.ok<Answer>('guidance_load', { query: 'plonk', focus_level: 'design' });
    assert.deepEqual(first.loaded.map((l) => [l.n, base(l.path)]), [[1, 'numbered-1.md'], [2, 'numbered-2.md']]);
    assert.deepEqual(first.matches.items.map((m) => [m.n, base(m.path)]), [[3, 'numbered-3.md'], [4, 'numbered-4.md'], [5, 'numbered-5.md'], [6, 'numbered-6.md']]);
    const picked = await s.ok<Answer>('guidance_load', { query: '3, 5', focus_level: 'design' });
    assert.deepEqual(picked.loaded.map((l) => [l.n, base(l.path)]), [[3, 'numbered-3.md'], [5, 'numbered-5.md']]);
    assert.match(picked.loaded[0].content, /plonk/);
    // the numbers keep referring to the last keyword search
    const again = await s.ok<Answer>('guidance_load', { query: '1', focus_level: 'design' });
    assert.deepEqual(again.loaded.map((l) => base(l.path)), ['numbered-1.md']);
    assert.match(await s.fails('guidance_load', { query: '7', focus_level: 'design' }), /no match numbered 7 in the previous result \(it has 6\)/);
    // a fresh session has no previous result
    const other = await startServer(root, { HOME: home });
    try {
      assert.match(await other.fails('guidance_load', { query: '1', focus_level: 'design' }), /no earlier guidance_load search in this session/);
    } finally {
      await other.close();
    }
  });

  it('resolves @references: cycles and depth are capped, code spans ignored, outside and secret files refused and named', async () => {
    const out = await s.ok<Answer>('guidance_load', { query: 'cyclone', focus_level: 'implementation', max_auto_load: 1 });
    assert.deepEqual(out.loaded.map((l) => [l.path, l.from ?? null, l.depth ?? 0]), [
      ['.planning/guidance/cycle-a.md', null, 0],
      ['.planning/guidance/cycle-b.md', '.planning/guidance/cycle-a.md', 1],
      ['.planning/guidance/deep/d1.md', '.planning/guidance/cycle-b.md', 2],
      ['.planning/guidance/deep/d2.md', '.planning/guidance/deep/d1.md', 3],
    ]);
    const refs = out.issues.filter((i) => i.kind === 'reference');
    assert.deepEqual(refs.map((r) => [r.path, r.from]), [
      ['cycle-a.md', '.planning/guidance/cycle-b.md'],
      ['d3.md', '.planning/guidance/deep/d2.md'],
    ]);
    assert.match(refs[0].problem, /^cycle: \.planning\/guidance\/cycle-a\.md → \.planning\/guidance\/cycle-b\.md → \.planning\/guidance\/cycle-a\.md/);
    assert.match(refs[1].problem, /deeper than 3 levels/);

    const r = await s.ok<Answer>('guidance_load', { query: 'refsy', focus_level: 'implementation', max_auto_load: 1 });
    assert.deepEqual(r.loaded.map((l) => [l.path, l.content]), [
      ['.planning/guidance/refs.md', r.loaded[0].content],
      ['docs/conventions.md', 'PROJECT-CONVENTIONS'],
    ]);
    const problems = Object.fromEntries(r.issues.filter((i) => i.kind === 'reference').map((i) => [i.path, i.problem]));
    assert.deepEqual(Object.keys(problems).sort(), ['../../.env.md', path.join(outside, 'stolen.md'), 'missing.md'].sort());
    assert.match(problems[path.join(outside, 'stolen.md')], new RegExp(`${path.join(outside, 'stolen.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is outside the allowed folders`));
    assert.match(problems['../../.env.md'], /secrets file/);
    assert.match(problems['missing.md'], /does not exist/);
    assert.ok(!JSON.stringify(r).includes('SECRET-OUTSIDE') && !JSON.stringify(r).includes('TOKEN=1'));
  });

  it('refuses a query without keywords, max_auto_load outside 1-5, an unknown level and hostile queries with clear errors', async () => {
    assert.match(await s.fails('guidance_load', { query: 'how to the', focus_level: 'design' }), /no keywords/);
    assert.match(await s.fails('guidance_load', { query: 'plonk', focus_level: 'design', max_auto_load: 9 }), /max_auto_load/);
    assert.match(await s.fails('guidance_load', { query: 'plonk', focus_level: 'design', max_auto_load: 0 }), /max_auto_load/);
    assert.match(await s.fails('guidance_load', { query: 'plonk', focus_level: 'tactical' }), /focus_level/);
    assert.match(await s.fails('guidance_load', { query: 'x'.repeat(501), focus_level: 'design' }), /query/);
    const five = await s.ok<Answer>('guidance_load', { query: 'plonk', focus_level: 'design', max_auto_load: 5 });
    assert.equal(five.loaded.length, 5);
    for (const query of ['../../../etc/passwd', '@/etc/passwd', "' OR 1=1; --", 'ünïcødé 漢字 🚀', '.*+?^${}()|[]\\', '0', '1,,2']) {
      const r = await s.call('guidance_load', { query, focus_level: 'implementation' });
      const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      assert.doesNotMatch(text, /internal error|root:x:0/, `${query}: ${text}`);
    }
  });

  it('ships starter guidance that a planner finds at its level, with its @references', async () => {
    const shipped = readdirSync(path.join(repoRoot, 'guidance')).filter((f) => f.endsWith('.md'));
    assert.ok(shipped.length >= 5);
    const out = await s.ok<Answer>('guidance_load', { query: 'verification evidence', focus_level: 'design', max_auto_load: 1 });
    assert.equal(out.loaded[0].path, path.join(repoRoot, 'guidance', 'verification.md'));
    assert.equal(out.loaded[0].source, 'package');
    assert.deepEqual(out.loaded.slice(1).map((l) => [base(l.path), base(l.from ?? '')]), [['definition-of-done.md', 'verification.md']]);
    const strategic = await s.ok<Answer>('guidance_load', { query: 'roadmap phases', focus_level: 'strategic', max_auto_load: 1 });
    assert.equal(base(strategic.loaded[0].path), 'roadmap.md');
    const impl = await s.ok<Answer>('guidance_load', { query: 'debugging a flaky failure', focus_level: 'implementation', max_auto_load: 1 });
    assert.equal(base(impl.loaded[0].path), 'debugging.md');
  });

  it('reads CLAUDE_CONFIG_DIR/guidance instead of ~/.claude/guidance when it is set', async () => {
    const config = tempDir('gsd-config-');
    writeFile(config, 'guidance/config-only.md', doc('focus_levels: [design]', 'qorvex from the config dir\n'));
    const other = await startServer(root, { HOME: home, CLAUDE_CONFIG_DIR: config });
    try {
      const out = await other.ok<Answer>('guidance_load', { query: 'qorvex', focus_level: 'design', max_auto_load: 5 });
      assert.deepEqual(out.loaded.map((l) => [l.path, l.source]), [[path.join(config, 'guidance', 'config-only.md'), 'user']]);
    } finally {
      await other.close();
    }
  });

  it('keeps the numbered list per MCP session on a server shared by HTTP sessions', async () => {
    const ctx = new ServerContext({ cwd: root, env: { HOME: home } });
    const transports = new Map<string, StreamableHTTPServerTransport>();
    const http: Server = createServer(async (req, res) => {
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => `s-${transports.size + 1}`, onsessioninitialized: (id) => void transports.set(id, transport!) });
        await buildServer(ctx).connect(transport);
      }
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    const a = new Client({ name: 'a', version: '0' });
    const b = new Client({ name: 'b', version: '0' });
    try {
      await a.connect(new StreamableHTTPClientTransport(url));
      await b.connect(new StreamableHTTPClientTransport(url));
      const call = async (c: Client, query: string) => (await c.callTool({ name: 'guidance_load', arguments: { query, focus_level: 'design', max_auto_load: 1 } })) as CallToolResult;
      const searchA = await call(a, 'plonk');
      assert.ok(!searchA.isError, JSON.stringify(searchA.content));
      const fromB = await call(b, '2');
      assert.equal(fromB.isError, true, 'session b has not searched yet');
      await call(b, 'qorvex');
      const pickA = await call(a, '2');
      assert.deepEqual((pickA.structuredContent as Answer).loaded.map((l) => base(l.path)), ['numbered-2.md']);
      const pickB = await call(b, '2');
      assert.deepEqual((pickB.structuredContent as Answer).loaded.map((l) => base(l.path)), ['by-content.md']);
    } finally {
      await a.close();
      await b.close();
      for (const t of transports.values()) await t.close();
      await new Promise((resolve) => http.close(resolve));
      ctx.close();
    }
  });

  it('the runtime bundle carries the starter guidance and finds it beside itself', async () => {
    const runtime = path.join(repoRoot, 'dist', 'runtime');
    const client = new Client({ name: 'runtime', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(runtime, 'mcp-server.js')], cwd: root, env: { PATH: process.env.PATH ?? '', HOME: home, GSD_MCP_MODE: 'in-process' } }));
    try {
      const r = (await client.callTool({ name: 'guidance_load', arguments: { query: 'debugging', focus_level: 'implementation', max_auto_load: 1 } })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r.content));
      assert.equal((r.structuredContent as Answer).loaded[0].path, path.join(runtime, 'guidance', 'debugging.md'));
    } finally {
      await client.close();
    }
  });
});
