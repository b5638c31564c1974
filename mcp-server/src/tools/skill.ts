/** `skill`: the skill registry, per-agent bindings, and the skills recommended for an intent (engine/src/planning/skills.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { bindSkill, checkOptions, recommendSkills, registerSkill, unbindSkill } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { answer, planning, PLANNING_OUTPUT, stateStore, WRITES_DESTRUCTIVE } from '../planning.js';
import { SAFETY_CAP, ToolInputError } from '../result.js';
import { defineTool } from './define.js';


export function registerSkillTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'skill',
    annotations: WRITES_DESTRUCTIVE,
    input: {
      action: z.enum(['list', 'register', 'bind', 'unbind', 'recommend']).describe('action'),
      skillId: z.string().max(200).optional().describe('skill'),
      title: z.string().max(1000).optional().describe('title'),
      description: z.string().max(20000).optional().describe('text'),
      tags: z.array(z.string().max(200)).optional().describe('tags'),
      agentId: z.string().max(200).optional().describe('agent'),
      intent: z.string().max(200).optional().describe('intent'),
      options: z.unknown().optional().describe('spawn options'),
    },
    output: PLANNING_OUTPUT,
    run: (project, args) =>
      planning(async () => {
        const store = stateStore(project);
        const pair = () => ({ skillId: args.skillId, agentId: args.agentId });
        switch (args.action) {
          case 'list': {
            const { state, notice } = await store.read();
            const skills = Object.values(state.skills).sort((a, b) => a.id.localeCompare(b.id));
            return answer({ total: skills.length, truncated: skills.length > SAFETY_CAP, skills: skills.slice(0, SAFETY_CAP), bindings: state.bindings }, notice);
          }
          case 'register': {
            const { result, notice } = await store.update((s) => registerSkill(s, { skillId: args.skillId, title: args.title, description: args.description, tags: args.tags }, Date.now()));
            return answer(result, notice);
          }
          case 'bind': {
            const { result, notice } = await store.update((s) => bindSkill(s, pair()));
            return answer({ agentId: args.agentId, skills: result }, notice);
          }
          case 'unbind': {
            const { result, notice } = await store.update((s) => unbindSkill(s, pair()));
            return answer({ agentId: args.agentId, skills: result }, notice);
          }
          case 'recommend': {
            if (!args.intent) throw new ToolInputError('recommend needs intent', 'e.g. execute_phase (see agent rules).');
            const options = checkOptions(args.options);
            const { state, notice } = await store.read();
            const rec = recommendSkills(state, args.intent, options);
            return answer({ intent: args.intent, ...rec }, notice);
          }
        }
      }),
  });
}
