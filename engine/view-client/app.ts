/**
 * The graph page's script (bundled with cytoscape and cytoscape-fcose by scripts/build-view.mjs, inlined into the
 * page by engine/src/view/page.ts). Reads the data of engine/src/view/graph-data.ts from #gsd-data and draws:
 * - the module graph grouped by folder: folders are compound boxes; a folder not open is one cluster node (its file
 *   count on it). On load, folders open largest first while the drawing stays under INITIAL_NODES; a click on a
 *   cluster opens it, a double click on an open folder closes it; past MAX_NODES other folders close first. fcose
 *   lays out the first drawing (and Collapse all); after it nothing drawn moves: a folder that opens has only its
 *   new box laid out, a folder that closes has its cluster put back where it stood;
 * - files sized by their transitive dependents (the hotspots);
 * - for a selected file, its blast radius computed by the engine's own blastRadius (engine/src/query/blast-radius.ts,
 *   bundled in), coloured by depth, with the affected files and tests listed beside the graph;
 * - search by path or exported symbol; the file's Purpose on hover and in the panel.
 * window.gsdView exposes the state to tests and benchmarks.
 */
import cytoscape from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { blastRadius, type BlastRadius } from '../src/query/blast-radius.js';
import type { EdgeInfo, IntelReader, NodeInfo } from '../src/query/reader.js';
import type { GraphViewData } from '../src/view/graph-data.js';

cytoscape.use(fcose);

const INITIAL_NODES = 160;
/** the most nodes one click draws: a folder with more entries opens into groups of them by name (splitLarge) */
const CAP = 120;
/** groups are cut this large, leaving room to keep one stem's files together */
const GROUP = CAP - 10;
const MAX_NODES = 500;
/** a selection opens the folders holding the file only if that draws at most this many nodes more (as a click) */
const REVEAL_NODES = CAP;
const LIST_CAP = 150;
const TYPE_COLORS: Record<string, string> = { source: '#4c78a8', test: '#54a24b', types: '#b279a2', config: '#9d755d', script: '#8c8c8c' };
const DEPTH_COLORS = ['#d1495b', '#f58518', '#f2a541', '#f6d55c', '#fbe9a6'];
const depthColor = (d: number) => DEPTH_COLORS[Math.min(d, DEPTH_COLORS.length - 1)];
const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

const data = JSON.parse(document.getElementById('gsd-data')!.textContent!) as GraphViewData;
const N = data.files.length;
const paths = data.files.map((f) => f[0]);
const typeOf = data.files.map((f) => data.types[f[1]]);
const languageOf = data.files.map((f) => data.languages?.[f[6]] ?? '');
const transitive = data.files.map((f) => f[3]);
const indexOf = new Map(paths.map((p, i) => [p, i]));
const maxTransitive = Math.max(1, ...transitive);
const edgeCount = data.edges.length / 3;

// ------------------------------------------------------------------ the engine's blast radius over the page's edges
const shimNodes = new Map<string, NodeInfo>();
const shimIn = new Map<string, EdgeInfo[]>();
for (let i = 0; i < N; i++) {
  shimNodes.set(paths[i], { id: paths[i], path: paths[i], type: typeOf[i] as NodeInfo['type'], language: languageOf[i], purpose: data.files[i][4], exports: [], syntaxError: null, skipped: null });
  shimIn.set(paths[i], []);
}
for (let k = 0; k < data.edges.length; k += 3) {
  const source = paths[data.edges[k]];
  const target = paths[data.edges[k + 1]];
  shimIn.get(target)!.push({ source, target, kind: data.kinds[data.edges[k + 2]], names: [], reexports: null, exact: true });
}
const shimReader = {
  nodes: shimNodes,
  in: shimIn,
  lookup(p: string) {
    const n = shimNodes.get(p);
    if (!n) throw new Error(`no file ${p}`);
    return n;
  },
} as unknown as IntelReader;

// ------------------------------------------------------------------ folders
interface Folder {
  /** the folder's path; a group's is its parent's + `//` + its index (`//` is in no project path) */
  path: string;
  /** the last part of the path (`src/lib` for a chain drawn as one); a group's range of names, `add–clo` */
  name: string;
  parent: Folder | null;
  folders: Folder[];
  files: number[];
  count: number;
  /** a group of a large folder's entries by name, not a folder of the project */
  group?: boolean;
}
const root: Folder = { path: '', name: data.project, parent: null, folders: [], files: [], count: 0 };
const folderOf: Folder[] = new Array(N);
{
  const byPath = new Map<string, Folder>([['', root]]);
  const ensure = (p: string): Folder => {
    const hit = byPath.get(p);
    if (hit) return hit;
    const cut = p.lastIndexOf('/');
    const parent = ensure(cut < 0 ? '' : p.slice(0, cut));
    const f: Folder = { path: p, name: p.slice(cut + 1), parent, folders: [], files: [], count: 0 };
    parent.folders.push(f);
    byPath.set(p, f);
    return f;
  };
  for (let i = 0; i < N; i++) {
    const cut = paths[i].lastIndexOf('/');
    ensure(cut < 0 ? '' : paths[i].slice(0, cut)).files.push(i);
  }
  // a folder holding only one folder is drawn as one (src/lib/x)
  const compress = (f: Folder) => {
    while (f !== root && f.files.length === 0 && f.folders.length === 1) {
      const only = f.folders[0];
      f.name = `${f.name}/${only.name}`;
      f.path = only.path;
      f.folders = only.folders;
      f.files = only.files;
      for (const c of f.folders) c.parent = f;
    }
    f.folders.forEach(compress);
  };
  compress(root);
  const sort = (f: Folder) => {
    f.folders.sort((a, b) => (a.name < b.name ? -1 : 1));
    f.files.sort((a, b) => (basename(paths[a]) < basename(paths[b]) ? -1 : 1));
    f.folders.forEach(sort);
  };
  sort(root);
  splitLarge(root);
  const fill = (f: Folder): number => {
    for (const i of f.files) folderOf[i] = f;
    f.count = f.files.length + f.folders.reduce((n, c) => n + fill(c), 0);
    return f.count;
  };
  fill(root);
}
/**
 * Bounds what one click draws: a folder with more than CAP entries (files and sub-folders) opens into groups of its
 * entries by name instead, each of at most CAP (groups of groups past CAP² entries), so opening any cluster adds at
 * most CAP nodes. Its sub-folders stay whole beside groups of its files when they fit (split by sub-folder first),
 * else everything is grouped. Groups are contiguous ranges of the sorted names, never splitting files of one stem
 * (`add.js`, `add.d.ts`), named like a dictionary's guide words by the shortest prefixes that tell them apart.
 */
