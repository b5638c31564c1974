#!/usr/bin/env node
// Accuracy: our file-to-file edges vs dependency-cruiser's on the pinned corpora.
import fs from 'node:fs';
import path from 'node:path';
import { OUR_CLI_REL, ROOT, WORK_DIR, freshCopy, log, machineInfo, mkdirp, ourCliBuilt, parseArgs, readJson, rmrf, runMain, writeJson } from './lib/common.mjs';
import { CORPORA, ensureCorpus, selectCorpora, corpusStamp } from './corpora.mjs';
import { ensureTools, TOOLS } from './tools.mjs';
import { measure, tailLog } from './lib/measure.mjs';
import { depcruiseCommand, depcruiseFacts, edgesFromDepcruise, hybridEdges, RUN_VARIANTS, VARIANTS } from './lib/depcruise-edges.mjs';
import { edgesFromGraphDb, graphDbPath, ourBuildCommand } from './lib/our-edges.mjs';
import { compare, perturb } from './lib/compare.mjs';
import { makeResolverCheck } from './lib/resolver-check.mjs';
import { saveResult, updateResultsMd } from './lib/write-results.mjs';

export const BAR = { precision: 0.99, recall: 0.99 };
/**
 * The variant the PASS/FAIL verdict of the accuracy bar is read against (all variants are reported). `hybrid` is
 * dependency-cruiser resolving the way each file's own toolchain does: with TypeScript's extension substitution for
 * .ts/.tsx/.mts/.cts files (incl. declarations) and Node's plain resolution for .js/.jsx/.mjs/.cjs files. Plain
 * dependency-cruiser resolves a declaration file's `./x.js` to the runtime x.js where TypeScript (and we) take x.d.ts;
 * every such disagreement is checked against TypeScript's and Node's own resolvers and listed in RESULTS.md.
 */
export const VERDICT_VARIANT = 'hybrid';

const USAGE = `
Usage: node bench/accuracy.mjs [options]

Accuracy. For each corpus: runs dependency-cruiser (variants: ${RUN_VARIANTS.join(', ')}; 'hybrid' is computed)
on a private copy, runs our full build on another copy, reads our graph.db with sql.js, and compares unique
(source, target) file pairs restricted to the source files both tools scanned. Writes
bench/.work/results/accuracy.json and the accuracy part of bench/RESULTS.md.
Without a built CLI (package.json "bin", dist/cli/cli.js: npm run build) only dependency-cruiser's side and the harness self-check run.`;

const SPEC = {
  corpora: { type: 'string', default: 'all', help: `comma list (${CORPORA.map((c) => c.name).join(',')}) or all` },
  'reuse-depcruise': { type: 'boolean', default: false, help: "reuse dependency-cruiser's JSON from an earlier run when present" },
  'skip-ours': { type: 'boolean', default: false, help: "don't build with our engine (depcruise side + self-check only)" },
  examples: { type: 'number', default: 30, help: 'mismatch examples listed per corpus and variant' },
  'no-results-md': { type: 'boolean', default: false, help: 'do not rewrite bench/RESULTS.md' },
};

function selfCheck(ref) {
  const same = compare(ref, ref);
  const p = perturb(ref, { drop: 7, retarget: 5, add: 11, seed: 42 });
  const c = compare(p.set, ref);
  const ok =
    same.precision === 1 && same.recall === 1 && same.counts.fp === 0 && same.counts.fn === 0 &&
    c.counts.tp === p.expected.tp && c.counts.fp === p.expected.fp && c.counts.fn === p.expected.fn;
  return { ok, identity: { precision: same.precision, recall: same.recall }, perturbed: { expected: p.expected, got: { tp: c.counts.tp, fp: c.counts.fp, fn: c.counts.fn } } };
}

