/** parseSource: the facts of one JS/TS file (imports, exports, symbols, doc comment, module system). */
import type { Node } from '@babel/types';
import type { ParsedFile, RelPath, SymbolKind } from '../types.js';
import { leadingDocComment, tripleSlashReferences } from './doc-comment.js';
import { ExportCollector } from './extract-exports.js';
import { collectImportBindings, ImportCollector } from './extract-imports.js';
import { collectSymbols } from './extract-symbols.js';
import { dialectOf } from './babel-options.js';
import { parseAst, toProblem } from './parse-ast.js';
import { moduleSystem } from './module-system.js';
import { skeletonOf } from './skeleton.js';
import { factsFromSkeleton } from './skeleton-facts.js';
import { walk, walkStatements } from './walk.js';

/**
 * Facts found inside expressions (`require()`, `import()`, `import('x').T`, `import.meta`, CommonJS exports) all need
 * one of these words in the text; files without them only need their statements visited, which is much cheaper.
 * Comments may contain the words too: that only costs a full walk, never a wrong fact.
 */
const NEEDS_DEEP_WALK = /\brequire\b|\bexports\b|\bimport\s*(?:[(.]|\/[*/])/;

function emptyFacts(syntaxError: ParsedFile['syntaxError']): ParsedFile {
  return { imports: [], exports: [], symbols: [], docComment: null, moduleSystem: 'none', syntaxError };
}

/**
 * Parses `source` (dialect chosen from the extension of `path`) and extracts its facts. Pure; never throws:
 * a syntax error is reported in `syntaxError` next to whatever error recovery still found.
 *
 * Three layers, each giving exactly parseWhole's facts (ARCHITECTURE.md, "How a file is parsed"): the file's
 * skeleton (skeleton.ts) read from its tokens (skeleton-facts.ts); else babel on the skeleton; else, when the lexer
 * cannot vouch for the text or the skeleton does not parse cleanly, babel on the whole file, so every syntax error
 * babel reports is reported against the real file.
 */
export function parseSource(path: RelPath, source: string): ParsedFile {
  let skeleton: string | null = null;
  try {
    const dialect = dialectOf(path);
    skeleton = skeletonOf(source, dialect);
    if (skeleton !== null) {
      const facts = factsFromSkeleton(skeleton, dialect);
      if (facts !== null) return facts;
    }
  } catch {
    // a bug in the lexer or the token reader must not lose the file: babel reads it
    skeleton = null;
  }
  if (skeleton !== null && skeleton !== source) {
    const facts = parseWhole(path, skeleton);
    if (facts.syntaxError === null) return facts;
  }
  return parseWhole(path, source);
}

/** parseSource without the skeleton: babel reads every character. The reference the skeleton is checked against. */
export function parseWhole(path: RelPath, source: string): ParsedFile {
  try {
    const { ast, problems } = parseAst(path, source);
    const syntaxError = problems[0] ?? null;
    if (ast === null) return emptyFacts(syntaxError);

    const program = ast.program;
    const symbols = collectSymbols(program);
    const localKinds = new Map<string, SymbolKind>();
    for (const symbol of symbols) if (!localKinds.has(symbol.name)) localKinds.set(symbol.name, symbol.kind);
    const bindings = collectImportBindings(program);

    const imports = new ImportCollector(bindings);
    const exports = new ExportCollector(localKinds, bindings);
    const visit = (node: Node, parent: Node | null): void => {
      imports.visit(node, parent);
      exports.visit(node, parent);
    };
    if (NEEDS_DEEP_WALK.test(source)) walk(program, visit);
    else walkStatements(program, visit);

    for (const symbol of symbols) if (exports.exportedLocals.has(symbol.name)) symbol.exported = true;

    return {
      imports: [...tripleSlashReferences(ast), ...imports.result()],
      exports: exports.result(),
      symbols,
      docComment: leadingDocComment(ast),
      moduleSystem: moduleSystem(imports.esm, imports.cjs || exports.cjs),
      syntaxError,
    };
  } catch (error) {
    // a bug in an extractor must not lose the whole run
    return emptyFacts(toProblem(error));
  }
}
