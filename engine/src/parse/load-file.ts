/** loadFile: read one project file, check that it is indexable text, hash it and parse it. */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import nodePath from 'node:path';
import { sha1Hex } from '../hash.js';
import type { KnownFacts, LoadedFile, RelPath, SkipReason } from '../types.js';
import { parseWithLanguage } from '../languages/parse.js';
import { ownStrings } from './own-strings.js';
import { parseSource } from './parse-source.js';

export interface LoadFileOptions {
  /** files larger than this are skipped as `too-large` without being read */
  maxFileBytes: number;
  /** the facts of the file's last indexed content: when the bytes still hash the same, they are returned unparsed */
  known?: KnownFacts | null;
  /**
   * The path was listed by a scan that followed no links (scanProject): its folders are the project's own, so only
   * the file itself could be a link, and it is read without resolving its real path first (see loadWalked).
   */
  walked?: boolean;
  /** keep a tree-sitter file's tree for its next parse (an update in a process that stays: languages/runtime.ts withTree) */
  keepTree?: boolean;
}

/** O_NOFOLLOW and O_NONBLOCK where the platform has them (not on Windows): then loadWalked may be used. */
const WALKED_OPEN = fsConstants.O_NOFOLLOW === undefined || fsConstants.O_NONBLOCK === undefined ? null : fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/** How far into a file a NUL byte marks it as binary. */
const BINARY_PROBE_BYTES = 8192;

const realRoots = new Map<string, string>();

function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync(root);
    } catch {
      real = nodePath.resolve(root);
    }
    realRoots.set(root, real);
  }
  return real;
}

function isInside(child: string, parent: string): boolean {
  const relative = nodePath.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative));
}

function errorDetail(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? error);
}

/** A file over `maxFileBytes`, skipped without being hashed. */
function tooLarge(path: RelPath, stats: Stats, maxFileBytes: number): LoadedFile {
  return skipped(path, stats, 'too-large', `${stats.size} bytes > ${maxFileBytes}`);
}

function skipped(path: RelPath, stats: Stats | null, reason: SkipReason, detail?: string, hash: string | null = null): LoadedFile {
  const file: LoadedFile = { path, hash, size: stats?.size ?? 0, mtimeMs: stats?.mtimeMs ?? 0, skipped: reason };
  if (detail !== undefined) file.detail = detail;
  return file;
}

/** Reads all of an open regular file, so the size checked is the size read. */
function readOpen(fd: number, stats: Stats): Buffer {
  const bytes = Buffer.allocUnsafe(stats.size);
  let offset = 0;
  while (offset < bytes.length) {
    const read = readSync(fd, bytes, offset, bytes.length - offset, offset);
    if (read === 0) break; // the file shrank meanwhile
    offset += read;
  }
  return offset === bytes.length ? bytes : bytes.subarray(0, offset);
}

/** Reads the whole file through one descriptor, so the size checked is the size read. */
function readAll(absolute: string, maxFileBytes: number): { bytes: Buffer; stats: Stats } | { tooLarge: Stats } {
  const fd = openSync(absolute, 'r');
  try {
    const stats = fstatSync(fd);
    if (stats.size > maxFileBytes) return { tooLarge: stats };
    return { bytes: readOpen(fd, stats), stats };
  } finally {
    closeSync(fd);
  }
}

/**
 * loadFile for a walked path (LoadFileOptions.walked): one open that refuses a link (O_NOFOLLOW) and never waits on
 * a pipe (O_NONBLOCK), then fstat on the descriptor, instead of lstat + realpath + open. Null when the full checks
 * must decide: the file is a link, or no longer a regular file, or cannot be opened.
 */
function loadWalked(root: string, path: RelPath, opts: LoadFileOptions, flags: number): LoadedFile | null {
  let fd: number;
  try {
    fd = openSync(nodePath.join(root, path), flags);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return null;
    if (stats.size > opts.maxFileBytes) return tooLarge(path, stats, opts.maxFileBytes);
    return fromBytes(path, readOpen(fd, stats), stats, opts);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Loads `path` (relative to `root`): symlinks must stay inside the project, the file must be a regular file of
 * at most `maxFileBytes`, without NUL bytes in its first 8 KB, and valid UTF-8 (a BOM is dropped).
 * Never throws: problems come back as `skipped` with a reason.
 */
export function loadFile(root: string, path: RelPath, opts: LoadFileOptions): LoadedFile {
  if (opts.walked && WALKED_OPEN !== null) {
    const loaded = loadWalked(root, path, opts, WALKED_OPEN);
    if (loaded !== null) return loaded;
  }
  const absolute = nodePath.join(root, path);
  let stats: Stats;
  try {
    stats = lstatSync(absolute);
    const isLink = stats.isSymbolicLink();
    let real: string;
    try {
      real = realpathSync.native(absolute);
    } catch (error) {
      // a dangling link or a loop of links
      return skipped(path, null, 'unreadable', `${isLink ? 'broken symlink' : 'unresolvable path'} (${errorDetail(error)})`);
    }
    // the file itself or one of its folders may be a link: what is read must stay inside the project
    if (!isInside(real, realRoot(root))) return skipped(path, null, 'not-a-file', 'symlink to outside the project');
    if (isLink) stats = statSync(real);
  } catch (error) {
    return skipped(path, null, 'unreadable', errorDetail(error));
  }
  if (!stats.isFile()) return skipped(path, stats, 'not-a-file');
  if (stats.size > opts.maxFileBytes) return tooLarge(path, stats, opts.maxFileBytes);

  let bytes: Buffer;
  try {
    const read = readAll(absolute, opts.maxFileBytes);
    if ('tooLarge' in read) return tooLarge(path, read.tooLarge, opts.maxFileBytes);
    bytes = read.bytes;
    stats = read.stats;
  } catch (error) {
    return skipped(path, stats, 'unreadable', errorDetail(error));
  }
  return fromBytes(path, bytes, stats, opts);
}

/** The facts of a file read whole: hashed, refused when binary or not UTF-8, else parsed (or its known facts). */
function fromBytes(path: RelPath, bytes: Buffer, stats: Stats, opts: LoadFileOptions): LoadedFile {
  const hash = sha1Hex(bytes);
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return skipped(path, stats, 'binary', undefined, hash);
  // the same check as a fatal TextDecoder, natively and without an exception per bad file
  if (!isUtf8(bytes)) return skipped(path, stats, 'non-utf8', undefined, hash);
  if (opts.known && opts.known.hash === hash) return { path, hash, size: bytes.length, mtimeMs: stats.mtimeMs, parsed: opts.known.parsed, reused: true };
  // the text without its BOM (EF BB BF); it is dropped after parsing, only the facts are kept
  const text = (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes).toString('utf8');
  return { path, hash, size: bytes.length, mtimeMs: stats.mtimeMs, parsed: ownStrings(parseWithLanguage(path, text, opts.keepTree) ?? parseSource(path, text)) };
}
