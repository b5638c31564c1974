import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { IntelConfig } from './types.js';

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

export const DEFAULT_INCLUDE = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

/** Always skipped, whatever the config says: dependencies, VCS folders, our own store and build output. */
export const BUILTIN_EXCLUDE = [
  '**/node_modules/**',
  '**/.git/**',
  '**/.hg/**',
  '**/.svn/**',
  '.planning/**',
  '**/dist/**',
  '**/build/**',
  '**/out/**',
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
];

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

const IntelSection = z
  .object({
    include: z.array(z.string()).optional(),
    exclude: z.array(z.string()).optional(),
    maxFileBytes: z.number().int().positive().optional(),
    capture: z.boolean().optional(),
  })
  .passthrough();

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function defaultConfig(): IntelConfig {
  return { include: DEFAULT_INCLUDE, exclude: [], maxFileBytes: DEFAULT_MAX_FILE_BYTES, capture: true };
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
  const parsed = IntelSection.safeParse(section);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `intel.${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`${file}: ${problems}`);
  }
  const base = defaultConfig();
  return {
    include: parsed.data.include ?? base.include,
    exclude: parsed.data.exclude ?? base.exclude,
    maxFileBytes: parsed.data.maxFileBytes ?? base.maxFileBytes,
    capture: parsed.data.capture ?? base.capture,
  };
}
