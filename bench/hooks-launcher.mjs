#!/usr/bin/env node
// The hook command lines `install` registers, timed through a shell as Claude Code runs them, against `node -e 0`
// through the same shell in the same run (interleaved): with the runtime in place, and after its folder was deleted
// (the hook must then stay silent and cost no more than a bare node start). Usage, after npm run build:
//   node bench/hooks-launcher.mjs [--runs 30]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 30;
const { hookCommand } = await import(pathToFileURL(path.join(ROOT, 'dist', 'installer', 'src', 'install', 'target.js')).href);

const work = mkdtempSync(path.join(os.tmpdir(), 'gsd-launcher-'));
const runtime = path.join(work, 'gsdcc');
cpSync(path.join(ROOT, 'dist', 'runtime'), runtime, { recursive: true });
const project = path.join(work, 'project');
mkdirSync(project);
const file = path.join(project, 'a.ts');
writeFileSync(file, 'export const a = 1;\n');
const stdin = JSON.stringify({ session_id: 'bench', cwd: project, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'export const a = 1;\n' }, tool_response: { type: 'update', filePath: file } });
const env = { PATH: path.dirname(process.execPath), HOME: work, CLAUDE_PROJECT_DIR: project, GSD_WORKER_IDLE_MS: '0' };
const commands = {
  baseline: `"${process.execPath}" -e 0`,
  post: hookCommand(process.execPath, path.join(runtime, 'hooks', 'post-tool-use.cjs')),
  direct: `"${process.execPath}" "${path.join(runtime, 'hooks', 'post-tool-use.cjs')}"`,
};
const time = (command) => {
  const t = process.hrtime.bigint();
  const r = spawnSync('/bin/sh', ['-c', command], { input: stdin, cwd: project, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  return { ms, code: r.status, out: r.stdout, err: r.stderr };
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

function measure(names) {
  const t = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs + 3; i++) {
    for (const n of i % 2 ? [...names].reverse() : names) {
      const r = time(commands[n]);
      if (r.code !== 0) throw new Error(`${n} exited ${r.code}: ${r.err}`);
      if (i >= 3) t[n].push(r.ms);
    }
  }
  return t;
}
const line = (label, t, n) => `| ${label} | ${median(t.baseline).toFixed(1)} / ${p95(t.baseline).toFixed(1)} | ${median(t[n]).toFixed(1)} / ${p95(t[n]).toFixed(1)} | ${(median(t[n]) / median(t.baseline)).toFixed(2)}× |`;
const present = measure(['baseline', 'post', 'direct']);
rmSync(runtime, { recursive: true, force: true });
const gone = measure(['baseline', 'post']);
const silent = time(commands.post);
rmSync(work, { recursive: true, force: true });
console.log(`runs ${runs}, node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| case | node -e 0 median / p95 ms | hook median / p95 ms | median ratio |\n|---|---:|---:|---:|');
console.log(line('PostToolUse through the launcher, runtime in place', present, 'post'));
console.log(line('PostToolUse run directly (`node <script>`, the old command line)', present, 'direct'));
console.log(line('PostToolUse through the launcher, runtime folder deleted', gone, 'post'));
console.log(`runtime deleted: exit ${silent.code}, stdout ${JSON.stringify(silent.out)}, stderr ${JSON.stringify(silent.err)}`);
