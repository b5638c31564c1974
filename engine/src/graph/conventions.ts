import { languageOf } from '../languages/registry.js';
import type { LanguageModule } from '../languages/types.js';
import type { Conventions, FileRecord } from '../types.js';
import { baseStem } from './classify.js';

export function dominant(counts: Map<string, number>, fallback: string): { style: string; share: number } {
  let total = 0;
  let best = fallback;
  let bestCount = 0;
  for (const [style, n] of [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    total += n;
    if (n > bestCount) {
      best = style;
      bestCount = n;
    }
  }
  if (total === 0) return { style: fallback, share: 0 };
  const share = Math.round((bestCount / total) * 100) / 100;
  return { style: share < 0.6 ? `mixed (mostly ${best})` : best, share };
}

export function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function namingStyle(stem: string): string | null {
  if (/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(stem)) return 'kebab-case';
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(stem)) return 'snake_case';
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(stem)) return 'camelCase';
  if (/^[A-Z][a-z0-9]+([A-Z][a-z0-9]*)*$/.test(stem)) return 'PascalCase';
  return null; // one lower-case word or something unusual: says nothing about the convention
}

const FOLDER_ROLES: Array<[RegExp, string]> = [
  [/^(__tests__|tests?|spec|e2e)$/, 'tests'],
  [/^(components?|ui|widgets)$/, 'UI components'],
  [/^hooks$/, 'hooks'],
  [/^(utils?|helpers|lib|shared|common)$/, 'shared utilities'],
  [/^(api|routes?|controllers?|handlers?|endpoints)$/, 'API / routing'],
  [/^(models?|entities|schemas?|db|database)$/, 'data models'],
  [/^(services?|clients?)$/, 'services'],
  [/^(types?|typings|@types|interfaces)$/, 'type definitions'],
  [/^(scripts|bin|tools)$/, 'scripts and tooling'],
  [/^(config|configs|settings)$/, 'configuration'],
  [/^(store|state|stores|redux)$/, 'state management'],
  [/^(pages|app|views|screens)$/, 'pages / views'],
  [/^(cli|commands?)$/, 'command line'],
  [/^(internal|core|engine)$/, 'core logic'],
  [/^(locales?|i18n)$/, 'localisation'],
  [/^(fixtures|mocks|__mocks__)$/, 'test fixtures'],
  [/^(packages|apps)$/, 'workspace packages'],
  [/^src$/, 'source root'],
];

/** A folder's role: from its name when it is a well-known one, else from what most of its files are. */
export function folderRole(folder: string, counts: { files: number; tests: number; types: number }): string {
  const last = folder.slice(folder.lastIndexOf('/') + 1).toLowerCase();
  const named = FOLDER_ROLES.find(([re]) => re.test(last))?.[1];
  return named ?? (counts.tests > counts.files / 2 ? 'tests' : counts.types > counts.files / 2 ? 'type definitions' : 'source');
}

/** How a file exports: 'named exports', 'default export', 'named + default', or null without exports. */
export function exportStyleOf(exports: ReadonlyArray<{ name: string }>): string | null {
  if (!exports.length) return null;
  const hasDefault = exports.some((e) => e.name === 'default');
  const hasNamed = exports.some((e) => e.name !== 'default');
  return hasDefault && hasNamed ? 'named + default' : hasDefault ? 'default export' : 'named exports';
}

/** What a file adds to the module-system convention ('ES modules', 'CommonJS', 'mixed'), or null. */
export function moduleStyleOf(r: Pick<FileRecord, 'moduleSystem' | 'type'>): string | null {
  if (r.moduleSystem === 'none' || r.type === 'types') return null;
  return r.moduleSystem === 'esm' ? 'ES modules' : r.moduleSystem === 'cjs' ? 'CommonJS' : 'mixed';
}

/** What a file adds to the export-style convention (source files only), or null. */
export function recordExportStyle(r: Pick<FileRecord, 'exports' | 'type'>): string | null {
  return r.type === 'source' ? exportStyleOf(r.exports) : null;
}

