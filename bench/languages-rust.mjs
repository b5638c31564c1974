#!/usr/bin/env node
// Rust: our `mod` tree against rustc's own, and the share of `use` statements we resolve, on real crates from Debian.
//
// Corpus: the crates Debian installs under /usr/share/cargo/registry (`apt-get install -y librust-regex-syntax-dev
// librust-syn-dev librust-rayon-dev librust-nom-dev librust-regex-dev librust-serde-dev` brings them and their
// dependencies), copied into one tree with a root Cargo.toml `[workspace]` whose members are every crate, and each
// dependency on another crate of the tree given its `path` (as a workspace of path dependencies has it).
// Truth for `mod`: `cargo metadata --offline --no-deps` lists every target (crate root, edition); for each,
// `rustc --emit=dep-info` (the machine's rustc; `--cfg test` and every feature of the package on) lists every file
// its module tree compiles (cfg-if, whose macro declares modules in several crates, is compiled and given to it). Ours: a cold `intel build --no-cache`, graph.db's `mod` edges followed from the same
// crate root (and `include!` edges). Precision = shared / ours, recall = shared / rustc, over (crate root, file) pairs. rustc expands
// macros only where it can without the dependencies (a module declared by another crate's macro is missing from its
// list) and keeps only this machine's cfg (linux, x86_64): those pairs are listed in the JSON.
// `use`: every `use` / `extern crate` statement of the tree (index.json), by what it resolved to; intra-project =
// resolved to a file or unresolved (neither the sysroot nor an external crate).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { OUR_CLI, ROOT, WORK_DIR, log, machineInfo, mkdirp, rmrf, runMain, writeJson } from './lib/common.mjs';
import { writeResultsSection } from './lib/write-results.mjs';

const REGISTRY = '/usr/share/cargo/registry';
const APT = 'apt-get install -y librust-regex-syntax-dev librust-syn-dev librust-rayon-dev librust-nom-dev librust-regex-dev librust-serde-dev';
const START = '<!-- languages-rust:start -->';
const END = '<!-- languages-rust:end -->';

