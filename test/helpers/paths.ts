import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'get-shit-done-cc') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no get-shit-done-cc package.json above ${start}`);
    dir = parent;
  }
}

/** The repository root, whether the test runs from test/ (tsx) or from dist/test/ (compiled). */
export const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

/** Absolute path of a fixture folder or file under test/fixtures. */
export function fixture(...parts: string[]): string {
  return path.join(repoRoot, 'test', 'fixtures', ...parts);
}

/** The CLI as installed: package.json "bin" (the esbuild bundle dist/cli/cli.js made by `npm run build`). */
export const cliPath = path.join(repoRoot, (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['get-shit-done-cc']!);
