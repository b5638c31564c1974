/** Errors of the graph store; in a file of their own so that callers can test for them without loading sql.js. */

export class StoreError extends Error {
  readonly file: string;
  constructor(message: string, file: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.file = file;
  }
}

/** The file is not a readable SQLite database (garbage, truncated, malformed). Rebuild it from index.json. */
export class CorruptStoreError extends StoreError {
  constructor(file: string, detail: string, options?: { cause?: unknown }) {
    super(`graph store ${file} is unreadable: ${detail}`, file, options);
    this.name = 'CorruptStoreError';
  }
}

/** The file was written with another store format version (or is not ours). Rebuild it, never migrate. */
export class FormatMismatchError extends StoreError {
  readonly found: number | null;
  readonly expected: number;
  constructor(file: string, found: number | null, expected: number) {
    super(`graph store ${file} has format version ${found ?? 'none'}, expected ${expected}`, file);
    this.name = 'FormatMismatchError';
    this.found = found;
    this.expected = expected;
  }
}