export async function runAccuracy(opts) {
  ensureTools();
  const corpora = selectCorpora(opts.corpora);
  const built = !opts['skip-ours'] && ourCliBuilt();
  const out = {
    bench: 'accuracy',
    date: new Date().toISOString(),
    machine: machineInfo(),
    command: `node bench/accuracy.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    tools: TOOLS,
    verdictVariant: VERDICT_VARIANT,
    bar: BAR,
    ours: built ? 'built' : opts['skip-ours'] ? 'skipped (--skip-ours)' : `not built (${OUR_CLI_REL} missing)`,
    corpora: [],
  };
  for (const c of corpora) {
    const src = ensureCorpus(c);
    const base = mkdirp(path.join(WORK_DIR, 'accuracy', c.name));
    const entry = { name: c.name, pkg: `${c.pkg}@${c.version}`, kind: c.kind, sourceFiles: corpusStamp(c.name)?.sourceFiles, depcruise: {}, ours: null, comparisons: {} };
    out.corpora.push(entry);

    // --- dependency-cruiser
    const dcDir = path.join(base, 'depcruise-corpus');
    const refs = {};
    for (const v of RUN_VARIANTS) {
      const jsonFile = path.join(base, `depcruise-${v}.json`);
      const cmd = depcruiseCommand(dcDir, v, jsonFile);
      let run = null;
      if (!(opts['reuse-depcruise'] && fs.existsSync(jsonFile))) {
        if (!fs.existsSync(path.join(dcDir, 'package.json'))) freshCopy(src, dcDir);
        log(`accuracy: ${c.name}: dependency-cruiser (${v})`);
        run = await measure(cmd.cmd, cmd.args, { cwd: cmd.cwd, logFile: path.join(base, `depcruise-${v}.log`) });
        if (run.exitCode !== 0) throw new Error(`dependency-cruiser (${v}) failed on ${c.name}:\n${tailLog(run.logFile)}`);
      } else log(`accuracy: ${c.name}: reusing ${path.relative(ROOT, jsonFile)}`);
      const json = readJson(jsonFile);
      refs[v] = edgesFromDepcruise(json);
      entry.depcruise[v] = {
        command: cmd.display,
        wallMs: run?.wallMs ?? null,
        cpuMs: run?.cpuMs ?? null,
        maxRssMB: run?.maxRssMB ?? null,
        files: refs[v].files.size,
        edges: refs[v].edges.size,
        stats: refs[v].stats,
        facts: depcruiseFacts(json),
      };
    }
    refs.hybrid = hybridEdges(refs.plain, refs['ts-aware']);
    entry.depcruise.hybrid = { files: refs.hybrid.files.size, edges: refs.hybrid.edges.size };
    entry.selfCheck = selfCheck(refs.plain);
    log(`accuracy: ${c.name}: harness self-check ${entry.selfCheck.ok ? 'OK' : 'FAILED'}`);
    if (!entry.selfCheck.ok) throw new Error(`comparison harness self-check failed: ${JSON.stringify(entry.selfCheck)}`);
    // how the variants differ among themselves (informative: what TypeScript-awareness changes)
    entry.variantDiff = summarize(compare(refs.hybrid, refs.plain, { refName: 'plain', maxExamples: 6 }));

    // --- ours
    if (built) {
      const ourDir = path.join(base, 'ours-corpus');
      freshCopy(src, ourDir);
      rmrf(path.join(ourDir, '.planning'));
      const cmd = ourBuildCommand(ourDir);
      log(`accuracy: ${c.name}: our build`);
      const run = await measure(cmd.cmd, cmd.args, { cwd: cmd.cwd, logFile: path.join(base, 'ours.log') });
      if (run.exitCode !== 0 || !fs.existsSync(graphDbPath(ourDir))) {
        entry.ours = { command: cmd.display, error: `exit ${run.exitCode}: ${tailLog(run.logFile, 1500)}` };
        log(`accuracy: ${c.name}: our build FAILED (exit ${run.exitCode}); see ${run.logFile}`);
      } else {
        let ours;
        try {
          ours = await edgesFromGraphDb(graphDbPath(ourDir));
        } catch (e) {
          entry.ours = { command: cmd.display, error: `could not read graph.db: ${e.message}` };
          log(`accuracy: ${c.name}: ${entry.ours.error}`);
          continue;
        }
        entry.ours = { command: cmd.display, wallMs: run.wallMs, files: ours.files.size, edges: ours.edges.size, stats: ours.stats, unresolvedSample: ours.unresolvedSample.slice(0, 20) };
        const arbiter = makeResolverCheck(ourDir);
        for (const v of VARIANTS) {
          const cmp = compare(ours, refs[v], { refName: 'depcruise', maxExamples: opts.examples, arbiter });
          entry.comparisons[v] = summarize(cmp);
          log(`accuracy: ${c.name} vs ${v}: precision ${cmp.precision.toFixed(4)} recall ${cmp.recall.toFixed(4)} (tp ${cmp.counts.tp} fp ${cmp.counts.fp} fn ${cmp.counts.fn})`);
        }
      }
    }
  }
  saveResult('accuracy', out);
  return out;
}

function summarize(cmp) {
  return {
    precision: cmp.precision,
    recall: cmp.recall,
    pass: cmp.precision >= BAR.precision && cmp.recall >= BAR.recall,
    files: { ...cmp.files, onlyOurs: cmp.files.onlyOurs.slice(0, 20), onlyRef: cmp.files.onlyRef.slice(0, 20), onlyOursCount: cmp.files.onlyOurs.length, onlyRefCount: cmp.files.onlyRef.length },
    counts: cmp.counts,
    categories: cmp.categories,
  };
}

if (process.argv[1]?.endsWith('/accuracy.mjs')) {
  runMain(async () => {
    const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
    await runAccuracy(opts);
    if (!opts['no-results-md']) updateResultsMd();
  });
}
