#!/usr/bin/env node
// Python: our edges against Python's own import rules, a one-file edit and memory beside JS/TS, on real code from Debian.
//
// Accuracy: for each corpus our CLI builds the intel cold (`intel build --no-cache`), the file-to-file edges of its
// graph.db (every kind, from .py files) are compared with those of bench/languages/python_reference.py, a reference
// written on Python's `ast` and importlib's own path finder (no engine code). Precision = shared / ours, recall =
// shared / reference; every edge only one side has is listed in the JSON.
// Corpora (Debian packages, bookworm: `apt-get install -y python3-django python3-flask python3-jinja2
// python3-requests python3-rich`):
//   django      /usr/lib/python3/dist-packages/django as it is (a flat tree, the root on sys.path)
//   src-layout  flask, jinja2, werkzeug, click, markupsafe, requests, rich under src/, with a pyproject.toml that
//               says so (setuptools packages.find where = ["src"]); the reference gets `src` as its root
// The cold build beside codegraph and GitNexus, on django + flask + jinja2 + requests + rich in one flat tree, is
// bench/languages-peers.mjs's.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { BENCH_DIR, OUR_CLI, ROOT, RESULTS_MD, WORK_DIR, log, machineInfo, mkdirp, parseArgs, rmrf, runMain, writeJson } from './lib/common.mjs';
import { editBesideJs, scaleBesideJs } from './lib/language-speed.mjs';

const DIST = '/usr/lib/python3/dist-packages';
const USAGE = 'Usage: node bench/languages-python.mjs [--scale N] [--edits N] [--no-write]';
const SPEC = {
  scale: { type: 'number', default: 12, help: 'copies of Django and of zod in the memory comparison (0: none)' },
  edits: { type: 'number', default: 20, help: 'one-file edits per corpus (edit path)' },
  write: { type: 'boolean', default: true, help: 'replace the "Languages: Python" section of bench/RESULTS.md' },
};

function copyPackages(dest, packages, sub = '') {
  rmrf(dest);
  for (const p of packages) {
    const from = path.join(DIST, p);
    if (!fs.existsSync(from)) throw new Error(`${from} is missing: apt-get install -y python3-django python3-flask python3-jinja2 python3-requests python3-rich`);
    fs.cpSync(from, path.join(dest, sub, p), { recursive: true, filter: (f) => !f.includes('__pycache__') && !f.endsWith('.so') });
  }
  return dest;
}

function debVersion(pkg) {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });
  } catch {
    return '?';
  }
}

async function ourEdges(tree) {
  const { readGraphRows } = await import(path.join(ROOT, 'dist', 'engine', 'src', 'store', 'index.js'));
  const rows = await readGraphRows(path.join(tree, '.planning', 'intel', 'graph.db'));
  const pathOf = new Map(rows.nodes.map((n) => [n.id, n.path]));
  return {
    edges: new Set(rows.edges.filter((e) => pathOf.get(e.source).endsWith('.py')).map((e) => `${pathOf.get(e.source)} -> ${pathOf.get(e.target)}`)),
    inferred: rows.edges.filter((e) => !e.exact).length,
  };
}

async function accuracy(name, tree, roots) {
  rmrf(path.join(tree, '.planning'));
  const t0 = performance.now();
  execFileSync(process.execPath, [OUR_CLI, 'intel', 'build', tree, '--no-cache'], { stdio: 'ignore' });
  const buildMs = performance.now() - t0;
  const ours = await ourEdges(tree);
  const ref = JSON.parse(execFileSync('python3', [path.join(BENCH_DIR, 'languages', 'python_reference.py'), tree, ...roots], { maxBuffer: 1 << 28, encoding: 'utf8' }));
  const refSet = new Set(ref.edges.map(([a, b]) => `${a} -> ${b}`));
  const shared = [...ours.edges].filter((e) => refSet.has(e)).length;
  const r = {
    name,
    files: ref.files,
    statements: ref.statements,
    ours: ours.edges.size,
    reference: refSet.size,
    shared,
    precision: shared / ours.edges.size,
    recall: shared / refSet.size,
    inferredEdges: ours.inferred,
    onlyOurs: [...ours.edges].filter((e) => !refSet.has(e)),
    onlyReference: [...refSet].filter((e) => !ours.edges.has(e)),
    buildMs,
    referenceRoots: roots,
  };
  log(`${name}: ${r.files} files, edges ours ${r.ours} / reference ${r.reference}, precision ${r.precision.toFixed(4)}, recall ${r.recall.toFixed(4)}`);
  return r;
}

