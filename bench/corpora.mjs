#!/usr/bin/env node
// Fetches the pinned benchmark corpora from the npm registry into bench/.corpora/<name> (idempotent).
import fs from 'node:fs';
import path from 'node:path';
import { CORPORA_DIR, WORK_DIR, log, mkdirp, npmEnv, parseArgs, readJson, rmrf, runMain, sh, UsageError, writeJson, listFiles, isSourcePath } from './lib/common.mjs';

/**
 * The pinned corpora. `pkg@version` is what `npm pack` fetches; the tarball's `package/` folder becomes the corpus root.
 * - zod:      TypeScript (src/*.ts) plus the shipped .js/.cjs/.d.ts/.d.cts; the ≥700-file code base of the speed bar.
 * - date-fns: ES modules with `export *` barrels (+ .cjs and .d.ts/.d.cts twins). 4.1.0, pinned;
 *             the latest 4.x on the registry was 4.4.0 when this was written.
 * - lodash:   CommonJS (`require('./_baseX')`).
 * - webpack:  a large CommonJS code base (lib/**, 850 source files, 10.9 MB with its big types.d.ts): about the size
 *             the speed bar against dependency-cruiser was set for (800 files, 12 MB). Speed is reported on it
 *             too; the speed bars stay judged on zod.
 */
export const CORPORA = [
  { name: 'zod', pkg: 'zod', version: '4.6.7', kind: 'TypeScript + shipped JS/.d.ts' },
  { name: 'date-fns', pkg: 'date-fns', version: '4.1.0', kind: 'ESM with export * barrels' },
  { name: 'lodash', pkg: 'lodash', version: '4.17.21', kind: 'CommonJS' },
  { name: 'webpack', pkg: 'webpack', version: '5.112.2', kind: 'large CommonJS' },
];

export const corpusDir = (name) => path.join(CORPORA_DIR, name);
const stampFile = (name) => path.join(CORPORA_DIR, `${name}.stamp.json`);

export function getCorpus(name) {
  const c = CORPORA.find((x) => x.name === name);
  if (!c) throw new UsageError(`unknown corpus ${name} (known: ${CORPORA.map((x) => x.name).join(', ')})`);
  return c;
}

/** Parses a comma list of corpus names ('all' or empty = all). */
export function selectCorpora(list) {
  if (!list || list === 'all') return CORPORA.slice();
  return String(list)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(getCorpus);
}

/** Makes sure the corpus is present at its pinned version; returns its directory. */
export function ensureCorpus(c, { force = false } = {}) {
  const dir = corpusDir(c.name);
  const stamp = readJson(stampFile(c.name), null);
  if (!force && stamp && stamp.pkg === c.pkg && stamp.version === c.version && fs.existsSync(path.join(dir, 'package.json'))) {
    return dir;
  }
  log(`corpora: fetching ${c.pkg}@${c.version}`);
  const tmp = mkdirp(path.join(WORK_DIR, 'pack-tmp', c.name));
  rmrf(tmp);
  mkdirp(tmp);
  const out = sh('npm', ['pack', `${c.pkg}@${c.version}`, '--pack-destination', tmp, '--json', '--silent'], { cwd: tmp, env: npmEnv() });
  let info = null;
  try {
    info = JSON.parse(out.slice(out.indexOf('[')))[0];
  } catch {}
  const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error(`npm pack ${c.pkg}@${c.version} produced no tarball`);
  rmrf(dir);
  mkdirp(dir);
  sh('tar', ['-xzf', path.join(tmp, tgz), '-C', dir, '--strip-components=1', '--no-same-owner']);
  rmrf(tmp);
  const files = listFiles(dir);
  writeJson(stampFile(c.name), {
    pkg: c.pkg,
    version: c.version,
    integrity: info?.integrity ?? null,
    shasum: info?.shasum ?? null,
    fetchedAt: new Date().toISOString(),
    files: files.length,
    sourceFiles: files.filter(isSourcePath).length,
  });
  log(`corpora: ${c.name} ready (${files.filter(isSourcePath).length} source files) in ${dir}`);
  return dir;
}

export function corpusStamp(name) {
  return readJson(stampFile(name), null);
}

export function ensureCorpora(list, opts) {
  return list.map((c) => ({ ...c, dir: ensureCorpus(c, opts) }));
}

const USAGE = `
Usage: node bench/corpora.mjs [--corpora zod,date-fns,lodash] [--force]

Fetches the pinned corpora (npm pack + tar -xzf) into bench/.corpora/<name>. Idempotent: a corpus whose
stamp file (bench/.corpora/<name>.stamp.json) matches the pinned version is left alone.
Pinned: ${CORPORA.map((c) => `${c.pkg}@${c.version}`).join(', ')}`;

const SPEC = {
  corpora: { type: 'string', default: 'all', help: 'comma list of corpus names, or all' },
  force: { type: 'boolean', default: false, help: 're-fetch even when present' },
};

if (process.argv[1]?.endsWith("/corpora.mjs")) {
  runMain(async () => {
    const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
    for (const c of ensureCorpora(selectCorpora(opts.corpora), { force: opts.force })) {
      const s = corpusStamp(c.name);
      process.stdout.write(`${c.name}\t${c.pkg}@${c.version}\t${s.sourceFiles} source files\t${c.dir}\n`);
    }
  });
}
