/**
 * The graph.db schema. This is a public contract: other tools open graph.db with any SQLite client and query
 * these tables. Changing it means bumping STORE_FORMAT_VERSION (engine/src/version.ts): old files are rebuilt,
 * never migrated.
 */

export const TABLES = {
  nodes: 'nodes',
  edges: 'edges',
  symbols: 'symbols',
  externals: 'externals',
  unresolved: 'unresolved',
  meta: 'meta',
} as const;

export type TableName = (typeof TABLES)[keyof typeof TABLES];

/** Keys of the `meta` table. */
export const META_KEYS = {
  storeFormatVersion: 'store_format_version',
  toolVersion: 'tool_version',
  builtAt: 'built_at',
} as const;

/**
 * One statement per entry, in creation order. The indexes are the ones a reader of ours uses: the incremental patch
 * deletes a file's rows by node_id. Every query reads whole tables into memory (query/reader.ts), so no index by
 * edge target, symbol name or package is kept: on a 62,120-file monorepo they were 51 MB of a 258 MB graph.db
 * (edges_target 37, symbols_name 14). A client of its own that filters on them scans the table.
 */
export const DDL_STATEMENTS: readonly string[] = [
  `CREATE TABLE nodes (
  id TEXT PRIMARY KEY,
  path TEXT UNIQUE NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL
)`,
  // one row per (importer, imported file, import kind); lookups by source use the primary key; `exact` is 1 when the
  // language's own rules put the edge there, 0 when it is inferred (a best guess where the language gives no rule)
  `CREATE TABLE edges (
  source TEXT NOT NULL,
  target TEXT NOT NULL,
  kind TEXT NOT NULL,
  names TEXT,
  reexports TEXT,
  specifier TEXT NOT NULL,
  line INTEGER NOT NULL,
  exact INTEGER NOT NULL,
  PRIMARY KEY (source, target, kind)
) WITHOUT ROWID`,
  `CREATE TABLE symbols (
  node_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  line INTEGER NOT NULL,
  exported INTEGER NOT NULL
)`,
  `CREATE INDEX symbols_node_id ON symbols (node_id)`,
  `CREATE TABLE externals (
  node_id TEXT NOT NULL,
  package TEXT NOT NULL,
  specifier TEXT NOT NULL,
  kind TEXT NOT NULL,
  line INTEGER NOT NULL
)`,
  `CREATE INDEX externals_node_id ON externals (node_id)`,
  `CREATE TABLE unresolved (
  node_id TEXT NOT NULL,
  specifier TEXT NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT NOT NULL,
  line INTEGER NOT NULL
)`,
  `CREATE INDEX unresolved_node_id ON unresolved (node_id)`,
  `CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
)`,
];

/** The whole schema as one script. */
export const DDL = DDL_STATEMENTS.map((s) => `${s};`).join('\n');
