/**
 * Opens a local file in the user's browser when one can be reached: `open` on macOS, `explorer.exe` on Windows,
 * `$BROWSER` or `xdg-open` elsewhere (only with a display). The file is passed as one argument to a program started
 * without a shell, so no character of its path is ever interpreted.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { findOnPath, isExecutable } from './install/fsops.js';

export type OpenResult = { opened: true; via: string } | { opened: false; reason: string };

const onPath = (name: string): string | null => (path.isAbsolute(name) ? (isExecutable(name) ? name : null) : (findOnPath(name) ?? null));

/** The program that would open `file`, or why there is none. */
export function browserCommand(platform: NodeJS.Platform = process.platform): { command: string } | { reason: string } {
  const env = process.env;
  if (platform === 'darwin') return { command: 'open' };
  if (platform === 'win32') return { command: 'explorer.exe' };
  const browser = env.BROWSER?.trim();
  if (browser) {
    const found = onPath(browser);
    return found ? { command: found } : { reason: `$BROWSER (${browser}) is not an executable on PATH` };
  }
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { reason: 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set) and no $BROWSER' };
  const xdg = onPath('xdg-open');
  return xdg ? { command: xdg } : { reason: 'xdg-open is not installed and no $BROWSER is set' };
}

export async function openInBrowser(file: string): Promise<OpenResult> {
  const which = browserCommand();
  if ('reason' in which) return { opened: false, reason: which.reason };
  return new Promise((resolve) => {
    const child = spawn(which.command, [file], { detached: true, stdio: 'ignore', shell: false });
    child.once('error', (error) => resolve({ opened: false, reason: `${which.command} could not be started (${error.message})` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ opened: true, via: which.command });
    });
  });
}