function splitLarge(f: Folder) {
  f.folders.forEach(splitLarge);
  const entries = f.files.length + f.folders.length;
  if (entries <= CAP) return;
  if (f.folders.length + Math.ceil(f.files.length / GROUP) <= CAP) {
    const groups = groupEntries(f, f.files.map((i) => ({ name: basename(paths[i]), file: i })), Math.ceil(f.files.length / GROUP));
    f.files = [];
    f.folders = [...f.folders, ...groups].sort((a, b) => (a.name < b.name ? -1 : 1));
  } else {
    const all: Entry[] = [...f.folders.map((c) => ({ name: c.name, folder: c })), ...f.files.map((i) => ({ name: basename(paths[i]), file: i }))];
    all.sort((a, b) => (a.name < b.name ? -1 : 1));
    f.files = [];
    f.folders = groupEntries(f, all, Math.min(CAP, Math.ceil(entries / GROUP)));
    f.folders.forEach(splitLarge);
  }
}
type Entry = { name: string; file?: number; folder?: Folder };
/** a file name up to its first dot: `add` for add.js and add.d.ts */
function stem(name: string): string {
  const dot = name.indexOf('.', 1);
  return dot < 0 ? name : name.slice(0, dot);
}
/** the shortest prefix of `name` that `other` does not start with (a guide word) */
function lead(name: string, other: string): string {
  let k = 1;
  while (k < name.length && other.startsWith(name.slice(0, k))) k++;
  return k > 16 ? `${name.slice(0, 16)}…` : name.slice(0, k);
}
/** cuts sorted entries into `n` contiguous groups of about equal size, each a child folder of `parent` */
function groupEntries(parent: Folder, entries: Entry[], n: number): Folder[] {
  const cuts = [0];
  for (let g = 1; g < n; g++) {
    let at = Math.max(cuts[cuts.length - 1] + 1, Math.round((g * entries.length) / n));
    // keep one stem's files together, unless that would make a group more than a few entries larger
    for (let k = 0; k < 8 && at < entries.length && stem(entries[at].name) === stem(entries[at - 1].name); k++) at++;
    if (at < entries.length) cuts.push(at);
  }
  cuts.push(entries.length);
  const groups: Folder[] = [];
  for (let g = 0; g + 1 < cuts.length; g++) {
    const part = entries.slice(cuts[g], cuts[g + 1]);
    const first = part[0].name;
    const last = part[part.length - 1].name;
    const name = `${lead(first, entries[cuts[g] - 1]?.name ?? last)}–${lead(last, entries[cuts[g + 1]]?.name ?? first)}`;
    const group: Folder = { path: `${parent.path}//${g}`, name, parent, folders: [], files: [], count: 0, group: true };
    for (const e of part) {
      if (e.file !== undefined) group.files.push(e.file);
      else {
        e.folder!.parent = group;
        group.folders.push(e.folder!);
      }
    }
    groups.push(group);
  }
  return groups;
}
/** what a folder is called on its box and in the tooltip: `src/lib/`, a group `date-fns/ add–clo` */
function title(f: Folder): string {
  if (!f.group) return `${f.path || f.name}/`;
  let real = f.parent!;
  while (real.group) real = real.parent!;
  return `${title(real)} ${f.name}`;
}
/** the first line of a cluster's label */
const clusterName = (f: Folder) => (f.group ? f.name : `${f.name}/`);
const folderByPath = new Map<string, Folder>();
(function index(f: Folder) {
  folderByPath.set(f.path, f);
  f.folders.forEach(index);
})(root);

const expanded = new Set<Folder>([root]);
const isOpen = (f: Folder) => expanded.has(f);
/** drawn nodes: open folders' boxes, their files, and their closed sub-folders */
function drawnCount(): number {
  let n = 0;
  for (const f of expanded) n += (f === root ? 0 : 1) + f.files.length + f.folders.filter((c) => !isOpen(c)).length;
  return n;
}
/** the drawn node standing for file i: itself, or the outermost closed folder above it */
function repOf(i: number): string {
  let rep = `f:${i}`;
  for (let f: Folder | null = folderOf[i]; f; f = f.parent) if (!isOpen(f)) rep = `c:${f.path}`;
  return rep;
}
/** where each folder's cluster node stood when the folder was opened: closing the folder puts it back there */
const openedAt = new Map<Folder, cytoscape.Position>();
/** closes a folder and every folder below it (their cluster places are forgotten: they were inside it) */
function closeFolder(f: Folder) {
  expanded.delete(f);
  openedAt.delete(f);
  f.folders.forEach(closeFolder);
}
function openLargestFirst(budget: number) {
  let drawn = drawnCount();
  const queue = [...root.folders];
  while (queue.length) {
    queue.sort((a, b) => b.count - a.count);
    const f = queue.shift()!;
    const cost = f.files.length + f.folders.length;
    if (drawn + cost > budget) continue;
    expanded.add(f);
    drawn += cost;
    queue.push(...f.folders);
  }
}
/** what an incremental change needs: where the cluster that opened stood, and where closed clusters go back */
interface Change {
  near: cytoscape.Position | null;
  restore: Map<string, cytoscape.Position>;
}
/**
 * Opens the folders above `target` and `target` itself; past MAX_NODES closes folders not on the way first. Returns
 * null when all were open already, or when opening them would draw more than `budget` nodes more (then nothing
 * changes). Reads positions from what is drawn, so call it before the drawing is updated.
 */
