/**
 * The graph page: one self-contained HTML file (no CDN, no network) with the page's data, its stylesheet, and the
 * client bundle (engine/view-client/, with cytoscape and cytoscape-fcose) inlined as text. The client bundle is made
 * at build time by scripts/build-view.mjs into generated/client.ts, so every bundle that writes a page carries it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.js';
import type { IntelReader } from '../query/reader.js';
import { TOOL_VERSION } from '../version.js';
import { intelPaths } from '../paths.js';
import { CLIENT_JS, CLIENT_LIBRARIES } from './generated/client.js';
import { graphViewData, type GraphViewData } from './graph-data.js';
import { PAGE_CSS } from './page-style.js';

export interface GraphViewOptions {
  /** a file (path or entity id) to select on load, its blast radius shown */
  file?: string | null;
  /** where to write the page; default `.planning/intel/graph-view.html` */
  out?: string | null;
}

export interface GraphViewReport {
  path: string;
  files: number;
  edges: number;
  focus: string | null;
  bytes: number;
}

/** Text inside a <script> element must not close it or open a comment. */
function scriptSafe(text: string): string {
  return text.replace(/<(\/script|!--)/gi, '<\\$1');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export function renderGraphPage(data: GraphViewData): string {
  // JSON is valid JavaScript-free data; `<` escaped so no `</script>` can appear in it
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="get-shit-done-cc ${escapeHtml(data.tool)} (${escapeHtml(CLIENT_LIBRARIES)})">
<title>${escapeHtml(data.project)} · code map</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<header>
  <div class="title"><strong>${escapeHtml(data.project)}</strong> <span id="stats"></span></div>
  <div class="search"><input id="search" type="search" placeholder="Search a path or an exported symbol…" autocomplete="off" spellcheck="false" aria-label="search files"><ol id="results" hidden></ol></div>
  <div class="buttons"><button id="fit" title="fit the graph to the window">Fit</button><button id="collapse" title="close every folder">Collapse all</button><button id="clear" title="clear the selection">Clear</button></div>
</header>
<div id="notice" hidden></div>
<main>
  <div id="graph" aria-label="module graph"></div>
  <aside id="panel"></aside>
</main>
<div id="tip" hidden></div>
<div id="legend"></div>
<script id="gsd-data" type="application/json">${json}</script>
<script>${scriptSafe(CLIENT_JS)}</script>
</body>
</html>
`;
}

/** The name in the root's package.json, or the folder's name. */
function projectName(root: string): string {
  try {
    const name = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).name;
    if (typeof name === 'string' && name.trim()) return name.trim();
  } catch {
    /* no package.json, or not JSON: the folder's name */
  }
  return path.basename(root);
}

/** Writes the page for the project of `reader` and returns where. Unknown `file` → the reader's UnknownFileError. */
export async function writeGraphView(reader: IntelReader, options: GraphViewOptions = {}): Promise<GraphViewReport> {
  const data = graphViewData(reader, { project: projectName(reader.root), tool: TOOL_VERSION, focus: options.file ?? null });
  const out = path.resolve(reader.root, options.out ?? path.join(intelPaths(reader.root).dir, 'graph-view.html'));
  const html = renderGraphPage(data);
  // derived from graph.db at any time: no fsync
  await writeFileAtomic(out, html, { durable: false });
  return { path: out, files: data.files.length, edges: data.edges.length / 3, focus: data.focus >= 0 ? data.files[data.focus][0] : null, bytes: Buffer.byteLength(html) };
}
