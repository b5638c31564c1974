/**
 * Entity pages: one small file per indexed file. A page is never torn for a reader: an incremental update writes each
 * to a temp file and renames it (writePagesSync); a full build writes the pages it renders straight into a staging
 * folder beside the entity folder as it renders them (PageStage), so they are never all in memory, and puts them in
 * place only when every other artefact is written too: on a first build the staging folder becomes the folder in one
 * rename, on a rebuild each changed page is renamed in. No fsync: pages are derived from index.json.
 *
 * (Full builds used to write the pages on a thread from 4 cores up; it needed every page rendered first, which does
 * not fit a large project in bounded memory, and on 2 cores it was measured neutral to slower. It was removed.)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

function jobTag(): string {
  return `${process.pid}.${randomBytes(6).toString('hex')}`;
}

/** `.<name>.<tag>.tmp` beside `target`. */
function tempOf(target: string, tag: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${tag}.tmp`);
}

/** Writes `pages` into `dir` now, each atomically. */
export function writePagesSync(dir: string, pages: Array<[string, string]>): void {
  const tag = jobTag();
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of pages) {
    const target = path.join(dir, name);
    const temp = tempOf(target, tag);
    try {
      fs.writeFileSync(temp, text, { flag: 'wx' });
      fs.renameSync(temp, target);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
  }
}

/** A full build's entity pages, written as they come into a staging folder; commit() puts them in place. */
export class PageStage {
  private readonly staging: string;
  private readonly names: string[] = [];
  private open = true;

  /** `fresh`: `dir` does not exist yet (a first build). */
  constructor(
    private readonly dir: string,
    private readonly fresh: boolean,
  ) {
    this.staging = tempOf(dir, jobTag());
    fs.mkdirSync(this.staging, { recursive: true });
  }

  /** Writes one page into the staging folder. */
  add(name: string, text: string): void {
    fs.writeFileSync(path.join(this.staging, name), text, { flag: 'wx' });
    this.names.push(name);
  }

  get count(): number {
    return this.names.length;
  }

  /** Puts the staged pages in place (renames only: no space needed), then removes the `.md` files not in `keep`. */
  commit(keep: ReadonlySet<string>): void {
    if (!this.open) return;
    this.open = false;
    if (this.fresh) {
      try {
        fs.renameSync(this.staging, this.dir);
        return;
      } catch {
        // the folder appeared meanwhile: page by page below
      }
    }
    fs.mkdirSync(this.dir, { recursive: true });
    for (const name of this.names) fs.renameSync(path.join(this.staging, name), path.join(this.dir, name));
    fs.rmSync(this.staging, { recursive: true, force: true });
    for (const name of fs.readdirSync(this.dir)) {
      if (name.endsWith('.md') && !keep.has(name)) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }

  /** Drops the staging folder: the entity folder stays as it was. */
  discard(): void {
    if (!this.open) return;
    this.open = false;
    fs.rmSync(this.staging, { recursive: true, force: true });
  }
}
