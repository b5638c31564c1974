/**
 * Runs @babel/parser with error recovery, falling back through the option sets of babel-options.ts
 * until one parses cleanly; otherwise keeps the attempt with the fewest errors.
 */
import { createRequire } from 'node:module';
import type { ParserOptions } from '@babel/parser';
import type { File } from '@babel/types';
import type { SyntaxProblem } from '../types.js';
import { parseAttempts } from './babel-options.js';

/**
 * @babel/parser is CommonJS: loading it with require() skips the export detection an ESM import of it runs over its
 * half-megabyte bundle. It is loaded on first use: most files never reach it (skeleton-facts.ts reads them).
 */
let babel: typeof import('@babel/parser') | null = null;
function parse(source: string, options: ParserOptions): ReturnType<typeof import('@babel/parser').parse> {
  babel ??= createRequire(import.meta.url)('@babel/parser') as typeof import('@babel/parser');
  return babel.parse(source, options);
}

export type AstResult = { ast: File; problems: SyntaxProblem[] } | { ast: null; problems: SyntaxProblem[] };

interface BabelLikeError {
  message?: unknown;
  loc?: { line?: unknown };
}

/** Babel appends ` (line:column)` to its messages; the line is kept separately. */
export function toProblem(error: unknown): SyntaxProblem {
  const e = (error ?? {}) as BabelLikeError;
  const raw = typeof e.message === 'string' ? e.message : String(error);
  const line = typeof e.loc?.line === 'number' ? e.loc.line : 1;
  return { message: raw.replace(/\s*\(\d+:\d+\)$/, ''), line };
}

function attempt(source: string, options: ParserOptions): AstResult {
  try {
    const ast = parse(source, options) as File & { errors?: unknown[] | null };
    const problems = (ast.errors ?? []).map(toProblem);
    // `unambiguous` parses as a module first and keeps that tree when no import/export shows up, so a sloppy-mode
    // script (`with`, legacy octals …) comes back with strict-mode errors: parse it again as a script.
    if (problems.length > 0 && ast.program.sourceType === 'script' && options.sourceType === 'unambiguous') {
      const script = attempt(source, { ...options, sourceType: 'script' });
      if (script.ast && script.problems.length < problems.length) return script;
    }
    return { ast, problems };
  } catch (error) {
    return { ast: null, problems: [toProblem(error)] };
  }
}

/** Parses `source`; `ast` is null only when every attempt threw. */
export function parseAst(path: string, source: string): AstResult {
  let best: AstResult | null = null;
  let firstThrown: AstResult | null = null;
  for (const options of parseAttempts(path, source)) {
    const result = attempt(source, options);
    if (result.ast === null) {
      firstThrown ??= result;
      continue;
    }
    if (result.problems.length === 0) return result;
    if (best === null || result.problems.length < best.problems.length) best = result;
  }
  return best ?? firstThrown ?? { ast: null, problems: [{ message: 'unparseable', line: 1 }] };
}