function section(out) {
  const m = out.machine;
  const f = (x, d = 4) => x.toFixed(d);
  const L = ['### Python (bench/languages-python.mjs)', ''];
  L.push('Our file-to-file edges from `.py` files (graph.db, every kind) against a reference resolver written on Python\'s `ast` and importlib\'s own path finder (`bench/languages/python_reference.py`, no engine code), on real code from Debian packages. Precision = shared / ours, recall = shared / reference.', '');
  L.push('| corpus | .py files | import statements | edges ours / reference | precision | recall | inferred edges |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const a of out.accuracy) L.push(`| ${a.name} | ${a.files} | ${a.statements} | ${a.ours} / ${a.reference} | ${f(a.precision)} | ${f(a.recall)} | ${a.inferredEdges} |`);
  L.push('');
  L.push(`- django: Django ${out.versions.django} as Debian installs it (flat, the tree's root on sys.path). src-layout: Flask ${out.versions.flask}, Jinja2 ${out.versions.jinja2}, Werkzeug, Click, MarkupSafe, Requests ${out.versions.requests}, Rich ${out.versions.rich} under \`src/\` with a \`pyproject.toml\` saying \`packages.find where = ["src"]\` (the reference is given \`src\`; we read it from the pyproject).`);
  for (const a of out.accuracy) {
    if (a.onlyOurs.length || a.onlyReference.length) L.push(`- ${a.name}, edges only one side has: ${[...a.onlyOurs.map((e) => `ours \`${e}\``), ...a.onlyReference.map((e) => `reference \`${e}\``)].join('; ')}.${a.onlyOurs.some((e) => e.endsWith('.pyi')) ? ' A module that has only a `.pyi` stub in the tree (its compiled `.so` is not source) is an edge to the stub for us, as a type checker has it; the reference follows the run-time finder, which has no `.py` for it.' : ''}`);
  }
  if (out.edits) {
    const e = out.edits;
    L.push('', `One-file edit, engine time of \`updateIntel\` in one process (${e.count} edits each, interleaved, medians): Python, \`${e.python.file}\` of Django (${e.python.direct} direct dependents) ${e.python.medianMs.toFixed(1)} ms; JS/TS, \`${e['js/ts'].file}\` of zod (${e['js/ts'].direct} direct dependents) ${e['js/ts'].medianMs.toFixed(1)} ms; ratio Python / JS/TS ${(e.python.medianMs / e['js/ts'].medianMs).toFixed(2)}.`);
  }
  if (out.scale) {
    const c = out.scale;
    L.push('', `Memory at scale, cold build (\`intel build --no-cache\`), ${c.copies} copies each, peak RSS (max of 2) and wall (min of 2), ${c.method}: Python, ${c.python.files} files (Django) ${c.python.maxRssMB.toFixed(0)} MB, ${(c.python.wallMs / 1000).toFixed(1)} s; JS/TS, ${c['js/ts'].files} files (zod) ${c['js/ts'].maxRssMB.toFixed(0)} MB, ${(c['js/ts'].wallMs / 1000).toFixed(1)} s; peak RSS ratio Python / JS/TS ${(c.python.maxRssMB / c['js/ts'].maxRssMB).toFixed(2)}, per indexed file ${((c.python.maxRssMB * 1024) / c.python.files).toFixed(1)} KB against ${((c['js/ts'].maxRssMB * 1024) / c['js/ts'].files).toFixed(1)} KB. The Python build's wall time is tree-sitter's parse (~0.6 ms per Django file; the JS/TS family has its own token reader).`);
  }
  L.push('', 'Cold build beside codegraph and GitNexus on django + flask + jinja2 + requests + rich: "Beside the peers" (bench/languages-peers.mjs).');
  L.push('', `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadavg} at the start. Command: \`npm run build && node bench/languages-python.mjs\` (${out.date}).`, '');
  return L.join('\n');
}

function writeSection(text) {
  const md = fs.readFileSync(RESULTS_MD, 'utf8');
  const start = md.indexOf('### Python (bench/languages-python.mjs)');
  if (start < 0) return fs.writeFileSync(RESULTS_MD, `${md.trimEnd()}\n\n${text}`);
  const ends = ['\n## ', '\n### '].map((h) => md.indexOf(h, start + 4)).filter((i) => i >= 0);
  const next = ends.length ? Math.min(...ends) : -1;
  fs.writeFileSync(RESULTS_MD, `${md.slice(0, start)}${text.trimEnd()}\n${next < 0 ? '' : `\n${md.slice(next + 1)}`}`);
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (!fs.existsSync(OUR_CLI)) throw new Error('run npm run build first');
  const base = mkdirp(path.join(WORK_DIR, 'languages-python'));
  const machine = machineInfo();
  const django = copyPackages(path.join(base, 'django'), ['django']);
  const srcLayout = copyPackages(path.join(base, 'src-layout'), ['flask', 'jinja2', 'werkzeug', 'click', 'markupsafe', 'requests', 'rich'], 'src');
  fs.writeFileSync(path.join(srcLayout, 'pyproject.toml'), '[project]\nname = "bundle"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n');
  const out = {
    date: new Date().toISOString().slice(0, 10),
    machine,
    versions: Object.fromEntries(['django', 'flask', 'jinja2', 'requests', 'rich'].map((p) => [p, debVersion(`python3-${p}`).replace(/^\d+:/, '').replace(/[-+].*$/, '')])),
    accuracy: [await accuracy('django', django, ['.']), await accuracy('src-layout', srcLayout, ['src'])],
  };
  if (opts.edits > 0) out.edits = { count: opts.edits, ...(await editBesideJs({ name: 'python', tree: django, own: (p) => p.endsWith('.py'), comment: (i) => `\n# bench ${i}\n` }, opts.edits, base)) };
  if (opts.scale > 0) out.scale = await scaleBesideJs('python', django, opts.scale, base);
  writeJson(path.join(base, 'results.json'), out);
  const text = section(out);
  process.stdout.write(`${text}\n`);
  if (opts.write) writeSection(text);
});
