// Runs dependency-cruiser on a directory and turns its JSON into file-to-file edges.
//
// Variants (described in bench/RESULTS.md, "Accuracy"):
//  plain     dependency-cruiser's own resolution: --no-config --ts-pre-compilation-deps -x '(^|/)node_modules/|\.min\.js$'
//            (+ --ts-config <dir>/tsconfig.json when the corpus has one).
//  ts-aware  plain + a webpack-style resolve config (--webpack-config) with TypeScript's extension substitution
//            (enhanced-resolve `extensionAlias`: ./x.js → x.ts, x.tsx, x.d.ts, x.js; .mjs → .mts/.d.mts; .cjs →
//            .cts/.d.cts), package.json `exports` with the `types` condition, and `types` before `main`.
//            (depcruise's own config schema rejects `enhancedResolveOptions.extensionAlias`; the webpack config's
//            `resolve` section is passed to enhanced-resolve unvalidated, so that is the way in.) It applies the
//            alias to .js files too, which is not what Node does.
//  hybrid    computed, not run: edges of TypeScript-family sources (.ts .tsx .mts .cts, incl. .d.*) from
//            ts-aware, edges of JavaScript-family sources (.js .jsx .mjs .cjs) from plain — i.e. TypeScript's
//            resolution for TypeScript files and Node's for JavaScript files.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, WORK_DIR, isSourcePath, mkdirp, readJson } from './common.mjs';
import { DEPCRUISE_BIN } from '../tools.mjs';

export const VARIANTS = ['plain', 'ts-aware', 'hybrid'];
/**
 * node_modules, plus minified bundles: our engine always skips `**\/*.min.js` (engine/src/config.ts BUILTIN_EXCLUDE),
 * so depcruise skips them too and both tools see the same files (date-fns ships 98 cdn.min.js, lodash 2 *.min.js).
 */
export const DEPCRUISE_EXCLUDE = '(^|/)node_modules/|\\.min\\.js$';
export const RUN_VARIANTS = ['plain', 'ts-aware'];

const TS_FAMILY = /\.(?:ts|tsx|mts|cts)$/;
export const isTsFamily = (p) => TS_FAMILY.test(p);

export const TS_AWARE_RESOLVE = {
  extensionAlias: {
    '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
    '.jsx': ['.tsx', '.d.ts', '.jsx'],
    '.mjs': ['.mts', '.d.mts', '.mjs'],
    '.cjs': ['.cts', '.d.cts', '.cjs'],
  },
  exportsFields: ['exports'],
  conditionNames: ['types', 'import', 'require', 'node', 'default'],
  mainFields: ['types', 'typings', 'module', 'main'],
};

/** Writes the ts-aware resolve config (a .cjs webpack config) to bench/.work/depcruise/ and returns its path. */
export function writeTsAwareConfig() {
  const file = path.join(mkdirp(path.join(WORK_DIR, 'depcruise')), 'ts-aware.webpack.cjs');
  fs.writeFileSync(
    file,
    '// written by bench/lib/depcruise-edges.mjs: TypeScript-aware resolution for dependency-cruiser\n' +
      `module.exports = { resolve: ${JSON.stringify(TS_AWARE_RESOLVE, null, 2)} };\n`,
  );
  return file;
}

/** A copy-pasteable form of a command run in `dir`, from the repository root (paths inside it relative to `dir`). */
function shellDisplay(dir, args) {
  const shown = args.map((a) => (path.isAbsolute(a) ? path.relative(dir, a) : a));
  return `(cd ${path.relative(ROOT, dir)} && node ${shown.map((a) => (/[^\w@%+=:,./-]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : a)).join(' ')})`;
}

/**
 * The command that cruises `dir` (run with cwd = dir, so module paths are corpus-relative) and writes JSON to
 * `outFile`. Returns { cmd, args, cwd, display } where display is a copy-pasteable form.
 */
export function depcruiseCommand(dir, variant, outFile) {
  if (!RUN_VARIANTS.includes(variant)) throw new Error(`depcruise variant ${variant} cannot be run (it is computed)`);
  const args = [DEPCRUISE_BIN, '.', '--output-type', 'json', '--no-config', '--ts-pre-compilation-deps', '--exclude', DEPCRUISE_EXCLUDE, '--no-progress'];
  if (fs.existsSync(path.join(dir, 'tsconfig.json'))) args.push('--ts-config', 'tsconfig.json');
  if (variant === 'ts-aware') args.push('--webpack-config', writeTsAwareConfig());
  args.push('--output-to', outFile);
  return { cmd: process.execPath, args, cwd: dir, display: shellDisplay(dir, args) };
}

/** The config files `depcruise --init oneshot` may write: `.cjs`, or `.js`/`.mjs` depending on the package's module type. */
export const INIT_CONFIGS = ['.dependency-cruiser.cjs', '.dependency-cruiser.js', '.dependency-cruiser.mjs'];

