#!/usr/bin/env node
// Go: our edges against the go command's own resolution (`go list`), on real Go source from Debian.
//
// Corpus: every module Debian installs under /usr/share/gocode/src (`apt-get install -y golang-github-spf13-cobra-dev
// golang-golang-x-tools-dev` brings cobra, x/tools and their dependencies), copied as it is, with a go.work at its
// root that uses every module in it (each folder with a go.mod outside testdata/). Truth: `go list -e -deps -json`
// of golang.org/x/tools/..., github.com/spf13/cobra/... and golang.org/x/text/... under every GOOS of GOOSES, united
// (files of other OSes are compared too), (GOTOOLCHAIN=local, GOPROXY=off: no network; the go
// command applies the workspace, module and vendor rules itself), per package three sources, its GoFiles+CgoFiles
// (Imports), TestGoFiles (TestImports), XTestGoFiles (XTestImports), each import mapped to its package's directory
// (a second `go list` finds the directories of test-only imports); the standard library is left out.
// Ours: a cold `intel build`, graph.db's import edges from those same files, each target aggregated to its directory
// (`same-package` edges, a file to the files of its own package declaring names it uses, have no import behind them:
// counted apart).
// Precision = shared / ours, recall = shared / truth, over (package source, package directory) pairs; every pair
// only one side has is listed in the JSON.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { WORK_DIR, log, machineInfo, mkdirp, rmrf, runMain, writeJson } from './lib/common.mjs';
import { coldBuildRows } from './lib/our-edges.mjs';

const GOCODE = '/usr/share/gocode/src';
const PATTERNS = ['golang.org/x/tools/...', 'github.com/spf13/cobra/...', 'golang.org/x/text/...'];
const ENV = { ...process.env, GOTOOLCHAIN: 'local', GOPROXY: 'off', GOFLAGS: '', GO111MODULE: 'on', GOWORK: '' };

