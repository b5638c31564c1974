import { readFileSync } from 'node:fs';
import path from 'node:path';
import { builtinExcludes, indexedExtensions } from './languages/registry.js';
import type { IntelConfig } from './types.js';

/** Every file of a language the engine reads (engine/src/languages/registry.ts). */
export const DEFAULT_INCLUDE = [`**/*.{${indexedExtensions().join(',')}}`];

/**
 * Always skipped, whatever the config says: dependencies, VCS folders, our own store and build output. `build` and
 * `out` folders (OUTPUT_FOLDERS) are skipped too, except for a language whose own tools compile such a folder
 * (LanguageModule.sourceInOutputFolder): a Go package named `build` stays indexed.
 */
export const BUILTIN_EXCLUDE = [
  '**/node_modules/**',
  '**/.git/**',
  '**/.hg/**',
  '**/.svn/**',
  '.planning/**',
  '**/dist/**',
  '**/coverage/**',
  '**/.next/**',
  '**/.nuxt/**',
  '**/.svelte-kit/**',
  '**/.turbo/**',
  '**/.cache/**',
  '**/.output/**',
  '**/.vercel/**',
  '**/.yarn/**',
  '**/*.min.js',
  ...builtinExcludes(),
];

/** Folder names of build output that a language may still treat as source (LanguageModule.sourceInOutputFolder). */
export const OUTPUT_FOLDERS: readonly string[] = ['build', 'out'];

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** How long the hooks' worker waits for the next edit once the journal is empty (docs/configuration.md). */
export const DEFAULT_WORKER_IDLE_SECONDS = 120;
export const MAX_WORKER_IDLE_SECONDS = 3600;

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * Checks the `intel` section by hand rather than with zod: the hooks read this file on every run and must not pay
 * for loading a schema library. Unknown keys are allowed (other tools may add theirs).
 */
function checkIntelSection(section: unknown): string[] {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return ['intel: expected an object'];
  const s = section as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of ['include', 'exclude'] as const) {
    if (s[key] !== undefined && !isStringArray(s[key])) problems.push(`intel.${key}: expected an array of glob strings`);
  }
  if (s.maxFileBytes !== undefined && !(Number.isInteger(s.maxFileBytes) && (s.maxFileBytes as number) > 0)) {
    problems.push('intel.maxFileBytes: expected a positive whole number of bytes');
  }
  if (s.capture !== undefined && typeof s.capture !== 'boolean') problems.push('intel.capture: expected true or false');
  if (s.entityPages !== undefined && typeof s.entityPages !== 'boolean') problems.push('intel.entityPages: expected true or false');
  if (s.workerIdleSeconds !== undefined && !(typeof s.workerIdleSeconds === 'number' && s.workerIdleSeconds >= 0 && s.workerIdleSeconds <= MAX_WORKER_IDLE_SECONDS)) {
    problems.push(`intel.workerIdleSeconds: expected a number of seconds from 0 to ${MAX_WORKER_IDLE_SECONDS}`);
  }
  return problems;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function defaultConfig(): IntelConfig {
  return { include: DEFAULT_INCLUDE, exclude: [], maxFileBytes: DEFAULT_MAX_FILE_BYTES, capture: true, entityPages: true, workerIdleSeconds: DEFAULT_WORKER_IDLE_SECONDS };
}

/**
 * Reads the `intel` section of `.planning/config.json`. A missing file or section gives the defaults;
 * a file that is not JSON or a section of the wrong shape is a ConfigError naming the file.
 */
export function readIntelConfig(root: string): IntelConfig {
  const file = path.join(root, '.planning', 'config.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return defaultConfig();
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const section = (json as { intel?: unknown } | null)?.intel;
  if (section === undefined) return defaultConfig();
  const problems = checkIntelSection(section);
  if (problems.length) throw new ConfigError(`${file}: ${problems.join('; ')}`);
  const parsed = { data: section as Partial<IntelConfig> };
  const base = defaultConfig();
  return {
    include: parsed.data.include ?? base.include,
    exclude: parsed.data.exclude ?? base.exclude,
    maxFileBytes: parsed.data.maxFileBytes ?? base.maxFileBytes,
    capture: parsed.data.capture ?? base.capture,
    entityPages: parsed.data.entityPages ?? base.entityPages,
    workerIdleSeconds: parsed.data.workerIdleSeconds ?? base.workerIdleSeconds,
  };
}
