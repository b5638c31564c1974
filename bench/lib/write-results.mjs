// Saves each bench's result JSON (bench/.work/results/<name>.json) and renders the accuracy, cold-build and
// incremental results into bench/RESULTS.md, each only between its own markers (<!-- accuracy:start --> …
// <!-- accuracy:end -->, cold-build, incremental); every other part of the file is left alone.
import fs from 'node:fs';
import path from 'node:path';
import { RESULTS_MD, WORK_DIR, readJson, writeJson, log } from './common.mjs';
import { fmt, fmtRatio } from './stats.mjs';

const RESULTS_DIR = path.join(WORK_DIR, 'results');
/** The sections this module writes: bench result name → marker name in bench/RESULTS.md. */
export const ENGINE_SECTIONS = { accuracy: 'accuracy', speed: 'cold-build', incremental: 'incremental' };
const marker = (name, edge) => `<!-- ${name}:${edge} -->`;

export function saveResult(name, data) {
  writeJson(path.join(RESULTS_DIR, `${name}.json`), data);
}

export function loadResult(name) {
  return readJson(path.join(RESULTS_DIR, `${name}.json`), null);
}

const pct = (x) => (Number.isFinite(x) ? x.toFixed(4) : '—');
const verdict = (ok) => (ok === null || ok === undefined ? 'n/a' : ok ? '**PASS**' : '**FAIL**');
const code = (s) => '`' + String(s).replace(/`/g, "'") + '`';
const esc = (s) => String(s).replace(/\|/g, '\\|');

function metaLines(r) {
  const m = r.machine;
  return [
    `- Date: ${r.date}; machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}; Node ${m.node}; load average at start ${m.loadavg}`,
    `- Command: ${code(r.command)} (from the repository root)`,
  ];
}

function renderAccuracy(r) {
  const L = ['### File-to-file edges against dependency-cruiser (bench/accuracy.mjs)', ''];
  const summary = [];
  for (const c of r.corpora) {
    const k = c.comparisons?.[r.verdictVariant];
    summary.push(`| ${c.name} (vs ${r.verdictVariant}) | P ${pct(k?.precision)} / R ${pct(k?.recall)} | ≥ ${r.bar.precision} / ≥ ${r.bar.recall} | ${k ? verdict(k.pass) : 'n/a'} |`);
    for (const [name, h] of Object.entries(c.comparisons ?? {})) {
      if (name !== r.verdictVariant) summary.push(`| ${c.name} (vs ${name}, info) | P ${pct(h.precision)} / R ${pct(h.recall)} | ≥ ${r.bar.precision} / ≥ ${r.bar.recall} | ${h.pass ? 'pass' : 'fail'} |`);
    }
  }
  L.push('| bar | measured | target | verdict |', '| --- | --- | --- | --- |', ...summary, '');
  L.push(...metaLines(r));
  L.push(`- Tools: ${Object.entries(r.tools).map(([n, v]) => `${n}@${v}`).join(', ')}`);
  L.push(`- Our engine: ${r.ours}`);
  L.push(
    `- Bar: precision ≥ ${r.bar.precision} and recall ≥ ${r.bar.recall} per corpus. Verdict read against the **${r.verdictVariant}** variant; the others are shown beside it.`,
    '- Variants of the reference: **plain** = dependency-cruiser\'s own resolution (`--no-config --ts-pre-compilation-deps --exclude node_modules`, `--ts-config` when the corpus has a tsconfig.json; none of these corpora ships one); ' +
      "**ts-aware** = plain + a `--webpack-config` whose `resolve` gives enhanced-resolve TypeScript's extension substitution (`extensionAlias` .js→.ts/.tsx/.d.ts/.js, .cjs→.cts/.d.cts/.cjs, .mjs→.mts/.d.mts/.mjs), `exports` with the `types` condition and `types` before `main` (depcruise's own config schema rejects `enhancedResolveOptions.extensionAlias`); it also applies the alias to .js files, which Node does not; " +
      '**hybrid** (computed) = ts-aware edges for .ts/.tsx/.mts/.cts (incl. .d.*) sources, plain edges for .js/.jsx/.mjs/.cjs sources: TypeScript\'s resolution for TypeScript files, Node\'s for JavaScript files.',
    "- Arbiter for each mismatch (labels only, changes nothing): the TypeScript compiler's own `ts.resolveModuleName` (module/moduleResolution NodeNext, allowJs, the file's implied ESM/CJS format) for .ts/.tsx/.mts/.cts importers, Node's resolution for .js/.jsx/.mjs/.cjs importers (bench/lib/resolver-check.mjs).",
    '- Edges: unique (source, target) pairs whose both ends are source files (.js .jsx .mjs .cjs .ts .tsx .mts .cts incl. .d.ts/.d.mts/.d.cts) inside the corpus, restricted to files both tools scanned.',
    '',
  );
  L.push('| corpus | reference | common files | files only ours / only depcruise | our edges | depcruise edges | TP | FP | FN | precision | recall | bar |');
  L.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const c of r.corpora) {
    if (!c.ours || c.ours.error) {
      L.push(`| ${c.name} (${c.pkg}) | — | — | — | ${c.ours?.error ? 'build failed' : 'not run'} | plain ${c.depcruise.plain.edges} / ts-aware ${c.depcruise['ts-aware'].edges} / hybrid ${c.depcruise.hybrid.edges} | | | | | | n/a |`);
      continue;
    }
    for (const [v, k] of Object.entries(c.comparisons)) {
      const n = k.counts;
      L.push(
        `| ${c.name} (${c.pkg}) | ${v}${v === r.verdictVariant ? ' (verdict)' : ''} | ${k.files.common} | ${k.files.onlyOursCount} / ${k.files.onlyRefCount} | ${n.oursKept} | ${n.refKept} | ${n.tp} | ${n.fp} | ${n.fn} | ${pct(k.precision)} | ${pct(k.recall)} | ${v === r.verdictVariant ? verdict(k.pass) : k.pass ? 'pass' : 'fail'} |`,
      );
    }
  }
  L.push('');
  for (const c of r.corpora) {
    L.push(`#### ${c.name}: ${c.kind}, ${c.sourceFiles} source files`, '');
    L.push(`- Harness self-check (reference vs itself, and vs a perturbed copy with known TP/FP/FN): ${c.selfCheck.ok ? 'OK' : 'FAILED'} (perturbed: expected ${JSON.stringify(c.selfCheck.perturbed.expected)}, got ${JSON.stringify(c.selfCheck.perturbed.got)})`);
    for (const v of ['plain', 'ts-aware']) {
      const d = c.depcruise[v];
      L.push(`- dependency-cruiser ${v}: ${d.files} source files, ${d.edges} edges${d.wallMs ? `, ${fmt(d.wallMs / 1000, 2)} s wall` : ''}; command ${code(d.command)}`);
    }
    if (c.ours?.error) L.push(`- Our build failed: ${code(c.ours.command)}\n\n\`\`\`\n${c.ours.error}\n\`\`\``);
    else if (c.ours) L.push(`- Ours: ${c.ours.files} files, ${c.ours.edges} edges, ${c.ours.stats.unresolved ?? '?'} unresolved, ${c.ours.stats.externals ?? '?'} external imports; command ${code(c.ours.command)}`);
    L.push('');
    L.push(`What TypeScript-awareness changes in dependency-cruiser (hybrid vs plain: ${c.variantDiff.counts.tp} shared, ${c.variantDiff.counts.fp} only hybrid, ${c.variantDiff.counts.fn} only plain):`, '');
    if (!c.variantDiff.categories.length) L.push('- nothing: both variants give the same edges');
    for (const k of c.variantDiff.categories) L.push(`- ${esc(k.name.replace(/^extra in ours/, 'only in hybrid').replace(/^missing in ours/, 'only in plain').replace(/ours→/, 'hybrid→'))}: ${k.count}`);
    L.push('');
    for (const [v, k] of Object.entries(c.comparisons ?? {})) {
      if (!k.categories.length && !k.files.onlyOursCount && !k.files.onlyRefCount) {
        L.push(`Mismatches vs ${v}: none.`, '');
        continue;
      }
      L.push(`<details><summary>Mismatches vs ${v}: ${k.counts.fp} extra, ${k.counts.fn} missing, by category</summary>`, '');
      for (const cat of k.categories) {
        const a = cat.arbiter;
        L.push(`- **${esc(cat.name)}**: ${cat.count}${a ? ` (arbiter ${a.by}: agrees with ours ${a.ours}, with depcruise ${a.depcruise}, neither ${a.neither})` : ''}`);
        for (const e of cat.examples) {
          const parts = [code(e.source)];
          if (e.specifier) parts.push(`imports ${code(e.specifier)}`);
          if (e.ours) parts.push(`ours → ${code(e.ours)}`);
          if (e.ref) parts.push(`depcruise → ${code(e.ref)}`);
          if (e.types) parts.push(`(${e.types})`);
          if (e.arbiter) parts.push(`[${e.arbiter}]`);
          L.push(`  - ${parts.join(' ')}`);
        }
      }
      if (k.files.onlyOursCount || k.files.onlyRefCount) {
        L.push(`- File-set difference: only ours ${k.files.onlyOursCount} ${k.files.onlyOurs.map(code).join(', ')}; only depcruise ${k.files.onlyRefCount} ${k.files.onlyRef.map(code).join(', ')}`);
      }
      L.push('', '</details>', '');
    }
    L.push('<details><summary>dependency-cruiser resolution facts (plain / ts-aware)</summary>', '');
    for (const v of ['plain', 'ts-aware']) {
      const f = c.depcruise[v].facts;
      L.push(`- ${v}: resolved (source kind → target kind): ${Object.entries(f.pairs).map(([k, n]) => `${k}: ${n}`).join('; ')}`);
      L.push(`  - dependency types: ${Object.entries(f.types).map(([k, n]) => `${k}: ${n}`).join('; ')}`);
      const un = Object.entries(f.unresolved);
      L.push(`  - unresolved: ${un.length ? un.map(([k, n]) => `${code(k)} ×${n}`).join(', ') : 'none'}`);
    }
    L.push('', '</details>', '');
  }
  return L;
}

