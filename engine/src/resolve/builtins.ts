import { builtinModules } from 'node:module';

const BUILTINS: ReadonlySet<string> = new Set(builtinModules.filter((m) => !m.startsWith('node:')));

/**
 * The Node built-in module a specifier names, or null. `node:fs` → 'fs', `fs/promises` → 'fs/promises';
 * a `node:` name that exists only with the prefix (`node:test`, `node:sqlite`) keeps it.
 */
export function builtinModuleOf(spec: string): string | null {
  if (spec.startsWith('node:')) {
    const bare = spec.slice(5);
    return BUILTINS.has(bare) ? bare : spec;
  }
  return BUILTINS.has(spec) ? spec : null;
}
