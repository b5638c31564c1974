// Measures one command run as a child process: wall time, CPU time (user+sys, including the child's own children)
// and peak RSS.
//
// Method 'gnu-time' (preferred): the command runs under `/usr/bin/time -f '%e %U %S %M' -o <file>`. GNU time
// reports the rusage of the waited-for child, which on Linux includes every descendant the child waited for, and
// %M = max RSS (KiB) of the largest process in that tree. Resolution of %U/%S is 10 ms.
//
// Method 'procfs' (fallback when /usr/bin/time is absent): CPU = the delta of this process's own cutime+cstime from
// /proc/self/stat (fields 16/17: CPU of reaped children and their reaped descendants, in clock ticks) around the
// run; peak RSS = the largest VmHWM seen by polling /proc/<pid>/status of the child and its descendants every
// 10 ms (an approximation: a process that lives < 10 ms or peaks just before exiting can be missed).
// Wall time is always process.hrtime.bigint() around spawn → exit, in this process.
//
// Option `tree: true` also samples, every 20 ms, the memory of the whole process tree: the sum of each process's PSS
// (/proc/<pid>/smaps_rollup: its private pages plus its share of the pages it shares, such as Node's own code), so a
// command whose child processes run beside it is counted as the machine holds it, not as GNU time's %M (the largest
// single process). Resolves `treePeakMB` (null where /proc gives no smaps_rollup).
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { WORK_DIR, mkdirp } from './common.mjs';

const GNU_TIME = '/usr/bin/time';

let cachedMethod = null;
/** 'gnu-time' when /usr/bin/time is GNU time and works, else 'procfs'. */
export function defaultMethod() {
  if (cachedMethod) return cachedMethod;
  cachedMethod = 'procfs';
  if (fs.existsSync(GNU_TIME)) {
    const probe = path.join(mkdirp(path.join(WORK_DIR, 'measure')), 'probe.txt');
    const r = spawnSync(GNU_TIME, ['-f', '%e %U %S %M', '-o', probe, 'true'], { stdio: 'ignore' });
    try {
      if (r.status === 0 && /^\d+\.\d+ \d+\.\d+ \d+\.\d+ \d+\s*$/.test(fs.readFileSync(probe, 'utf8').trim().split('\n').pop() + '\n'))
        cachedMethod = 'gnu-time';
    } catch {}
  }
  return cachedMethod;
}

let clkTck = null;
function clockTicks() {
  if (clkTck) return clkTck;
  try {
    clkTck = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  } catch {
    clkTck = 100;
  }
  return clkTck;
}

/** cutime + cstime of this process, in ms. */
function childrenCpuMs() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  const cutime = Number(fields[16 - 3]);
  const cstime = Number(fields[17 - 3]);
  const tck = clockTicks();
  return { user: (cutime * 1000) / tck, sys: (cstime * 1000) / tck };
}

function descendants(pid) {
  // /proc/<pid>/task/<pid>/children lists direct children (Linux ≥ 3.5 with CONFIG_PROC_CHILDREN)
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      const kids = fs.readFileSync(`/proc/${out[i]}/task/${out[i]}/children`, 'utf8').trim();
      if (kids) for (const k of kids.split(/\s+/)) out.push(Number(k));
    } catch {}
  }
  return out;
}

function pssKiB(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)\s+kB/m);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function hwmKiB(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+)\s+kB/m);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `cmd args` and resolves to { wallMs, userMs, sysMs, cpuMs, maxRssMB, exitCode, signal, method, logFile }.
 * The child's stdout/stderr go to `logFile` (default: a file under bench/.work/measure/). Never rejects because
 * the command failed: check exitCode.
 */
export async function measure(cmd, args, { cwd, env, logFile, method = defaultMethod(), timeoutMs = 30 * 60 * 1000, tree = false } = {}) {
  const dir = mkdirp(path.join(WORK_DIR, 'measure'));
  logFile ??= path.join(dir, `run-${process.pid}-${Date.now()}.log`);
  mkdirp(path.dirname(logFile));
  const fd = fs.openSync(logFile, 'w');
  const timeFile = path.join(dir, `time-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  let file = cmd;
  let argv = args;
  if (method === 'gnu-time') {
    file = GNU_TIME;
    argv = ['-f', '%e %U %S %M', '-o', timeFile, cmd, ...args];
  }
  const before = method === 'procfs' ? childrenCpuMs() : null;
  let peakKiB = 0;
  const t0 = process.hrtime.bigint();
  const child = spawn(file, argv, { cwd, env, stdio: ['ignore', fd, fd] });
  let poll = null;
  if (method === 'procfs') {
    poll = setInterval(() => {
      for (const p of descendants(child.pid)) peakKiB = Math.max(peakKiB, hwmKiB(p));
    }, 10);
  }
  let treePeakKiB = tree ? 0 : null;
  const treePoll = tree
    ? setInterval(() => {
        let sum = 0;
        // under GNU time the command is its child: time's own few hundred KB are left out
        for (const p of descendants(child.pid).slice(method === 'gnu-time' ? 1 : 0)) sum += pssKiB(p) ?? 0;
        if (sum === 0) return; // between spawn and exec, or /proc without smaps_rollup
        treePeakKiB = Math.max(treePeakKiB, sum);
      }, 20)
    : null;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const { code, signal } = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (c, s) => resolve({ code: c, signal: s }));
  });
  const t1 = process.hrtime.bigint();
  clearTimeout(timer);
  if (poll) clearInterval(poll);
  if (treePoll) clearInterval(treePoll);
  fs.closeSync(fd);
  const wallMs = Number(t1 - t0) / 1e6;
  let userMs, sysMs, maxRssMB;
  let exitCode = code;
  if (method === 'gnu-time') {
    const text = fs.existsSync(timeFile) ? fs.readFileSync(timeFile, 'utf8') : '';
    fs.rmSync(timeFile, { force: true });
    // When the command fails GNU time writes "Command exited with non-zero status N" before the figures.
    const m = text.trim().split('\n').pop().match(/^([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/);
    const st = text.match(/exited with non-zero status (\d+)/);
    if (st) exitCode = Number(st[1]);
    if (!m) throw new Error(`measure: could not read GNU time output for ${cmd}: ${JSON.stringify(text)}`);
    userMs = Number(m[2]) * 1000;
    sysMs = Number(m[3]) * 1000;
    maxRssMB = Number(m[4]) / 1024;
  } else {
    const after = childrenCpuMs();
    userMs = after.user - before.user;
    sysMs = after.sys - before.sys;
    maxRssMB = peakKiB / 1024;
  }
  const treePeakMB = treePeakKiB ? treePeakKiB / 1024 : null;
  return { wallMs, userMs, sysMs, cpuMs: userMs + sysMs, maxRssMB, treePeakMB, exitCode, signal, method, logFile };
}

/** Last `n` characters of a run's log, for error messages. */
export function tailLog(logFile, n = 2000) {
  try {
    const s = fs.readFileSync(logFile, 'utf8');
    return s.slice(-n);
  } catch {
    return '';
  }
}
