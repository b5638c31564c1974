/**
 * What the graph page draws, read from graph.db through the query layer (IntelReader, dependentCounts): files with
 * their type, purpose, exports and dependent counts, and the import edges. Nothing here re-derives the graph; the
 * page runs the engine's own blastRadius over these edges (engine/view-client/app.ts).
 */
import { dependentCounts } from '../query/hotspots.js';
import type { IntelReader } from '../query/reader.js';
import type { FileType, ImportKind } from '../types.js';

export const FILE_TYPES: FileType[] = ['source', 'test', 'types', 'config', 'script'];
export const EDGE_KINDS: ImportKind[] = ['import', 'require', 'dynamic-import', 'reexport', 'type-import', 'triple-slash', 'triple-slash-types', 'lazy-import', 'conditional-import', 'include', 'mod', 'same-package'];

/** Purpose text is cut here on the page (the entity page holds the rest). */
const PURPOSE_CHARS = 400;

/** The page's data, compact: files by index, edges as a flat list of (source, target, kind) index triples. */
export interface GraphViewData {
  v: 1;
  project: string;
  generatedAt: string;
  tool: string;
  types: FileType[];
  kinds: ImportKind[];
  /** the languages of the files (`python`, `typescript` …), indexed by the files' last field */
  languages: string[];
  /** [path, type index, direct dependents, transitive dependents, purpose, exported names, language index] */
  files: Array<[string, number, number, number, string, string[], number]>;
  edges: number[];
  /** index of the file to select on load, or -1 */
  focus: number;
}

export function graphViewData(reader: IntelReader, options: { project: string; tool: string; focus?: string | null; now?: Date }): GraphViewData {
  const index = new Map<string, number>();
  const files: GraphViewData['files'] = [];
  const languages: string[] = [];
  const languageIndex = (l: string) => {
    const at = languages.indexOf(l);
    return at >= 0 ? at : languages.push(l) - 1;
  };
  for (const node of reader.nodes.values()) {
    index.set(node.id, files.length);
    const counts = dependentCounts(reader, node.id);
    const purpose = node.purpose.length > PURPOSE_CHARS ? `${node.purpose.slice(0, PURPOSE_CHARS - 1)}…` : node.purpose;
    const exported = [...new Set(node.exports.map((e) => e.name).filter((n) => n && n !== '*'))];
    files.push([node.path, Math.max(0, FILE_TYPES.indexOf(node.type)), counts.direct, counts.transitive, purpose, exported, languageIndex(node.language)]);
  }
  const edges: number[] = [];
  for (const [source, list] of reader.out) {
    const s = index.get(source);
    if (s === undefined) continue;
    for (const e of list) {
      const t = index.get(e.target);
      if (t === undefined) continue;
      edges.push(s, t, Math.max(0, EDGE_KINDS.indexOf(e.kind)));
    }
  }
  const focus = options.focus ? (index.get(reader.lookup(options.focus).id) ?? -1) : -1;
  return { v: 1, project: options.project, generatedAt: (options.now ?? new Date()).toISOString(), tool: options.tool, types: FILE_TYPES, kinds: EDGE_KINDS, languages, files, edges, focus };
}