function goList(cwd, args, env) {
  const out = execFileSync('go', ['list', '-e', '-json', ...args], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const list = [];
  const dec = out.replace(/\}\n\{/g, '}\u0000{').split('\u0000');
  for (const s of dec) if (s.trim()) list.push(JSON.parse(s));
  return list;
}

const inOutputFolder = (pair) => /(^|[/ ])(build|out)(\/|#|$)/.test(pair);

/** The GOOS values the truth is taken under: a file of any of them is compared (ours reads every OS and tag). */
const GOOSES = ['linux', 'darwin', 'windows', 'freebsd', 'openbsd', 'js', 'plan9'];
const GOARCH_OF = { js: 'wasm' };

/**
 * Our (package source, package directory) pairs against the go command's, for the packages `patterns` name from
 * `cwd`: the truth is the union of `go list` under every GOOS of GOOSES (files with build constraints for another OS
 * are compared too); `otherOsFiles` counts the files only a non-linux GOOS reaches.
 */
async function accuracy(corpus, tree, cwd, patterns, env) {
  const rel = (abs) => path.relative(tree, abs).split(path.sep).join('/');
  const truth = new Set();
  const groupOf = new Map();
  const packages = new Set();
  let errors = 0;
  let linuxFiles = 0;
  for (const goos of GOOSES) {
    const osEnv = { ...env, GOOS: goos, GOARCH: GOARCH_OF[goos] ?? 'amd64', CGO_ENABLED: '0' };
    const pkgs = goList(cwd, ['-deps', ...patterns], osEnv);
    const dirOf = new Map(pkgs.map((p) => [p.ImportPath, p]));
    const roots = pkgs.filter((p) => !p.DepOnly && !p.Standard && p.Dir?.startsWith(tree));
    const missing = [...new Set(roots.flatMap((p) => [...(p.TestImports ?? []), ...(p.XTestImports ?? [])]))].filter((i) => !dirOf.has(i));
    if (missing.length) for (const p of goList(cwd, missing, osEnv)) dirOf.set(p.ImportPath, p);
    for (const p of roots) {
      if (p.Error && goos === 'linux') errors++;
      const dir = rel(p.Dir);
      packages.add(dir);
      const groups = [
        ['src', [...(p.GoFiles ?? []), ...(p.CgoFiles ?? [])], p.Imports ?? []],
        ['test', p.TestGoFiles ?? [], p.TestImports ?? []],
        ['xtest', p.XTestGoFiles ?? [], p.XTestImports ?? []],
      ];
      for (const [g, gFiles, imports] of groups) {
        if (!gFiles.length) continue;
        const key = `${dir}#${g}`;
        for (const f of gFiles) groupOf.set(dir ? `${dir}/${f}` : f, key);
        if (goos === 'linux') linuxFiles += gFiles.length;
        for (const imp of imports) {
          const target = dirOf.get((p.ImportMap ?? {})[imp] ?? imp);
          // a package with no folder here (a Windows-only dependency Debian does not package) is unresolved for both
          if (!target || target.Standard || !target.Dir?.startsWith(tree) || imp === 'C' || !fs.existsSync(target.Dir)) continue;
          truth.add(`${key} -> ${rel(target.Dir)}`);
        }
      }
    }
  }
  const files = groupOf.size;

  const { rows, pathOf, buildMs } = await coldBuildRows(tree);
  const ours = new Set();
  let inexact = 0;
  let samePackage = 0;
  for (const e of rows.edges) {
    if (e.kind === 'same-package') {
      samePackage++;
      continue;
    }
    const key = groupOf.get(pathOf.get(e.source));
    const target = pathOf.get(e.target);
    if (!key || !target.endsWith('.go')) continue;
    if (!e.exact) inexact++;
    const targetDir = path.posix.dirname(target);
    ours.add(`${key} -> ${targetDir === '.' ? '' : targetDir}`);
  }
  const shared = [...ours].filter((x) => truth.has(x)).length;
  return {
    corpus,
    goos: GOOSES,
    packages: packages.size,
    packagesWithErrors: errors,
    goFiles: files,
    otherOsFiles: files - linuxFiles,
    indexedGoFiles: rows.nodes.filter((n) => n.path.endsWith('.go')).length,
    pairs: { ours: ours.size, truth: truth.size, shared },
    precision: shared / ours.size,
    recall: shared / truth.size,
    inexactEdges: inexact,
    // every same-package edge of the indexed tree (not only of the compared files)
    samePackageEdges: samePackage,
    buildMs: Math.round(buildMs),
    // pairs with a package in a build/ or out/ folder (x/text/collate/build): the scan keeps Go packages there
    outputFolderPairs: { truth: [...truth].filter(inOutputFolder).length, shared: [...ours].filter((x) => truth.has(x) && inOutputFolder(x)).length },
    onlyOurs: [...ours].filter((x) => !truth.has(x)).sort(),
    onlyTruth: [...truth].filter((x) => !ours.has(x)).sort(),
  };
}

async function main() {
  if (!fs.existsSync(path.join(GOCODE, 'golang.org/x/tools'))) throw new Error(`${GOCODE}/golang.org/x/tools is missing: apt-get install -y golang-github-spf13-cobra-dev golang-golang-x-tools-dev`);
  const tree = path.join(WORK_DIR, 'go-corpus');
  rmrf(tree);
  mkdirp(path.dirname(tree));
  fs.cpSync(GOCODE, tree, { recursive: true });
  const mods = execFileSync('find', ['.', '-name', 'go.mod', '-not', '-path', '*/testdata/*'], { cwd: tree, encoding: 'utf8' }).trim().split('\n').map((m) => path.dirname(m)).sort();
  fs.writeFileSync(path.join(tree, 'go.work'), `go 1.19\n\nuse (\n${mods.map((m) => `\t${m}\n`).join('')})\n`);

  const workspace = await accuracy(`${GOCODE} (${mods.length} modules, one go.work), sources from ${PATTERNS.join(' ')}`, tree, tree, PATTERNS, { ...ENV, GOWORK: path.join(tree, 'go.work') });

  // vendor/: cobra alone, its dependencies copied into cobra/vendor/ with a vendor/modules.txt, `go list -mod=vendor`
  const vtree = path.join(WORK_DIR, 'go-vendor');
  rmrf(vtree);
  fs.cpSync(path.join(GOCODE, 'github.com/spf13/cobra'), vtree, { recursive: true });
  const vendored = [['github.com/cpuguy83/go-md2man/v2', 'v2.0.2', true], ['github.com/inconshreveable/mousetrap', 'v1.0.1', true], ['github.com/spf13/pflag', 'v1.0.5', true], ['gopkg.in/yaml.v3', 'v3.0.1', true], ['github.com/russross/blackfriday/v2', 'v2.1.0', false]];
  let modulesTxt = '';
  for (const [mod, version, explicit] of vendored) {
    modulesTxt += `# ${mod} ${version}\n${explicit ? '## explicit\n' : ''}`;
    const from = path.join(GOCODE, mod);
    if (!fs.existsSync(from)) continue; // mousetrap: Windows only, not packaged
    fs.cpSync(from, path.join(vtree, 'vendor', mod), { recursive: true, filter: (f) => !f.includes('/testdata') });
    const dirs = execFileSync('find', ['.', '-name', '*.go', '-not', '-name', '*_test.go'], { cwd: from, encoding: 'utf8' }).trim().split('\n').map((f) => path.posix.dirname(f).replace(/^\.\/?/, '')).filter((d) => !d.includes('testdata') && !d.includes('internal'));
    for (const d of [...new Set(dirs)].sort()) modulesTxt += `${d ? `${mod}/${d}` : mod}\n`;
  }
  fs.writeFileSync(path.join(vtree, 'vendor', 'modules.txt'), modulesTxt);
  const vendor = await accuracy('cobra with its dependencies in vendor/ (`go list -mod=vendor`)', vtree, vtree, ['./...'], { ...ENV, GOWORK: 'off', GOFLAGS: '-mod=vendor' });

  const result = { workspace, vendor, go: execFileSync('go', ['version'], { encoding: 'utf8' }).trim(), machine: machineInfo() };
  writeJson(path.join(WORK_DIR, 'languages-go.json'), result);
  for (const r of [workspace, vendor]) log(JSON.stringify({ ...r, onlyOurs: r.onlyOurs.slice(0, 20), onlyTruth: r.onlyTruth.slice(0, 20) }, null, 2));
  log(result.go, JSON.stringify(result.machine));
  rmrf(tree);
  rmrf(vtree);
}

runMain(main);