function reveal(target: Folder, budget = Infinity): Change | null {
  const chain: Folder[] = [];
  for (let f: Folder | null = target; f; f = f.parent) chain.push(f);
  const closed = chain.filter((f) => !isOpen(f));
  if (!closed.length) return null;
  const outer = closed[closed.length - 1];
  const node = cy.getElementById(`c:${outer.path}`);
  const near = node.nonempty() ? { ...node.position() } : null;
  const drawnBefore = drawnCount();
  chain.forEach((f) => expanded.add(f));
  if (drawnCount() - drawnBefore > budget) {
    closed.forEach((f) => expanded.delete(f));
    return null;
  }
  if (near) openedAt.set(outer, near);
  const restore = new Map<string, cytoscape.Position>();
  if (drawnCount() > MAX_NODES) {
    const keep = new Set(chain);
    for (const f of [...expanded]) {
      if (keep.has(f) || !f.parent || !keep.has(f.parent) || !isOpen(f) || drawnCount() <= MAX_NODES) continue;
      restore.set(`c:${f.path}`, placeOf(f));
      closeFolder(f);
    }
  }
  return { near, restore };
}
/** where an open folder's cluster goes when it closes: where it stood when opened, else the middle of its drawing */
function placeOf(f: Folder): cytoscape.Position {
  const at = openedAt.get(f);
  if (at) return at;
  const mine = cy.nodes().filter((n) => {
    const kind = n.data('kind');
    return isAncestor(f, kind === 'file' ? folderOf[n.data('file') as number] : folderByPath.get(n.data('folder') as string)!);
  });
  const bb = mine.boundingBox();
  return mine.nonempty() ? { x: (bb.x1 + bb.x2) / 2, y: (bb.y1 + bb.y2) / 2 } : { x: 0, y: 0 };
}
/** closes folder f (a double click on its box): its cluster comes back where it stood */
function collapse(f: Folder): Change {
  const restore = new Map([[`c:${f.path}`, placeOf(f)]]);
  closeFolder(f);
  return { near: null, restore };
}

// ------------------------------------------------------------------ drawing
const fileSize = (i: number) => Math.round(14 + 46 * Math.sqrt(transitive[i] / maxTransitive));
const clusterSize = (f: Folder) => Math.round(Math.min(130, 34 + 7 * Math.sqrt(f.count)));

const cy = cytoscape({
  container: document.getElementById('graph'),
  minZoom: 0.03,
  maxZoom: 4,
  boxSelectionEnabled: false,
  autoungrabify: false,
  hideEdgesOnViewport: edgeCount > 4000,
  textureOnViewport: N > 2000,
  // on a high-density screen a large project's dense drawing is rasterised at 1x: a pan at device pixel ratio 2 took
  // ~35 % less of chromium's CPU, the page's start ~15 % less (docs/graph-view.md, "What a frame costs")
  pixelRatio: N > 2000 ? 1 : 'auto',
  style: [
    { selector: 'node', style: { label: 'data(label)', 'font-size': 11, color: '#30363d', 'min-zoomed-font-size': 6, 'text-wrap': 'ellipsis', 'text-max-width': '140px' } },
    {
      selector: 'node[kind = "file"]',
      style: { width: 'data(size)', height: 'data(size)', 'background-color': 'data(color)', 'text-valign': 'bottom', 'text-margin-y': 3, 'border-width': 1.5, 'border-color': '#ffffff' },
    },
    {
      selector: 'node[kind = "cluster"]',
      style: {
        shape: 'round-rectangle',
        width: 'data(size)',
        height: 'data(size)',
        'background-color': '#e3e8ef',
        'border-width': 1.5,
        'border-color': '#8b98a9',
        'text-valign': 'center',
        'text-wrap': 'wrap',
        'font-size': 13,
        'font-weight': 'bold',
        color: '#3b4656',
      },
    },
    {
      selector: 'node[kind = "dir"]',
      style: {
        shape: 'round-rectangle',
        'background-color': '#eef1f5',
        'background-opacity': 0.55,
        'border-width': 1,
        'border-color': '#b6c0cc',
        'text-valign': 'top',
        'text-halign': 'center',
        'font-size': 14,
        'font-weight': 'bold',
        color: '#4a5667',
        padding: '14px',
      },
    },
    { selector: 'edge', style: { width: 'data(width)', 'line-color': '#b9c1ca', 'curve-style': 'straight', 'target-arrow-shape': 'triangle', 'target-arrow-color': '#b9c1ca', 'arrow-scale': 0.6, opacity: 0.55 } },
    // the highlight classes change colours and opacity only: a change of border width, font weight, label or z-index
    // makes cytoscape recompute bounds (of the folder box too) or the drawing order of everything on the next frame
    { selector: '.dim', style: { opacity: 0.16 } },
    { selector: 'node.affected', style: { 'background-color': 'data(hl)', 'border-color': '#5a2a00' } },
    { selector: 'node.cluster-hit', style: { 'border-color': 'data(hl)', 'border-width': 5 } },
    { selector: 'node.selected-file', style: { 'background-color': DEPTH_COLORS[0], 'border-color': '#1f2328', 'underlay-color': '#1f2328', 'underlay-opacity': 0.3, 'underlay-padding': 5, 'underlay-shape': 'ellipse' } },
    { selector: 'edge.hot', style: { 'line-color': '#e07a2f', 'target-arrow-color': '#e07a2f', opacity: 0.9 } },
    { selector: 'node.found', style: { 'border-color': '#2f6fde', 'border-width': 4 } },
  ],
});

