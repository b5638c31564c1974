/** The pinned `claude` CLI of the end-to-end tests (cached by test/hooks/e2e-claude.test.ts) and a way to run it. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLAUDE_BIN = path.join(process.env.GSD_CLAUDE_CACHE ?? path.join(os.homedir(), '.cache', 'get-shit-done-cc', 'claude-2.1.330'), 'node_modules', '.bin', 'claude');

/** Runs a command to its end (killed after `capMs`), collecting its output. */
export function runProcess(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, capMs: number) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const cap = setTimeout(() => child.kill('SIGKILL'), capMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cap);
      resolve({ code, stdout, stderr });
    });
  });
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
