#!/usr/bin/env node
// The scan, A/B in one process, interleaved: (a) the engine's own synchronous walk (scanProject) against (b) fast-glob
// configured as well as it can be for this job: no stats, onlyFiles, no symlinks followed, the built-in and
// configured exclusions and the root .gitignore's plain folder rules as `ignore`, then lstatSync only for the files
// the file filter accepts. Both must list the same paths, sizes and mtimes (asserted every round). CPU time
// (process.cpuUsage, user + system) and wall time, medians of --runs rounds; the order alternates each round.
// --sync: fast-glob's synchronous API instead.
// fast-glob is no longer a dependency (this measurement is why: ARCHITECTURE.md, "Dependencies and why"); to rerun:
//   npm i --no-save fast-glob@3.3.3 && node bench/scan-ab.mjs [--root bench/.work/monorepo/50000] [--runs 7] [--sync]
import { lstatSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/common.mjs';
import { median } from './lib/stats.mjs';

const fg = await import('fast-glob').then((m) => m.default, () => {
  console.error('bench/scan-ab.mjs: fast-glob is not installed (no longer a dependency): npm i --no-save fast-glob@3.3.3');
  process.exit(2);
});

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const root = path.resolve(arg('root', path.join(ROOT, 'bench/.work/monorepo/50000')));
const runs = Number(arg('runs', '7'));
const engine = (p) => import(pathToFileURL(path.join(ROOT, 'dist/engine/src', p)).href);
const { scanProject, createFileFilter } = await engine('scan/index.js');
const { readIntelConfig, BUILTIN_EXCLUDE } = await engine('config.js');
const config = readIntelConfig(root);

const SYNC = process.argv.includes('--sync');

/**
 * What fast-glob's `ignore` can take of the root .gitignore cheaply: its plain folder rules (`name/`, `a/b/`, no
 * wildcard) as globs, and none at all when the file negates anything (a `!` could re-include a file in such a folder).
 * Nested .gitignore files would need the walk itself; the file filter still applies every rule to what is listed.
 */
function gitignoreFolderGlobs() {
  let lines;
  try {
    lines = readFileSync(path.join(root, '.gitignore'), 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  } catch {
    return [];
  }
  if (lines.some((l) => l.startsWith('!'))) return [];
  return lines
    .filter((l) => l.endsWith('/') && !/[*?[\]\\]/.test(l))
    .map((l) => l.replace(/^\/+/, '').replace(/\/+$/, ''))
    .map((dir) => (dir.includes('/') ? `${dir}/**` : `**/${dir}/**`));
}

async function fastGlob() {
  const accept = createFileFilter(root, config);
  const paths = await (SYNC ? fg.sync : fg)(config.include, {
    cwd: root,
    ignore: [...BUILTIN_EXCLUDE, ...config.exclude, ...gitignoreFolderGlobs()],
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    stats: false,
    suppressErrors: true,
    unique: true,
  });
  const files = [];
  for (const rel of paths) {
    if (!accept(rel)) continue;
    const st = lstatSync(path.join(root, rel), { throwIfNoEntry: false });
    if (st?.isFile()) files.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const variants = { walker: () => scanProject(root, config), fastGlob };
const times = { walker: { cpu: [], wall: [] }, fastGlob: { cpu: [], wall: [] } };
const loadStart = os.loadavg().map((x) => x.toFixed(2)).join(' ');
const same = (a, b) => a.length === b.length && a.every((f, i) => f.path === b[i].path && f.size === b[i].size && f.mtimeMs === b[i].mtimeMs);
let count = 0;
for (let round = -1; round < runs; round++) {
  const order = round % 2 === 0 ? ['walker', 'fastGlob'] : ['fastGlob', 'walker'];
  const out = {};
  for (const name of order) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    out[name] = await variants[name]();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (round >= 0) { // round -1 warms the page cache and the JIT for both
      times[name].wall.push(wall);
      times[name].cpu.push((cpu.user + cpu.system) / 1000);
    }
  }
  if (!same(out.walker, out.fastGlob)) throw new Error(`round ${round}: the two scans differ (${out.walker.length} vs ${out.fastGlob.length} files)`);
  count = out.walker.length;
}
const ms = (xs) => Math.round(median(xs));
const w = { cpu: ms(times.walker.cpu), wall: ms(times.walker.wall) };
const g = { cpu: ms(times.fastGlob.cpu), wall: ms(times.fastGlob.wall) };
console.log(`${root}: ${count} files, identical paths/sizes/mtimes in every round; medians of ${runs} interleaved rounds`);
console.log(`  walker    CPU ${w.cpu} ms  wall ${w.wall} ms`);
console.log(`  fast-glob CPU ${g.cpu} ms  wall ${g.wall} ms  (CPU ×${(g.cpu / w.cpu).toFixed(2)} of the walker)`);
console.log(`  load average at start ${loadStart}, at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; Node ${process.version}, ${os.cpus().length} cores`);
