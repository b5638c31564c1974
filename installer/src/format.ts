import path from 'node:path';
import type { BlastRadius, BuildReport, Dependencies, ImportPath, IntelStatus, SearchResult, Hotspot, GraphViewReport } from '../../engine/src/index.js';
import type { OpenResult } from './open-browser.js';

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`);

export function buildReport(r: BuildReport, dir: string): string {
  const total = Object.values(r.timings).reduce((a, b) => a + b, 0);
  const lines = [
    `Indexed ${r.files} files (${r.parsed} parsed, ${r.reused} unchanged) in ${ms(total)}`,
    `  ${r.edges} internal dependencies (from ${r.imports} imports resolved to project files), ${r.unresolved} unresolved imports`,
  ];
  if (r.skipped) lines.push(`  ${r.skipped} files skipped (binary, too large, not UTF-8 or unreadable)`);
  if (r.syntaxErrors) lines.push(`  ${r.syntaxErrors} files with syntax errors (read around the error, or kept from their last version that parsed)`);
  lines.push(`  scan ${ms(r.timings.scan)} · parse ${ms(r.timings.parse)} · resolve ${ms(r.timings.resolve)} · write ${ms(r.timings.write)}`);
  lines.push(`Wrote ${dir}`);
  return lines.join('\n');
}

export function status(s: IntelStatus): string {
  if (s.state === 'missing') return `No intelligence in ${s.root} yet. Build it: get-shit-done-cc intel build ${s.root}`;
  if (s.state === 'corrupt' || s.state === 'format-mismatch') return `The index is unusable (${s.state}): ${s.detail}\nRebuild it: get-shit-done-cc intel build ${s.root} --no-cache`;
  const p = s.pending!;
  const lines = [
    `${s.root}: ${s.files} files, ${s.edges} internal dependencies (${s.imports} imports), ${s.unresolved} unresolved imports, built ${s.builtAt} (v${s.toolVersion})`,
    s.state === 'fresh'
      ? 'Up to date with the files on disk.'
      : `Stale: ${p.added.length} added, ${p.changed.length} changed, ${p.removed.length} removed${p.configChanged ? ', resolution config changed' : ''}${p.otherVersion ? `, built by v${s.toolVersion} (the next update re-parses everything)` : ''} since the build.`,
  ];
  for (const [label, list] of [['added', p.added], ['changed', p.changed], ['removed', p.removed]] as const) {
    if (list.length) lines.push(`  ${label}: ${list.slice(0, 10).join(', ')}${list.length > 10 ? ` … and ${list.length - 10} more` : ''}`);
  }
  if (s.languages && Object.keys(s.languages).length) lines.push(`Languages: ${Object.entries(s.languages).map(([l, n]) => `${l} ${n}`).join(', ')}.`);
  if (s.skipped) lines.push(`${s.skipped} files skipped, ${s.syntaxErrors} with syntax errors.`);
  return lines.join('\n');
}

export function blastRadius(r: BlastRadius): string {
  const head = `${r.file.path}${r.symbol ? ` (symbol ${r.symbol})` : ''}: ${r.total} dependent file${r.total === 1 ? '' : 's'}`;
  if (!r.total) return `${head}. No indexed file imports it${r.symbol ? ' through this symbol' : ''}.`;
  const lines = [head];
  for (const level of r.byDepth) {
    lines.push(`depth ${level.depth} (${level.files.length})`);
    for (const f of level.files) lines.push(`  ${f.path}  ← ${f.via.path} [${f.via.kinds.join(', ')}]${f.type !== 'source' ? ` (${f.type})` : ''}`);
  }
  if (r.truncated) lines.push(`… more dependents beyond depth ${r.maxDepth} (raise --depth)`);
  return lines.join('\n');
}

export function hotspots(r: { total: number; hotspots: Hotspot[]; truncated: boolean }): string {
  if (!r.hotspots.length) return 'No file has dependents yet.';
  const width = Math.max(...r.hotspots.map((h) => h.path.length), 4);
  const lines = [`${'file'.padEnd(width)}  direct  transitive`];
  for (const h of r.hotspots) lines.push(`${h.path.padEnd(width)}  ${String(h.direct).padStart(6)}  ${String(h.transitive).padStart(10)}`);
  if (r.truncated) lines.push(`… ${r.total - r.hotspots.length} more (--limit)`);
  return lines.join('\n');
}

export function search(r: SearchResult): string {
  if (!r.results.length) return `Nothing matches "${r.query}".`;
  const lines = r.results.map((h) => `${h.score.toFixed(1).padStart(5)}  ${h.path}  — ${h.purpose}`);
  if (r.truncated) lines.push(`… ${r.total - r.results.length} more (--limit)`);
  return lines.join('\n');
}

export function dependencies(d: Dependencies): string {
  const lines = [`${d.file.path}`];
  lines.push(`imports (${d.dependencies.length}):`);
  for (const x of d.dependencies) lines.push(`  ${x.path} [${x.kinds.join(', ')}]${x.names.length ? ` ${x.names.slice(0, 8).join(', ')}` : ''}`);
  if (d.externals.length) lines.push(`packages (${d.externals.length}): ${d.externals.map((e) => e.package).join(', ')}`);
  if (d.unresolved.length) {
    lines.push(`unresolved (${d.unresolved.length}):`);
    for (const u of d.unresolved) lines.push(`  line ${u.line}: ${u.specifier} — ${u.reason}`);
  }
  lines.push(`imported by (${d.dependents.length}):`);
  for (const x of d.dependents) lines.push(`  ${x.path} [${x.kinds.join(', ')}]`);
  return lines.join('\n');
}

export function importPath(p: ImportPath): string {
  if (!p.steps) return `${p.from} does not reach ${p.to} through imports.`;
  return p.steps.map((s, i) => (i === 0 ? s.path : `  → ${s.path} [${s.kinds.join(', ')}]`)).join('\n');
}

export function graphView(r: GraphViewReport, opened: OpenResult | null): string {
  const lines = [r.path, `  ${r.files} files, ${r.edges} imports${r.focus ? `, blast radius of ${r.focus}` : ''} (${(r.bytes / 1024 / 1024).toFixed(1)} MB, self-contained)`];
  if (opened?.opened) lines.push(`  opened with ${path.basename(opened.via)}`);
  else if (opened) lines.push(`  not opened: ${opened.reason}; open the file above in a browser yourself`);
  return lines.join('\n');
}
