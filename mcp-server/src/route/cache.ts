/**
 * The route result cache: at most 200 answers, 5 minutes each, and never older than what they were made from. An
 * entry holds the signature of its inputs — the intel (graph.db, index.json, the hooks' pending journal) and the GSD
 * documents (.planning/*.md, .planning/config.json, .planning/gsd-state.json, every folder and file of phases/) — and
 * is used only while that signature is unchanged, so an edit recorded by the PostToolUse hook, a rebuild or a
 * changed plan document makes the next question a miss. An answer is stored only when its inputs did not change
 * while it was made.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileIdentity, journalFiles } from '../../../engine/src/index.js';

export const CACHE_MAX_ENTRIES = 200;
export const CACHE_TTL_MS = 5 * 60_000;

function stamp(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? fileIdentity(st) : '-';
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The signature of everything a route answer can depend on in project `root`. */
export function inputsSignature(root: string): string {
  const planning = path.join(root, '.planning');
  const intel = path.join(planning, 'intel');
  const parts = [stamp(path.join(intel, 'graph.db')), stamp(path.join(intel, 'index.json')), `journal=${journalFiles(root).join(',')}`];
  for (const name of entries(planning)) {
    if (name.endsWith('.md') || name === 'config.json' || name === 'gsd-state.json') parts.push(`${name}=${stamp(path.join(planning, name))}`);
  }
  const phases = path.join(planning, 'phases');
  parts.push(`phases=${stamp(phases)}`);
  for (const dir of entries(phases)) {
    const d = path.join(phases, dir);
    parts.push(`${dir}=${stamp(d)}`);
    for (const f of entries(d)) parts.push(`${dir}/${f}=${stamp(path.join(d, f))}`);
  }
  return parts.join('|');
}

interface Entry<T> {
  sig: string;
  at: number;
  value: T;
}

export class ResultCache<T> {
  private readonly map = new Map<string, Entry<T>>();
  hits = 0;
  misses = 0;

  constructor(
    readonly maxEntries = CACHE_MAX_ENTRIES,
    readonly ttlMs = CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** The cached value of `key` if it was made from inputs with signature `sig` less than the TTL ago. */
  get(key: string, sig: string): T | undefined {
    const e = this.map.get(key);
    if (!e || e.sig !== sig || this.now() - e.at > this.ttlMs) {
      if (e) this.map.delete(key);
      this.misses++;
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, e);
    this.hits++;
    return e.value;
  }

  set(key: string, sig: string, value: T): void {
    this.map.delete(key);
    this.map.set(key, { sig, at: this.now(), value });
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }
}
