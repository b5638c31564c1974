/**
 * Crash-safe file replacement: write a sibling temp file, fsync it, rename it over the target.
 * A reader sees either the old content or the new content, never a torn file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

const RENAME_RETRY_CODES = new Set(['EPERM', 'EACCES', 'EBUSY']);
const RENAME_RETRIES = process.platform === 'win32' ? 8 : 0;

/** `.<name>.<pid>.<random>.tmp` in the directory of `file`. */
export function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/** how much later than the file it replaces a replacement's mtime is at least (well above a double's resolution) */
const MTIME_STEP_MS = 0.01;

/**
 * Gives `tmp`, about to be renamed over `file`, an mtime later than `file`'s: now, or a step past the old one when
 * that is not earlier. Readers and warm caches name a version of a file by (device, inode, size, mtime). File systems
 * stamp with a clock that moves in ticks of 1-10 ms, and a file replaced by a rename frees its inode for the next
 * new file, so without this two versions written within one tick could carry the same name when the second got the
 * first one's inode back; a reader holding the older one would then never see the newer one.
 */
export function stampLaterThan(tmp: string, file: string): void {
  let old: number | null = null;
  try {
    old = fs.statSync(file).mtimeMs;
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  }
  const ms = old === null ? Date.now() : Math.max(Date.now(), old + MTIME_STEP_MS);
  fs.utimesSync(tmp, ms / 1000, ms / 1000);
}

async function existingModeAsync(file: string): Promise<number | null> {
  try {
    return (await fsp.stat(file)).mode & 0o7777;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return null;
    throw err;
  }
}

function existingModeSync(file: string): number | null {
  try {
    return fs.statSync(file).mode & 0o7777;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return null;
    throw err;
  }
}

export interface AtomicWriteOptions {
  /**
   * fsync the temp file before the rename (default true). Without it a reader still never sees a torn file, but a
   * power cut may lose the newest content: fine for files that are derived again from a durable source.
   */
  durable?: boolean;
}

/** Atomically replace `file` with `data`. Parent directories are created; the mode of an existing file is kept. */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true });
  const mode = await existingModeAsync(file);
  const tmp = tempPathFor(file);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(tmp, 'wx', mode ?? 0o666);
    if (mode !== null) await handle.chmod(mode); // open() applies the umask; restore the exact mode
    await handle.writeFile(data);
    if (options.durable !== false) await handle.sync();
    await handle.close();
    handle = undefined;
    stampLaterThan(tmp, file);
    for (let attempt = 0; ; attempt++) {
      try {
        await fsp.rename(tmp, file);
        break;
      } catch (err) {
        // Windows: a reader holding the target open makes rename fail briefly
        if (attempt >= RENAME_RETRIES || !RENAME_RETRY_CODES.has(errCode(err) ?? '')) throw err;
        await new Promise((r) => setTimeout(r, 10 * (attempt + 1)));
      }
    }
  } catch (err) {
    if (handle) await handle.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/**
 * Writes a sibling temp file of `file` (with the mode of an existing `file`) through `write`, fsynced when `durable`;
 * returns its path. On a failure the temp file is removed and the error thrown.
 */
function writeTempSync(file: string, write: (fd: number) => void, durable: boolean): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mode = existingModeSync(file);
  const tmp = tempPathFor(file);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', mode ?? 0o666);
    if (mode !== null) fs.fchmodSync(fd, mode);
    write(fd);
    if (durable) fs.fsyncSync(fd);
    fs.closeSync(fd);
    return tmp;
  } catch (err) {
    try {
      if (fd !== undefined) fs.closeSync(fd);
    } catch {
      /* already failing */
    }
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* already failing */
    }
    throw err;
  }
}

/** Synchronous twin of {@link writeFileAtomic} (for hooks and exit paths that cannot await). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = writeTempSync(file, (fd) => fs.writeFileSync(fd, data), true);
  try {
    stampLaterThan(tmp, file);
    for (let attempt = 0; ; attempt++) {
      try {
        fs.renameSync(tmp, file);
        break;
      } catch (err) {
        if (attempt >= RENAME_RETRIES || !RENAME_RETRY_CODES.has(errCode(err) ?? '')) throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 * (attempt + 1)); // synchronous sleep
      }
    }
  } catch (err) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* already failing */
    }
    throw err;
  }
}

/** Reads `length` bytes at `position` of `fd` into `into` at `offset`, or fewer at the end of the file; returns how many. */
export function readFully(fd: number, into: Uint8Array, offset: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const got = fs.readSync(fd, into, offset + done, length - done, position + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

/** Writes all of `bytes` to `fd` at `position` (or at the file's current offset when null). */
export function writeFully(fd: number, bytes: Uint8Array, position: number | null = null): void {
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at, position === null ? null : position + at);
}

/**
 * A file written beside its target under a temp name, not in place yet: commit() renames it over the target (a
 * rename needs no space), discard() removes it. A full build stages every artefact first, so running out of disk
 * or memory on the way leaves the previous ones untouched.
 */
export interface StagedFile {
  readonly file: string;
  /** the temp file, until commit() or discard() */
  readonly path: string;
  commit(): void;
  discard(): void;
}

/** Stages `file` with what `write` writes into the temp file's descriptor (not fsynced: for derived files). */
export function stageFile(file: string, write: (fd: number) => void): StagedFile {
  return staged(file, writeTempSync(file, write, false));
}

/**
 * Stages a copy of `file` (mode kept; copied by the kernel where it can, so no bytes pass through this process), for
 * a caller that changes a few parts of a large file in the copy and then commits it.
 */
export function stageCopy(file: string): StagedFile {
  const tmp = tempPathFor(file);
  try {
    // a reflink where the file system has one (btrfs, XFS, APFS: no bytes copied at all), else a kernel copy
    fs.copyFileSync(file, tmp, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return staged(file, tmp);
}

/**
 * Renaming over a large file makes the kernel free its pages there and then (~20-60 ms for 100 MB here). While a
 * writer holds the intel lock (holdReplacedFiles), a commit keeps the replaced file open instead, and the last
 * holder closes them all once the lock is released: the change is in place as soon as it was, readers and other
 * writers wait for nothing, and the freeing happens after. Readers that hold the old file open see no difference.
 */
const replacedFds: number[] = [];
let holders = 0;

/** `+1` when a writer takes the intel lock, `-1` when it released it: the last one closes the files replaced meanwhile. */
export function holdReplacedFiles(delta: 1 | -1): void {
  holders = Math.max(0, holders + delta);
  if (holders > 0) return;
  for (const fd of replacedFds.splice(0)) {
    try {
      fs.closeSync(fd);
    } catch {
      // closed already
    }
  }
}

function staged(file: string, tmp: string): StagedFile {
  let open = true;
  return {
    file,
    path: tmp,
    commit() {
      if (!open) return;
      let old = -1;
      if (holders > 0) {
        try {
          old = fs.openSync(file, 'r');
        } catch {
          // nothing to replace
        }
      }
      try {
        stampLaterThan(tmp, file);
        fs.renameSync(tmp, file);
      } catch (err) {
        if (old >= 0) fs.closeSync(old);
        throw err;
      }
      if (old >= 0) replacedFds.push(old);
      open = false;
    },
    discard() {
      if (!open) return;
      open = false;
      fs.rmSync(tmp, { force: true });
    },
  };
}
