/**
 * A database file that sql.js reads and writes page by page through a file descriptor, instead of holding it whole
 * in memory. sql.js keeps each database in Emscripten's in-memory file system (MEMFS), which stores a file's
 * contents as one typed array and touches it only through `length`, `slice` (once, when the file is created from our
 * bytes), `subarray(start, end)` (reads) and `set(bytes, position)` (writes). An object with those four members,
 * backed by `pread`/`pwrite` on a file, lets SQLite run on a file of any size while only the pages it visits are
 * read: an incremental patch of a 100 MB graph.db reads a few hundred pages and writes a few dozen.
 *
 * It is used on a private copy of graph.db (patchGraphDb): readers only ever see the old file or the patched one.
 * Anything but page-sized access (MEMFS resizing the file, which SQLite only asks for when a database shrinks, i.e.
 * VACUUM) throws, so the patch fails and the caller rewrites graph.db from index.json instead.
 */
import { readFully, writeFully } from './atomic-write.js';

/** SQLite's largest page; every read or write SQLite makes of a database file is at most one page. */
const MAX_ACCESS = 65536;

/** An access SQLite never makes of a database file it only patches: the patch is abandoned, the file rebuilt. */
export class UnexpectedAccessError extends Error {
  override name = 'UnexpectedAccessError';
}

export class FileBackedContents {
  private created = false;
  /** bytes written through this object: a patch writes a few pages */
  written = 0;
  reads = 0;
  private readonly scratch = Buffer.allocUnsafe(MAX_ACCESS);

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {}

  /** the file's size while MEMFS creates the file; afterwards a capacity MEMFS never needs to grow */
  get length(): number {
    return this.created ? Number.MAX_SAFE_INTEGER : this.size;
  }

  /** MEMFS takes a copy of the bytes a file is created from: this object is its own copy. */
  slice(start: number, end: number): this {
    if (this.created || start !== 0 || end !== this.size) throw new UnexpectedAccessError(`file-backed database: unexpected slice(${start}, ${end})`);
    this.created = true;
    return this;
  }

  subarray(start: number, end: number): Uint8Array {
    const n = end - start;
    if (!this.created || n < 0 || n > MAX_ACCESS) throw new UnexpectedAccessError(`file-backed database: unexpected read of ${n} bytes at ${start}`);
    // MEMFS copies what it reads into SQLite's memory at once: one scratch buffer serves every read
    const bytes = this.scratch.subarray(0, n);
    bytes.fill(0, readFully(this.fd, bytes, 0, n, start));
    this.reads++;
    return bytes;
  }

  set(bytes: Uint8Array, position = 0): void {
    if (!this.created || bytes.length > MAX_ACCESS) throw new UnexpectedAccessError(`file-backed database: unexpected write of ${bytes.length} bytes at ${position}`);
    writeFully(this.fd, bytes, position);
    this.written += bytes.length;
  }
}