let selected: number | null = null;
let radius: BlastRadius | null = null;
let depthOf = new Map<number, number>();
let layoutRuns = 0;
let changes = 0;
const layoutMs: number[] = [];
const changeMs: number[] = [];
const separateMs: number[] = [];

/**
 * Open folders are drawn as boxes side by side, not nested (one level of compound nodes keeps the layout fast and
 * legible): each box, labelled with the folder's path, holds the folder's own files and its closed sub-folders. An
 * open folder with nothing of its own to show draws no box.
 */
function elements(): cytoscape.ElementDefinition[] {
  const els: cytoscape.ElementDefinition[] = [];
  for (const f of expanded) {
    const closed = f.folders.filter((c) => !isOpen(c));
    const box = f === root || (f.files.length === 0 && closed.length === 0) ? undefined : `d:${f.path}`;
    if (box) els.push({ group: 'nodes', data: { id: box, label: title(f), kind: 'dir', folder: f.path } });
    for (const c of closed) els.push({ group: 'nodes', data: { id: `c:${c.path}`, label: `${clusterName(c)}\n${c.count} files`, kind: 'cluster', folder: c.path, size: clusterSize(c), count: c.count, parent: box } });
    for (const i of f.files) els.push({ group: 'nodes', data: { id: `f:${i}`, label: basename(paths[i]), kind: 'file', file: i, path: paths[i], size: fileSize(i), color: TYPE_COLORS[typeOf[i]] ?? '#888', parent: box } });
  }
  const reps = new Array<string>(N);
  for (let i = 0; i < N; i++) reps[i] = repOf(i);
  const weights = new Map<string, number>();
  for (let k = 0; k < data.edges.length; k += 3) {
    const s = reps[data.edges[k]];
    const t = reps[data.edges[k + 1]];
    if (s === t) continue;
    const key = `${s}>${t}`;
    weights.set(key, (weights.get(key) ?? 0) + 1);
  }
  for (const [key, w] of weights) {
    const [source, target] = key.split('>');
    els.push({ group: 'edges', data: { id: `e:${key}`, source, target, weight: w, width: Math.min(6, 0.8 + Math.log2(w)) } });
  }
  return els;
}

/**
 * Draws the graph afresh and lays it all out with fcose: only the first drawing and Collapse all, both of at most
 * ~INITIAL_NODES nodes (the largest folders open, the rest clusters). Every later change goes through update().
 */
function draw(): Promise<void> {
  openedAt.clear();
  cy.batch(() => {
    cy.elements().remove();
    cy.add(elements());
  });
  const count = cy.nodes().length;
  layoutRuns++;
  const started = performance.now();
  return new Promise((resolve) => {
    const layout = cy.layout({
      name: 'fcose',
      quality: count > 700 ? 'draft' : 'default',
      randomize: true,
      animate: false,
      fit: true,
      padding: 30,
      nodeDimensionsIncludeLabels: false,
      idealEdgeLength: () => 60,
      nodeRepulsion: () => 6500,
      nestingFactor: 0.1,
      gravity: 0.3,
      gravityRangeCompound: 1.5,
      gravityCompound: 1.2,
      numIter: count > 600 ? 1200 : 2500,
      tile: true,
      packComponents: false,
      nodeSeparation: 60,
      tilingPaddingVertical: 14,
      tilingPaddingHorizontal: 14,
    } as cytoscape.LayoutOptions);
    layout.one('layoutstop', () => {
      const laid = performance.now();
      separateBoxes();
      separateMs.push(Math.round(performance.now() - laid));
      cy.fit(undefined, 30);
      layoutMs.push(Math.round(performance.now() - started));
      applyHighlight();
      updateNotice();
      resolve();
    });
    layout.run();
  });
}

/**
 * Makes the drawing match `expanded` without touching what stays: elements no longer wanted are removed, new ones
 * added (at no place yet), edges between representatives re-weighted. Returns what was added.
 */
function sync(): cytoscape.CollectionReturnValue {
  const want = elements();
  const ids = new Set(want.map((d) => d.data.id!));
  const fresh: cytoscape.ElementDefinition[] = [];
  cy.batch(() => {
    cy.elements()
      .filter((e) => !ids.has(e.id()))
      .remove();
    for (const d of want) {
      const have = cy.getElementById(d.data.id!);
      if (have.empty()) fresh.push(d);
      else if (d.group === 'edges' && have.data('weight') !== d.data.weight) have.data({ weight: d.data.weight, width: d.data.width });
    }
  });
  return cy.add(fresh);
}

/**
 * Applies a change of open folders to the drawing and lays out only what is new: closed folders' clusters go back
 * where they stood; each newly opened folder's box has its own contents laid out (below) and is put near the cluster
 * it replaces, in the nearest place free of other boxes. Nothing else moves, and no layout runs over the drawing.
 */
function update(change: Change) {
  const started = performance.now();
  const added = sync();
  const near = change.near ?? { x: 0, y: 0 };
  cy.batch(() => {
    for (const n of added.nodes().toArray()) {
      if (!n.isParent()) n.position({ ...(change.restore.get(n.id()) ?? near) });
    }
  });
  // new boxes, outer folders first (a revealed chain opens several at once); a box that holds only clusters put
  // back is not new content
  const boxes = (added.nodes('[kind = "dir"]').toArray() as cytoscape.NodeSingular[])
    .filter((b) => b.children().toArray().some((c) => !change.restore.has(c.id())))
    .sort((a, b) => (a.data('folder') as string).length - (b.data('folder') as string).length);
  const fresh = new Set(boxes.map((b) => b.id()));
  const taken: Box[] = cy
    .nodes()
    .orphans()
    .filter((n) => !fresh.has(n.id()))
    .map((n) => n.boundingBox({ includeLabels: true }));
  // not in a batch: the layouts read the new nodes' sizes from their style, which a batch leaves uncomputed
  for (const box of boxes) {
    layoutContents(box);
    taken.push(placeNear(box, near, taken));
  }
  changes++;
  changeMs.push(Math.round(performance.now() - started));
  applyHighlight();
  updateNotice();
  if (boxes.length) bringIntoView(cy.nodes().filter((n) => fresh.has(n.id())));
}

