/**
 * Imported first by the background worker: its WebAssembly (sql.js, the tree-sitter runtime and grammars) runs as
 * V8's baseline code (Liftoff) and is never recompiled by the optimising tier. A worker mostly starts for one edit:
 * the optimising compiles of the parser's and SQLite's hot functions cost more CPU than the edit itself (a fresh
 * process's update of a 73 KB C header: ~0.75 s of CPU with them, ~0.4 s without; of a 48 KB TypeScript file, whose
 * store is sql.js too: ~0.4 s against ~0.28 s), and on a busy two-core machine that CPU is the user's wait. Baseline
 * code parses a large file about 1.5 times slower once warm, a few milliseconds an edit; a cold build of libuv (363
 * files) or of Django and friends (1,002) in one process took within 10% of the CPU either way. The time until an
 * edit is in the graph, per language: bench/RESULTS.md "Hooks per language".
 * A worker that starts with no graph.db yet (the project's first build, which can be tens of thousands of files)
 * keeps the optimising tier. `v8.setFlagsFromString` ignores a flag this Node does not know (a message on stderr,
 * which the worker has not).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

const root = process.argv[2];
if (root && existsSync(path.join(root, '.planning', 'intel', 'graph.db'))) v8.setFlagsFromString('--liftoff-only');
