/**
 * Entry points: source or script files that nothing in the project imports and that import something themselves
 * (a CLI, a server, a package's main module). One rule for summary.md and for the queries the MCP server asks.
 */
import type { FileType, RelPath } from '../types.js';

const ENTRY_NAME = /(^|\/)(index|main|cli|server|app|bin)\.[cm]?[jt]sx?$|(^|\/)(__main__|main|cli|app|manage|wsgi|asgi)\.py$/;

export interface EntryCandidate {
  path: RelPath;
  type: FileType;
  dependents: number;
  dependencies: number;
}

function isEntryPoint(c: EntryCandidate): boolean {
  return (c.type === 'source' || c.type === 'script') && c.dependents === 0 && c.dependencies > 0;
}

/** The entry points among `candidates`, likeliest first: entry-like names, then shallow paths, then path order. */
export function rankEntryPoints<T extends EntryCandidate>(candidates: Iterable<T>): T[] {
  return [...candidates].filter(isEntryPoint).sort((a, b) => {
    const an = ENTRY_NAME.test(a.path) ? 0 : 1;
    const bn = ENTRY_NAME.test(b.path) ? 0 : 1;
    const depth = a.path.split('/').length - b.path.split('/').length;
    return an - bn || depth || (a.path < b.path ? -1 : 1);
  });
}
