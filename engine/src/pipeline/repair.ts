import { existsSync } from 'node:fs';
import { readIntelConfig } from '../config.js';
import { readIndexDocument } from '../graph/index-document.js';
import { rowsOf } from '../graph/records.js';
import { intelPaths } from '../paths.js';
import { withLock, writeGraphDb } from '../store/index.js';
import { STORE_FORMAT_VERSION, TOOL_VERSION } from '../version.js';
import { buildUnlocked } from './build.js';

/**
 * Rewrites graph.db from index.json (the source of truth) when graph.db is missing, corrupt or of another format;
 * rebuilds everything when index.json is unusable too. Returns what it did.
 */
export async function repairGraph(root: string): Promise<'graph-from-index' | 'rebuilt'> {
  const paths = intelPaths(root);
  return withLock(paths.lock, async () => {
    const read = readIndexDocument(paths.index);
    if (read.ok) {
      try {
        const rows = rowsOf(read.records.values());
        readIntelConfig(root);
        await writeGraphDb(paths.graph, rows, { storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: TOOL_VERSION, builtAt: read.header.builtAt });
        return 'graph-from-index';
      } catch (error) {
        if (!existsSync(paths.index)) throw error;
        // a record line that does not parse: fall through to a rebuild
      }
    }
    await buildUnlocked(root, { cache: false });
    return 'rebuilt';
  });
}
