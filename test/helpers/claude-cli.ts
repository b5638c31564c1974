/**
 * The pinned `claude` CLI for end-to-end tests: installed on first use into a cache outside the repository
 * (~/.cache/get-shit-done-cc/claude-2.1.330, or $GSD_CLAUDE_CACHE); when it cannot be installed, tests skip.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLAUDE_VERSION = '2.1.330';
const CACHE = process.env.GSD_CLAUDE_CACHE ?? path.join(os.homedir(), '.cache', 'get-shit-done-cc', `claude-${CLAUDE_VERSION}`);
const BIN = path.join(CACHE, 'node_modules', '.bin', process.platform === 'win32' ? 'claude.cmd' : 'claude');

/** The pinned CLI, installed into the cache on first use; or why the test must be skipped. */
export function ensureClaude(): { bin: string } | { skip: string } {
  const works = () => {
    if (!existsSync(BIN)) return false;
    const r = spawnSync(BIN, ['--version'], { encoding: 'utf8', timeout: 60_000 });
    return r.status === 0 && r.stdout.includes(CLAUDE_VERSION);
  };
  if (works()) return { bin: BIN };
  try {
    mkdirSync(CACHE, { recursive: true });
  } catch (error) {
    return { skip: `cannot create the cache ${CACHE} for @anthropic-ai/claude-code@${CLAUDE_VERSION}: ${(error as Error).message}` };
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--no-save', `@anthropic-ai/claude-code@${CLAUDE_VERSION}`], {
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (r.error || r.status !== 0) {
    return { skip: `could not install @anthropic-ai/claude-code@${CLAUDE_VERSION} into ${CACHE}: ${r.error?.message ?? (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}` };
  }
  return works() ? { bin: BIN } : { skip: `@anthropic-ai/claude-code@${CLAUDE_VERSION} installed into ${CACHE} but \`claude --version\` does not run here` };
}

export function runClaude(bin: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; capMs: number }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const cap = setTimeout(() => child.kill('SIGKILL'), options.capMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cap);
      resolve({ code, stdout, stderr });
    });
  });
}


/** The pinned CLI's path (it exists once `ensureClaude()` succeeded). */
export const CLAUDE_BIN = BIN;

/** Runs a command to its end (killed after `capMs`), collecting its output. */
export function runProcess(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, capMs: number) {
  return runClaude(bin, args, { cwd, env, capMs });
}

/** A temporary HOME with an empty ~/.claude and `bin/claude` linked to the pinned CLI (put `bin` first on PATH). */
export function claudeHome(prefix: string): { home: string; bin: string } {
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  const bin = path.join(home, 'bin');
  mkdirSync(bin);
  symlinkSync(CLAUDE_BIN, path.join(bin, 'claude'));
  mkdirSync(path.join(home, '.claude'));
  return { home, bin };
}