function renderSpeed(r) {
  const L = ['### Full build against dependency-cruiser and codegraph (bench/speed.mjs)', ''];
  L.push('| bar | measured | target | verdict |', '| --- | --- | --- | --- |', ...r.bars.map((b) => `| ${esc(b.name)} | ${esc(b.value)} | ${esc(b.target)} | ${verdict(b.pass)} |`), '');
  L.push(...metaLines(r));
  L.push(
    `- Method: each command is a child process; wall = process.hrtime around spawn→exit; CPU = user+sys and peak RSS from ${r.method === 'gnu-time' ? "`/usr/bin/time -f '%e %U %S %M'` (rusage of the child and its waited-for descendants; %M = largest RSS in that tree)" : '/proc/self/stat cutime+cstime deltas and polled VmHWM of the process tree (fallback; /usr/bin/time absent)'}. ` +
      `Runs alternate between the tools (${r.order.join(' → ')}), \`sync\` before each run (no run pays for the writes of the one before), ${r.warmup} warm-up round discarded, N = ${r.runs} measured rounds; figures are medians (peak RSS also max). Every tool works on its own copy of the corpus under bench/.work/speed/.`,
    `- Commands: ${Object.entries(r.commands).map(([k, v]) => `${k}: ${code(v)}`).join('; ')}`,
    '',
  );
  L.push('| corpus | source files | tool | wall ms median (min–max) | CPU ms user+sys median (min–max) | peak RSS MB median / max | runs ok |');
  L.push('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const c of r.corpora) {
    for (const t of c.tools) {
      L.push(`| ${c.name} | ${c.sourceFiles} | ${t.tool} | ${fmt(t.wall.median)} (${fmt(t.wall.min)}–${fmt(t.wall.max)}) | ${fmt(t.cpu.median)} (${fmt(t.cpu.min)}–${fmt(t.cpu.max)}) | ${fmt(t.rss.median)} / ${fmt(t.rss.max)} | ${t.ok}/${r.runs}${t.error ? ` (${esc(t.error)})` : ''} |`);
    }
  }
  const phases = r.corpora.flatMap((c) => c.tools.filter((t) => t.phases).map((t) => `${c.name} ${t.tool}: ${Object.entries(t.phases).map(([k, v]) => `${k} ${fmt(v)}`).join(' · ')} ms`));
  if (phases.length) L.push('', `Our phase timings as printed by the CLI (medians): ${phases.join('; ')}.`);
  const counts = r.corpora.map((c) => `${c.name}: codegraph indexed ${c.codegraphIndexedFiles ?? '?'}${c.ourIndexedFiles ? `, ours ${c.ourIndexedFiles}` : ''}`);
  L.push('', `Files indexed (from the tools' own output / our graph.db): ${counts.join('; ')}. Load average at the end: ${r.loadavgEnd ?? '?'}.`);
  L.push('', '| corpus | depcruise wall / our cold wall | depcruise-recommended wall / our cold wall (info) | codegraph CPU / our cold CPU | our warm wall / cold wall | our peak RSS (max) |', '| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const c of r.corpora) {
    L.push(`| ${c.name} | ${fmtRatio(c.ratios.depcruiseWallOverOurs)} | ${fmtRatio(c.ratios.depcruiseRecommendedWallOverOurs)} | ${fmtRatio(c.ratios.codegraphCpuOverOurs)} | ${fmtRatio(c.ratios.warmOverCold)} | ${fmt(c.ratios.ourPeakRssMaxMB)} MB |`);
  }
  if (r.order.includes('depcruise-recommended')) {
    L.push(
      '',
      '"depcruise" is the reference the bar is judged on: dependency-cruiser without a config, doing what our build does (find and resolve every import). ' +
        '"depcruise-recommended" is dependency-cruiser as its documentation sets a project up (`--init oneshot` writes `.dependency-cruiser.cjs`: rules such as no-circular and no-orphans, `doNotFollow` node_modules, `exports` conditions) and also validates those rules; it is shown for scale only.',
    );
  }
  L.push('', `Bars (on ${r.barCorpus}):`, '');
  for (const b of r.bars) L.push(`- ${b.name}: ${b.detail} → ${verdict(b.pass)}`);
  L.push('');
  return L;
}

