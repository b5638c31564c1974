/**
 * Which file extensions to probe, depending on the importing file and on the extension written in the specifier.
 */

/** What kind of file does the importing: TypeScript source, a declaration file, or JavaScript. */
export const Importer = { Ts: 0, Decl: 1, Js: 2 } as const;
export type Importer = (typeof Importer)[keyof typeof Importer];

/** Classifies the importing file by its name. `.d.ts`-style names (also `x.d.css.ts`) are declarations. */
export function importerOf(from: string): Importer {
  if (from.endsWith('.ts') || from.endsWith('.mts') || from.endsWith('.cts')) {
    // x.d.ts, x.d.mts, x.d.cts, and TS 5 arbitrary-extension declarations such as x.d.css.ts
    if (from.indexOf('.d.', from.lastIndexOf('/') + 1) !== -1) return Importer.Decl;
    return Importer.Ts;
  }
  if (from.endsWith('.tsx')) return Importer.Ts;
  return Importer.Js;
}

/** Extensions appended to an extensionless specifier (`./x`), in order. */
export const APPEND: readonly (readonly string[])[] = [
  /* Ts   */ ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mts', '.d.mts', '.mjs', '.cts', '.d.cts', '.cjs'],
  /* Decl */ ['.d.ts', '.ts', '.tsx', '.js', '.jsx', '.d.mts', '.mts', '.mjs', '.d.cts', '.cts', '.cjs'],
  /* Js   */ ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.d.ts', '.mts', '.cts', '.d.mts', '.d.cts'],
];

/** Written TS extensions (allowImportingTsExtensions, or emitted declarations): TypeScript maps them like `.js`. */
const TS_WRITTEN: Readonly<Record<string, readonly string[]>> = {
  '.ts': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
  '.tsx': ['.tsx', '.ts', '.d.ts', '.jsx', '.js'],
  '.mts': ['.mts', '.d.mts', '.mjs'],
  '.cts': ['.cts', '.d.cts', '.cjs'],
};

/**
 * For a specifier written with a source extension: the extensions to try on its stem, in order
 * (`./x.js` from TypeScript means x.ts / x.tsx / x.d.ts before x.js; `./x.ts` may be x.d.ts, as TypeScript has it).
 */
const EXT_MAP: readonly Readonly<Record<string, readonly string[]>>[] = [
  /* Ts */ {
    '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
    '.jsx': ['.tsx', '.ts', '.d.ts', '.jsx', '.js'],
    '.mjs': ['.mts', '.d.mts', '.mjs'],
    '.cjs': ['.cts', '.d.cts', '.cjs'],
    ...TS_WRITTEN,
  },
  /* Decl */ {
    '.js': ['.d.ts', '.ts', '.tsx', '.js', '.jsx'],
    '.jsx': ['.d.ts', '.tsx', '.ts', '.jsx', '.js'],
    '.mjs': ['.d.mts', '.mts', '.mjs'],
    '.cjs': ['.d.cts', '.cts', '.cjs'],
    ...TS_WRITTEN,
  },
  /* Js */ {
    '.js': ['.js', '.ts', '.tsx', '.jsx', '.d.ts'],
    '.jsx': ['.jsx', '.tsx', '.js', '.ts', '.d.ts'],
    '.mjs': ['.mjs', '.mts', '.d.mts'],
    '.cjs': ['.cjs', '.cts', '.d.cts'],
    ...TS_WRITTEN,
  },
];

/**
 * Extension mapping for `ext` (including the dot) written in a specifier, or undefined when it is not a source
 * extension (then the name is taken as is, and extensions are appended).
 */
export function extensionMap(importer: Importer, ext: string): readonly string[] | undefined {
  const c = ext.charCodeAt(1);
  // quick reject: every key starts with .j .m .c .t
  if (c !== 106 && c !== 109 && c !== 99 && c !== 116) return undefined;
  return EXT_MAP[importer][ext];
}

/** Extensions that name a source file of the JS/TS family (what host.files holds). */
export function isSourceExtension(ext: string): boolean {
  switch (ext) {
    case '.js':
    case '.jsx':
    case '.mjs':
    case '.cjs':
    case '.ts':
    case '.tsx':
    case '.mts':
    case '.cts':
      return true;
    default:
      return false;
  }
}

/** Extension of the last path segment (`.ts`, `.json` …, with the dot) or '' when there is none. */
export function extensionOf(path: string): string {
  const dot = path.lastIndexOf('.');
  if (dot <= 0) return '';
  const slash = path.lastIndexOf('/');
  if (dot < slash + 2) return ''; // `.hidden` files and `a/.b` have no extension
  return path.slice(dot);
}

/** Build-output extensions stripped when mapping dist/x.js back to source. Longest first. */
const OUTPUT_EXTS = ['.d.mts', '.d.cts', '.d.ts', '.mjs', '.cjs', '.jsx', '.js', '.mts', '.cts', '.tsx', '.ts'];

/** `dist/x.d.ts` → { stem: 'dist/x', ext: '.d.ts' }; ext '' when the path has none of the build extensions. */
export function splitOutputExtension(path: string): { stem: string; ext: string } {
  for (const ext of OUTPUT_EXTS) if (path.endsWith(ext)) return { stem: path.slice(0, -ext.length), ext };
  return { stem: path, ext: '' };
}

/** Source extensions to probe for a build output of extension `ext`, TypeScript first. */
export function sourceExtensionsFor(ext: string): readonly string[] {
  if (ext === '.mjs' || ext === '.d.mts' || ext === '.mts') return ['.mts', '.ts', '.tsx', '.mjs', '.js'];
  if (ext === '.cjs' || ext === '.d.cts' || ext === '.cts') return ['.cts', '.ts', '.tsx', '.cjs', '.js'];
  return ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
}
