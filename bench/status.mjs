#!/usr/bin/env node
// `intel status` on a kept monorepo tree (bench/monorepo.mjs --keep), as whole CLI processes (GNU time): first with
// index-facts.bin removed (index.json split) and again (the sidecar read), interleaved
// with a floor taken in the same minutes: a bare node process that walks the same folders (readdir with file types)
// and lstats every JS/TS file, which any status that compares the disk with the index must do at least.
import fs from 'node:fs';
import path from 'node:path';
import { OUR_CLI, WORK_DIR, log, parseArgs, runMain } from './lib/common.mjs';
import { measure, tailLog } from './lib/measure.mjs';
import { median } from './lib/stats.mjs';

const USAGE = `
Usage: node bench/status.mjs [--tree DIR] [--rounds N]      (after npm run build and bench/monorepo.mjs --keep)

Interleaves, --rounds times: the floor (walk + lstat in a bare node process), \`intel status\` with index-facts.bin
removed (index.json split), \`intel status\` again. Prints the medians (wall and CPU ms) and the ratios to
the floor.`;

const SPEC = {
  tree: { type: 'string', default: path.join(WORK_DIR, 'monorepo', '50000'), help: 'a tree with .planning/intel built' },
  rounds: { type: 'number', default: 5, help: 'rounds (median)' },
};

/** The floor: what the scan cannot do without, in a node process of its own. */
const FLOOR = `
const fs = require('node:fs');
const root = fs.realpathSync(process.argv[1]) + '/';
const skip = new Set(['node_modules', '.git', '.planning', 'dist', 'build', 'coverage']);
const folders = [''];
let n = 0;
while (folders.length) {
  const rel = folders.pop();
  for (const e of fs.readdirSync(root + rel, { withFileTypes: true })) {
    const child = rel ? rel + '/' + e.name : e.name;
    if (e.isDirectory()) { if (!skip.has(e.name)) folders.push(child); }
    else if (e.isFile() && /\\.[cm]?[jt]sx?$/.test(e.name) && fs.lstatSync(root + child).isFile()) n++;
  }
}
console.log(n);
`;

async function main(argv) {
  const { opts } = parseArgs(argv, SPEC, USAGE);
  const root = path.resolve(opts.tree);
  const sidecar = path.join(root, '.planning', 'intel', 'index-facts.bin');
  if (!fs.existsSync(path.join(root, '.planning', 'intel', 'index.json'))) throw new Error(`no intel in ${root}: run node bench/monorepo.mjs --keep first`);
  const runs = { floor: [], first: [], again: [] };
  for (let i = 0; i < opts.rounds; i++) {
    runs.floor.push(await measure(process.execPath, ['-e', FLOOR, root], { cwd: root }));
    fs.rmSync(sidecar, { force: true });
    runs.first.push(await measure(process.execPath, [OUR_CLI, 'intel', 'status', root], { cwd: root }));
    runs.again.push(await measure(process.execPath, [OUR_CLI, 'intel', 'status', root], { cwd: root }));
    for (const k of ['floor', 'first', 'again']) if (runs[k].at(-1).exitCode !== 0) throw new Error(`${k} failed: ${tailLog(runs[k].at(-1).logFile)}`);
  }
  const m = (k, f) => median(runs[k].map((r) => r[f]));
  log(`status: ${root}, ${opts.rounds} rounds, load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  for (const k of ['floor', 'first', 'again']) {
    log(`  ${k.padEnd(6)} wall ${m(k, 'wallMs').toFixed(0)} ms, CPU ${m(k, 'cpuMs').toFixed(0)} ms (${(m(k, 'cpuMs') / m('floor', 'cpuMs')).toFixed(2)}× the floor's CPU)`);
  }
  return 0;
}

runMain(() => main(process.argv.slice(2)));