function renderIncremental(r) {
  const L = ['### One file changed, in one process (bench/incremental.mjs)', ''];
  L.push(...metaLines(r));
  L.push(
    `- Method: one Node process imports ${code('buildIntel, updateIntel')} from dist/engine/src/index.js, builds ${r.corpus} once (${fmt(r.buildMs)} ms), then times ${code('await updateIntel(root, [relPath])')} with performance.now() (process start and module loading excluded).`,
    '',
  );
  if (r.error) {
    L.push(`Not measured: ${r.error}`, '');
    return L;
  }
  L.push('| case | file | n | median ms | p95 ms | min ms | max ms | bar (≤ ' + r.barMs + ' ms median) |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const c of r.cases) {
    L.push(`| ${c.name} | ${code(c.file)} | ${c.n} | ${fmt(c.median, 1)} | ${fmt(c.p95, 1)} | ${fmt(c.min, 1)} | ${fmt(c.max, 1)} | ${c.bar ? verdict(c.pass) : 'info'} |`);
  }
  if (r.notes?.length) L.push('', ...r.notes.map((n) => `- ${n}`));
  L.push('');
  return L;
}

const RENDER = { accuracy: renderAccuracy, speed: renderSpeed, incremental: renderIncremental };

/** The section of one saved result (`accuracy`, `speed` or `incremental`), markers included. */
export function renderEngineSection(name, r) {
  const m = ENGINE_SECTIONS[name];
  return [marker(m, 'start'), '', ...RENDER[name](r), marker(m, 'end')].join('\n');
}

