import type { FileRecord } from '../../engine/src/types.js';

/**
 * What one import statement of a record resolved to, for the language tests: one `kind:target` per entry, in order
 * (`file:path`, `external:package`, `builtin:module`, `unresolved:reason`, ` (inferred)` after a guess). `kind`
 * narrows to the statements of one import kind (`same-package`).
 */
export function resolvedOf(record: FileRecord, specifier: string, kind?: string): string[] {
  return record.imports
    .filter((i) => i.specifier === specifier && (kind === undefined || i.kind === kind))
    .map((i) => `${i.resolved.kind}:${'path' in i.resolved ? i.resolved.path : 'package' in i.resolved ? i.resolved.package : 'module' in i.resolved ? i.resolved.module : i.resolved.reason}${i.inferred ? ' (inferred)' : ''}`);
}