/**
 * Lays out one new folder box with cytoscape's own layouts, in time linear in its contents: its files concentric
 * by rank of transitive dependents (the folder's hubs in the middle, rings growing outwards), its closed sub-folders
 * in a grid below them.
 */
function layoutContents(box: cytoscape.NodeSingular) {
  const kids = box.children();
  const files = kids.filter('[kind = "file"]');
  const subs = kids.filter('[kind = "cluster"]');
  const ring = new Map<string, number>();
  files
    .toArray()
    .sort((a, b) => transitive[b.data('file')] - transitive[a.data('file')])
    // ring k holds 6k nodes: rank r sits on the smallest k with 1 + 3k(k + 1) > r
    .forEach((n, r) => ring.set(n.id(), Math.ceil((Math.sqrt(9 + 12 * r) - 3) / 6 - 1e-9)));
  const run = (eles: cytoscape.Collection, options: Record<string, unknown>) => eles.layout({ animate: false, fit: false, ...options } as cytoscape.LayoutOptions).run();
  if (files.nonempty()) run(files, { name: 'concentric', concentric: (n: cytoscape.NodeSingular) => -ring.get(n.id())!, levelWidth: () => 1, minNodeSpacing: 14, avoidOverlap: true, boundingBox: { x1: 0, y1: 0, w: 1, h: 1 } });
  if (subs.nonempty()) {
    const fb = files.nonempty() ? files.boundingBox() : { x1: 0, x2: 0, y2: -40, w: 0 };
    const cell = 150;
    const cols = Math.max(1, Math.min(subs.length, Math.floor(Math.max(fb.w, cell * Math.ceil(Math.sqrt(subs.length))) / cell)));
    const w = cols * cell;
    const cx = (fb.x1 + fb.x2) / 2;
    run(subs, { name: 'grid', cols, avoidOverlap: true, condense: true, boundingBox: { x1: cx - w / 2, y1: fb.y2 + 40, w, h: Math.ceil(subs.length / cols) * cell } });
  }
}

const GAP = 24;
type Box = { x1: number; x2: number; y1: number; y2: number };
const overlaps = (a: Box, b: Box) => a.x1 < b.x2 + GAP && b.x1 < a.x2 + GAP && a.y1 < b.y2 + GAP && b.y1 < a.y2 + GAP;
/**
 * Moves a new box (with its contents) to the free place nearest `at`: its centre on `at` if nothing is there,
 * else on rings of candidate places around `at`, nearest first. Returns the box's new bounds.
 */
function placeNear(box: cytoscape.NodeSingular, at: cytoscape.Position, taken: Box[]): Box {
  const bb = box.boundingBox({ includeLabels: true });
  const step = Math.max(60, Math.min(bb.w, bb.h) / 3);
  for (let k = 0; k < 60; k++) {
    const around = k === 0 ? 1 : 8 * k;
    for (let j = 0; j < around; j++) {
      const x = at.x + k * step * Math.cos((2 * Math.PI * j) / around);
      const y = at.y + k * step * Math.sin((2 * Math.PI * j) / around);
      const dx = x - (bb.x1 + bb.x2) / 2;
      const dy = y - (bb.y1 + bb.y2) / 2;
      const moved = { x1: bb.x1 + dx, x2: bb.x2 + dx, y1: bb.y1 + dy, y2: bb.y2 + dy };
      if (k < 59 && taken.some((t) => overlaps(t, moved))) continue;
      box.children().shift({ x: dx, y: dy });
      return moved;
    }
  }
  return bb;
}

/** pans (and zooms out only if it must) so that what just opened is on screen */
function bringIntoView(eles: cytoscape.Collection) {
  const bb = eles.boundingBox();
  const view = cy.extent();
  if (bb.x1 >= view.x1 && bb.x2 <= view.x2 && bb.y1 >= view.y1 && bb.y2 <= view.y2) return;
  if (bb.w <= view.w && bb.h <= view.h) cy.center(eles);
  else cy.fit(eles, 30);
}

/**
 * fcose keeps files apart but lets folder boxes overlap a little where many edges pull them together, and where it
 * packs separate components: push overlapping boxes (and unboxed nodes) apart along the shorter axis, a few rounds.
 */
function separateBoxes() {
  const GAP = 24;
  const items = (cy.nodes().toArray() as cytoscape.NodeSingular[]).filter((n) => n.isParent() || !n.isChild());
  // boxes measured once, moved arithmetically, the nodes shifted once at the end
  const boxes = items.map((n) => {
    const b = n.boundingBox({ includeLabels: true });
    return { n, x1: b.x1, x2: b.x2, y1: b.y1, y2: b.y2, dx: 0, dy: 0 };
  });
  const move = (b: (typeof boxes)[number], x: number, y: number) => {
    b.x1 += x;
    b.x2 += x;
    b.y1 += y;
    b.y2 += y;
    b.dx += x;
    b.dy += y;
  };
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (let a = 0; a < boxes.length; a++) {
      for (let b = a + 1; b < boxes.length; b++) {
        const p = boxes[a];
        const q = boxes[b];
        const ox = Math.min(p.x2, q.x2) - Math.max(p.x1, q.x1) + GAP;
        const oy = Math.min(p.y2, q.y2) - Math.max(p.y1, q.y1) + GAP;
        if (ox <= 0 || oy <= 0) continue;
        if (ox < oy) {
          const sign = Math.sign(q.x1 + q.x2 - p.x1 - p.x2) || 1;
          move(p, (-sign * ox) / 2, 0);
          move(q, (sign * ox) / 2, 0);
        } else {
          const sign = Math.sign(q.y1 + q.y2 - p.y1 - p.y2) || 1;
          move(p, 0, (-sign * oy) / 2);
          move(q, 0, (sign * oy) / 2);
        }
        moved = true;
      }
    }
    if (!moved) break;
  }
  cy.batch(() => {
    for (const b of boxes) if (b.dx || b.dy) (b.n.isParent() ? b.n.children() : b.n).shift({ x: b.dx, y: b.dy });
  });
}

