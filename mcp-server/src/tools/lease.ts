/** `lease`: timed execution leases on a task's file scope (engine/src/planning/leases.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { leaseStatus, loadLeaseIssuer, readPlanningConfig, renewLease, returnLease, type Lease } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { answer, holderOf, indexedFiles, planning, PLANNING_OUTPUT, sessionOf, stateStore, WRITES_ADDITIVE } from '../planning.js';
import { ToolInputError, SAFETY_CAP } from '../result.js';
import { defineTool } from './define.js';



const leaseShape = z.object({
  id: z.string().describe('lease id'),
  taskId: z.string().describe('task'),
  scope: z.array(z.string()).describe('paths and globs'),
  holder: z.string().describe('who holds it'),
  status: z.enum(['active', 'returned', 'expired']).describe('state'),
  issuedAt: z.string().describe('ISO time'),
  expiresAt: z.string().describe('ISO time'),
  renewals: z.number().describe('times renewed'),
  returnedAt: z.string().optional().describe('ISO time'),
  result: z.string().optional().describe('what the holder reported'),
});

function view(l: Lease, now: number): z.infer<typeof leaseShape> {
  return {
    id: l.id,
    taskId: l.taskId,
    scope: l.scope,
    holder: l.holder,
    status: leaseStatus(l, now),
    issuedAt: l.issuedAt,
    expiresAt: l.expiresAt,
    renewals: l.renewals,
    ...(l.returnedAt ? { returnedAt: l.returnedAt } : {}),
    ...(l.result !== undefined ? { result: l.result } : {}),
  };
}

export function registerLeaseTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'lease',
    annotations: WRITES_ADDITIVE,
    input: {
      action: z.enum(['issue', 'renew', 'return', 'list']).describe('action'),
      taskId: z.string().max(200).optional().describe('task'),
      scope: z.array(z.string().max(1024)).optional().describe('paths, globs'),
      leaseId: z.string().max(200).optional().describe('lease'),
      result: z.string().max(4000).optional().describe('outcome'),
      ttl_minutes: z.number().optional().describe('minutes'),
      holder: z.string().max(200).optional().describe('holder id'),
    },
    output: PLANNING_OUTPUT,
    run: (project, args) =>
      planning(async () => {
        const store = stateStore(project);
        const now = Date.now();
        const config = readPlanningConfig(project.root);
        const ttl = () => {
          const t = args.ttl_minutes ?? config.leaseTtlMinutes;
          if (!(t > 0)) throw new ToolInputError(`ttl_minutes must be a positive number of minutes, not ${t}`);
          if (t > config.maxLeaseTtlMinutes) {
            throw new ToolInputError(`ttl_minutes ${t} is over the project's maximum of ${config.maxLeaseTtlMinutes}`, 'See "planning.maxLeaseTtlMinutes" in .planning/config.json; renew a lease instead of asking for a long one.');
          }
          return t;
        };
        switch (args.action) {
          case 'issue': {
            if (!args.taskId) throw new ToolInputError('issue needs taskId', 'The id of the task (e.g. the plan id 02-01).');
            const minutes = ttl();
            const indexed = await indexedFiles(project);
            const { issueLease } = await loadLeaseIssuer();
            const { result, notice } = await store.update((s) =>
              issueLease(s, { taskId: args.taskId!, scope: args.scope, holder: holderOf(ctx, args.holder), session: sessionOf(ctx), ttlMinutes: minutes, indexedFiles: indexed.files }, Date.now()),
            );
            return answer({ lease: view(result, Date.now()) }, config.problem, notice, indexed.problem);
          }
          case 'renew': {
            const minutes = ttl();
            const { result, notice } = await store.update((s) => renewLease(s, { leaseId: args.leaseId, holder: holderOf(ctx, args.holder), ttlMinutes: minutes }, Date.now()));
            return answer({ lease: view(result, Date.now()) }, config.problem, notice);
          }
          case 'return': {
            const { result, notice } = await store.update((s) => returnLease(s, { leaseId: args.leaseId, result: args.result }, Date.now()));
            return answer({ lease: view(result, Date.now()) }, config.problem, notice);
          }
          case 'list': {
            const { state, notice } = await store.read();
            const views = state.leases.map((l) => view(l, now));
            const active = views.filter((l) => l.status === 'active');
            const ended = views.filter((l) => l.status !== 'active').reverse();
            return answer({ total: views.length, active: active.length, truncated: views.length > SAFETY_CAP, leases: [...active, ...ended].slice(0, SAFETY_CAP) }, config.problem, notice);
          }
        }
      }),
  });
}
