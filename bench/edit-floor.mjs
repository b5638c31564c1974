#!/usr/bin/env node
// The floor under an incremental edit that keeps index.json and graph.db whole files rewritten by temp + rename:
// what reading them and writing a new copy costs at best on this machine (page cache warm, no fsync, as the edit path
// writes them). Usage: node bench/edit-floor.mjs <intel dir> [rounds]
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const rounds = Number(process.argv[3] ?? 7);
if (!dir) {
  console.error('usage: node bench/edit-floor.mjs <.planning/intel dir> [rounds]');
  process.exit(2);
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
function time(fn) {
  const w = performance.now();
  const c = cpu();
  fn();
  return { wall: performance.now() - w, cpu: cpu() - c };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const name of ['index.json', 'graph.db']) {
  const file = path.join(dir, name);
  const size = fs.statSync(file).size;
  const tmp = path.join(dir, `.floor-${process.pid}.tmp`);
  const ops = {
    'readFileSync': () => fs.readFileSync(file),
    'read into a buffer read before (no new memory)': (() => {
      const into = Buffer.allocUnsafe(size);
      fs.readFileSync(file).copy(into);
      return () => {
        const fd = fs.openSync(file, 'r');
        for (let at = 0; at < size; ) at += fs.readSync(fd, into, at, size - at, at);
        fs.closeSync(fd);
      };
    })(),
    'touch 1 MB-blocks of new memory of the same size (page faults only)': () => {
      for (let at = 0; at < size; at += 1 << 20) Buffer.allocUnsafeSlow(Math.min(1 << 20, size - at)).fill(1);
    },
    'copyFileSync to temp + rename over a copy': () => {
      fs.copyFileSync(file, tmp);
      fs.renameSync(tmp, `${tmp}.target`);
    },
    'write existing buffer (one writeSync) + rename': (() => {
      const bytes = fs.readFileSync(file);
      return () => {
        const fd = fs.openSync(tmp, 'w');
        for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
        fs.closeSync(fd);
        fs.renameSync(tmp, `${tmp}.target`);
      };
    })(),
    'writev of 50,000 slices of an existing buffer + rename': (() => {
      const bytes = fs.readFileSync(file);
      const n = 50000;
      const step = Math.ceil(bytes.length / n);
      const slices = [];
      for (let at = 0; at < bytes.length; at += step) slices.push(bytes.subarray(at, Math.min(bytes.length, at + step)));
      return () => {
        const fd = fs.openSync(tmp, 'w');
        for (let i = 0; i < slices.length; i += 1024) {
          const batch = slices.slice(i, i + 1024);
          let left = batch.reduce((s, b) => s + b.length, 0);
          const written = fs.writevSync(fd, batch);
          if (written !== left) throw new Error('short writev');
        }
        fs.closeSync(fd);
        fs.renameSync(tmp, `${tmp}.target`);
      };
    })(),
    'read + write back (readFileSync, writeSync, rename)': () => {
      const bytes = fs.readFileSync(file);
      const fd = fs.openSync(tmp, 'w');
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
      fs.closeSync(fd);
      fs.renameSync(tmp, `${tmp}.target`);
    },
  };
  for (const [op, fn] of Object.entries(ops)) {
    fn();
    const runs = [];
    for (let i = 0; i < rounds; i++) runs.push(time(fn));
    rows.push({ file: name, mb: size / 1e6, op, wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) });
  }
  fs.rmSync(tmp, { force: true });
  fs.rmSync(`${tmp}.target`, { force: true });
}
console.log(`load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log('| file | MB | operation | wall ms | CPU ms |');
console.log('| --- | ---: | --- | ---: | ---: |');
for (const r of rows) console.log(`| ${r.file} | ${r.mb.toFixed(1)} | ${r.op} | ${r.wall.toFixed(0)} | ${r.cpu.toFixed(0)} |`);