// ------------------------------------------------------------------ selection and blast radius
const HIGHLIGHT = ['dim', 'affected', 'cluster-hit', 'selected-file', 'hot'];
/** gives an element one highlight class (or none) and the data that goes with it, touching it only if that differs */
function mark(ele: cytoscape.SingularElementArgument, cls: string, fields: Record<string, unknown> = {}) {
  if (HIGHLIGHT.filter((c) => ele.hasClass(c)).join() !== cls) {
    ele.removeClass(HIGHLIGHT.join(' '));
    if (cls) ele.addClass(cls);
  }
  for (const [k, v] of Object.entries(fields)) if (ele.data(k) !== v) ele.data(k, v);
}

/**
 * Restyles the drawing for the selection (its blast radius by depth, the rest dimmed, closed folders holding part
 * of it outlined with a count). Only elements whose highlight changes are touched, so cytoscape restyles and
 * redraws just those.
 */
function applyHighlight() {
  const clusterHits = new Map<string, { n: number; depth: number }>();
  for (const [i, d] of depthOf) {
    const rep = repOf(i);
    if (rep.startsWith('c:')) {
      const hit = clusterHits.get(rep) ?? { n: 0, depth: d };
      hit.n++;
      hit.depth = Math.min(hit.depth, d);
      clusterHits.set(rep, hit);
    }
  }
  const holder = selected === null ? null : repOf(selected);
  const lit = new Set<string>();
  cy.batch(() => {
    cy.nodes().forEach((n) => {
      const kind = n.data('kind');
      if (kind === 'dir') return;
      if (kind === 'file') {
        const i = n.data('file') as number;
        const d = depthOf.get(i);
        if (selected === null) mark(n, '');
        else if (i === selected) mark(n, 'selected-file');
        else if (d !== undefined) mark(n, 'affected', { hl: depthColor(d), depth: d });
        else return void mark(n, 'dim');
        lit.add(n.id());
        return;
      }
      const f = folderByPath.get(n.data('folder'))!;
      const hit = clusterHits.get(n.id());
      const holds = holder === n.id();
      const label = `${clusterName(f)}\n${f.count} files${hit ? `\n${hit.n} affected` : ''}${holds ? `\nholds ${basename(paths[selected!])}` : ''}`;
      if (selected === null) mark(n, '', { label });
      else if (hit || holds) mark(n, 'cluster-hit', { hl: depthColor(holds ? 0 : hit!.depth), label });
      else return void mark(n, 'dim', { label });
      lit.add(n.id());
    });
    cy.edges().forEach((e) => mark(e, selected === null ? '' : lit.has(e.source().id()) && lit.has(e.target().id()) ? 'hot' : 'dim'));
  });
}

/**
 * Selects file i: its blast radius restyles what is drawn (no layout). A file inside a closed folder has that folder
 * opened first, which lays out only the new box, unless that would draw more than REVEAL_NODES more: then the
 * cluster holding it is marked (a click opens it). Dependents inside closed folders are counted on their clusters.
 */
function selectFile(i: number) {
  selected = i;
  radius = blastRadius(shimReader, paths[i], { maxDepth: 50 });
  depthOf = new Map();
  for (const level of radius.byDepth) for (const f of level.files) depthOf.set(indexOf.get(f.path)!, level.depth);
  renderPanel();
  const change = reveal(folderOf[i], REVEAL_NODES);
  if (change) update(change);
  else applyHighlight();
  const node = cy.getElementById(repOf(i));
  const box = cy.extent();
  const at = node.nonempty() ? node.position() : null;
  if (at && (at.x < box.x1 || at.x > box.x2 || at.y < box.y1 || at.y > box.y2)) cy.center(node);
}

function clearSelection() {
  selected = null;
  radius = null;
  depthOf = new Map();
  applyHighlight();
  renderPanel();
}

// ------------------------------------------------------------------ the side panel
const panel = document.getElementById('panel')!;
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
function fileItem(i: number, note: string, color?: string): string {
  return `<li data-file="${i}"${color ? ` style="border-left-color:${color}"` : ''} title="${esc(data.files[i][4])}">${esc(paths[i])}<span class="n">${esc(note)}</span></li>`;
}

