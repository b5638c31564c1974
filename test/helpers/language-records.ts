import { readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { buildIntel, intelPaths, openIntel, type IntelReader } from '../../engine/src/index.js';
import type { FileRecord, IndexDocument } from '../../engine/src/types.js';
import { cleanupProjects, copyProject } from './project.js';

export { resolvedOf } from './resolved.js';

/** The records of index.json as the last build or update wrote them. */
export const indexFiles = (root: string): Record<string, FileRecord> => (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files;

/** A copy of test/fixtures/projects/<name>, built once for a describe block: its root, records and an open reader. */
export function builtFixture(name: string): { root: string; files: Record<string, FileRecord>; reader: IntelReader } {
  const it = {} as { root: string; files: Record<string, FileRecord>; reader: IntelReader };
  before(async () => {
    it.root = copyProject(name);
    await buildIntel(it.root);
    it.files = indexFiles(it.root);
    it.reader = await openIntel(it.root);
  });
  after(() => {
    it.reader?.close();
    cleanupProjects();
  });
  return it;
}
