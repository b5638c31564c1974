import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * .gitignore rules of a project, root and nested. Each .gitignore applies to paths below its own folder,
 * as git does. Files are read lazily per folder and cached, so checking one file costs a few reads at most.
 */
export class GitignoreRules {
  private readonly cache = new Map<string, Ignore | null>();
  /** per folder, the rules of it and its ancestors that exist, with the folder depth each applies from */
  private readonly chains = new Map<string, ReadonlyArray<readonly [number, Ignore]>>();

  constructor(private readonly root: string) {}

  /** What a walk that listed `dir` knows: a folder without a .gitignore entry needs no read to say so. */
  listed(dir: string, hasGitignore: boolean): void {
    if (!hasGitignore && !this.cache.has(dir)) this.cache.set(dir, null);
  }

  private rulesOf(dir: string): Ignore | null {
    let rules = this.cache.get(dir);
    if (rules !== undefined) return rules;
    rules = null;
    try {
      const text = readFileSync(path.join(this.root, dir, '.gitignore'), 'utf8');
      rules = ignore().add(text);
    } catch {
      // no .gitignore in this folder
    }
    this.cache.set(dir, rules);
    return rules;
  }

  /** The rules on the way down to folder `dir` (`''`: the root), each with the number of path parts above it. */
  private chainOf(dir: string): ReadonlyArray<readonly [number, Ignore]> {
    let chain = this.chains.get(dir);
    if (chain) return chain;
    const slash = dir.lastIndexOf('/');
    const above = dir === '' ? [] : this.chainOf(slash < 0 ? '' : dir.slice(0, slash));
    const own = this.rulesOf(dir);
    chain = own ? [...above, [dir === '' ? 0 : dir.split('/').length, own] as const] : above;
    this.chains.set(dir, chain);
    return chain;
  }

  /** True when `rel` (a file path, `/` separators) is ignored by any .gitignore on its way down from the root. */
  ignores(rel: string): boolean {
    const slash = rel.lastIndexOf('/');
    const chain = this.chainOf(slash < 0 ? '' : rel.slice(0, slash));
    if (chain.length === 0) return false;
    const parts = rel.split('/');
    for (const [i, rules] of chain) {
      const below = parts.slice(i).join('/');
      if (rules.ignores(below)) return true;
      // a rule may name a folder on the way ("tmp/"): check each ancestor folder of the file too
      for (let j = i + 1; j < parts.length; j++) {
        if (rules.ignores(parts.slice(i, j).join('/') + '/')) return true;
      }
    }
    return false;
  }

  /**
   * True when a .gitignore above `rel` (a folder) ignores the folder itself: then `ignores` is true for every file
   * in it, so a walk need not enter it.
   */
  ignoresFolder(rel: string): boolean {
    const slash = rel.lastIndexOf('/');
    const chain = this.chainOf(slash < 0 ? '' : rel.slice(0, slash));
    if (chain.length === 0) return false;
    const parts = rel.split('/');
    return chain.some(([i, rules]) => rules.ignores(`${parts.slice(i).join('/')}/`));
  }
}