async function main() {
  const { parse, stringify } = await import(path.join(ROOT, 'node_modules', 'smol-toml', 'dist', 'index.js'));
  if (!fs.existsSync(path.join(REGISTRY))) throw new Error(`${REGISTRY} is missing: ${APT}`);
  const tree = path.join(WORK_DIR, 'rust-corpus');
  rmrf(tree);
  mkdirp(tree);
  const crates = fs.readdirSync(REGISTRY).filter((d) => fs.existsSync(path.join(REGISTRY, d, 'Cargo.toml'))).sort();
  const names = new Map();
  for (const c of crates) {
    fs.cpSync(path.join(REGISTRY, c), path.join(tree, c), { recursive: true });
    names.set(parse(fs.readFileSync(path.join(tree, c, 'Cargo.toml'), 'utf8')).package.name, c);
  }
  // path dependencies between the crates of the tree
  for (const c of crates) {
    const file = path.join(tree, c, 'Cargo.toml');
    const t = parse(fs.readFileSync(file, 'utf8'));
    const sections = [t.dependencies, t['dev-dependencies'], t['build-dependencies'], ...Object.values(t.target ?? {}).flatMap((x) => [x.dependencies, x['dev-dependencies'], x['build-dependencies']])];
    for (const s of sections) {
      for (const [key, v] of Object.entries(s ?? {})) {
        const pkg = (typeof v === 'object' && v.package) || key;
        if (names.has(pkg)) s[key] = { ...(typeof v === 'object' ? v : { version: v }), path: `../${names.get(pkg)}` };
      }
    }
    fs.writeFileSync(file, stringify(t));
  }
  fs.writeFileSync(path.join(tree, 'Cargo.toml'), `[workspace]\nmembers = [${crates.map((c) => JSON.stringify(c)).join(', ')}]\nresolver = "2"\n`);

  // truth: rustc's file list for every target
  const meta = JSON.parse(execFileSync('cargo', ['metadata', '--offline', '--no-deps', '--format-version', '1'], { cwd: tree, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));
  const rel = (abs) => path.relative(tree, abs).split(path.sep).join('/');
  const truth = new Set();
  const roots = [];
  const depFile = path.join(WORK_DIR, 'rust-dep-info.d');
  // cfg-if's macro declares modules in several crates: compiled once, so that rustc expands it
  const cfgIf = meta.packages.find((p) => p.name === 'cfg-if');
  const externs = [];
  if (cfgIf) {
    const rlib = path.join(WORK_DIR, 'libcfg_if.rlib');
    execFileSync('rustc', ['--edition', cfgIf.edition, '--crate-type', 'lib', '--crate-name', 'cfg_if', '-o', rlib, cfgIf.targets[0].src_path], { stdio: 'ignore' });
    externs.push('--extern', `cfg_if=${rlib}`);
  }
  for (const p of meta.packages) {
    const features = Object.keys(p.features ?? {}).flatMap((f) => ['--cfg', `feature="${f}"`]);
    for (const t of p.targets) {
      if (t.kind.includes('custom-build')) continue;
      const type = t.kind.includes('proc-macro') ? 'proc-macro' : t.kind.includes('lib') || t.kind.includes('rlib') ? 'lib' : 'bin';
      rmrf(depFile);
      try {
        execFileSync('rustc', ['--edition', t.edition, '--crate-type', type, '--crate-name', t.name.replace(/-/g, '_'), '--cfg', 'test', ...features, ...externs, '--emit=dep-info', '-o', depFile, t.src_path], { cwd: path.dirname(p.manifest_path), stdio: 'ignore', env: { ...process.env, CARGO_PKG_NAME: p.name, CARGO_PKG_VERSION: p.version, CARGO_MANIFEST_DIR: path.dirname(p.manifest_path) } });
      } catch {
        // errors are expected (the dependencies are not compiled); the dep-info is written before them
      }
      if (!fs.existsSync(depFile)) continue;
      const root = rel(t.src_path);
      roots.push(root);
      const first = fs.readFileSync(depFile, 'utf8').split('\n')[0];
      for (const f of first.slice(first.indexOf(':') + 1).trim().split(/(?<!\\) /)) {
        if (!f.endsWith('.rs')) continue;
        const r = rel(path.resolve(path.dirname(p.manifest_path), f.replace(/\\ /g, ' ')));
        if (!r.startsWith('..')) truth.add(`${root} -> ${r}`);
      }
    }
  }

  rmrf(path.join(tree, '.planning'));
  const t0 = performance.now();
  execFileSync(process.execPath, [OUR_CLI, 'intel', 'build', tree, '--no-cache'], { stdio: 'ignore' });
  const buildMs = performance.now() - t0;
  const { readGraphRows } = await import(path.join(ROOT, 'dist', 'engine', 'src', 'store', 'index.js'));
  const rows = await readGraphRows(path.join(tree, '.planning', 'intel', 'graph.db'));
  const pathOf = new Map(rows.nodes.map((n) => [n.id, n.path]));
  const mods = new Map();
  let inexact = 0;
  for (const e of rows.edges) {
    if (!pathOf.get(e.source).endsWith('.rs')) continue;
    if (!e.exact) inexact++;
    if (e.kind !== 'mod' && e.kind !== 'include') continue;
    const list = mods.get(pathOf.get(e.source)) ?? [];
    list.push({ target: pathOf.get(e.target), line: e.line });
    mods.set(pathOf.get(e.source), list);
  }
  // a declaration under a cfg: `cfg` on the `mod` line or the lines above it back to the previous item's end
  // (`#[cfg(…)]` over one or several lines, `cfg_if! { if #[cfg(…)] {`)
  const lines = new Map();
  const underCfg = (file, line) => {
    if (!lines.has(file)) lines.set(file, fs.readFileSync(path.join(tree, file), 'utf8').split('\n'));
    const text = lines.get(file);
    for (let i = line - 1; i >= Math.max(0, line - 12); i--) {
      if (/\bcfg/.test(text[i])) return true;
      if (i < line - 1 && /[;}]\s*$/.test(text[i])) return false;
    }
    return false;
  };
  const ours = new Set();
  const gated = new Set();
  for (const root of roots) {
    const seen = new Map([[root, false]]);
    const stack = [root];
    while (stack.length) {
      const f = stack.pop();
      for (const { target, line } of mods.get(f) ?? []) {
        if (seen.has(target)) continue;
        seen.set(target, seen.get(f) || underCfg(f, line));
        stack.push(target);
      }
    }
    for (const [f, cfg] of seen) {
      ours.add(`${root} -> ${f}`);
      if (cfg) gated.add(`${root} -> ${f}`);
    }
  }
  const shared = [...ours].filter((x) => truth.has(x)).length;
  const onlyOurs = [...ours].filter((x) => !truth.has(x)).sort();
  const ungated = [...ours].filter((x) => !gated.has(x) || truth.has(x));
  const sharedUngated = ungated.filter((x) => truth.has(x)).length;

  // use statements, by what they resolved to
  const index = JSON.parse(fs.readFileSync(path.join(tree, '.planning', 'intel', 'index.json'), 'utf8'));
  const uses = { file: 0, builtin: 0, external: 0, unresolved: 0 };
  const unresolved = [];
  let rsFiles = 0;
  for (const r of Object.values(index.files)) {
    if (!r.path.endsWith('.rs')) continue;
    rsFiles++;
    for (const i of r.imports ?? []) {
      if (i.kind === 'mod' || i.part) continue;
      uses[i.resolved.kind] = (uses[i.resolved.kind] ?? 0) + 1;
      if (i.resolved.kind === 'unresolved') unresolved.push(`${r.path}:${i.line} ${i.specifier}: ${i.resolved.reason}`);
    }
  }
  const result = {
    date: new Date().toISOString().slice(0, 10),
    corpus: `${REGISTRY}: ${crates.join(', ')}`,
    crates: crates.length,
    targets: roots.length,
    rsFiles,
    mod: { ours: ours.size, truth: truth.size, shared, precision: shared / ours.size, recall: shared / truth.size, onlyOursUnderCfg: onlyOurs.filter((x) => gated.has(x)).length, precisionOutsideCfg: sharedUngated / ungated.length },
    uses: { ...uses, intraProject: uses.file + uses.unresolved, share: uses.file / (uses.file + uses.unresolved) },
    inexactEdges: inexact,
    buildMs: Math.round(buildMs),
    rustc: execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim(),
    machine: machineInfo(),
    onlyOurs,
    onlyOursNotUnderCfg: onlyOurs.filter((x) => !gated.has(x)),
    onlyTruth: [...truth].filter((x) => !ours.has(x)).sort(),
    unresolved: unresolved.sort(),
  };
  writeJson(path.join(WORK_DIR, 'languages-rust.json'), result);
  log(JSON.stringify({ ...result, onlyOurs: result.onlyOurs.slice(0, 10), onlyTruth: result.onlyTruth.slice(0, 40), unresolved: result.unresolved.slice(0, 40) }, null, 2));
  if (!process.argv.includes('--no-write')) writeResultsSection(START, END, section(result), 'languages-rust');
  rmrf(tree);
}

