import type { FileRecord, RelPath } from '../types.js';

/** A record line of index.json that does not parse: the index must be rebuilt. */
export class CorruptIndexError extends Error {
  override name = 'CorruptIndexError';
}

/**
 * The records of index.json, parsed only when asked for. index.json keeps one record per line, so an incremental
 * update that touches two files parses two lines and writes every other line back as it was read, instead of
 * parsing and serialising the whole index. Iterating (values, entries, forEach, for…of) parses everything.
 */
export class LazyRecords extends Map<RelPath, FileRecord> {
  private readonly raw = new Map<RelPath, Uint8Array>();

  /** Adds a record still in its serialised form (the UTF-8 bytes of `JSON.stringify(record)`). */
  setRaw(path: RelPath, json: Uint8Array): void {
    super.delete(path);
    this.raw.set(path, json);
  }

  /** The serialised form of a record that was never parsed, if it is still untouched. */
  rawOf(path: RelPath): Uint8Array | undefined {
    return this.raw.get(path);
  }

  override get(path: RelPath): FileRecord | undefined {
    const parsed = super.get(path);
    if (parsed !== undefined) return parsed;
    const json = this.raw.get(path);
    if (json === undefined) return undefined;
    let record: FileRecord;
    try {
      record = JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8')) as FileRecord;
    } catch (error) {
      throw new CorruptIndexError(`index.json: the record of ${path} does not parse: ${(error as Error).message}`);
    }
    this.raw.delete(path);
    super.set(path, record);
    return record;
  }

  override has(path: RelPath): boolean {
    return super.has(path) || this.raw.has(path);
  }

  override set(path: RelPath, record: FileRecord): this {
    this.raw?.delete(path);
    return super.set(path, record);
  }

  override delete(path: RelPath): boolean {
    const a = this.raw.delete(path);
    const b = super.delete(path);
    return a || b;
  }

  override clear(): void {
    this.raw.clear();
    super.clear();
  }

  override get size(): number {
    return super.size + (this.raw?.size ?? 0);
  }

  /** Paths only: never parses. */
  override keys(): MapIterator<RelPath> {
    return [...super.keys(), ...this.raw.keys()][Symbol.iterator]() as MapIterator<RelPath>;
  }

  private materialize(): void {
    for (const path of [...this.raw.keys()]) this.get(path);
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
