/** File-system steps of an install, each able to undo itself, so that a failed install rolls back to where it began. */
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

export class Journal {
  private undos: { label: string; undo: () => void }[] = [];
  constructor(readonly dryRun: boolean, private readonly log: (line: string) => void) {}

  /** Runs `act` (unless dry-run) and remembers `undo`; `label` is printed in dry-run and verbose output. */
  step(label: string, act: () => void, undo?: () => void): void {
    if (this.dryRun) {
      this.log(`  ${label}`);
      return;
    }
    act();
    if (undo) this.undos.push({ label, undo });
  }

  rollback(): string[] {
    const failures: string[] = [];
    for (const { label, undo } of this.undos.reverse()) {
      try {
        undo();
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message}`);
      }
    }
    this.undos = [];
    return failures;
  }
}

/** Every file below `dir`, as paths relative to it (sorted); an absent folder has none. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const child = rel ? path.join(rel, entry.name) : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

export function copyTree(from: string, to: string): void {
  for (const rel of listFiles(from)) {
    mkdirSync(path.dirname(path.join(to, rel)), { recursive: true });
    copyFileSync(path.join(from, rel), path.join(to, rel));
  }
}

/** Creates the missing folders of `dir` and returns the ones it created (deepest last). */
export function mkdirs(dir: string): string[] {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = path.dirname(d)) missing.unshift(d);
  mkdirSync(dir, { recursive: true });
  return missing;
}

/** Removes `dir` and its parents up to (not including) `stop` while they are empty. */
export function removeEmptyDirs(dir: string, stop: string): void {
  for (let d = dir; d.startsWith(stop) && d !== stop; d = path.dirname(d)) {
    try {
      if (readdirSync(d).length) return;
      rmdirSync(d);
    } catch {
      return;
    }
  }
}

export function moveAside(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const aside = `${dir}.old-${process.pid}-${Date.now()}`;
  renameSync(dir, aside);
  return aside;
}

export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function isExecutable(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The `claude` executable on PATH, if any. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of process.platform === 'win32' ? ['.exe', '.cmd', ''] : ['']) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv, input?: string): { ok: boolean; output: string } {
  const r = spawnSync(command, args, { env, input, encoding: 'utf8', timeout: 60_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`.trim() };
}
