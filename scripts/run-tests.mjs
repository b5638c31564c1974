#!/usr/bin/env node
// Runs every compiled *.test.js under dist/test with Node's own test runner (helpers and fixtures are not tests).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..');
const base = path.join(root, 'dist', 'test');
const filter = process.argv.slice(2);
const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.test.js') && (!filter.length || filter.some((f) => p.includes(f)))) files.push(p);
  }
};
walk(base);
files.sort();
if (!files.length) {
  console.error(`no test files under ${base}${filter.length ? ` matching ${filter.join(' ')}` : ''}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
