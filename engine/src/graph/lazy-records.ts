import fs from 'node:fs';
import { readFully } from '../store/atomic-write.js';
import type { ParseFacts } from '../resolve/host.js';
import type { FileRecord, RelPath } from '../types.js';

/** A record line of index.json that does not parse: the index must be rebuilt. */
export class CorruptIndexError extends Error {
  override name = 'CorruptIndexError';
}

/**
 * Where a record still in its serialised form is: the bytes `line[0] … line[1]` of the source hold `"path":{record}`,
 * the record's JSON starts at `value`. `size` and `mtimeMs` were read off the line while it was split (NaN when the
 * line does not have them in the usual place), so a catch-up can compare stats without parsing the record.
 */
export interface RawSpan {
  start: number;
  value: number;
  end: number;
  size: number;
  mtimeMs: number;
}

/**
 * The identity of a file: device, inode, size and mtime. Every writer of index.json renames a new file over it, so a
 * new index is a new inode (and its own size and mtime).
 */
export const fileIdentity = (st: fs.Stats): string => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;

/**
 * The bytes records are read from: index.json on disk, opened again for each read and checked to be the file that was
 * split (same inode, size and mtime), so an index replaced in the meantime is never read at old offsets; or a buffer.
 */
export class RecordSource {
  private constructor(
    private readonly file: string | null,
    private readonly bytes: Buffer | null,
    /** `dev:ino:size:mtimeMs` of the file split (empty for a buffer) */
    readonly identity: string,
  ) {}

  static ofFile(file: string, stat: fs.Stats): RecordSource {
    return new RecordSource(file, null, fileIdentity(stat));
  }

  static ofBuffer(bytes: Buffer): RecordSource {
    return new RecordSource(null, bytes, '');
  }

  /** A reader of byte ranges of the source (one open file for all its reads): close() it when done. */
  open(): SourceReader {
    if (this.bytes) {
      const bytes = this.bytes;
      return { read: (start, end) => bytes.subarray(start, end), close: () => undefined };
    }
    const fd = fs.openSync(this.file!, 'r');
    try {
      const st = fs.fstatSync(fd);
      if (fileIdentity(st) !== this.identity) throw new CorruptIndexError(`index.json: ${this.file} changed while it was read`);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    const file = this.file!;
    return {
      read(start, end, into) {
        const n = end - start;
        const buf = into && into.length >= n ? into.subarray(0, n) : Buffer.allocUnsafe(n);
        if (readFully(fd, buf, 0, n, start) < n) throw new CorruptIndexError(`index.json: ${file} is shorter than when it was read`);
        return buf;
      },
      close: () => fs.closeSync(fd),
    };
  }

  /** Runs `fn` with a reader of the source. */
  with<T>(fn: (read: SourceReader['read']) => T): T {
    const reader = this.open();
    try {
      return fn(reader.read);
    } finally {
      reader.close();
    }
  }
}

export interface SourceReader {
  /** bytes `start … end` of the source, in `into` when it is large enough (the result is then a view of it) */
  read(start: number, end: number, into?: Buffer): Buffer;
  close(): void;
}

/** bytes read at once for peeks at records in a row (LazyRecords.peekBytes) */
const PEEK_WINDOW = 256 * 1024;
const SYMBOLS_KEY = Buffer.from(',"symbols":');
const IMPORTS_KEY = Buffer.from(',"imports":');
const SYNTAX_ERROR_KEY = Buffer.from(',"syntaxError":');
const SKIPPED_KEY = Buffer.from(',"skipped":');

/**
 * The records of index.json, parsed only when asked for. index.json keeps one record per line, so an incremental
 * update that touches two files parses two lines and writes every other line back as it was read, instead of
 * parsing and serialising the whole index. The lines stay in the file (RecordSource): splitting a 60 MB index keeps
 * its paths and five numbers per line in memory, not the file. The raw records are kept in index.json's order,
 * which is sorted, so a path is found by binary search and no hash map of every path is built. Iterating (values,
 * entries, forEach, for…of) parses everything.
 */
export class LazyRecords extends Map<RelPath, FileRecord> {
  /** raw records by slot, in the source's (sorted) order: the path, and five numbers (start, value, end, size, mtimeMs) */
  private paths: RelPath[] = [];
  private spans = new Float64Array(0);
  /** 1 for a slot parsed, set or deleted since */
  private gone = new Uint8Array(0);
  /** raw records not parsed, set or deleted since */
  private alive = 0;
  private source: RecordSource | null = null;
  private peeking: SourceReader | null = null;
  private window: { start: number; bytes: Buffer } | null = null;
  /** where the last raw line ends (lines come in file order) */
  private rawEnd = 0;

