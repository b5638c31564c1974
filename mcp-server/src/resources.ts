/** Read-only resources of the session project. A missing document gives a text that says how to create it. */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { hotspots } from '../../engine/src/index.js';
import { requirementState } from './adapters/requirements.js';
import type { Project, ServerContext } from './context.js';
import { describeError } from './tools/define.js';
import { RESOURCE_TEXT } from './texts.js';

type Contents = { contents: Array<{ uri: string; mimeType: string; text: string }> };

export async function guarded(ctx: ServerContext, uri: URL, mimeType: string, body: (p: Project) => Promise<string> | string): Promise<Contents> {
  let text: string;
  try {
    text = await body(await ctx.project());
  } catch (error) {
    const { message, hint } = describeError(error);
    text = `${message}${hint ? `\n\n${hint}` : ''}\n`;
    mimeType = 'text/plain';
  }
  return { contents: [{ uri: uri.href, mimeType, text }] };
}

export function registerResources(server: McpServer, ctx: ServerContext): void {
  const md = 'text/markdown';
  server.registerResource('project-vision', 'gsd://project/vision', { title: 'Vision', description: RESOURCE_TEXT.vision, mimeType: md }, (uri) =>
    guarded(ctx, uri, md, (p) => {
      const doc = p.project.read();
      return `# ${doc.name}\n\n## Vision\n\n${doc.vision || '_not stated_'}\n\n## Core value\n\n${doc.coreValue || '_not stated_'}\n`;
    }),
  );
  server.registerResource('requirements-pending', 'gsd://project/requirements/pending', { title: 'Pending requirements', description: RESOURCE_TEXT.pending, mimeType: md }, (uri) =>
    guarded(ctx, uri, md, (p) => {
      const pending = p.requirements.read().filter((r) => !['complete', 'deferred'].includes(requirementState(r)));
      const lines = pending.map((r) => `- **${r.id}** ${r.text}${r.phase ? ` (phase ${r.phase})` : ''}${r.tracedStatus ? ` — ${r.tracedStatus}` : ''}`);
      return `# Pending requirements (${pending.length})\n\n${lines.join('\n') || '_none_'}\n`;
    }),
  );
  server.registerResource('project-decisions', 'gsd://project/decisions', { title: 'Decisions', description: RESOURCE_TEXT.decisions, mimeType: md }, (uri) =>
    guarded(ctx, uri, md, (p) => {
      const out = ['# Key decisions', ''];
      try {
        for (const d of p.project.read().decisions) out.push(`- ${d.decision}${d.rationale ? ` — ${d.rationale}` : ''}${d.outcome ? ` (${d.outcome})` : ''}`);
      } catch (error) {
        out.push(`_${describeError(error).message}_`);
      }
      for (const dir of p.phases.list()) {
        const ds = dir.summaries.flatMap((s) => s.decisions.map((d) => `- ${d} (${s.file})`));
        if (ds.length) out.push('', `## Phase ${dir.number}`, '', ...ds.slice(0, 30));
      }
      return `${out.join('\n')}\n`;
    }),
  );
  server.registerResource('intel-summary', 'gsd://intel/summary', { title: 'Intel summary', description: RESOURCE_TEXT.summary, mimeType: md }, (uri) =>
    guarded(ctx, uri, md, async (p) => {
      await p.intel.open();
      return p.intel.summary()?.text ?? 'summary.md is missing; rebuild with `get-shit-done-cc intel build`.\n';
    }),
  );
  server.registerResource('intel-hotspots', 'gsd://intel/hotspots', { title: 'Hotspots', description: RESOURCE_TEXT.hotspots, mimeType: 'application/json' }, (uri) =>
    guarded(ctx, uri, 'application/json', async (p) => JSON.stringify(hotspots(await p.intel.open(), { limit: 25 }))),
  );
  server.registerResource('intel-conventions', 'gsd://intel/conventions', { title: 'Conventions', description: RESOURCE_TEXT.conventions, mimeType: md }, (uri) =>
    guarded(ctx, uri, md, async (p) => {
      await p.intel.open();
      return `# Conventions\n\n${p.intel.summary()?.conventions || '_not in summary.md_'}\n`;
    }),
  );
  const ENTITY_LIST_CAP = 200;
  server.registerResource(
    'intel-entity',
    new ResourceTemplate('gsd://intel/entity/{id}', {
      list: async () => {
        try {
          const p = await ctx.project();
          const reader = await p.intel.open();
          const hot = hotspots(reader, { limit: ENTITY_LIST_CAP }).hotspots.map((h) => h.id);
          const ids = [...new Set([...hot, ...reader.nodes.keys()])].slice(0, ENTITY_LIST_CAP);
          return { resources: ids.map((id) => ({ uri: `gsd://intel/entity/${id}`, name: reader.nodes.get(id)!.path, mimeType: md })) };
        } catch {
          return { resources: [] };
        }
      },
      complete: {
        id: async (value) => {
          try {
            const reader = await (await ctx.project()).intel.open();
            const v = value.toLowerCase();
            const out: string[] = [];
            for (const [id, n] of reader.nodes) {
              if (id.startsWith(v) || n.path.toLowerCase().includes(v)) out.push(id);
              if (out.length >= 20) break;
            }
            return out;
          } catch {
            return [];
          }
        },
      },
    }),
    { title: 'Entity', description: RESOURCE_TEXT.entity, mimeType: md },
    (uri, vars) =>
      guarded(ctx, uri, md, async (p) => {
        await p.intel.open();
        const id = String(Array.isArray(vars.id) ? vars.id[0] : vars.id);
        return p.intel.entityPage(id) ?? `No entity page "${id}". List them with resources/list or search with query_intel.\n`;
      }),
  );
}
