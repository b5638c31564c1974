import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { blastRadius, type IntelReader, type NodeInfo } from '../../../engine/src/index.js';
import type { Project, ServerContext } from '../context.js';
import { cap, cappedSchema, ToolInputError } from '../result.js';
import { RECOMMENDATIONS, RISK_TEXT } from '../texts.js';
import { critical, lookupFile } from '../views.js';
import { defineTool } from './define.js';

export const CHANGE_TYPES = ['any', 'signature_change', 'behavior_change', 'deletion'] as const;
const RISKS = ['none', 'unknown', 'low', 'medium', 'high', 'critical'] as const;
type Risk = (typeof RISKS)[number];
/** paths listed across all depths; the counts stay exact */

export const blastRadiusInput = {
  file: z.string().min(1).max(4096).describe('path or entity id'),
  symbol: z.string().max(200).optional().describe('one export; omit for the file'),
  max_depth: z.number().int().min(1).max(10).default(3).describe('hops to follow'),
  change_type: z.enum(CHANGE_TYPES).default('any').describe('kind of change planned'),
};

export const blastRadiusOutput = {
  file: z.string().describe('the file'),
  symbol: z.string().nullable().describe('the symbol, or null'),
  total: z.number().describe('dependents within max_depth'),
  beyond_max_depth: z.boolean().describe('more dependents further out'),
  by_depth: z
    .array(
      z.object({
        depth: z.number().describe('1 = imports it directly'),
        total: z.number().describe('files at this depth'),
        truncated: z.boolean().describe('files cut'),
        files: z.array(z.string()).describe('paths'),
      }),
    )
    .describe('dependents by depth'),
  tests: cappedSchema(z.string(), 'affected test files'),
  critical: cappedSchema(z.object({ path: z.string().describe('file'), why: z.array(z.string()).describe('entry point|api|hotspot') }), 'critical affected files'),
  risk: z.enum(RISKS).describe('none|unknown|low|medium|high|critical'),
  reason: z.string().describe('why this risk'),
  recommendation: z.string().describe('what to do'),
};

type Out = z.infer<z.ZodObject<typeof blastRadiusOutput>>;

function bump(r: Risk, by: number): Risk {
  const order: Risk[] = ['low', 'medium', 'high', 'critical'];
  const i = order.indexOf(r);
  return i < 0 ? r : order[Math.max(0, Math.min(order.length - 1, i + by))];
}

export function computeBlastRadius(project: Project, reader: IntelReader, args: { file: string; symbol?: string; max_depth: number; change_type: (typeof CHANGE_TYPES)[number] }): Out {
  const node: NodeInfo = lookupFile(project, reader, args.file);
  const symbol = args.symbol?.trim() || null;
  if (symbol && !node.exports.some((e) => e.name === symbol)) {
    const names = node.exports.map((e) => e.name);
    throw new ToolInputError(
      `${node.path} does not export "${symbol}"`,
      names.length ? `Its exports: ${names.slice(0, 20).join(', ')}. Omit symbol for the whole file.` : 'It has no exports; omit symbol.',
    );
  }
  const r = blastRadius(reader, node.id, { maxDepth: args.max_depth, symbol });
  const all = r.byDepth.flatMap((l) => l.files);
  const crit = critical(reader);
  const criticalFiles = all.map((f) => ({ path: f.path, why: crit.why(f) })).filter((f) => f.why.length);
  const tests = all.filter((f) => f.type === 'test').map((f) => f.path);
  // every level whole: the answer's token budget cuts the deepest, largest lists first (budget.ts)
  const byDepth = r.byDepth.map((l) => ({ depth: l.depth, total: l.files.length, truncated: false, files: l.files.map((f) => f.path) }));
  let risk: Risk;
  let reason: string;
  const direct = r.byDepth[0]?.files.length ?? 0;
  if (r.total === 0) {
    risk = node.type === 'test' || node.type === 'script' || node.type === 'config' ? 'none' : 'unknown';
    reason = RISK_TEXT[risk as 'none' | 'unknown'];
  } else {
    const share = r.total / Math.max(1, reader.nodes.size);
    risk = r.total <= 2 ? 'low' : r.total <= 10 ? 'medium' : 'high';
    if (share >= 0.25 && r.total > 10) risk = 'critical';
    if (criticalFiles.some((c) => c.why.includes('entry point') || c.why.includes('api'))) risk = risk === 'low' ? 'medium' : risk;
    if ((args.change_type === 'deletion' || args.change_type === 'signature_change') && direct >= 5) risk = bump(risk, 1);
    if (args.change_type === 'behavior_change' && !tests.length) risk = bump(risk, 1);
    reason = `${direct} direct and ${r.total - direct} transitive dependent(s) (${Math.round(share * 1000) / 10}% of ${reader.nodes.size} files)${r.truncated ? ', more beyond max_depth' : ''}; ${criticalFiles.length} critical; ${tests.length} test(s) reach it.`;
  }
  let recommendation = r.total === 0 ? (risk === 'none' ? 'No dependents to update.' : 'Search for dynamic uses (string paths, config, other languages) before changing it.') : RECOMMENDATIONS[args.change_type];
  if (r.total > 0 && !tests.length) recommendation += ' No test reaches it: add one first.';
  return {
    file: node.path,
    symbol,
    total: r.total,
    beyond_max_depth: r.truncated,
    by_depth: byDepth,
    tests: cap(tests),
    critical: cap(criticalFiles),
    risk,
    reason,
    recommendation,
  };
}

export function registerBlastRadiusTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'blast_radius',
    input: blastRadiusInput,
    output: blastRadiusOutput,
    async run(project, args) {
      const reader = await project.intel.open();
      return computeBlastRadius(project, reader, args);
    },
  });
}