  /** Sets the source every raw span points into (readIndexDocument). */
  setSource(source: RecordSource): void {
    this.source = source;
  }

  /**
   * Adds a record still in its serialised form, as a span of the source. Paths must come in sorted order (as
   * index.json has them): returns false, adding nothing, for one that does not sort after the previous one.
   */
  setRaw(path: RelPath, start: number, value: number, end: number, size: number, mtimeMs: number): boolean {
    const slot = this.paths.length;
    if (slot > 0 && !(this.paths[slot - 1] < path)) return false;
    if (super.size) super.delete(path);
    if ((slot + 1) * 5 > this.spans.length) {
      const bigger = new Float64Array(Math.max(5120, this.spans.length * 2));
      bigger.set(this.spans);
      this.spans = bigger;
      const gone = new Uint8Array(bigger.length / 5);
      gone.set(this.gone);
      this.gone = gone;
    }
    this.paths.push(path);
    const s = this.spans;
    const at = slot * 5;
    s[at] = start;
    s[at + 1] = value;
    s[at + 2] = end;
    s[at + 3] = size;
    s[at + 4] = mtimeMs;
    this.alive++;
    this.rawEnd = Math.max(this.rawEnd, end);
    return true;
  }

  /** The slot of a raw record still untouched, or -1. */
  private slotOf(path: RelPath | undefined): number {
    if (path === undefined || this.alive === 0) return -1;
    const paths = this.paths;
    let lo = 0;
    let hi = paths.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = paths[mid];
      if (p === path) return this.gone[mid] ? -1 : mid;
      if (p < path) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private spanAt(slot: number): RawSpan {
    const s = this.spans;
    const at = slot * 5;
    return { start: s[at], value: s[at + 1], end: s[at + 2], size: s[at + 3], mtimeMs: s[at + 4] };
  }

  private drop(slot: number): void {
    this.gone[slot] = 1;
    this.alive--;
  }

  /** Where the serialised form of a record that was never parsed is, if it is still untouched. */
  rawOf(path: RelPath | undefined): RawSpan | undefined {
    const slot = this.slotOf(path);
    return slot < 0 ? undefined : this.spanAt(slot);
  }

  /** The source of the raw spans (to copy untouched lines from). */
  rawSource(): RecordSource | null {
    return this.source;
  }

  /** size and mtime of a record, without parsing one that is still raw (when its line had them where expected). */
  statOf(path: RelPath): { size: number; mtimeMs: number } | undefined {
    const span = this.rawOf(path);
    if (span && !Number.isNaN(span.size) && !Number.isNaN(span.mtimeMs)) return span;
    return this.get(path);
  }

  private decode(path: RelPath, json: Uint8Array): FileRecord {
    try {
      return JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8')) as FileRecord;
    } catch (error) {
      throw new CorruptIndexError(`index.json: the record of ${path} does not parse: ${(error as Error).message}`);
    }
  }

  /** The record in a raw slot, parsed. */
  private readSlot(path: RelPath, slot: number): FileRecord {
    const span = this.spanAt(slot);
    return this.decode(path, this.source!.with((read) => read(span.value, span.end)));
  }

  override get(path: RelPath): FileRecord | undefined {
    const parsed = super.get(path);
    if (parsed !== undefined) return parsed;
    const slot = this.slotOf(path);
    if (slot < 0) return undefined;
    const record = this.readSlot(path, slot);
    this.drop(slot);
    super.set(path, record);
    return record;
  }

  /**
   * A record as get() gives it, but one still raw is parsed without being kept (nor counted as parsed): for a reader
   * that takes a few facts of many records once (a resolver reading every file's declarations).
   */
  peek(path: RelPath): FileRecord | undefined {
    const parsed = super.get(path);
    if (parsed !== undefined) return parsed;
    const slot = this.slotOf(path);
    if (slot < 0) return undefined;
    const span = this.spanAt(slot);
    return this.decode(path, this.peekBytes(span.value, span.end));
  }

  /**
   * The parse facts of a record (ResolverHost.factsOf), null for a skipped file. Of one still raw, only its symbols are
   * decoded at once; its imports when first asked for: a resolver's first look at every file (C#'s, Go's, PHP's
   * declarations) reads their symbols, and the imports are most of a record's bytes (C#: 77% in Newtonsoft.Json, so
   * C#'s first resolve decoded ~2.9 MB where ~0.35 MB now do). Read by serializeIndex's field order
   * (`…,"symbols":[…],"imports":[…],"syntaxError":…,"skipped":…}`; a `"` after a `,` is JSON syntax, never inside a
   * string, and no nested object has these keys); a record of another layout is decoded whole.
   */
  peekFacts(path: RelPath): ParseFacts | null | undefined {
    const parsed = super.get(path);
    if (parsed !== undefined) return parsed.skipped === null ? parsed : null;
    const slot = this.slotOf(path);
    if (slot < 0) return undefined;
    const span = this.spanAt(slot);
    const bytes = this.peekBytes(span.value, span.end);
    const symbols = bytes.indexOf(SYMBOLS_KEY);
    const imports = symbols < 0 ? -1 : bytes.indexOf(IMPORTS_KEY, symbols);
    const syntaxError = imports < 0 ? -1 : bytes.indexOf(SYNTAX_ERROR_KEY, imports);
    const skipped = syntaxError < 0 ? -1 : bytes.indexOf(SKIPPED_KEY, syntaxError);
    if (skipped < 0 || bytes[bytes.length - 1] !== 0x7d) {
      const record = this.decode(path, bytes);
      return record.skipped === null ? record : null;
    }
    const at = (from: number, to: number) => bytes.toString('utf8', from, to);
    if (at(skipped + SKIPPED_KEY.length, bytes.length - 1) !== 'null') return null;
    // the imports' place in the source, not a view of the bytes read (which may be a shared window of the file)
    const from = span.value + imports + IMPORTS_KEY.length;
    const to = span.value + syntaxError;
    const list = () => this.peekBytes(from, to);
    let decoded: ParseFacts['imports'] | null = null;
    const parse = <T>(text: () => string): T => {
      try {
        return JSON.parse(text()) as T;
      } catch (error) {
        throw new CorruptIndexError(`index.json: the record of ${path} does not parse: ${(error as Error).message}`);
      }
    };
    return {
      symbols: parse<ParseFacts['symbols']>(() => at(symbols + SYMBOLS_KEY.length, imports)),
      get imports() {
        decoded ??= parse<ParseFacts['imports']>(() => list().toString('utf8'));
        return decoded;
      },
      importsMayHave: (field: string) => decoded !== null || list().includes(`"${field}":`),
    };
  }

  /**
   * Bytes `start … end` of the source for a peek. The peeks of one synchronous run share one open source and a
   * window of it, both dropped when the run ends (a microtask): a resolver's first look at every file's declarations
   * peeks at each record in a loop, in index.json's order, and an open, fstat and close per record, then a read and a
   * buffer per record, cost more than decoding it (Go's first resolve in golang.org/x/tools, 1,072 files: ~18 ms of
   * opens; C#'s in Newtonsoft.Json: ~7 ms of reads and buffers for 945 records, one read of 256 KB per ~80 now).
   */
  private peekBytes(start: number, end: number): Buffer {
    const window = this.window;
    if (window && start >= window.start && end <= window.start + window.bytes.length) return window.bytes.subarray(start - window.start, end - window.start);
    if (!this.peeking) {
      const reader = this.source!.open();
      this.peeking = reader;
      queueMicrotask(() => {
        this.peeking = null;
        this.window = null;
        reader.close();
      });
    }
    // never past the last raw line, which the source was checked to hold
    const to = Math.max(end, Math.min(start + PEEK_WINDOW, this.rawEnd));
    const bytes = this.peeking.read(start, to);
    this.window = { start, bytes };
    return bytes.subarray(0, end - start);
  }

  /** Parses the raw records among `paths` with one open of the source. */
  getMany(paths: Iterable<RelPath>): void {
    const slots: number[] = [];
    for (const p of paths) {
      const slot = this.slotOf(p);
      if (slot >= 0) slots.push(slot);
    }
    this.parseSlots(slots);
  }

  private parseSlots(slots: number[]): void {
    if (!slots.length) return;
    this.source!.with((read) => {
      // most of the records: one read of the range that holds them all, instead of one per record
      let block: Buffer | null = null;
      let base = 0;
      if (slots.length > 64 && slots.length * 2 > this.alive) {
        base = Infinity;
        let end = 0;
        for (const slot of slots) {
          base = Math.min(base, this.spans[slot * 5 + 1]);
          end = Math.max(end, this.spans[slot * 5 + 2]);
        }
        block = read(base, end);
      }
      for (const slot of slots) {
        const value = this.spans[slot * 5 + 1];
        const end = this.spans[slot * 5 + 2];
        const p = this.paths[slot];
        super.set(p, this.decode(p, block ? block.subarray(value - base, end - base) : read(value, end)));
        this.drop(slot);
      }
    });
  }

  override has(path: RelPath): boolean {
    return super.has(path) || this.slotOf(path) >= 0;
  }

  override set(path: RelPath, record: FileRecord): this {
    if (this.paths) {
      const slot = this.slotOf(path);
      if (slot >= 0) this.drop(slot);
    }
    return super.set(path, record);
  }

  override delete(path: RelPath): boolean {
    const slot = this.slotOf(path);
    if (slot >= 0) this.drop(slot);
    return super.delete(path) || slot >= 0;
  }

  override clear(): void {
    this.paths = [];
    this.spans = new Float64Array(0);
    this.gone = new Uint8Array(0);
    this.alive = 0;
    super.clear();
  }

  override get size(): number {
    return super.size + (this.alive ?? 0);
  }

  /** Paths only: never parses. */
  override keys(): MapIterator<RelPath> {
    const keys = [...super.keys()];
    for (let slot = 0; slot < this.paths.length; slot++) if (!this.gone[slot]) keys.push(this.paths[slot]);
    return keys[Symbol.iterator]() as MapIterator<RelPath>;
  }

  /** Paths of the records that were parsed (or set) since the index was read. */
  parsedKeys(): RelPath[] {
    return [...super.keys()];
  }

  /**
   * Every path in sorted order, each with its raw span when the record is still untouched (else null): what
   * serializeIndex writes, without sorting or looking up the raw paths (they are in order already).
   */
  *ordered(): Generator<[RelPath, RawSpan | null]> {
    const parsed = [...super.keys()].sort();
    let i = 0;
    for (let slot = 0; slot < this.paths.length; slot++) {
      if (this.gone[slot]) continue;
      const p = this.paths[slot];
      while (i < parsed.length && parsed[i] < p) yield [parsed[i++], null];
      yield [p, this.spanAt(slot)];
    }
    while (i < parsed.length) yield [parsed[i++], null];
  }

  /**
   * The raw records whose serialised form contains one of `needles` (byte strings), found by a native search of the
   * source's bytes without parsing a record. Records already parsed are not searched: the caller checks those.
   */
  rawContaining(needles: readonly Buffer[]): Set<RelPath> {
    const found = new Set<RelPath>();
    if (!needles.length || !this.alive) return found;
    const count = this.paths.length;
    const s = this.spans;
    let first = -1;
    let last = -1;
    for (let slot = 0; slot < count; slot++) {
      if (this.gone[slot]) continue;
      if (first < 0) first = s[slot * 5];
      last = s[slot * 5 + 2];
    }
    const longest = needles.reduce((m, n) => Math.max(m, n.length), 0);
    const BLOCK = 1 << 20;
    const buffer = Buffer.allocUnsafe(BLOCK + longest);
    /** the slot whose line holds byte `at` (slots are in file order), or -1 */
    const slotAt = (at: number): number => {
      let lo = 0;
      let hi = count - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (s[mid * 5] <= at) lo = mid;
        else hi = mid - 1;
      }
      return !this.gone[lo] && s[lo * 5] <= at && at < s[lo * 5 + 2] ? lo : -1;
    };
    this.source!.with((read) => {
      for (let pos = first; pos < last; pos += BLOCK) {
        const end = Math.min(last, pos + BLOCK + longest);
        const bytes = read(pos, end, buffer);
        for (const needle of needles) {
          for (let at = bytes.indexOf(needle); at >= 0 && at < BLOCK; at = bytes.indexOf(needle, at + 1)) {
            const slot = slotAt(pos + at);
            if (slot >= 0 && pos + at + needle.length <= s[slot * 5 + 2]) found.add(this.paths[slot]);
          }
        }
      }
    });
    return found;
  }