function renderPanel() {
  if (selected === null) {
    const top = [...paths.keys()].filter((i) => data.files[i][2] > 0).sort((a, b) => transitive[b] - transitive[a] || data.files[b][2] - data.files[a][2]).slice(0, 25);
    panel.innerHTML =
      `<h3>Hotspots</h3><p class="muted">Most depended-on files (transitive dependents, then direct). Node size shows the same count. Click a file, a list entry, or search, to see its blast radius.</p>` +
      `<ul>${top.map((i) => fileItem(i, `${transitive[i]} (${data.files[i][2]} direct)`)).join('')}</ul>` +
      (top.length ? '' : '<p class="muted">No file has dependents.</p>');
    return;
  }
  const i = selected;
  const [p, , direct, trans, purpose, exported] = data.files[i];
  const r = radius!;
  const all = r.byDepth.flatMap((l) => l.files);
  const tests = all.filter((f) => f.type === 'test');
  let html = `<h2 id="sel-path">${esc(p)}</h2><p class="muted">${esc(typeOf[i])}${languageOf[i] ? ` · ${esc(languageOf[i])}` : ''} · ${direct} direct, ${trans} transitive dependents</p>`;
  html += `<h3>Purpose</h3><p class="purpose">${purpose ? esc(purpose) : '<span class="muted">none recorded</span>'}</p>`;
  if (exported.length) html += `<h3>Exports</h3><p class="chips">${exported.slice(0, 40).map((e) => `<span>${esc(e)}</span>`).join('')}${exported.length > 40 ? ` <span class="muted">+${exported.length - 40}</span>` : ''}</p>`;
  html += `<h3>Blast radius</h3><p id="br-total">${r.total ? `${r.total} file${r.total === 1 ? '' : 's'} affected, ${r.byDepth.length} level${r.byDepth.length === 1 ? '' : 's'} deep` : 'Nothing depends on this file.'}</p>`;
  html += `<h3>Affected tests (${tests.length})</h3>${tests.length ? `<ul id="br-tests">${tests.slice(0, LIST_CAP).map((f) => fileItem(indexOf.get(f.path)!, `depth ${f.depth}`, depthColor(f.depth))).join('')}</ul>` : '<p class="muted">none</p>'}`;
  for (const level of r.byDepth) {
    html += `<h3>Depth ${level.depth} · ${level.files.length}</h3><ul class="br-depth" data-depth="${level.depth}">${level.files
      .slice(0, LIST_CAP)
      .map((f) => fileItem(indexOf.get(f.path)!, `via ${basename(f.via.path)}`, depthColor(level.depth)))
      .join('')}</ul>${level.files.length > LIST_CAP ? `<p class="muted">+${level.files.length - LIST_CAP} more</p>` : ''}`;
  }
  panel.innerHTML = html;
}
panel.addEventListener('click', (ev) => {
  const li = (ev.target as HTMLElement).closest('li[data-file]');
  if (li) selectFile(Number(li.getAttribute('data-file')));
});

// ------------------------------------------------------------------ hover: path and Purpose
const tip = document.getElementById('tip')!;
cy.on('mouseover', 'node', (ev) => {
  const n = ev.target as cytoscape.NodeSingular;
  const kind = n.data('kind');
  let html: string;
  if (kind === 'file') {
    const i = n.data('file') as number;
    const d = depthOf.get(i);
    html = `<b>${esc(paths[i])}</b><br>${esc(data.files[i][4] || '(no purpose recorded)')}<br><i>${data.files[i][2]} direct, ${transitive[i]} transitive dependents${d ? ` · depth ${d} of the blast radius` : ''}</i>`;
  } else {
    const f = folderByPath.get(n.data('folder'))!;
    html = `<b>${esc(title(f))}</b><br>${f.count} files · ${kind === 'cluster' ? 'click to open' : 'double-click to close'}`;
  }
  tip.innerHTML = html;
  tip.hidden = false;
  const e = ev.originalEvent as MouseEvent | undefined;
  if (e) Object.assign(tip.style, { left: `${Math.min(e.clientX + 14, innerWidth - 440)}px`, top: `${e.clientY + 14}px` });
});
cy.on('mouseout', 'node', () => (tip.hidden = true));
cy.on('tap', 'node[kind = "file"]', (ev) => selectFile(ev.target.data('file')));
cy.on('tap', 'node[kind = "cluster"]', (ev) => openFolder(ev.target.data('folder')));
cy.on('dbltap', 'node[kind = "dir"]', (ev) => closeFolderAt(ev.target.data('folder')));
/** closes an open folder, unless it holds the selected file */
function closeFolderAt(folderPath: string) {
  const f = folderByPath.get(folderPath);
  if (!f || f === root || !isOpen(f) || (selected !== null && isAncestor(f, folderOf[selected]))) return;
  update(collapse(f));
}
function isAncestor(a: Folder, b: Folder): boolean {
  for (let f: Folder | null = b; f; f = f.parent) if (f === a) return true;
  return false;
}

/**
 * Opens a cluster (a click on it). When it holds the selected file, it opens down towards that file as far as one
 * click's budget allows, so a file deep in groups of a large folder is reached in as few clicks as possible.
 */
function openFolder(folderPath: string) {
  const f = folderByPath.get(folderPath);
  if (!f) return;
  let change: Change | null = null;
  if (selected !== null && isAncestor(f, folderOf[selected])) {
    for (let g: Folder | null = folderOf[selected]; g && g !== f && !change; g = g.parent) change = reveal(g, CAP);
  }
  change ??= reveal(f);
  if (change) update(change);
}

// ------------------------------------------------------------------ search
const input = document.getElementById('search') as HTMLInputElement;
const results = document.getElementById('results') as HTMLOListElement;
let hits: Array<{ i: number; why: string }> = [];
let active = 0;
function search(q: string): Array<{ i: number; why: string }> {
  const query = q.trim();
  if (!query) return [];
  const lower = query.toLowerCase();
  const scored: Array<{ i: number; why: string; score: number }> = [];
  for (let i = 0; i < N; i++) {
    const p = paths[i].toLowerCase();
    let score = 99;
    let why = '';
    for (const e of data.files[i][5]) {
      const el = e.toLowerCase();
      const s = e === query ? 0 : el === lower ? 1 : el.startsWith(lower) ? 3 : el.includes(lower) ? 6 : 99;
      if (s < score) {
        score = s;
        why = `exports ${e}`;
      }
    }
    const b = basename(p);
    const ps = b === lower || b.replace(/\.[^.]+$/, '') === lower ? 1 : b.startsWith(lower) ? 2 : p.includes(lower) ? 4 : 99;
    if (ps < score) {
      score = ps;
      why = '';
    }
    if (score < 99) scored.push({ i, why, score });
  }
  scored.sort((a, b) => a.score - b.score || transitive[b.i] - transitive[a.i] || paths[a.i].length - paths[b.i].length);
  return scored.slice(0, 20);
}
function showResults() {
  results.innerHTML = hits.length
    ? hits.map((h, k) => `<li data-file="${h.i}" class="${k === active ? 'active' : ''}">${esc(paths[h.i])}${h.why ? `<small>${esc(h.why)}</small>` : ''}</li>`).join('')
    : '<li class="none"><small>no file or exported symbol matches</small></li>';
  results.hidden = !input.value.trim();
}
function pick(i: number) {
  results.hidden = true;
  input.blur();
  selectFile(i);
}
input.addEventListener('input', () => {
  hits = search(input.value);
  active = 0;
  showResults();
});
input.addEventListener('keydown', (ev) => {
  if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
    active = Math.max(0, Math.min(hits.length - 1, active + (ev.key === 'ArrowDown' ? 1 : -1)));
    showResults();
    ev.preventDefault();
  } else if (ev.key === 'Enter' && hits[active]) pick(hits[active].i);
  else if (ev.key === 'Escape') results.hidden = true;
});
results.addEventListener('mousedown', (ev) => {
  const li = (ev.target as HTMLElement).closest('li[data-file]');
  if (li) {
    ev.preventDefault();
    pick(Number(li.getAttribute('data-file')));
  }
});
input.addEventListener('blur', () => setTimeout(() => (results.hidden = true), 150));