function section(r) {
  const m = r.machine;
  const f = (x) => x.toFixed(4);
  const L = [START, '### Rust (bench/languages-rust.mjs)', ''];
  L.push(`Our \`mod\` tree against rustc's own: for every target \`cargo metadata\` lists, \`rustc --emit=dep-info\` (${r.rustc}, \`--cfg test\` and every feature on) names each file its module tree compiles; ours are the files our \`mod\` and \`include!\` edges (graph.db) reach from the same crate root. Pairs (crate root, file); precision = shared / ours, recall = shared / rustc. \`use\` statements have no such list from the toolchain: the table gives how every \`use\` / \`extern crate\` leaf of the tree resolved, and hand-checked cases are the tests' fixtures (test/engine/languages/rust-*.test.ts).`, '');
  L.push('| corpus | crates / targets | .rs files | `mod` pairs ours / rustc | precision | precision outside cfg | recall | inferred edges |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  L.push(`| Debian's Rust crates, one workspace of path dependencies | ${r.crates} / ${r.targets} | ${r.rsFiles} | ${r.mod.ours} / ${r.mod.truth} | ${f(r.mod.precision)} | ${f(r.mod.precisionOutsideCfg)} | ${f(r.mod.recall)} | ${r.inexactEdges} |`, '');
  L.push(`\`use\` leaves: ${r.uses.file} to a project file, ${r.uses.unresolved} unresolved (intra-project share resolved ${f(r.uses.share)}), ${r.uses.builtin} to the sysroot (std, core, alloc, proc_macro), ${r.uses.external} to external crates.`, '');
  L.push(`- Corpus: ${r.corpus} (\`${APT}\`), each a member of a root \`[workspace]\`, dependencies between them given a \`path\`. Cold build ${(r.buildMs / 1000).toFixed(1)} s.`);
  if (r.onlyOurs.length) L.push(`- Only ours (${r.onlyOurs.length}): ${r.mod.onlyOursUnderCfg} are declared under a \`cfg\` (theirs or an ancestor's \`mod\`: other OSes and architectures, \`cfg\`s a build script sets, e.g. libc's platform modules) — we index every cfg, rustc loads this machine's; precision over the rest ${f(r.mod.precisionOutsideCfg)}.${r.onlyOursNotUnderCfg.length ? ` Not under a cfg: ${r.onlyOursNotUnderCfg.slice(0, 6).map((x) => `\`${x}\``).join(', ')}.` : ''}`);
  if (r.onlyTruth.length) L.push(`- Only rustc's (${r.onlyTruth.length}): ${r.onlyTruth.slice(0, 8).map((x) => `\`${x}\``).join(', ')}.`);
  if (r.unresolved.length) L.push(`- Unresolved \`use\` leaves, e.g.: ${r.unresolved.slice(0, 5).map((x) => `\`${x}\``).join('; ')}.`);
  L.push('', `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadavg} at the start. Needs the machine's rustc and cargo and the Debian packages above. Command: \`npm run build && node bench/languages-rust.mjs\` (${r.date}).`, END);
  return L.join('\n');
}

runMain(main);
