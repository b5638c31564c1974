import { UsageError } from './errors.js';

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/** `--name value`, `--name=value` and boolean `--name`; `booleans` lists the flags that never take a value. */
export function parseArgs(argv: string[], booleans: ReadonlySet<string>): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (!name) throw new UsageError(`empty flag "${arg}"`);
      if (eq !== -1) flags.set(name, arg.slice(eq + 1));
      else if (booleans.has(name)) flags.set(name, true);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(name, argv[++i]);
      else throw new UsageError(`--${name} needs a value`);
    } else if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
      const short: Record<string, string> = { h: 'help', v: 'version', j: 'json' };
      const name = short[arg.slice(1)];
      if (!name) throw new UsageError(`unknown option "${arg}"`);
      flags.set(name, true);
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

export function intFlag(args: ParsedArgs, name: string, fallback: number, min: number, max: number): number {
  const raw = args.flags.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw === true || !Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max}`);
  return n;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const raw = args.flags.get(name);
  if (raw === true) throw new UsageError(`--${name} needs a value`);
  return raw;
}

export function checkFlags(args: ParsedArgs, allowed: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
  }
}
