import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { existsSync, statSync } from 'node:fs';
import { z } from 'zod';
import { definitions, type Definition, type IntelReader } from '../../../engine/src/index.js';
import type { Project, ServerContext } from '../context.js';
import { cap, clip, ToolInputError } from '../result.js';
import { resolveInside } from '../security.js';
import { lookupFile, readSource } from '../views.js';
import { defineTool } from './define.js';

export const ARTIFACT_TYPES = ['file', 'definition', 'export', 'function', 'component', 'endpoint', 'test'] as const;
type Loc = { path: string; line: number; detail: string };

const DETAIL: Record<Definition['how'], (d: Definition) => string> = {
  declaration: (d) => `${d.exported ? 'exported ' : ''}${d.kind} declaration`,
  export: (d) => `export (${d.kind})`,
  'import-binding': (d) => `${d.kind} bound to an import`,
  reexport: () => 're-export',
};

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `src/a.ts:name` or `src/a.ts#name` → a file scope and a name. */
function split(project: Project, reader: IntelReader, value: string): { name: string; only: string | null } {
  const m = /^(.+\.[cm]?[jt]sx?)\s*[:#]\s*(.+)$/.exec(value);
  if (!m) return { name: value.trim(), only: null };
  return { name: m[2].trim(), only: lookupFile(project, reader, m[1]).id };
}

function symbolRows(reader: IntelReader, name: string): Array<{ id: string; kind: string; line: number; exported: boolean }> {
  return reader.symbolsNamed(name).map(({ id, kind, line, exported }) => ({ id, kind, line, exported }));
}

/** Test titles (it/test/describe) of the indexed test files that contain `needle` (case-insensitive). */
export function testTitles(project: Project, reader: IntelReader, match: (title: string) => boolean): Loc[] {
  const out: Loc[] = [];
  for (const n of reader.nodes.values()) {
    if (n.type !== 'test') continue;
    const text = readSource(project, n.path);
    if (!text) continue;
    text.split('\n').forEach((l, i) => {
      const m = /\b(?:it|test|describe|suite|context|specify)(?:\.\w+)?\s*\(\s*(['"`])((?:(?!\1).){1,300})\1/.exec(l);
      if (m && match(m[2])) out.push({ path: n.path, line: i + 1, detail: clip(m[2], 140) });
    });
  }
  return out;
}

export function findArtifact(project: Project, reader: IntelReader, value: string, type: (typeof ARTIFACT_TYPES)[number]): { locations: Loc[]; note: string } {
  if (type === 'file') {
    const { abs, rel } = resolveInside(project.root, value, 'must_exist');
    if (!existsSync(abs)) return { locations: [], note: 'not on disk' };
    const indexed = reader.byPath.has(rel);
    return { locations: [{ path: rel, line: 1, detail: statSync(abs).isDirectory() ? 'folder' : indexed ? 'indexed file' : 'file (not indexed)' }], note: '' };
  }
  if (type === 'test') {
    if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(value)) return findArtifact(project, reader, value, 'file');
    const needle = value.toLowerCase();
    return { locations: testTitles(project, reader, (t) => t.toLowerCase().includes(needle)), note: 'test titles containing the text' };
  }
  if (type === 'endpoint') {
    const m = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ALL)?\s*(\S+)$/i.exec(value.trim());
    if (!m) throw new ToolInputError('endpoint: expected "METHOD /path" or "/path"');
    const method = m[1]?.toLowerCase();
    const route = m[2];
    const locs: Loc[] = [];
    const literal = new RegExp(`(['"\`])${escapeRe(route)}\\1`);
    const fileRoute = route.replace(/^\//, '').replace(/:(\w+)/g, '[$1]');
    for (const n of reader.nodes.values()) {
      if (n.type === 'test') continue;
      if (fileRoute && (n.path.includes(`api/${fileRoute.replace(/^api\//, '')}/route.`) || n.path.includes(`pages/${fileRoute}.`) || n.path.includes(`app/${fileRoute}/route.`))) {
        locs.push({ path: n.path, line: 1, detail: 'file-based route' });
        continue;
      }
      const text = readSource(project, n.path);
      if (!text || !text.includes(route)) continue;
      text.split('\n').forEach((l, i) => {
        if (!literal.test(l)) return;
        if (method && !new RegExp(`\\b${method}\\b`, 'i').test(l)) return;
        locs.push({ path: n.path, line: i + 1, detail: clip(l.trim(), 140) });
      });
    }
    return { locations: locs, note: 'route string literals and file-based routes' };
  }
  const { name, only } = split(project, reader, value);
  // a qualified name is a method declared at top level (Go's `Store.Add`)
  if (!/^[\p{L}\p{N}_$]+(?:\.[\p{L}\p{N}_$]+)*$/u.test(name)) throw new ToolInputError(`${type}: "${name}" is not an identifier`, 'Pass a name like createUser, Store.Add, or file:name.');
  if (type === 'definition') return { locations: definitions(reader, name, { only }).map((d) => ({ path: d.path, line: d.line, detail: DETAIL[d.how](d) })), note: 'declarations first (exported, then local), then export-only bindings, then re-exports' };
  if (type === 'export') {
    const locs: Loc[] = [];
    for (const n of reader.nodes.values()) {
      if (only && n.id !== only) continue;
      for (const e of n.exports) if (e.name === name) locs.push({ path: n.path, line: e.line, detail: `export ${e.kind}` });
    }
    return { locations: locs, note: '' };
  }
  const rows = symbolRows(reader, name).filter((r) => !only || r.id === only);
  const locs = rows
    .filter((r) => (type === 'function' ? ['function', 'const', 'variable', 'class'].includes(r.kind) : ['function', 'const', 'class', 'variable'].includes(r.kind) && /^[A-Z]/.test(name)))
    .map((r) => ({ path: reader.nodes.get(r.id)!.path, line: r.line, detail: `${r.exported ? 'exported ' : ''}${r.kind}` }));
  const note = type === 'component' && !/^[A-Z]/.test(name) ? 'components are PascalCase' : 'top-level declarations only';
  return { locations: locs, note };
}

export function registerVerifyArtifactTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'verify_artifact',
    input: {
      must_exist: z.string().min(1).max(1000).describe('path, name, file:name, "GET /route" or test title'),
      check_type: z.enum(ARTIFACT_TYPES).default('file').describe('what kind of artifact'),
    },
    output: {
      must_exist: z.string().describe('what was checked'),
      exists: z.boolean().describe('found at least once'),
      total: z.number().describe('locations found'),
      truncated: z.boolean().describe('more than returned'),
      locations: z.array(z.object({ path: z.string().describe('file'), line: z.number().describe('line'), detail: z.string().describe('what is there') })).describe('file:line'),
      note: z.string().describe('how it was checked'),
    },
    async run(project, args) {
      const reader = await project.intel.open();
      const r = findArtifact(project, reader, args.must_exist, args.check_type);
      const c = cap(r.locations);
      return { must_exist: args.must_exist, exists: c.total > 0, total: c.total, truncated: c.truncated, locations: c.items, note: r.note };
    },
  });
}