/**
 * Replaces the part of bench/RESULTS.md between `start` and `end` (markers included in `section`), or appends
 * `section` when the markers are not there yet. Every other part of the file stays as it is.
 */
export function writeResultsSection(start, end, section, label) {
  let text = fs.existsSync(RESULTS_MD) ? fs.readFileSync(RESULTS_MD, 'utf8') : '# Benchmark results\n\n';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a >= 0 && b > a) text = text.slice(0, a) + section + text.slice(b + end.length);
  else text = text.replace(/\s*$/, '\n\n') + section + '\n';
  fs.writeFileSync(RESULTS_MD, text);
  log(`results: wrote the ${label} section of ${path.relative(process.cwd(), RESULTS_MD)}`);
}

/**
 * Rewrites the accuracy, cold-build and incremental sections from the results saved in this checkout; a section
 * whose result was never saved here is left as it is, so that no figure measured elsewhere is lost.
 */
export function updateResultsMd() {
  for (const name of Object.keys(ENGINE_SECTIONS)) {
    const r = loadResult(name);
    if (!r) {
      log(`results: the ${ENGINE_SECTIONS[name]} section of bench/RESULTS.md is left as it is: no saved ${name} result in this checkout`);
      continue;
    }
    const m = ENGINE_SECTIONS[name];
    writeResultsSection(marker(m, 'start'), marker(m, 'end'), renderEngineSection(name, r), m);
  }
}
