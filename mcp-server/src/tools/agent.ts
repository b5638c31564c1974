/** `agent`: spawn rules per intent, resolved spawn plans, the spawn queue and its history (engine/src/planning/spawn.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { completeItem, enqueuePlan, historyEvents, listRules, resolveSpawnPlan, ruleFor, setRule, checkOptions, HISTORY_MAX_LIMIT, type SpawnItem } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { answer, planning, PLANNING_OUTPUT, stateStore, WRITES_DESTRUCTIVE } from '../planning.js';
import { SAFETY_CAP, ToolInputError } from '../result.js';
import { defineTool } from './define.js';

const STATUSES = ['pending', 'completed', 'failed', 'skipped'];

export function registerAgentTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'agent',
    annotations: WRITES_DESTRUCTIVE,
    input: {
      action: z.enum(['rules', 'set_rule', 'plan', 'enqueue', 'queue', 'complete', 'history']).describe('action'),
      intent: z.string().max(200).optional().describe('plan_phase…'),
      options: z.unknown().optional().describe('{skipResearch,hasResearch,skipVerify,planFix}'),
      rule: z.unknown().optional().describe('{before,beforeParallel,main,after,afterParallel,notes}'),
      status: z.string().optional().describe('pending|completed|failed|skipped'),
      spawnId: z.string().max(200).optional().describe('item'),
      completionStatus: z.string().optional().describe('completed|failed|skipped'),
      note: z.string().max(4000).optional().describe('note'),
      limit: z.number().optional().describe('history: the newest N (1-200); default all kept'),
    },
    output: PLANNING_OUTPUT,
    run: (project, args) =>
      planning(async () => {
        const store = stateStore(project);
        const intent = () => {
          if (!args.intent) throw new ToolInputError(`${args.action} needs intent`, `Known intents: ${listRules().map((r) => r.intent).join(', ')} (and the project's own, see action rules).`);
          return args.intent;
        };
        switch (args.action) {
          case 'rules': {
            const { state, notice } = await store.read();
            const rules = args.intent ? [{ intent: args.intent, ...ruleFor(args.intent, state) }] : listRules(state);
            return answer({ rules }, notice);
          }
          case 'set_rule': {
            const name = intent();
            if (!args.rule) throw new ToolInputError('set_rule needs rule', 'e.g. {"main": ["gsd-executor"], "after": ["gsd-verifier"], "notes": "…"}');
            const { result, notice } = await store.update((s) => setRule(s, name, args.rule, Date.now()));
            return answer({ intent: name, source: 'project', rule: result }, notice);
          }
          case 'plan': {
            const name = intent();
            const options = checkOptions(args.options);
            const { state, notice } = await store.read();
            return answer(resolveSpawnPlan(name, options, state), notice);
          }
          case 'enqueue': {
            const name = intent();
            const options = checkOptions(args.options);
            const { result, notice } = await store.update((s) => enqueuePlan(s, name, options, Date.now()));
            return answer({ intent: name, items: result }, notice);
          }
          case 'queue': {
            if (args.status && !STATUSES.includes(args.status)) throw new ToolInputError(`status must be one of ${STATUSES.join(', ')}`);
            const { state, notice } = await store.read();
            const matching = state.queue.filter((i: SpawnItem) => (!args.status || i.status === args.status) && (!args.intent || i.intent === args.intent));
            const shown = (args.status === 'pending' || !args.status ? matching : [...matching].reverse()).slice(0, SAFETY_CAP);
            return answer({ total: matching.length, truncated: matching.length > shown.length, items: shown }, notice);
          }
          case 'complete': {
            const { result, notice } = await store.update((s) => completeItem(s, { spawnId: args.spawnId, status: args.completionStatus ?? 'completed', note: args.note }, Date.now()));
            return answer(result, notice);
          }
          case 'history': {
            if (args.limit !== undefined && !(Number.isInteger(args.limit) && args.limit >= 1 && args.limit <= HISTORY_MAX_LIMIT)) {
              throw new ToolInputError(`limit must be a whole number from 1 to ${HISTORY_MAX_LIMIT}`);
            }
            const { state, notice } = await store.read();
            // newest first, so a cut by the answer's budget drops the oldest
            const events = historyEvents(state, args.limit);
            return answer({ total: Math.min(state.history.length, args.limit ?? HISTORY_MAX_LIMIT), truncated: false, events }, notice);
          }
        }
      }),
  });
}
