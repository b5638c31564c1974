import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * .gitignore rules of a project, root and nested. Each .gitignore applies to paths below its own folder,
 * as git does. Files are read lazily per folder and cached, so checking one file costs a few reads at most.
 */
export class GitignoreRules {
  private readonly cache = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {}

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

  /** True when `rel` (a file path, `/` separators) is ignored by any .gitignore on its way down from the root. */
  ignores(rel: string): boolean {
    const parts = rel.split('/');
    let dir = '';
    for (let i = 0; i < parts.length; i++) {
      const rules = this.rulesOf(dir);
      if (rules) {
        const below = parts.slice(i).join('/');
        if (rules.ignores(below)) return true;
        // a rule may name a folder on the way ("tmp/"): check each ancestor folder of the file too
        for (let j = i + 1; j < parts.length; j++) {
          if (rules.ignores(parts.slice(i, j).join('/') + '/')) return true;
        }
      }
      dir = dir ? `${dir}/${parts[i]}` : parts[i];
    }
    return false;
  }

  /**
   * True when a .gitignore above `rel` (a folder) ignores the folder itself: then `ignores` is true for every file
   * in it, so a walk need not enter it.
   */
  ignoresFolder(rel: string): boolean {
    const parts = rel.split('/');
    let dir = '';
    for (let i = 0; i < parts.length; i++) {
      const rules = this.rulesOf(dir);
      if (rules?.ignores(`${parts.slice(i).join('/')}/`)) return true;
      dir = dir ? `${dir}/${parts[i]}` : parts[i];
    }
    return false;
  }
}
