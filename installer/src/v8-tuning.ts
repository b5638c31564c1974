/**
 * V8 settings for a short, one-shot build (`intel build`): a smaller TurboFan inlining budget and no loop peeling.
 *
 * Why: a cold build is short enough that V8's optimizing compiler is a large part of it. On a 2-core machine its
 * compile jobs keep the second core busy for most of the build (ARCHITECTURE.md, "Where the second core already
 * goes"), and code waits in the interpreter until they finish. Smaller compile jobs finish sooner. Measured on cold
 * builds, interleaved with the defaults (25 rounds): zod 920 → 863 ms, date-fns 2,090 → 1,980 ms,
 * and 9-13 % less CPU. Turning off on-stack replacement as well helped zod but slowed date-fns, so it stays on.
 *
 * Only in the CLI process, and only on the V8 lines where these flags exist and were measured (Node 20-24):
 * v8.setFlagsFromString prints an error for a flag it does not know. GSD_V8_TUNING=0 turns it off.
 */
import v8 from 'node:v8';

const FLAGS = ['--max-inlined-bytecode-size-cumulative=300', '--no-turbo-loop-peeling'];
/** V8 11.3 (Node 20), 12.4 (Node 22), 13.6 (Node 24) */
const KNOWN_V8_MAJORS = new Set([11, 12, 13]);

/** Applies the settings; returns whether it did. Call it before the engine's code runs. */
export function tuneV8ForBuild(env: NodeJS.ProcessEnv = process.env, v8Version: string = process.versions.v8): boolean {
  if (env.GSD_V8_TUNING === '0') return false;
  if (!KNOWN_V8_MAJORS.has(Number.parseInt(v8Version, 10))) return false;
  for (const flag of FLAGS) v8.setFlagsFromString(flag);
  return true;
}
