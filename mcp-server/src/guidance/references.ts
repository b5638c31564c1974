/**
 * `@path` references inside loaded guidance, resolved breadth-first: relative to the referring file (`@~/x.md` from
 * the home folder), at most MAX_REF_DEPTH levels deep, each file once, a reference back into its own chain reported
 * as a cycle, and only inside the allowed folders (the guidance folders and the project). Everything loaded shares
 * one character budget. What is not loaded is named with the reason; nothing here throws.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isSecretPath } from '../security.js';
import { readSmallText, splitFrontmatter } from './catalog.js';

export const MAX_REF_DEPTH = 3;

/** How much text one answer carries: per file and in all (loaded files and their references together). */
export class ContentBudget {
  constructor(
    private remaining: number,
    readonly perFile: number,
  ) {}

  get left(): number {
    return this.remaining;
  }

  /** the text cut at a line end to fit, and whether it was cut */
  take(text: string): { content: string; truncated: boolean } {
    const limit = Math.min(this.perFile, this.remaining);
    if (text.length <= limit) {
      this.remaining -= text.length;
      return { content: text, truncated: false };
    }
    const cut = text.lastIndexOf('\n', limit);
    const content = text.slice(0, cut > limit / 2 ? cut : limit);
    this.remaining -= content.length;
    return { content, truncated: true };
  }
}

export interface AllowedFolder {
  /** real path */
  dir: string;
}

export interface Included {
  path: string;
  from: string;
  depth: number;
  content: string;
  truncated: boolean;
}

export interface RefProblem {
  ref: string;
  from: string;
  reason: string;
}

export interface RefSource {
  abs: string;
  shown: string;
  body: string;
}

/** `@some/file.md` tokens outside code blocks and code spans; e-mail addresses and package names (`@scope/pkg`) are not paths */
export function referencesIn(markdown: string): string[] {
  const refs: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (f[1] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const text = line.replace(/`[^`]*`/g, ' ');
    for (const m of text.matchAll(/(?:^|[\s([{>])@([^\s`()[\]{}<>"',;|*]+)/g)) {
      const ref = m[1].replace(/[.:!?]+$/, '');
      if (/\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(ref) && !ref.includes('@') && !ref.includes('://')) refs.push(ref);
    }
  }
  return [...new Set(refs)];
}

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function insideAny(abs: string, allowed: readonly AllowedFolder[]): boolean {
  return allowed.some((a) => abs === a.dir || abs.startsWith(a.dir + path.sep));
}

export interface ResolveOptions {
  allowed: AllowedFolder[];
  home: string;
  /** how a path is shown in the answer */
  show: (abs: string) => string;
  budget: ContentBudget;
}

/** Follows the references of the loaded files (depth 0) breadth-first. `done` holds the real paths already in the answer. */
export function resolveReferences(sources: readonly RefSource[], done: Set<string>, opts: ResolveOptions): { included: Included[]; problems: RefProblem[] } {
  const included: Included[] = [];
  const problems: RefProblem[] = [];
  const allowed = opts.allowed;
  let queue = sources.map((s) => ({ ...s, depth: 0, chain: [real(s.abs) ?? s.abs] }));
  while (queue.length) {
    const next: typeof queue = [];
    for (const item of queue) {
      for (const ref of referencesIn(item.body)) {
        const problem = (reason: string) => problems.push({ ref, from: item.shown, reason });
        if (item.depth + 1 > MAX_REF_DEPTH) {
          problem(`deeper than ${MAX_REF_DEPTH} levels of references; not loaded`);
          continue;
        }
        const abs = ref.startsWith('~/') ? path.join(opts.home, ref.slice(2)) : path.resolve(path.dirname(item.abs), ref);
        if (!insideAny(abs, allowed) && !insideAny(real(path.dirname(abs)) ?? abs, allowed)) {
          problem(`${abs} is outside the allowed folders (guidance folders and the project); refused`);
          continue;
        }
        const target = real(abs);
        if (target === null) {
          problem(`${opts.show(abs)} does not exist`);
          continue;
        }
        if (!insideAny(target, allowed)) {
          problem(`${opts.show(abs)} is a link to ${target}, outside the allowed folders; refused`);
          continue;
        }
        if (isSecretPath(target)) {
          problem(`${opts.show(abs)} is a secrets file (.env, key, credentials); never read`);
          continue;
        }
        if (item.chain.includes(target)) {
          problem(`cycle: ${[...item.chain.slice(item.chain.indexOf(target)), target].map((p) => opts.show(p)).join(' → ')}; not loaded again`);
          continue;
        }
        if (done.has(target)) continue; // already in the answer
        let size: number;
        try {
          const st = statSync(target);
          if (!st.isFile()) {
            problem(`${opts.show(abs)} is not a file`);
            continue;
          }
          size = st.size;
        } catch (error) {
          problem(`${opts.show(abs)} is unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
          continue;
        }
        const read = readSmallText(target, size);
        if ('problem' in read) {
          problem(`${opts.show(abs)}: ${read.problem}; not loaded`);
          continue;
        }
        const text = read.text;
        if (opts.budget.left <= 0) {
          problem(`${opts.show(abs)} not loaded: the answer's size cap is reached (Read it directly)`);
          continue;
        }
        done.add(target);
        const body = /\.md$/i.test(target) ? splitFrontmatter(text).body : text;
        const { content, truncated } = opts.budget.take(body);
        const shown = opts.show(abs);
        included.push({ path: shown, from: item.shown, depth: item.depth + 1, content, truncated });
        next.push({ abs: target, shown, body, depth: item.depth + 1, chain: [...item.chain, target] });
      }
    }
    queue = next;
  }
  return { included, problems };
}
