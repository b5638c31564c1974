/** The location flags shared by install, uninstall and doctor. */
import path from 'node:path';
import { UsageError } from '../errors.js';
import { stringFlag, type ParsedArgs } from '../args.js';
import { globalTarget, localTarget, type Target } from './target.js';

export const LOCATION_FLAGS = ['global', 'local', 'config-dir'] as const;

/** The target named by the flags, or undefined when none was given. */
export function targetFromFlags(args: ParsedArgs): Target | undefined {
  const configDir = stringFlag(args, 'config-dir');
  const global = args.flags.has('global');
  const local = args.flags.has('local');
  if (global && local) throw new UsageError('--global and --local exclude each other');
  if (local && configDir) throw new UsageError('--config-dir is for global installs; --local always uses ./.claude');
  if (local) return localTarget(path.resolve(args.positional[0] ?? process.cwd()));
  if (global || configDir) return globalTarget(configDir);
  return undefined;
}

export function describeTarget(t: Target): string {
  return t.scope === 'global' ? `global install in ${t.configDir}` : `project install in ${t.projectDir}`;
}
