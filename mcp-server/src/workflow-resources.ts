/**
 * Resources of the workflow: `gsd://commands/{id}` and `gsd://agents/{id}` (the package's command and agent files,
 * found by adapters/assets.ts) and `gsd://phase/{number}` (a phase's goal, plans, summaries and verification).
 * Listed, completable and capped like the planning resources (planning-resources.ts).
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assetDirs, assetId, installedCommand, listAssetIds, readAsset } from './adapters/assets.js';
import type { Project, ServerContext } from './context.js';
import { phaseNumber } from './planning-files.js';
import { roadmapOrEmpty } from './planning-views.js';
import { capped } from './planning-resources.js';
import { guarded } from './resources.js';
import { RESOURCE_TEXT } from './texts.js';

const one = (v: string | string[]) => String(Array.isArray(v) ? v[0] : v);

/** The phase page: goal, success criteria, requirements, then each plan, summary and the verification, capped. */
export function phasePage(project: Project, number: string): string {
  const n = phaseNumber(number);
  const p = roadmapOrEmpty(project).find((x) => x.number === n);
  const dir = project.phases.list().find((d) => d.number === n);
  if (!p && !dir) return `No phase ${n} in ROADMAP.md or .planning/phases/.\n`;
  const out = [`# Phase ${n}${p?.name ? `: ${p.name}` : ''}`, ''];
  if (p) {
    out.push(`**Goal**: ${p.goal || '_not stated_'}`, `**Status**: ${p.status ?? 'not stated'}`, `**Requirements**: ${p.requirements.join(', ') || '_none_'}`, '');
    if (p.successCriteria.length) out.push('## Success criteria', '', ...p.successCriteria.map((c) => `- ${c}`), '');
  }
  const file = (rel: string) => {
    try {
      return readFileSync(path.join(project.root, rel), 'utf8');
    } catch {
      return '_unreadable_';
    }
  };
  for (const plan of dir?.plans ?? []) out.push(`## Plan ${plan.plan} (\`${plan.file}\`)`, '', file(plan.file).trim(), '');
  for (const s of dir?.summaries ?? []) out.push(`## Summary ${s.plan} (\`${s.file}\`)`, '', file(s.file).trim(), '');
  if (dir?.verification) out.push(`## Verification: ${dir.verification.status} (\`${dir.verification.file}\`)`, '', file(dir.verification.file).trim(), '');
  if (!dir) out.push(`_No phase folder yet: ${installedCommand('plan-phase')} creates it._`, '');
  return capped(`${out.join('\n')}\n`);
}

function assetTemplate(server: McpServer, name: string, uri: string, dir: () => string | null, describe: string) {
  const md = 'text/markdown';
  server.registerResource(
    name,
    new ResourceTemplate(`${uri}{id}`, {
      list: async () => ({ resources: listAssetIds(dir()).map((id) => ({ uri: `${uri}${id}`, name: id, mimeType: md })) }),
      complete: { id: async (value) => listAssetIds(dir()).filter((id) => id.startsWith(value.toLowerCase())).slice(0, 20) },
    }),
    { title: name, description: describe, mimeType: md },
    async (u, vars) => {
      const id = assetId(one(vars.id));
      const text = id ? readAsset(dir(), id) : null;
      return { contents: [{ uri: u.href, mimeType: text === null ? 'text/plain' : md, text: text === null ? `No ${name.replace(/s$/, '')} "${one(vars.id).slice(0, 60)}". Known: ${listAssetIds(dir()).join(', ') || 'none found'}.\n` : capped(text) }] };
    },
  );
}

export function registerWorkflowResources(server: McpServer, ctx: ServerContext): void {
  assetTemplate(server, 'commands', 'gsd://commands/', () => assetDirs().commands, RESOURCE_TEXT.command);
  assetTemplate(server, 'agents', 'gsd://agents/', () => assetDirs().agents, RESOURCE_TEXT.agent);
  server.registerResource(
    'phase',
    new ResourceTemplate('gsd://phase/{number}', {
      list: async () => {
        try {
          const p = await ctx.project();
          const numbers = [...new Set([...roadmapOrEmpty(p).map((x) => x.number), ...p.phases.list().map((d) => d.number)])];
          return { resources: numbers.map((n) => ({ uri: `gsd://phase/${n}`, name: `Phase ${n}`, mimeType: 'text/markdown' })) };
        } catch {
          return { resources: [] };
        }
      },
    }),
    { title: 'Phase', description: RESOURCE_TEXT.phase, mimeType: 'text/markdown' },
    (uri, vars) => guarded(ctx, uri, 'text/markdown', (p) => phasePage(p, one(vars.number))),
  );
}