  /**
   * The same records as raw spans of a file written from this map in `ordered()` order, one `"path":{record}` line
   * each, `,\n` between lines, then `tail` bytes (index.json as indexChunks writes it): nothing parsed, no parsed
   * record held. `lineBytes` gives the length of a parsed record's line. Returns the map and where its first line
   * starts (the header's length, `size` minus the lines), for the caller to check against the file.
   */
  relaid(source: RecordSource, size: number, tail: number, lineBytes: (path: RelPath, record: FileRecord) => number): { records: LazyRecords; bodyStart: number } {
    const count = this.size;
    const paths: RelPath[] = new Array(count);
    /** per line: its length, where its value starts in it, size, mtimeMs */
    const lines = new Float64Array(count * 4);
    let total = 0;
    let i = 0;
    for (const [p, span] of this.ordered()) {
      const at = i * 4;
      paths[i] = p;
      if (span) {
        lines[at] = span.end - span.start;
        lines[at + 1] = span.value - span.start;
        lines[at + 2] = span.size;
        lines[at + 3] = span.mtimeMs;
      } else {
        const r = super.get(p)!;
        lines[at] = lineBytes(p, r);
        lines[at + 1] = Buffer.byteLength(JSON.stringify(p)) + 1;
        lines[at + 2] = r.size;
        lines[at + 3] = r.mtimeMs;
      }
      total += lines[at] + (i > 0 ? 2 : 0);
      i++;
    }
    const bodyStart = size - tail - total;
    const records = new LazyRecords();
    records.setSource(source);
    let pos = bodyStart;
    for (let k = 0; k < count; k++) {
      const at = k * 4;
      records.setRaw(paths[k], pos, pos + lines[at + 1], pos + lines[at], lines[at + 2], lines[at + 3]);
      pos += lines[at] + 2;
    }
    return { records, bodyStart };
  }

  private materialize(): void {
    if (!this.alive) return;
    const slots: number[] = [];
    for (let slot = 0; slot < this.paths.length; slot++) if (!this.gone[slot]) slots.push(slot);
    this.parseSlots(slots);
  }

  override values(): MapIterator<FileRecord> {
    this.materialize();
    return super.values();
  }

  override entries(): MapIterator<[RelPath, FileRecord]> {
    this.materialize();
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[RelPath, FileRecord]> {
    return this.entries();
  }

  override forEach(fn: (value: FileRecord, key: RelPath, map: Map<RelPath, FileRecord>) => void, thisArg?: unknown): void {
    this.materialize();
    super.forEach(fn, thisArg);
  }
}

/** size and mtime of a record; for a LazyRecords map without parsing it. */
export function statOf(records: Map<RelPath, FileRecord>, path: RelPath): { size: number; mtimeMs: number } | undefined {
  return records instanceof LazyRecords ? records.statOf(path) : records.get(path);
}
