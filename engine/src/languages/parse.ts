/** The parse stage for the files a tree-sitter language module reads (JS/TS stays in engine/src/parse/). */
import type { ParsedFile, RelPath } from '../types.js';
import { grammarsFor, languageOf } from './registry.js';
import { loadGrammars, withTree } from './runtime.js';

/**
 * The facts of a file a tree-sitter module reads, or null when no such module reads it (JS/TS: babel). Never throws:
 * a grammar that is not there or a reader's bug comes back as a syntax error, as babel's failures do. `keep`: keep the
 * file's tree for its next parse (an edit in a process that stays: runtime.ts withTree).
 */
export function parseWithLanguage(path: RelPath, source: string, keep = false): ParsedFile | null {
  const language = languageOf(path);
  if (!language?.parse || !language.grammar) return null;
  try {
    const key = keep ? `${language.id}:${path}` : undefined;
    return withTree(language.grammar, language.grammarText?.(source) ?? source, (root) => language.parse!({ path, source, root, keep: key }), key);
  } catch (error) {
    return { imports: [], exports: [], symbols: [], docComment: null, moduleSystem: 'none', syntaxError: { message: `${language.name} parser: ${(error as Error)?.message ?? String(error)}`, line: 1 } };
  }
}

/**
 * Loads the grammars the files in `paths` need, before they are parsed (parsing is synchronous, loading is not).
 * A grammar that cannot be loaded is not fatal: parseWithLanguage reports it on each file.
 */
export async function prepareGrammars(paths: Iterable<string>): Promise<void> {
  const needed = grammarsFor(paths);
  if (needed.size === 0) return;
  await loadGrammars(needed).catch(() => undefined);
}