/**
 * dependency-cruiser the way its documentation sets a project up: `depcruise --init oneshot` writes its recommended
 * config into `dir` (rules such as no-circular and no-orphans, `doNotFollow` node_modules, `exports` conditions),
 * then the cruise runs with it (validation included) and the same exclude as the plain variant. Informational: it
 * does more than we do (rule validation), so the speed bar is judged on the plain run.
 */
export function depcruiseRecommendedCommand(dir, outFile) {
  const written = () => INIT_CONFIGS.find((name) => fs.existsSync(path.join(dir, name)));
  if (!written()) {
    const init = spawnSync(process.execPath, [DEPCRUISE_BIN, '--init', 'oneshot'], { cwd: dir, encoding: 'utf8' });
    if (init.status !== 0 || !written()) {
      throw new Error(`depcruise --init oneshot failed in ${dir}: ${(init.stderr || init.stdout || '').trim().slice(0, 300)}`);
    }
  }
  const args = [DEPCRUISE_BIN, '.', '--config', written(), '--output-type', 'json', '--exclude', DEPCRUISE_EXCLUDE, '--no-progress', '--output-to', outFile];
  return { cmd: process.execPath, args, cwd: dir, display: `${shellDisplay(dir, [DEPCRUISE_BIN, '--init', 'oneshot'])} once, then ${shellDisplay(dir, args)}` };
}

const edgeKey = (s, t) => `${s}\t${t}`;

/**
 * Reads a depcruise JSON result into { files: Set<path>, edges: Map<key, {source, target, types:Set, specifiers:Set}>,
 * stats }. Files: every cruised module whose path has a source extension and that resolved to a file in the corpus.
 * Edges: dependencies whose `resolved` is such a file.
 */
export function edgesFromDepcruise(json) {
  const inCorpus = (p) => p && !p.startsWith('../') && !path.isAbsolute(p) && !p.startsWith('node_modules/') && !p.includes('/node_modules/');
  const files = new Set();
  const edges = new Map();
  const stats = { modules: json.modules.length, depsTotal: 0, depsUnresolved: 0, depsCore: 0, depsExternal: 0, depsNonSource: 0, depsKept: 0, byType: {} };
  for (const m of json.modules) {
    if (m.coreModule || m.couldNotResolve) continue;
    if (!isSourcePath(m.source) || !inCorpus(m.source)) continue;
    files.add(m.source);
  }
  for (const m of json.modules) {
    if (!files.has(m.source)) continue;
    for (const d of m.dependencies) {
      stats.depsTotal++;
      if (d.coreModule) {
        stats.depsCore++;
        continue;
      }
      if (d.couldNotResolve) {
        stats.depsUnresolved++;
        continue;
      }
      if (!inCorpus(d.resolved)) {
        stats.depsExternal++;
        continue;
      }
      if (!isSourcePath(d.resolved)) {
        stats.depsNonSource++;
        continue;
      }
      stats.depsKept++;
      for (const t of d.dependencyTypes) stats.byType[t] = (stats.byType[t] ?? 0) + 1;
      const k = edgeKey(m.source, d.resolved);
      let e = edges.get(k);
      if (!e) edges.set(k, (e = { source: m.source, target: d.resolved, types: new Set(), specifiers: new Set() }));
      for (const t of d.dependencyTypes) e.types.add(t);
      e.specifiers.add(d.module);
    }
  }
  return { files, edges, stats };
}

/** hybrid = ts-aware edges for TypeScript-family sources, plain edges for JavaScript-family sources. */
export function hybridEdges(plain, tsAware) {
  const files = new Set([...plain.files].filter((f) => tsAware.files.has(f)));
  const edges = new Map();
  for (const [k, e] of plain.edges) if (!isTsFamily(e.source)) edges.set(k, e);
  for (const [k, e] of tsAware.edges) if (isTsFamily(e.source)) edges.set(k, e);
  return { files, edges, stats: { derivedFrom: 'plain (JS sources) + ts-aware (TS sources)' } };
}

export function loadDepcruiseJson(file) {
  return readJson(file);
}

/**
 * Resolution facts about a depcruise result, for the findings list: how each (source kind → target kind) pair was
 * resolved, counts per dependency type, unresolved specifiers.
 */
export function depcruiseFacts(json) {
  const kind = (p) => {
    const m = p.match(/(\.d)?\.[a-z]+$/);
    return m ? m[0] : path.extname(p);
  };
  const pairs = {};
  const types = {};
  const unresolved = {};
  for (const m of json.modules) {
    for (const d of m.dependencies) {
      const t = d.dependencyTypes.join(',');
      types[t] = (types[t] ?? 0) + 1;
      if (d.couldNotResolve) {
        const k = `${d.module} (${t})`;
        unresolved[k] = (unresolved[k] ?? 0) + 1;
      } else if (!d.coreModule) {
        const k = `${kind(m.source)} → ${kind(d.resolved)}${d.module.startsWith('.') ? '' : ' (bare specifier)'}`;
        pairs[k] = (pairs[k] ?? 0) + 1;
      }
    }
  }
  return { pairs, types, unresolved };
}