// ------------------------------------------------------------------ header, notice, legend, buttons
const folderTotal = folderByPath.size - 1;
document.getElementById('stats')!.textContent = `${N.toLocaleString('en')} files · ${edgeCount.toLocaleString('en')} imports · ${folderTotal.toLocaleString('en')} folders`;
const notice = document.getElementById('notice')!;
/** a group of a large folder's entries, for the notice's example (the first of the largest such folder) */
const grouped = [...folderByPath.values()].filter((f) => f.group && !f.parent!.group).sort((a, b) => b.parent!.count - a.parent!.count)[0];
function updateNotice() {
  const closed = cy.nodes('[kind = "cluster"]').length;
  notice.hidden = closed === 0;
  notice.id = 'notice';
  notice.textContent = closed
    ? `Too large to draw whole: ${N.toLocaleString('en')} files, so folders are drawn as clusters (${closed} closed, ${cy.nodes('[kind = "file"]').length} files shown). Click a cluster to open it; double-click an open folder to close it.` +
      (grouped ? ` Folders of more than ${CAP} entries open into groups by name (${grouped.name} in ${title(grouped.parent!)}), so one click draws at most ${CAP}.` : '')
    : '';
}
document.getElementById('legend')!.innerHTML =
  Object.entries(TYPE_COLORS)
    .map(([t, c]) => `<i style="background:${c}"></i>${t}`)
    .join('') +
  ` &nbsp;│&nbsp; blast radius: <i style="background:${DEPTH_COLORS[0]}"></i>file` +
  DEPTH_COLORS.slice(1)
    .map((c, d) => `<i style="background:${c}"></i>${d + 1}${d + 1 === DEPTH_COLORS.length - 1 ? '+' : ''}`)
    .join('');
document.getElementById('fit')!.addEventListener('click', () => cy.fit(undefined, 30));
document.getElementById('clear')!.addEventListener('click', clearSelection);
document.getElementById('collapse')!.addEventListener('click', () => {
  root.folders.forEach(closeFolder);
  // the selected file's folders open after the layout, as a click would open them
  void draw().then(() => selected !== null && selectFile(selected));
});

// ------------------------------------------------------------------ start
declare global {
  interface Window {
    gsdView: unknown;
  }
}
const api = {
  cy,
  ready: false,
  selectFile: (p: string) => {
    const i = indexOf.get(p);
    if (i === undefined) throw new Error(`no file ${p} on this page`);
    return selectFile(i);
  },
  openFolder,
  closeFolder: closeFolderAt,
  search: (q: string) => search(q).map((h) => paths[h.i]),
  /** what is drawn: files and their highlight (depth 0 = the selected file) */
  highlighted: () =>
    cy
      .nodes('[kind = "file"]')
      .filter((n) => n.hasClass('affected') || n.hasClass('selected-file'))
      .map((n) => ({ path: n.data('path') as string, depth: n.hasClass('selected-file') ? 0 : (n.data('depth') as number) })),
  /** closed folders marked as holding part of the blast radius */
  hitClusters: () => cy.nodes('.cluster-hit').map((n) => n.data('folder') as string),
  clusters: () => cy.nodes('[kind = "cluster"]').map((n) => ({ folder: n.data('folder') as string, count: n.data('count') as number })),
  drawnFiles: () => cy.nodes('[kind = "file"]').map((n) => n.data('path') as string),
  /** how many nodes opening a folder (by path) draws for it: its files and sub-folders or groups */
  entries: (p: string) => {
    const f = folderByPath.get(p);
    return f ? f.files.length + f.folders.length : 0;
  },
  /** the closed folder or group drawn for a file (its path), or null when the file itself is drawn */
  holder: (p: string) => {
    const rep = repOf(indexOf.get(p)!);
    return rep.startsWith('c:') ? rep.slice(2) : null;
  },
  /** full layouts (the first drawing, Collapse all) and incremental changes (a folder opened or closed) */
  layoutRuns: () => layoutRuns,
  changes: () => changes,
  /** where each drawn file (by path) and closed folder (by path + `/`) stands; boxes follow their contents */
  positions: () =>
    Object.fromEntries(
      (cy.nodes().toArray() as cytoscape.NodeSingular[]).filter((n) => !n.isParent()).map((n) => [n.data('path') ?? `${n.data('folder')}/`, [n.position('x'), n.position('y')]]),
    ),
  /** milliseconds of each layout run, for bench/graph-view.mjs */
  layoutMs: () => layoutMs.slice(),
  separateMs: () => separateMs.slice(),
  changeMs: () => changeMs.slice(),
};
window.gsdView = api;

openLargestFirst(INITIAL_NODES);
renderPanel();
void draw().then(() => {
  if (data.focus >= 0) selectFile(data.focus);
  api.ready = true;
  document.body.dataset.ready = '1';
});
