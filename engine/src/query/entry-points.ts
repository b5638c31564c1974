import { rankEntryPoints } from '../graph/entry-points.js';
import type { IntelReader, NodeInfo } from './reader.js';

/** Every entry point of the graph (graph/entry-points.ts), likeliest first; summary.md shows the first few. */
export function entryPoints(reader: IntelReader): NodeInfo[] {
  return reader.memo('entry-points', () =>
    rankEntryPoints(
      [...reader.nodes.values()].map((node) => ({
        node,
        path: node.path,
        type: node.type,
        dependents: reader.in.get(node.id)?.length ?? 0,
        dependencies: reader.out.get(node.id)?.length ?? 0,
      })),
    ).map((c) => c.node),
  );
}
