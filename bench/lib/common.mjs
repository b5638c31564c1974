// Shared paths, logging and argument parsing for the bench scripts. No dependencies beyond node:*.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(BENCH_DIR, '..');
export const TOOLS_DIR = path.join(BENCH_DIR, '.tools');
export const CORPORA_DIR = path.join(BENCH_DIR, '.corpora');
export const WORK_DIR = path.join(BENCH_DIR, '.work');
export const RESULTS_MD = path.join(BENCH_DIR, 'RESULTS.md');
/**
 * Our CLI and engine entry points, as built by `npm run build` from ROOT: the CLI is package.json "bin" (the esbuild
 * bundle dist/cli/cli.js, what an installed package runs); the engine is tsc output, imported by the in-process benches.
 */
export const OUR_CLI = path.join(ROOT, JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin['get-shit-done-cc']);
/** OUR_CLI relative to ROOT, for messages. */
export const OUR_CLI_REL = path.relative(ROOT, OUR_CLI);
export const OUR_ENGINE = path.join(ROOT, 'dist', 'engine', 'src', 'index.js');

/** File extensions both tools scan (.d.ts / .d.mts / .d.cts are covered by .ts / .mts / .cts). */
export const SOURCE_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'];
export const SOURCE_RE = /\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)$/;
export const isSourcePath = (p) => SOURCE_RE.test(p);

/** Progress goes to stderr, so stdout stays free for data. */
export function log(...args) {
  const t = new Date().toISOString().slice(11, 19);
  process.stderr.write(`[${t}] ${args.join(' ')}\n`);
}

/**
 * Minimal argv parser. `spec` maps option names to { type: 'boolean'|'string'|'number', default, help }.
 * Returns { opts, positionals }. Prints help (with `usage`) and exits 0 on --help / -h.
 */
export function parseArgs(argv, spec, usage) {
  const opts = {};
  for (const [k, v] of Object.entries(spec)) opts[k] = v.default;
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      process.stdout.write(formatHelp(spec, usage));
      process.exit(0);
    }
    if (a.startsWith('--')) {
      let [name, value] = a.slice(2).split(/=(.*)/s, 2);
      const neg = name.startsWith('no-') && spec[name.slice(3)]?.type === 'boolean';
      if (neg) name = name.slice(3);
      const s = spec[name];
      if (!s) throw new UsageError(`unknown option --${name}`);
      if (s.type === 'boolean') {
        opts[name] = neg ? false : value === undefined ? true : value !== 'false';
      } else {
        if (value === undefined) {
          value = argv[++i];
          if (value === undefined) throw new UsageError(`--${name} needs a value`);
        }
        opts[name] = s.type === 'number' ? Number(value) : value;
        if (s.type === 'number' && !Number.isFinite(opts[name])) throw new UsageError(`--${name} needs a number`);
      }
    } else positionals.push(a);
  }
  return { opts, positionals };
}

export class UsageError extends Error {}

export function formatHelp(spec, usage) {
  const lines = [usage.trim(), '', 'Options:'];
  for (const [k, v] of Object.entries(spec)) {
    const flag = v.type === 'boolean' ? `--${k}` : `--${k} <${v.type === 'number' ? 'n' : 'value'}>`;
    const def = v.default === undefined || v.default === false || v.default === '' ? '' : ` (default: ${Array.isArray(v.default) ? v.default.join(',') : v.default})`;
    lines.push(`  ${flag.padEnd(26)} ${v.help ?? ''}${def}`);
  }
  lines.push(`  ${'--help'.padEnd(26)} show this help`, '');
  return lines.join('\n');
}

/**
 * Runs `main`, mapping UsageError to exit 2 and any other error to exit 1 (a missed bar is never an error); then
 * deletes what the run set aside (setAside), once nothing is measured any more.
 */
export function runMain(main) {
  const done = () => emptySetAside();
  settleAfterDeletes().then(main).then(
    (code) => {
      done();
      process.exitCode = typeof code === 'number' ? code : 0;
    },
    (err) => {
      done();
      if (err instanceof UsageError) {
        process.stderr.write(`error: ${err.message} (see --help)\n`);
        process.exitCode = 2;
      } else {
        process.stderr.write(`error: ${err?.stack ?? err}\n`);
        process.exitCode = 1;
      }
    },
  );
}

