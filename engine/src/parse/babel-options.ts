/**
 * Which @babel/parser options to try for a file, chosen from its extension.
 * The first set is the likely one; the following ones are fallbacks tried only when an earlier set reports errors.
 */
import type { ParserOptions, ParserPlugin } from '@babel/parser';

export type Dialect = 'ts' | 'tsx' | 'dts' | 'js';

/** Options shared by every attempt: be as permissive as babel allows, keep the output small. */
const BASE: ParserOptions = {
  sourceType: 'unambiguous',
  errorRecovery: true,
  allowReturnOutsideFunction: true,
  allowImportExportEverywhere: true,
  allowAwaitOutsideFunction: true,
  allowSuperOutsideMethod: true,
  allowUndeclaredExports: true,
  allowNewTargetOutsideFunction: true,
  attachComment: false,
  tokens: false,
  ranges: false,
};

/** Syntax that real-world code of any dialect may use and that never changes how other code parses. */
const COMMON: ParserPlugin[] = [
  'decoratorAutoAccessors',
  'explicitResourceManagement',
  ['importAttributes', { deprecatedAssertSyntax: true }],
];

const LEGACY_DECORATORS: ParserPlugin = 'decorators-legacy';
/** TC39 decorators: also accept `export @dec class` (legacy decorators only accept `@dec export class`). */
const MODERN_DECORATORS: ParserPlugin = ['decorators', { allowCallParenthesized: true }];
const FLOW: ParserPlugin = ['flow', { all: false }];

export function dialectOf(path: string): Dialect {
  const lower = path.toLowerCase();
  if (/\.d\.[mc]?ts$/.test(lower) || /\.d\.[^./]+\.ts$/.test(lower)) return 'dts';
  if (lower.endsWith('.tsx')) return 'tsx';
  if (/\.[mc]?ts$/.test(lower)) return 'ts';
  return 'js';
}

function options(plugins: ParserPlugin[]): ParserOptions {
  return { ...BASE, plugins: [...plugins, ...COMMON] };
}

/** `// @flow` or `/* @flow *\/` near the top of a file. */
function hasFlowPragma(source: string): boolean {
  return /@flow\b/.test(source.slice(0, 2048));
}

/** The option sets to try, best guess first. */
export function parseAttempts(path: string, source: string): ParserOptions[] {
  switch (dialectOf(path)) {
    case 'dts':
      return [
        options([['typescript', { dts: true }], LEGACY_DECORATORS]),
        options([['typescript', { dts: true }], MODERN_DECORATORS]),
      ];
    case 'ts':
      // never jsx: `<T>value` is a type assertion in .ts files
      return [options(['typescript', LEGACY_DECORATORS]), options(['typescript', MODERN_DECORATORS])];
    case 'tsx':
      return [options(['typescript', 'jsx', LEGACY_DECORATORS]), options(['typescript', 'jsx', MODERN_DECORATORS])];
    case 'js': {
      const js: ParserPlugin[] = ['jsx', LEGACY_DECORATORS, 'exportDefaultFrom'];
      const flow: ParserPlugin[] = ['jsx', FLOW, LEGACY_DECORATORS, 'exportDefaultFrom'];
      const attempts = hasFlowPragma(source) ? [options(flow), options(js)] : [options(js), options(flow)];
      attempts.push(options([LEGACY_DECORATORS, 'exportDefaultFrom']));
      attempts.push(options(['jsx', MODERN_DECORATORS, 'exportDefaultFrom']));
      return attempts;
    }
  }
}
