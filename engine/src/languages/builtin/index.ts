/**
 * The built-in JS/TS family: read by babel and the skeleton reader (engine/src/parse/), resolved by
 * engine/src/resolve/ (Node and TypeScript rules). Described here so that the registry lists every language the
 * engine reads; no tree-sitter grammar is involved.
 */
import type { LanguageModule } from '../types.js';

const JS_CONFIG = ['package.json', 'tsconfig.json', 'jsconfig.json'] as const;

export const typescript: LanguageModule = {
  id: 'typescript',
  name: 'TypeScript',
  extensions: ['.ts', '.tsx', '.mts', '.cts'],
  grammar: null,
  configFiles: JS_CONFIG,
};

export const javascript: LanguageModule = {
  id: 'javascript',
  name: 'JavaScript',
  extensions: ['.js', '.jsx', '.mjs', '.cjs'],
  grammar: null,
  configFiles: JS_CONFIG,
};
