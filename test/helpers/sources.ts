import { readdirSync } from 'node:fs';
import path from 'node:path';

const SOURCE = /\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)$/;

/** The JS/TS source files under `dir` (node_modules, dist and dot folders left out). */
export function sourcesUnder(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourcesUnder(full, into);
    else if (SOURCE.test(entry.name)) into.push(full);
  }
  return into;
}

/** A small deterministic generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random cut of `source`: a prefix cut at a line end, or two line ranges spliced together (what an editor or an
 * agent leaves midway). Returns the text and the two line numbers used.
 */
export function randomCut(source: string, next: () => number): { text: string; a: number; b: number } {
  const lines = source.split('\n');
  const a = Math.floor(next() * lines.length);
  const b = Math.floor(next() * lines.length);
  const text = next() < 0.5 ? lines.slice(0, a).join('\n') : [...lines.slice(0, Math.min(a, b)), ...lines.slice(Math.max(a, b))].join('\n');
  return { text, a, b };
}
