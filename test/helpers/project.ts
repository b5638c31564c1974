import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture } from './paths.js';

const made: string[] = [];

/** A fresh temp folder holding a copy of test/fixtures/projects/<name>. */
export function copyProject(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `gsd-${name}-`));
  cpSync(fixture('projects', name), dir, { recursive: true });
  made.push(dir);
  return dir;
}

/** A fresh temp project made of the given files (paths relative to the root), with a .planning/ folder. */
export function tempProject(files: Record<string, string>, options: { planning?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gsd-project-'));
  if (options.planning !== false) mkdirSync(path.join(dir, '.planning'), { recursive: true });
  for (const [rel, content] of Object.entries(files)) writeFile(dir, rel, content);
  made.push(dir);
  return dir;
}

export function writeFile(root: string, rel: string, content: string | Uint8Array): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** Removes every temp folder made by this module (call from an `after` hook). */
export function cleanupProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
