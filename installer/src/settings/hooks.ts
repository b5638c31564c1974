/**
 * The `hooks` key of a Claude Code settings file: event → matcher groups → handlers (../shared/claude-code.md §1.2).
 * Normalise what is there, validate the shape we are about to change, and merge or remove our handlers, which are
 * recognised by their command path (inside our runtime folder's hooks/), so an upgrade replaces ours only.
 */
import { isObject, type JsonObject } from './json.js';

export interface OurHook {
  event: 'PostToolUse' | 'SessionStart';
  matcher?: string;
  command: string;
  timeout: number;
}

export const EDIT_MATCHER = 'Write|Edit|MultiEdit|NotebookEdit';
/** ours, from this release (gsdcc/) or an older one (get-shit-done/): never upstream GSD's hooks/gsd-*.js */
const OURS = /(get-shit-done|gsdcc)[\\/]hooks[\\/](post-tool-use|session-start)\.cjs/;

export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && OURS.test(command);
}

export type HooksCheck = { kind: 'ok' } | { kind: 'invalid'; reason: string };

/** The parts of `hooks` we will edit must have the documented shape; anything else we leave alone. */
export function validateHooks(settings: JsonObject, events: readonly string[]): HooksCheck {
  const hooks = settings.hooks;
  if (hooks === undefined) return { kind: 'ok' };
  if (!isObject(hooks)) return { kind: 'invalid', reason: '"hooks" is not an object' };
  for (const event of events) {
    const groups = hooks[event];
    if (groups === undefined) continue;
    if (!Array.isArray(groups)) return { kind: 'invalid', reason: `"hooks.${event}" is not an array` };
    for (const [i, group] of groups.entries()) {
      if (!isObject(group) || (group.hooks !== undefined && !Array.isArray(group.hooks))) {
        return { kind: 'invalid', reason: `"hooks.${event}[${i}]" is not a matcher group ({ matcher?, hooks: [] })` };
      }
    }
  }
  return { kind: 'ok' };
}

/** A copy of `settings` without any of our handlers; groups and events left empty by that are dropped. */
export function removeOurHooks(settings: JsonObject): { settings: JsonObject; removed: number } {
  const hooks = settings.hooks;
  if (!isObject(hooks)) return { settings, removed: 0 };
  let removed = 0;
  const next: JsonObject = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      next[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const handlers = group.hooks.filter((h) => !(isObject(h) && isOurCommand(h.command)));
      removed += group.hooks.length - handlers.length;
      if (handlers.length === group.hooks.length) kept.push(group);
      else if (handlers.length) kept.push({ ...group, hooks: handlers });
    }
    if (kept.length || groups.length === 0) next[event] = kept;
  }
  const out: JsonObject = { ...settings, hooks: next };
  if (!Object.keys(next).length) delete out.hooks;
  return { settings: out, removed };
}

/** Our handlers replace any earlier ones of ours; everything else stays where it was. */
export function mergeOurHooks(settings: JsonObject, ours: readonly OurHook[]): JsonObject {
  const base = removeOurHooks(settings).settings;
  const hooks: JsonObject = isObject(base.hooks) ? { ...base.hooks } : {};
  for (const hook of ours) {
    const groups = Array.isArray(hooks[hook.event]) ? [...(hooks[hook.event] as unknown[])] : [];
    const group: JsonObject = {};
    if (hook.matcher) group.matcher = hook.matcher;
    group.hooks = [{ type: 'command', command: hook.command, timeout: hook.timeout }];
    groups.push(group);
    hooks[hook.event] = groups;
  }
  return { ...base, hooks };
}

/** Our handler commands found in `settings`, by event. */
export function findOurHooks(settings: JsonObject): { event: string; command: string }[] {
  const found: { event: string; command: string }[] = [];
  if (!isObject(settings.hooks)) return found;
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const h of group.hooks) if (isObject(h) && isOurCommand(h.command)) found.push({ event, command: h.command as string });
    }
  }
  return found;
}

/** node and the script of a hook command (`"<node>" "<script>"`, or through the launcher), $CLAUDE_PROJECT_DIR expanded. */
export function commandParts(command: string, projectDir?: string): { node?: string; script?: string } {
  const parts = [...command.matchAll(/"([^"]*)"/g)].map((m) => m[1]).filter((p) => !p.startsWith('require('));
  const expand = (p: string | undefined) => (p && projectDir ? p.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, projectDir) : p);
  return { node: expand(parts[0]), script: expand(parts[1]) };
}
