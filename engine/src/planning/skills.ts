/**
 * The skill registry: skills by id, bound to agents. Binding an unregistered skill is refused; the skills
 * recommended for an intent follow the flattened spawn plan's order (each agent's skills in binding order, each
 * skill once, at its first agent).
 */
import { checkId } from './ids.js';
import { resolveSpawnPlan } from './spawn.js';
import { PlanningError, type GsdState, type Skill, type SpawnOptions, type SpawnStep } from './types.js';

export const MAX_SKILLS = 500;
export const MAX_BINDINGS_PER_AGENT = 50;
export const MAX_TITLE_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 4_000;
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 64;

function text(name: string, value: unknown, max: number, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw new PlanningError(`${name} is missing`);
    return undefined;
  }
  if (typeof value !== 'string') throw new PlanningError(`${name} must be a string`);
  const t = value.trim();
  if (required && !t) throw new PlanningError(`${name} is empty`);
  if (t.length > max) throw new PlanningError(`${name} is ${t.length} characters; at most ${max}`);
  return t;
}

function tags(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((t) => typeof t !== 'string')) throw new PlanningError('tags must be a list of strings');
  if (value.length > MAX_TAGS) throw new PlanningError(`${value.length} tags; at most ${MAX_TAGS}`);
  const out = [...new Set((value as string[]).map((t) => t.trim()).filter(Boolean))];
  const long = out.find((t) => t.length > MAX_TAG_CHARS);
  if (long) throw new PlanningError(`tag "${long.slice(0, 40)}…" is longer than ${MAX_TAG_CHARS} characters`);
  return out;
}

/** Registers a skill, or updates the title/description/tags of a registered one (`created` says which). */
export function registerSkill(
  state: GsdState,
  input: { skillId: unknown; title?: unknown; description?: unknown; tags?: unknown },
  now: number,
): { skill: Skill; created: boolean } {
  const id = checkId('skillId', input.skillId);
  const old = Object.hasOwn(state.skills, id) ? state.skills[id] : undefined;
  if (!old && Object.keys(state.skills).length >= MAX_SKILLS) throw new PlanningError(`the registry holds ${MAX_SKILLS} skills, the most it takes`);
  const at = new Date(now).toISOString();
  const skill: Skill = {
    id,
    title: text('title', input.title, MAX_TITLE_CHARS, !old) ?? old!.title,
    description: text('description', input.description, MAX_DESCRIPTION_CHARS, false) ?? old?.description ?? '',
    tags: tags(input.tags) ?? old?.tags ?? [],
    registeredAt: old?.registeredAt ?? at,
    updatedAt: at,
  };
  state.skills[id] = skill;
  return { skill, created: !old };
}

/** Binds a registered skill to an agent (refused for an unregistered skill). Binding twice changes nothing. */
export function bindSkill(state: GsdState, input: { skillId: unknown; agentId: unknown }): string[] {
  const skillId = checkId('skillId', input.skillId);
  const agentId = checkId('agentId', input.agentId);
  if (!Object.hasOwn(state.skills, skillId)) throw new PlanningError(`skill "${skillId}" is not registered; it cannot be bound`, 'Register it first (action register with skillId and title).');
  const list = Object.hasOwn(state.bindings, agentId) ? state.bindings[agentId] : [];
  if (!list.includes(skillId)) {
    if (list.length >= MAX_BINDINGS_PER_AGENT) throw new PlanningError(`${agentId} already carries ${MAX_BINDINGS_PER_AGENT} skills`);
    list.push(skillId);
  }
  state.bindings[agentId] = list;
  return list;
}

/** Removes a binding; refused when the agent does not carry the skill. */
export function unbindSkill(state: GsdState, input: { skillId: unknown; agentId: unknown }): string[] {
  const skillId = checkId('skillId', input.skillId);
  const agentId = checkId('agentId', input.agentId);
  const list = Object.hasOwn(state.bindings, agentId) ? state.bindings[agentId] : [];
  if (!list.includes(skillId)) throw new PlanningError(`${agentId} does not carry skill "${skillId}"`, 'See action list for the bindings.');
  const rest = list.filter((s) => s !== skillId);
  if (rest.length) state.bindings[agentId] = rest;
  else delete state.bindings[agentId];
  return rest;
}

export interface Recommendation {
  steps: Array<SpawnStep & { skills: string[] }>;
  /** every recommended skill once, in plan order */
  skills: Skill[];
}

/** The skills of each agent of the intent's spawn plan, in plan order. */
export function recommendSkills(state: GsdState, intent: string, options: SpawnOptions = {}): Recommendation {
  const plan = resolveSpawnPlan(intent, options, state);
  const seen = new Set<string>();
  const skills: Skill[] = [];
  const steps = plan.steps.map((step) => {
    const bound = (Object.hasOwn(state.bindings, step.agent) ? state.bindings[step.agent] : []).filter((id) => Object.hasOwn(state.skills, id));
    for (const id of bound) {
      if (seen.has(id)) continue;
      seen.add(id);
      skills.push(state.skills[id]);
    }
    return { ...step, skills: bound };
  });
  return { steps, skills };
}
