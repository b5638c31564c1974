/**
 * Resources of the planning state: `gsd://skills/{id}` (a skill and the agents carrying it) and
 * `gsd://spawn-rules/{intent}` (an intent's rule and its flattened plan). Listed and readable; content capped.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { listRules, resolveSpawnPlan, SPAWN_STAGES, type GsdState } from '../../engine/src/index.js';
import type { ServerContext } from './context.js';
import { stateStore } from './planning.js';
import { guarded } from './resources.js';
import { RESOURCE_TEXT } from './texts.js';

export const RESOURCE_MAX_CHARS = 16_000;
const LIST_CAP = 200;

/** a resource text cut at RESOURCE_MAX_CHARS, saying so */
export function capped(text: string): string {
  return text.length > RESOURCE_MAX_CHARS ? `${text.slice(0, RESOURCE_MAX_CHARS - 40)}\n\n_… cut at ${RESOURCE_MAX_CHARS} characters_\n` : text;
}

async function state(ctx: ServerContext): Promise<GsdState | null> {
  try {
    return (await stateStore(await ctx.project()).read()).state;
  } catch {
    return null;
  }
}

const one = (v: string | string[]) => String(Array.isArray(v) ? v[0] : v);
const prefixed = (items: string[], value: string) => items.filter((x) => x.startsWith(value)).slice(0, 20);

export function skillPage(s: GsdState, id: string): string {
  const skill = Object.hasOwn(s.skills, id) ? s.skills[id] : undefined;
  if (!skill) return `No skill "${id}". List them with resources/list or the skill tool (action list).\n`;
  const agents = Object.entries(s.bindings).filter(([, ids]) => ids.includes(id)).map(([agent]) => agent).sort();
  return capped(
    [`# ${skill.title}`, '', `- id: ${skill.id}`, `- tags: ${skill.tags.join(', ') || '_none_'}`, `- carried by: ${agents.join(', ') || '_no agent yet_'}`, `- updated: ${skill.updatedAt}`, '', skill.description || '_no description_', ''].join('\n'),
  );
}

export function spawnRulePage(s: GsdState | null, intent: string): string {
  const found = listRules(s ?? undefined).find((r) => r.intent === intent);
  if (!found) return `No spawn rule for "${intent}". List them with resources/list or the agent tool (action rules).\n`;
  const out = [`# Spawn rule: ${intent} (${found.source})`, ''];
  for (const stage of SPAWN_STAGES) out.push(`- ${stage}: ${found.rule[stage].join(', ') || '—'}`);
  out.push('', '## Plan (no stage skipped)', '');
  for (const step of resolveSpawnPlan(intent, {}, s ?? undefined).steps) out.push(`${step.order}. ${step.agent} (${step.stage}, ${step.mode})`);
  if (found.rule.notes) out.push('', '## Notes', '', found.rule.notes);
  return capped(`${out.join('\n')}\n`);
}

export function registerPlanningResources(server: McpServer, ctx: ServerContext): void {
  const md = 'text/markdown';
  const skillIds = async () => Object.keys((await state(ctx))?.skills ?? {}).sort();
  const intents = async () => listRules((await state(ctx)) ?? undefined).map((r) => r.intent);
  server.registerResource(
    'planning-skill',
    new ResourceTemplate('gsd://skills/{id}', {
      list: async () => ({ resources: (await skillIds()).slice(0, LIST_CAP).map((id) => ({ uri: `gsd://skills/${id}`, name: id, mimeType: md })) }),
      complete: { id: async (value) => prefixed(await skillIds(), value) },
    }),
    { title: 'Skill', description: RESOURCE_TEXT.skill, mimeType: md },
    (uri, vars) => guarded(ctx, uri, md, async (p) => skillPage((await stateStore(p).read()).state, one(vars.id))),
  );
  server.registerResource(
    'planning-spawn-rule',
    new ResourceTemplate('gsd://spawn-rules/{intent}', {
      list: async () => ({ resources: (await intents()).slice(0, LIST_CAP).map((intent) => ({ uri: `gsd://spawn-rules/${intent}`, name: intent, mimeType: md })) }),
      complete: { intent: async (value) => prefixed(await intents(), value) },
    }),
    { title: 'Spawn rule', description: RESOURCE_TEXT.spawnRule, mimeType: md },
    (uri, vars) => guarded(ctx, uri, md, async (p) => spawnRulePage((await stateStore(p).read()).state, one(vars.intent))),
  );
}