/** Runs a command synchronously, inheriting stderr; throws with its output when it fails. */
export function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status ?? r.signal}\n${(r.stderr || '').slice(-4000)}${(r.stdout || '').slice(-2000)}`);
  }
  return r.stdout;
}

export function rmrf(p) {
  fs.rmSync(p, { recursive: true, force: true, maxRetries: 3 });
}

export function mkdirp(p) {
  fs.mkdirSync(p, { recursive: true });
  return p;
}

/**
 * Old output a bench replaces goes here, renamed, and is deleted only when the bench process ends (runMain; run.mjs:
 * when its last bench has ended). Why: this machine's ext4 has no journal, and then its inode allocator passes over
 * the inodes freed between about 1 s and 6 min ago (ext4's recently_deleted), one by one and again for every file it
 * creates. Measured here: 10,000 small files written in 0.25-0.3 s, or in 2-5 s (all of it kernel time) shortly
 * after 10,000-20,000 files were deleted; a 50,000-file `intel build` right after the previous intel folder was
 * deleted spent 8-10 s writing its entity pages. That is the benchmark's own deleting, not the tool it measures.
 */
export const SET_ASIDE_DIR = path.join(WORK_DIR, 'set-aside');
let setAsideCount = 0;

/** Moves `p` (if it exists) out of the way without deleting anything; emptySetAside deletes it later. */
export function setAside(p) {
  if (!fs.existsSync(p)) return;
  mkdirp(SET_ASIDE_DIR);
  try {
    fs.renameSync(p, path.join(SET_ASIDE_DIR, `${process.pid}-${Date.now()}-${setAsideCount++}`));
  } catch (err) {
    if (err?.code !== 'EXDEV') throw err;
    rmrf(p); // another file system: nothing to gain there
  }
}

/** When a bench last deleted what it had set aside (ms since the epoch), for the next bench's settleAfterDeletes. */
const EMPTIED_STAMP = path.join(WORK_DIR, 'set-aside-emptied');
/** ext4's window for a freed inode: 60 s, and 300 s more while its inode table block is not yet written back */
const RECENTLY_DELETED_MS = 360_000;

/** Deletes what was set aside; run.mjs's children leave it to run.mjs (GSD_BENCH_SET_ASIDE=keep). */
export function emptySetAside() {
  if (process.env.GSD_BENCH_SET_ASIDE === 'keep' || !fs.existsSync(SET_ASIDE_DIR)) return;
  rmrf(SET_ASIDE_DIR);
  fs.writeFileSync(EMPTIED_STAMP, `${Date.now()}\n`);
}

/**
 * Before a bench measures: when a bench deleted what it had set aside less than 6 minutes ago, waits until then (the
 * deleted inodes would slow this bench's file writes; see SET_ASIDE_DIR). GSD_BENCH_NO_SETTLE=1 skips the wait.
 */
export async function settleAfterDeletes() {
  if (process.env.GSD_BENCH_NO_SETTLE === '1' || process.env.GSD_BENCH_SET_ASIDE === 'keep' || process.argv.includes('--help')) return;
  const emptied = Number(readJson(EMPTIED_STAMP, null) ?? NaN);
  const left = emptied + RECENTLY_DELETED_MS - Date.now();
  if (!(left > 0)) return;
  log(`bench: waiting ${Math.ceil(left / 1000)} s: a bench deleted its set-aside output at ${new Date(emptied).toISOString().slice(11, 19)}, and files written within 6 minutes of that are slower here (bench/README.md; GSD_BENCH_NO_SETTLE=1 skips this)`);
  await new Promise((resolve) => setTimeout(resolve, left));
}

/** Fresh copy of `src` at `dest` (an existing dest is set aside first). */
export function freshCopy(src, dest) {
  setAside(dest);
  mkdirp(path.dirname(dest));
  fs.cpSync(src, dest, { recursive: true });
  return dest;
}

/** Lists files under `dir` (relative, `/` separators), skipping the folders in `skipDirs`. */
export function listFiles(dir, skipDirs = new Set(['node_modules', '.git', '.planning', '.codegraph'])) {
  const out = [];
  const walk = (abs, rel) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!skipDirs.has(e.name)) walk(path.join(abs, e.name), rel ? `${rel}/${e.name}` : e.name);
      } else if (e.isFile()) out.push(rel ? `${rel}/${e.name}` : e.name);
    }
  };
  walk(dir, '');
  return out.sort();
}

export function machineInfo() {
  const cpus = os.cpus();
  let osName = `${os.type()} ${os.release()}`;
  try {
    const rel = fs.readFileSync('/etc/os-release', 'utf8');
    const m = rel.match(/^PRETTY_NAME="?([^"\n]+)"?/m);
    if (m) osName = `${m[1]} (kernel ${os.release()})`;
  } catch {}
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    os: osName,
    node: process.version,
    loadavg: os.loadavg().map((x) => x.toFixed(2)).join(' '),
  };
}

export function readJson(p, fallback = undefined) {
  try {
    return JSON.parse(fs.readFileSync(p, 'utf8'));
  } catch (e) {
    if (fallback !== undefined) return fallback;
    throw e;
  }
}

export function writeJson(p, data) {
  mkdirp(path.dirname(p));
  fs.writeFileSync(p, JSON.stringify(data, null, 2) + '\n');
}

/** Environment for npm calls: quiet, no audit/fund noise. */
export function npmEnv() {
  return { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** True when our built CLI exists (it may still fail; callers check the exit code). */
export function ourCliBuilt() {
  return fs.existsSync(OUR_CLI);
}
