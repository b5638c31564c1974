/**
 * Every language the engine reads: one line per language module (engine/src/languages/<id>/). The scan lists their
 * extensions, the parse stage reads each file with its module, the resolver sends each import to its module.
 */
import { javascript, typescript } from './builtin/index.js';
import { cpp } from './cpp/index.js';
import { csharp } from './csharp/index.js';
import { go } from './go/index.js';
import { java } from './java/index.js';
import { php } from './php/index.js';
import { python } from './python/index.js';
import { ruby } from './ruby/index.js';
import { rust } from './rust/index.js';
import type { LanguageModule } from './types.js';

export const LANGUAGES: readonly LanguageModule[] = [
  typescript,
  javascript,
  python,
  go,
  cpp,
  java,
  php,
  ruby,
  csharp,
  rust,
];

/** extension → module, longest extensions first (so `.d.ts` style endings could win over `.ts`) */
const BY_EXTENSION: ReadonlyArray<readonly [string, LanguageModule]> = LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l] as const)).sort(
  (a, b) => b[0].length - a[0].length,
);

/** The language module that reads `path`, by its name's ending; null for a file no module reads. */
export function languageOf(path: string): LanguageModule | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0) return null;
  const lower = path.slice(dot).toLowerCase();
  for (const [ext, module] of BY_EXTENSION) {
    if (ext === lower || (ext.length > lower.length && path.toLowerCase().endsWith(ext))) return module;
  }
  return null;
}

/** Every extension some module reads, without the dot, sorted: what the default include globs list. */
export function indexedExtensions(): string[] {
  return [...new Set(LANGUAGES.flatMap((l) => l.extensions.map((e) => e.slice(1))))].sort();
}

/** Globs every scan skips because a language's tools put generated or installed files there. */
export function builtinExcludes(): string[] {
  return [...new Set(LANGUAGES.flatMap((l) => l.exclude ?? []))];
}

/** Every config file name that steers some language's resolution. */
export function resolutionConfigNames(): string[] {
  return [...new Set(LANGUAGES.flatMap((l) => l.configFiles))].sort();
}

/** The tree-sitter grammars the files in `paths` need (none for JS/TS). */
export function grammarsFor(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const g = languageOf(p)?.grammar;
    if (g) out.add(g);
  }
  return out;
}