/** Conventions detected from the indexed files: naming, module system, export style, tests and folder roles. */
export function detectConventions(records: FileRecord[]): Conventions {
  const naming = new Map<string, number>();
  const modules = new Map<string, number>();
  const exportStyles = new Map<string, number>();
  const testPatterns = new Map<string, number>();
  const folders = new Map<string, { files: number; tests: number; types: number }>();
  let tests = 0;
  let colocated = 0;
  let separate = 0;
  const sourceDirs = new Set<string>();
  const byLanguage = new Map<LanguageModule, { files: number; naming: Map<string, number>; tests: number; testPatterns: Map<string, number> }>();
  for (const r of records) {
    const dir = r.path.includes('/') ? r.path.slice(0, r.path.lastIndexOf('/')) : '';
    if (r.type === 'source') sourceDirs.add(dir);
  }
  for (const r of records) {
    const style = namingStyle(baseStem(r.path));
    if (style && r.type !== 'config') bump(naming, style);
    const language = languageOf(r.path);
    if (language) {
      const l = byLanguage.get(language) ?? { files: 0, naming: new Map<string, number>(), tests: 0, testPatterns: new Map<string, number>() };
      l.files++;
      if (style && r.type !== 'config') bump(l.naming, style);
      byLanguage.set(language, l);
    }
    const moduleStyle = moduleStyleOf(r);
    if (moduleStyle) bump(modules, moduleStyle);
    const exportStyle = recordExportStyle(r);
    if (exportStyle) bump(exportStyles, exportStyle);
    const segments = r.path.split('/');
    const top = segments.length > 2 ? `${segments[0]}/${segments[1]}` : segments.length === 2 ? segments[0] : '';
    if (top) {
      const f = folders.get(top) ?? { files: 0, tests: 0, types: 0 };
      f.files++;
      if (r.type === 'test') f.tests++;
      if (r.type === 'types') f.types++;
      folders.set(top, f);
    }
    if (r.type === 'test') {
      tests++;
      const name = r.path.slice(r.path.lastIndexOf('/') + 1);
      const suffix = /\.(test|spec|e2e)\.([cm]?[jt]sx?)$/.exec(name);
      // test_x.py and x_test.go style names (pytest's and Go's own layouts)
      const affix = /^test_[^.]*\.(\w+)$/.exec(name) ?? /_test\.(\w+)$/.exec(name);
      const pattern = suffix ? `*.${suffix[1]}.${suffix[2]}` : affix ? (name.startsWith('test_') ? `test_*.${affix[1]}` : `*_test.${affix[1]}`) : /__tests__\//.test(r.path) ? '__tests__/*' : 'tests folder';
      bump(testPatterns, pattern);
      const l = language && byLanguage.get(language);
      if (l) {
        l.tests++;
        bump(l.testPatterns, pattern);
      }
      const dir = r.path.includes('/') ? r.path.slice(0, r.path.lastIndexOf('/')) : '';
      if (/(^|\/)(__tests__|tests?|spec|e2e)(\/|$)/.test(dir) && !sourceDirs.has(dir)) separate++;
      else colocated++;
    }
  }
  const layout = tests === 0 ? 'none' : colocated && separate ? (colocated > separate ? 'mostly colocated' : 'mostly separate folders') : colocated ? 'colocated with sources' : 'separate test folders';
  const topPattern = dominant(testPatterns, '');
  const folderRoles = [...folders.entries()]
    .map(([folder, f]) => ({ folder, role: folderRole(folder, f), files: f.files }))
    .sort((a, b) => b.files - a.files || (a.folder < b.folder ? -1 : 1));
  const languages = [...byLanguage.entries()]
    .map(([l, v]) => ({
      language: l.id,
      name: l.name,
      files: v.files,
      naming: dominant(v.naming, 'unknown'),
      expected: l.namingConvention ?? null,
      moduleSystem: l.moduleSystem ?? null,
      tests: { count: v.tests, pattern: v.tests ? dominant(v.testPatterns, '').style : null },
      grammar: l.grammar,
    }))
    .sort((a, b) => b.files - a.files || (a.language < b.language ? -1 : 1));
  // several languages with tests: each one's own pattern (`test_*.py`, `*_test.go`), not one mixed verdict
  const perLanguage = languages.filter((l) => l.tests.pattern);
  const pattern = perLanguage.length > 1 ? perLanguage.map((l) => `${l.tests.pattern} (${l.name})`).join(', ') : topPattern.style;
  return {
    ...(languages.some((l) => l.grammar !== null) ? { languages: languages.map(({ grammar: _grammar, ...l }) => l) } : {}),
    fileNaming: dominant(naming, 'unknown'),
    moduleSystem: dominant(modules, 'unknown'),
    exportStyle: dominant(exportStyles, 'unknown'),
    tests: { count: tests, layout, pattern: tests ? pattern : null },
    folderRoles,
  };
}
