import { readFileSync } from 'node:fs';
import { intelPaths } from '../../engine/src/index.js';
import type { FileRecord, IndexDocument } from '../../engine/src/types.js';

/** The records of index.json as the last build or update wrote them. */
export const indexFiles = (root: string): Record<string, FileRecord> => (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files;

/** What one statement resolved to: `kind:target` per entry of the record, in order, `~` before an inferred one. */
export function resolvedOf(record: FileRecord, specifier: string): string[] {
  return record.imports
    .filter((i) => i.specifier === specifier)
    .map((i) => `${i.inferred ? '~' : ''}${i.resolved.kind}:${'path' in i.resolved ? i.resolved.path : 'package' in i.resolved ? i.resolved.package : 'module' in i.resolved ? i.resolved.module : i.resolved.reason}`);
}
