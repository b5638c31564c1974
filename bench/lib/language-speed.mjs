// What the language benches measure beside accuracy, against a baseline taken in the same run: a one-file edit beside
// one in a JS/TS tree (zod), and memory at scale beside as many copies of zod. Used by bench/languages-<language>.mjs;
// the cold build beside the peers (codegraph, GitNexus) is bench/languages-peers.mjs's, for every language.
import fs from 'node:fs';
import path from 'node:path';
import { OUR_CLI, ROOT, log, rmrf, setAside } from './common.mjs';
import { defaultMethod, measure } from './measure.mjs';
import { median } from './stats.mjs';
import { corpusDir, ensureCorpus, getCorpus } from '../corpora.mjs';

export function copyDir(from, to) {
  rmrf(to);
  fs.cpSync(from, to, { recursive: true, filter: (f) => !f.includes(`${path.sep}.planning`) && !f.includes(`${path.sep}.codegraph`) });
  return to;
}

/**
 * The edit path: in this process, updateIntel after appending a comment line to the source file with the most
 * direct dependents, `edits` times, alternating the language's tree (`language.tree`, its files those `language.own`
 * accepts, `language.comment(i)` the line added) and a JS/TS one (zod, bench/corpora.mjs); the engine's own time
 * (UpdateReport.engineMs), medians. The first edit of each is a warm-up. Keyed by `language.name` and `js/ts`.
 */
export async function editBesideJs(language, edits, workDir) {
  const engine = await import(path.join(ROOT, 'dist', 'engine', 'src', 'index.js'));
  const zod = getCorpus('zod');
  ensureCorpus(zod);
  const jsTree = copyDir(corpusDir('zod'), path.join(workDir, 'zod'));
  const trees = {
    [language.name]: { tree: language.tree, own: language.own, comment: language.comment },
    'js/ts': { tree: jsTree, own: (p) => /\.[cm]?tsx?$/.test(p) && !/\.d\.[cm]?ts$/.test(p), comment: (i) => `\n// bench ${i}\n` },
  };
  const picked = {};
  for (const [name, t] of Object.entries(trees)) {
    await engine.buildIntel(t.tree, { cache: false });
    const reader = await engine.openIntel(t.tree);
    const top = engine.hotspots(reader, { limit: 100000 }).hotspots.filter((h) => t.own(h.path)).sort((a, b) => b.direct - a.direct || (a.path < b.path ? -1 : 1))[0];
    reader.close();
    picked[name] = { file: top.path, direct: top.direct, times: [] };
  }
  for (let i = 0; i <= edits; i++) {
    for (const [name, t] of Object.entries(trees)) {
      fs.appendFileSync(path.join(t.tree, picked[name].file), t.comment(i));
      const r = await engine.updateIntel(t.tree, [picked[name].file]);
      if (i > 0) picked[name].times.push(r.engineMs);
    }
  }
  rmrf(jsTree);
  return Object.fromEntries(Object.entries(picked).map(([name, p]) => [name, { file: p.file, direct: p.direct, medianMs: median(p.times) }]));
}

/**
 * Memory at scale: a cold build (`intel build --no-cache`, GNU time's peak RSS) of `copies` copies of the language's
 * tree against `jsCopies` copies of zod (828 files each), one after the other, twice. Keyed by `name` and `js/ts`.
 */
export async function scaleBesideJs(name, tree, copies, workDir, jsCopies = copies) {
  const method = defaultMethod();
  const make = (key, from, n) => {
    const dest = path.join(workDir, `scale-${key}`);
    rmrf(dest);
    for (let i = 0; i < n; i++) fs.cpSync(from, path.join(dest, `copy${i}`), { recursive: true, filter: (f) => !f.includes(`${path.sep}.planning`) });
    return dest;
  };
  const zod = getCorpus('zod');
  ensureCorpus(zod);
  const trees = { [name]: make(name, tree, copies), 'js/ts': make('js', corpusDir('zod'), jsCopies) };
  const out = {};
  const bytes = Object.fromEntries(Object.entries(trees).map(([key, t]) => [key, treeBytes(t)]));
  for (let round = 0; round < 2; round++) {
    for (const [key, t] of Object.entries(trees)) {
      setAside(path.join(t, '.planning'));
      const r = await measure(process.execPath, [OUR_CLI, 'intel', 'build', t, '--no-cache', '--json'], { cwd: t, method });
      if (r.exitCode !== 0) throw new Error(`scale ${key} failed, log ${r.logFile}`);
      const logText = fs.readFileSync(r.logFile, 'utf8');
      const files = JSON.parse(logText.slice(logText.indexOf('{'))).files;
      out[key] = { files, sourceMB: bytes[key] / 2 ** 20, maxRssMB: Math.max(out[key]?.maxRssMB ?? 0, r.maxRssMB), wallMs: Math.min(out[key]?.wallMs ?? Infinity, r.wallMs) };
      log(`scale ${key}: ${files} files, peak RSS ${r.maxRssMB.toFixed(0)} MB, wall ${r.wallMs.toFixed(0)} ms`);
    }
  }
  for (const t of Object.values(trees)) rmrf(t);
  return { copies, jsCopies, method, ...out };
}

/** The bytes of the files under `dir` (the tree a build reads; its .planning/ left out). */
function treeBytes(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.planning') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += treeBytes(p);
    else if (e.isFile()) n += fs.statSync(p).size;
  }
  return n;
}
