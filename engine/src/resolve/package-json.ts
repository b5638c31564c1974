/**
 * package.json `exports` / `imports` maps: subpath matching (exact keys, `*` patterns ordered as Node orders them,
 * legacy `./dir/` folder keys) and flattening condition objects into an ordered list of candidate targets.
 */

import type { ImportKind, RelPath } from '../types.js';
import { Importer } from './extensions.js';
import { isRecord } from './jsonc.js';

export interface PackageInfo {
  /** project-relative path of the package.json */
  file: RelPath;
  /** the package directory */
  dir: RelPath;
  name: string | null;
  json: Record<string, unknown>;
  /** compiled lazily: undefined = not yet, null = no such field */
  exportsMap?: SubpathMap | null;
  importsMap?: SubpathMap | null;
}

interface PatternKey {
  key: string;
  prefix: string;
  suffix: string;
  /** legacy folder mapping (`"./dir/": "./lib/"`): the match is appended to the target */
  folder: boolean;
  target: unknown;
}

export interface SubpathMap {
  exact: Map<string, unknown>;
  patterns: PatternKey[];
}

export interface SubpathMatch {
  target: unknown;
  /** what `*` matched, or null for an exact key */
  star: string | null;
  folder: boolean;
  key: string;
}

/** Node's PATTERN_KEY_COMPARE: longer base (up to and including `*`) first, then longer key. */
function patternKeyCompare(a: string, b: string): number {
  const aStar = a.indexOf('*');
  const bStar = b.indexOf('*');
  const baseA = aStar === -1 ? a.length : aStar + 1;
  const baseB = bStar === -1 ? b.length : bStar + 1;
  if (baseA !== baseB) return baseB - baseA;
  if (aStar === -1) return 1;
  if (bStar === -1) return -1;
  return b.length - a.length;
}

function compile(map: Record<string, unknown>): SubpathMap {
  const exact = new Map<string, unknown>();
  const patterns: PatternKey[] = [];
  for (const [key, target] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star !== -1) {
      if (key.indexOf('*', star + 1) !== -1) continue; // invalid: more than one `*`
      patterns.push({ key, prefix: key.slice(0, star), suffix: key.slice(star + 1), folder: false, target });
    } else {
      exact.set(key, target);
      if (key.endsWith('/')) patterns.push({ key, prefix: key, suffix: '', folder: true, target });
    }
  }
  patterns.sort((a, b) => patternKeyCompare(a.key, b.key));
  return { exact, patterns };
}

/** The `exports` field as a subpath map (`"exports": "./x.js"` and condition objects are sugar for `{".": …}`). */
export function exportsMapOf(pkg: PackageInfo): SubpathMap | null {
  if (pkg.exportsMap !== undefined) return pkg.exportsMap;
  const exp = pkg.json.exports;
  let map: SubpathMap | null = null;
  if (typeof exp === 'string' || Array.isArray(exp)) map = compile({ '.': exp });
  else if (isRecord(exp)) {
    const keys = Object.keys(exp);
    const subpaths = keys.some((k) => k.startsWith('.'));
    map = compile(subpaths ? Object.fromEntries(keys.filter((k) => k.startsWith('.')).map((k) => [k, exp[k]])) : { '.': exp });
  }
  pkg.exportsMap = map;
  return map;
}

/** The `imports` field (`#name` keys) as a subpath map. */
export function importsMapOf(pkg: PackageInfo): SubpathMap | null {
  if (pkg.importsMap !== undefined) return pkg.importsMap;
  const imp = pkg.json.imports;
  const map = isRecord(imp) ? compile(imp) : null;
  pkg.importsMap = map;
  return map;
}

/** Finds the entry for `key` (`.`, `./sub`, `#name`): exact key first, then the best pattern. */
export function matchSubpath(map: SubpathMap, key: string): SubpathMatch | null {
  if (map.exact.has(key) && !key.endsWith('/')) return { target: map.exact.get(key), star: null, folder: false, key };
  for (const p of map.patterns) {
    if (p.folder) {
      if (key.length > p.prefix.length && key.startsWith(p.prefix)) {
        return { target: p.target, star: key.slice(p.prefix.length), folder: true, key: p.key };
      }
      continue;
    }
    if (
      key.length >= p.prefix.length + p.suffix.length + 1 &&
      key.startsWith(p.prefix) &&
      (p.suffix === '' || key.endsWith(p.suffix))
    ) {
      return { target: p.target, star: key.slice(p.prefix.length, key.length - p.suffix.length), folder: false, key: p.key };
    }
  }
  return null;
}

const conditionCache = new Map<string, readonly string[]>();

/**
 * Condition names in order of preference.
 * TypeScript importers: custom conditions (tsconfig customConditions), `types`, then for an import `import`,
 * `module`, `node`, `default`, `require` (for a require: `require`, `node`, `default`, `import`, `module`). JavaScript importers put `types` last: a runtime
 * import never loads a declaration file, but a types target is still better than nothing.
 */
export function conditionsFor(importer: Importer, kind: ImportKind, custom: readonly string[]): readonly string[] {
  const req = kind === 'require';
  const key = `${importer}|${req ? 1 : 0}|${custom.join('\0')}`;
  let list = conditionCache.get(key);
  if (list) return list;
  // the other module system's condition comes after `default`: Node would never pick it, but it beats nothing
  const runtime = req ? ['require', 'node', 'default', 'import', 'module'] : ['import', 'module', 'node', 'default', 'require'];
  const ordered = importer === Importer.Js ? [...custom, ...runtime, 'types'] : [...custom, 'types', ...runtime];
  list = [...new Set(ordered)];
  conditionCache.set(key, list);
  return list;
}

function substitute(target: string, star: string | null, folder: boolean): string {
  if (star === null) return target;
  if (folder) return target + star;
  return target.split('*').join(star);
}

/**
 * Flattens an exports/imports target (string, fallback array, nested condition objects, null) into candidate
 * target strings, preferred first. After the known conditions, any other condition keys follow in object order, so
 * a package whose only existing target sits under an unusual condition (`development`, `source`, `browser`) still
 * resolves.
 */
export function flattenTargets(
  target: unknown,
  match: Pick<SubpathMatch, 'star' | 'folder'>,
  conditions: readonly string[],
  out: string[],
  depth = 0,
): void {
  if (depth > 16) return;
  if (typeof target === 'string') {
    const t = substitute(target, match.star, match.folder);
    if (!out.includes(t)) out.push(t);
  } else if (Array.isArray(target)) {
    for (const t of target) flattenTargets(t, match, conditions, out, depth + 1);
  } else if (isRecord(target)) {
    for (const c of conditions) {
      if (Object.prototype.hasOwnProperty.call(target, c)) flattenTargets(target[c], match, conditions, out, depth + 1);
    }
    for (const k of Object.keys(target)) {
      if (!conditions.includes(k)) flattenTargets(target[k], match, conditions, out, depth + 1);
    }
  }
}

/** Entry fields of package.json in order of preference for the importer. */
export function entryFieldsFor(importer: Importer): readonly string[] {
  return importer === Importer.Js ? ['module', 'main', 'types', 'typings'] : ['types', 'typings', 'module', 'main'];
}
