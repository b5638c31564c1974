/**
 * A seeded random sequence of edits, additions, deletions and renames on a small project, each applied by
 * updateIntel: what the incremental == rebuild tests replay (incremental-equals-rebuild, warm-state).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, renameSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildIntel, intelPaths, updateIntel } from '../../engine/src/index.js';
import { moveIntelAside, snapshotIntel } from './intel-snapshot.js';
import { tempProject, writeFile } from './project.js';

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed from its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}

const DIRS = ['a', 'b', 'c/deep'];
const NAMES = Array.from({ length: 14 }, (_, i) => `m${i}`);

function relSpecifier(from: string, toNoExt: string): string {
  let rel = path.posix.relative(path.posix.dirname(from), toNoExt);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

/** A random module: a few exports and imports of every shape towards files that may or may not exist. */
function randomModule(r: ReturnType<typeof rng>, file: string): string {
  const lines: string[] = [];
  const isTs = file.endsWith('.ts');
  const n = r.int(5);
  for (let i = 0; i < n; i++) {
    const target = `${r.pick(DIRS)}/${r.pick(NAMES)}`;
    const spec = r.chance(0.15) && target.startsWith('b/') ? `@b/${target.slice(2)}` : relSpecifier(file, target) + r.pick(['', '.js', '']);
    const f = `f${r.int(3)}`;
    const form = r.int(isTs ? 7 : 5);
    if (form === 0) lines.push(`import { ${f} as i${i} } from '${spec}';`);
    else if (form === 1) lines.push(`export * from '${spec}';`);
    else if (form === 2) lines.push(`export { ${f} as ${f}x${i} } from '${spec}';`);
    else if (form === 3) lines.push(`const m${i} = require('${spec}');`);
    else if (form === 4) lines.push(`const d${i} = () => import('${spec}');`);
    else if (form === 5) lines.push(`import type { T as T${i} } from '${spec}';`);
    else lines.push(`/// <reference path="${spec}${spec.endsWith('.js') ? '' : '.ts'}" />`);
  }
  lines.push(`export function f${r.int(3)}() { return ${r.int(100)}; }`);
  if (isTs) lines.push(`export type T = number;`);
  return lines.join('\n') + '\n';
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== '.planning') walk(rel);
      } else if (/\.(ts|js)$/.test(e.name)) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/**
 * Builds a random project, then applies `steps` random operations through updateIntel. `between(step, root)` runs
 * before each step (e.g. another process rebuilding the intel).
 */
export async function runSequence(seed: number, steps: number, between?: (step: number, root: string) => void | Promise<void>) {
  const r = rng(seed);
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@b/*': ['b/*'] }, allowJs: true } }),
  };
  for (let i = 0; i < 10; i++) {
    const file = `${r.pick(DIRS)}/${r.pick(NAMES)}.${r.pick(['ts', 'ts', 'js'])}`;
    files[file] = randomModule(r, file);
  }
  const root = tempProject(files);
  await buildIntel(root);
  const log: string[] = [];
  for (let step = 0; step < steps; step++) {
    await between?.(step, root);
    const existing = listFiles(root);
    const op = existing.length < 3 ? 'add' : r.pick(['edit', 'edit', 'add', 'add', 'delete', 'rename']);
    if (op === 'edit') {
      const file = r.pick(existing);
      writeFile(root, file, randomModule(r, file));
      log.push(`edit ${file}`);
      await updateIntel(root, [file]);
    } else if (op === 'add') {
      const file = `${r.pick(DIRS)}/${r.pick(NAMES)}.${r.pick(['ts', 'js'])}`;
      writeFile(root, file, randomModule(r, file));
      log.push(`add ${file}`);
      await updateIntel(root, [path.join(root, file)]);
    } else if (op === 'delete') {
      const file = r.pick(existing);
      rmSync(path.join(root, file));
      log.push(`delete ${file}`);
      await updateIntel(root, [file]);
    } else {
      const from = r.pick(existing);
      const to = `${r.pick(DIRS)}/${r.pick(NAMES)}.${from.endsWith('.ts') ? 'ts' : 'js'}`;
      if (existsSync(path.join(root, to))) continue;
      mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
      renameSync(path.join(root, from), path.join(root, to));
      log.push(`rename ${from} ${to}`);
      await updateIntel(root, [from, to]);
    }
  }
  return { root, log };
}


/**
 * The intel of `root` (moved aside) equals a rebuild from scratch, every artefact; `context` names the sequence. The
 * rebuild writes its entity pages on the writer thread (a full build's path from 2,000 files), the updates on their own.
 */
export async function assertSameAsRebuild(root: string, context: string): Promise<void> {
  const incremental = await snapshotIntel(moveIntelAside(root, 'incremental'));
  await buildIntel(root, { cache: false, pageThread: true });
  const rebuilt = await snapshotIntel(intelPaths(root).dir);
  const broken = Object.values(rebuilt.index.files as Record<string, { path: string; syntaxError: unknown }>).filter((f) => f.syntaxError);
  assert.deepEqual(broken.map((f) => f.path), [], 'the generator must write valid modules');
  assert.deepEqual(incremental.graph, rebuilt.graph, context);
  assert.deepEqual(incremental.index, rebuilt.index, context);
  assert.deepEqual(incremental.entities, rebuilt.entities, context);
  assert.equal(incremental.summary, rebuilt.summary, context);
}
