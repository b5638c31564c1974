/**
 * A full garbage collection between the phases of a large full build, and once a reader has loaded graph.db. V8 lets garbage pile up while the heap has room
 * to grow, and the process keeps the pages it grew into: on a 62,000-file monorepo a build whose live data never
 * passed ~710 MB of heap peaked at 1,140 MB of RSS, the garbage of rendering every entity page still there when the
 * graph.db rows were made. Collected at the phase boundaries, each phase reuses the last one's memory. A reader
 * (the MCP server's) leaves the rows it decoded from graph.db as garbage the same way. The collector
 * is reached through V8's own flag (a full collection is what `--expose-gc` offers), once, only when it is used.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

/** From this many files (a few ms a collection below it: not worth it). */
const COLLECT_FROM = 10_000;

/** A full collection when the build or the reader holds `files` files, from COLLECT_FROM on. */
export function collectGarbage(files: number): void {
  if (files < COLLECT_FROM) return;
  collect ??= (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc') as () => void);
  collect();
}
