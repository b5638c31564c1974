#!/usr/bin/env node
// Installs the pinned benchmark-only tools into bench/.tools (idempotent). Never touches the project's node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_DIR, log, mkdirp, npmEnv, parseArgs, readJson, runMain, sh, writeJson } from './lib/common.mjs';

/**
 * dependency-cruiser 17.x is the line that supports Node 20 (18.x needs a newer Node); typescript next to it so it
 * parses TypeScript (depcruise 17 accepts typescript >=2 <7); codegraph ships its own Node 24 runtime in the
 * platform package @colbymchenry/codegraph-<platform>-<arch> (an optional dependency).
 */
export const TOOLS = {
  'dependency-cruiser': '17.4.3',
  typescript: '5.9.3',
  '@colbymchenry/codegraph': '1.6.1',
};

const modDir = (name) => path.join(TOOLS_DIR, 'node_modules', ...name.split('/'));
export const installedVersion = (name) => readJson(path.join(modDir(name), 'package.json'), null)?.version ?? null;

export const DEPCRUISE_BIN = path.join(modDir('dependency-cruiser'), 'bin', 'dependency-cruise.mjs');

/**
 * The codegraph launcher that does the work: the platform package's `bin/codegraph` (a sh script that execs the
 * bundled Node with the app). We call it directly rather than through the npm shim (`npm-shim.js`, which would add
 * one more Node start-up run on our Node): that makes codegraph's figures slightly smaller, i.e. the comparison
 * is conservative in codegraph's favour.
 */
export function codegraphBin() {
  const plat = `@colbymchenry/codegraph-${process.platform}-${process.arch}`;
  const p = path.join(modDir(plat), 'bin', 'codegraph');
  return fs.existsSync(p) ? p : null;
}

/** Environment for codegraph: no telemetry, no daemon/watcher, no network self-heal download, private HOME. */
export function codegraphEnv(home) {
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    CODEGRAPH_TELEMETRY: '0',
    DO_NOT_TRACK: '1',
    CODEGRAPH_NO_DAEMON: '1',
    CODEGRAPH_NO_DOWNLOAD: '1',
    NO_COLOR: '1',
    CI: '1',
  };
}

export function toolsStatus() {
  return Object.entries(TOOLS).map(([name, want]) => ({ name, want, have: installedVersion(name) }));
}

export function ensureTools({ force = false } = {}) {
  const missing = toolsStatus().filter((t) => force || t.have !== t.want);
  if (missing.length || !codegraphBin()) {
    mkdirp(TOOLS_DIR);
    const pkgJson = path.join(TOOLS_DIR, 'package.json');
    if (!fs.existsSync(pkgJson)) writeJson(pkgJson, { name: 'gsd-bench-tools', private: true });
    const specs = Object.entries(TOOLS).map(([n, v]) => `${n}@${v}`);
    log(`tools: npm i --prefix ${path.relative(process.cwd(), TOOLS_DIR) || '.'} ${specs.join(' ')}`);
    sh('npm', ['i', '--prefix', TOOLS_DIR, '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
      env: npmEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  const st = toolsStatus();
  for (const t of st) if (t.have !== t.want) throw new Error(`tools: ${t.name} is ${t.have}, wanted ${t.want}`);
  if (!codegraphBin()) throw new Error(`tools: codegraph's platform package for ${process.platform}-${process.arch} is missing`);
  return st;
}

const USAGE = `
Usage: node bench/tools.mjs [--force]

Installs the pinned benchmark tools into bench/.tools with \`npm i --prefix bench/.tools\` (idempotent):
${Object.entries(TOOLS).map(([n, v]) => `  ${n}@${v}`).join('\n')}`;

if (process.argv[1]?.endsWith('/tools.mjs')) {
  runMain(async () => {
    const { opts } = parseArgs(process.argv.slice(2), { force: { type: 'boolean', default: false, help: 'reinstall' } }, USAGE);
    for (const t of ensureTools(opts)) process.stdout.write(`${t.name}@${t.have}\n`);
    process.stdout.write(`codegraph launcher: ${codegraphBin()}\ndepcruise: ${DEPCRUISE_BIN}\n`);
  });
}
