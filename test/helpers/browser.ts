/**
 * A real headless browser for the page tests: Debian's `chromium`, driven by playwright-core (which downloads nothing).
 *
 * When no chromium is on this machine and we are root with apt-get (a fresh CI machine: `bash .ci/run`), Debian's
 * package is installed once: `apt-get update` + `apt-get install -y chromium`, under a lock (a folder created
 * atomically in node_modules/.cache) so that test files running in parallel neither race nor install twice. Anywhere
 * else (no root, no apt, the install failed) the tests skip with a message saying why and how to get a browser.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive } from '../../engine/src/process-alive.js';
import type { Browser } from 'playwright-core';
import { findOnPath } from '../../installer/src/install/fsops.js';
import { repoRoot } from './paths.js';

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const cacheDir = path.join(repoRoot, 'node_modules', '.cache', 'gsd-test-chromium');
const lockDir = path.join(cacheDir, 'install.lock');
const failedMarker = path.join(cacheDir, 'install-failed');

const onPath = (name: string): string | null => findOnPath(name) ?? null;

function findChromium(): string | null {
  const given = process.env.GSD_CHROMIUM;
  if (given) return existsSync(given) ? given : null;
  for (const name of CANDIDATES) {
    const p = onPath(name);
    if (p) return p;
  }
  return null;
}

/** mkdir is atomic: the process that creates the folder holds the lock; a lock whose owner died is taken over. */
async function withInstallLock<T>(fn: () => T): Promise<T> {
  mkdirSync(cacheDir, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {
        /* being written: wait */
      }
      if (Number.isInteger(owner) && owner > 0 && !pidAlive(owner)) rmSync(lockDir, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function aptInstall(): string | null {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  process.stderr.write('# no chromium on this machine: installing Debian\'s chromium (apt-get install -y chromium), once\n');
  const update = run(['update']);
  if (update.status !== 0) return `apt-get update failed: ${(update.stderr || update.stdout).trim().split('\n').slice(-3).join(' | ')}`;
  const install = run(['install', '-y', 'chromium']);
  if (install.status !== 0) return `apt-get install -y chromium failed: ${(install.stderr || install.stdout).trim().split('\n').slice(-3).join(' | ')}`;
  return null;
}

let found: Promise<{ executablePath: string } | { skip: string }> | null = null;

/** The chromium executable, installing Debian's package when possible; or why the browser tests must skip. */
export function chromiumExecutable(): Promise<{ executablePath: string } | { skip: string }> {
  found ??= (async () => {
    const existing = findChromium();
    if (existing) return { executablePath: existing };
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!root || !onPath('apt-get')) {
      return { skip: 'no chromium on this machine and no way to install it here (needs root and apt-get); install Debian\'s chromium or set GSD_CHROMIUM=/path/to/chrome' };
    }
    return withInstallLock(() => {
      const again = findChromium();
      if (again) return { executablePath: again };
      if (existsSync(failedMarker) && Date.now() - statSync(failedMarker).mtimeMs < 30 * 60_000) return { skip: `installing chromium failed in the last 30 minutes: ${readFileSync(failedMarker, 'utf8')}` };
      const failure = aptInstall();
      const after = findChromium();
      if (after) return { executablePath: after };
      const why = failure ?? 'apt-get install -y chromium left no chromium on PATH';
      writeFileSync(failedMarker, why);
      return { skip: `no chromium: ${why}` };
    });
  })();
  return found;
}

/** Launches headless chromium, or returns the reason to skip. */
export async function launchBrowser(): Promise<Browser | { skip: string }> {
  const exe = await chromiumExecutable();
  if ('skip' in exe) return exe;
  const { chromium } = await import('playwright-core');
  // --no-sandbox: CI runs as root, where chromium refuses its sandbox
  return chromium.launch({ executablePath: exe.executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}
