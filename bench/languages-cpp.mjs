#!/usr/bin/env node
// C/C++: our `#include` edges against the compiler's own header search (uses the machine's gcc/g++ and cmake).
//
// Corpora: CMake projects (git checkouts in bench/.corpora/libuv and bench/.corpora/leveldb by default, or given with
// --projects name=DIR,…; each is copied, configured with
// `cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON`, which writes build/compile_commands.json, and indexed by
// a cold `intel build`), and the node headers Debian's `nodejs` installs at /usr/include/node (no build system, no
// database: our include roots are inferred there).
// Truth, from the compiler (gcc/g++ 12): for each translation unit of compile_commands.json (its first command, as
// clangd takes it), the same command with `-M -MG` lists every project file the unit reaches (transitive). For every
// file reached, each of its `#include` lines (a plain line match, no engine code) is probed in each distinct command
// that reaches the file: a one-line file `#include <spec>` placed in the file's own folder, preprocessed with that
// command's flags and `-H`, whose first depth-1 line is the header the directive opens (direct). For the node headers,
// each header is its own unit (`g++ -std=c++20 -x c++ -I<root>`, as node-gyp sets up an addon).
// Compared, over project files only (system headers, and build/ output we do not index, left out):
// - direct: (file, header) pairs, our edges from the files reached against the probes; precision and recall;
// - transitive: (unit, header) pairs of our edges' closure from each unit against -M; precision and recall.
// Each once with every edge, once with unconditional includes only (kind `include`): an include inside `#if` is an
// edge for us in every configuration, while -M follows the branches this machine's flags select (the probes resolve
// every directive, taken or not).
import fs from 'node:fs';
import path from 'node:path';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { CORPORA_DIR, OUR_CLI, ROOT, WORK_DIR, log, machineInfo, mkdirp, parseArgs, rmrf, runMain, writeJson } from './lib/common.mjs';
import { coldBuildRows } from './lib/our-edges.mjs';
import { writeResultsSection } from './lib/write-results.mjs';
import { editBesideJs } from './lib/language-speed.mjs';

const run = promisify(execFile);
const NODE_HEADERS = '/usr/include/node';
const SPEC = {
  projects: { type: 'string', default: `libuv=${path.join(CORPORA_DIR, 'libuv')},leveldb=${path.join(CORPORA_DIR, 'leveldb')}`, help: 'name=DIR,… of CMake project source trees (git checkouts)' },
  jobs: { type: 'number', default: 2, help: 'compiler processes at once' },
  edits: { type: 'number', default: 20, help: 'one-file edits of the first project\'s most included header against zod\'s most imported file (0: none)' },
  render: { type: 'boolean', default: false, help: 'only rewrite the RESULTS.md section from the last run\'s bench/.work/languages-cpp.json' },
};
const USAGE = 'node bench/languages-cpp.mjs [--projects name=DIR,...] [--jobs N] [--render]';

/** Runs `fn` over `items`, `jobs` at a time. */
async function pool(items, jobs, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/** The words of a shell command (compile_commands' `command`). */
function words(command) {
  const out = [];
  for (const m of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|((?:[^\s\\"']|\\.)+)/g)) out.push(m[1] ?? m[2] ?? m[3].replace(/\\(.)/g, '$1'));
  return out;
}

/** Every file one unit reaches (`-M -MG`), absolute paths. */
async function preprocess(args, cwd) {
  const depFile = path.join(WORK_DIR, `cpp-deps-${process.pid}-${Math.random().toString(36).slice(2)}.d`);
  const [cc, ...rest] = args;
  const clean = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '-o' || rest[i] === '-MF' || rest[i] === '-MT' || rest[i] === '-MQ') i++;
    else if (!['-c', '-MD', '-MMD'].includes(rest[i])) clean.push(rest[i]);
  }
  try {
    await run(cc, [...clean, '-M', '-MG', '-MF', depFile, '-o', '/dev/null'], { cwd, maxBuffer: 1 << 26 });
  } catch {
    // a unit that does not preprocess here still wrote what it reached
  }
  let deps = [];
  try {
    const text = fs.readFileSync(depFile, 'utf8').replace(/\\\n/g, ' ');
    deps = text
      .slice(text.indexOf(':') + 1)
      .split(/(?<!\\)\s+/)
      .filter(Boolean)
      .map((d) => path.resolve(cwd, d.replace(/\\ /g, ' ')));
  } catch {
    // no dependency file: nothing reached
  }
  fs.rmSync(depFile, { force: true });
  return { deps };
}

const ratio = (a, b) => (b === 0 ? 1 : a / b);

function score(ours, truth) {
  let shared = 0;
  for (const x of ours) if (truth.has(x)) shared++;
  return { ours: ours.size, truth: truth.size, shared, precision: ratio(shared, ours.size), recall: ratio(shared, truth.size) };
}

/** Our edges from graph.db: source → [{ target, kind, exact }]. */
async function ourGraph(tree) {
  const { rows, pathOf, buildMs } = await coldBuildRows(tree);
  const out = new Map();
  let inferred = 0;
  for (const e of rows.edges) {
    const s = pathOf.get(e.source);
    if (!out.has(s)) out.set(s, []);
    out.get(s).push({ target: pathOf.get(e.target), kind: e.kind, exact: e.exact });
    if (!e.exact) inferred++;
  }
  const cpp = rows.nodes.filter((n) => JSON.parse(n.body).language === 'cpp').length;
  return { edges: out, files: cpp, edgeCount: rows.edges.length, inferred, buildMs: Math.round(buildMs) };
}

function closure(graph, from, onlyInclude) {
  const seen = new Set();
  const stack = [from];
  while (stack.length) {
    const f = stack.pop();
    for (const e of graph.get(f) ?? []) {
      if (onlyInclude && e.kind !== 'include') continue;
      if (!seen.has(e.target)) {
        seen.add(e.target);
        stack.push(e.target);
      }
    }
  }
  seen.delete(from);
  return seen;
}

/** A compiler command without its output, its dependency-file options and the unit's own source file. */
function flagsOf(u, tree) {
  const [cc, ...rest] = u.args;
  const out = [];
  for (let i = 0; i < rest.length; i++) {
    if (['-o', '-MF', '-MT', '-MQ'].includes(rest[i])) i++;
    else if (['-c', '-MD', '-MMD'].includes(rest[i])) continue;
    else if (!rest[i].startsWith('-') && path.resolve(u.cwd, rest[i]) === path.join(tree, u.file)) continue;
    else out.push(rest[i]);
  }
  return [cc, out];
}

const INCLUDE_LINE = /^[ \t]*#[ \t]*include[ \t]*([<"][^>"\n]+[>"])/gm;

/**
 * Where the compiler sends one directive: a file holding only `#include <spec>`, put in `dir` (the including file's
 * folder, searched first for quotes), preprocessed with the unit's own flags and `-H -nostdinc`: the first depth-1
 * line is the header the directive opens (-nostdinc stops at the first system header; a system directory is never a
 * project file's, so no project answer changes).
 */
async function probe(tree, dir, spec, cc, flags, cwd, ext, n) {
  const file = path.join(tree, dir, `.gsd-probe-${n}${ext}`);
  fs.writeFileSync(file, `#include ${spec}\n`);
  let stderr = '';
  try {
    ({ stderr } = await run(cc, [...flags, '-nostdinc', '-E', '-H', '-o', '/dev/null', file], { cwd, maxBuffer: 1 << 26 }));
  } catch (e) {
    stderr = e.stderr ?? '';
  }
  fs.rmSync(file, { force: true });
  const m = /^\. (.+)$/m.exec(stderr);
  return m ? path.resolve(cwd, m[1]) : null;
}

/** Compares our graph of `tree` with the compiler's view of `units` ([{ file (rel), args, cwd }]). */
async function compare(name, tree, units, ours, jobs, note) {
  const rel = (abs) => {
    const r = path.relative(tree, abs).split(path.sep).join('/');
    return r.startsWith('..') || path.isAbsolute(r) || r.startsWith('build/') ? null : r;
  };
  // transitive truth: -M of each unit
  const views = await pool(units, jobs, (u) => preprocess(u.args, u.cwd));
  const transitiveTruth = new Set();
  /** project file → the (compiler, flags, cwd, extension) of the first unit reaching it */
  const contextOf = new Map();
  units.forEach((u, i) => {
    const [cc, flags] = flagsOf(u, tree);
    const context = { cc, flags, cwd: u.cwd, ext: path.extname(u.file) };
    if (!contextOf.has(u.file)) contextOf.set(u.file, []);
    contextOf.get(u.file).push(context);
    for (const abs of views[i].deps) {
      const r = rel(abs);
      if (!r || r === u.file || !fs.existsSync(abs)) continue;
      transitiveTruth.add(`${u.file} -> ${r}`);
      if (!contextOf.has(r)) contextOf.set(r, []);
      const list = contextOf.get(r);
      if (!list.some((c) => c.cc === cc && c.flags.join('\0') === flags.join('\0'))) list.push(context);
    }
  });
  // direct truth: every include directive of every file a unit reaches, probed in the contexts that reach the file
  const tasks = new Map();
  for (const [file, contexts] of contextOf) {
    const text = fs.readFileSync(path.join(tree, file), 'utf8');
    const dir = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file);
    for (const m of text.matchAll(INCLUDE_LINE)) {
      for (const c of contexts) {
        const key = `${dir}\0${m[1]}\0${c.cc}\0${c.flags.join('\0')}`;
        if (!tasks.has(key)) tasks.set(key, { dir, spec: m[1], context: c, files: new Set() });
        tasks.get(key).files.add(file);
      }
    }
  }
  const list = [...tasks.values()];
  const targets = await pool(list, jobs, (t, n) => probe(tree, t.dir, t.spec, t.context.cc, t.context.flags, t.context.cwd, t.context.ext, n));
  const directTruth = new Set();
  list.forEach((t, i) => {
    const r = targets[i] && rel(targets[i]);
    if (r) for (const f of t.files) if (f !== r) directTruth.add(`${f} -> ${r}`);
  });
  const result = { name, note, units: units.length, reached: contextOf.size, probes: list.length, files: ours.files, edges: ours.edgeCount, inferredEdges: ours.inferred, buildMs: ours.buildMs };
  for (const onlyInclude of [false, true]) {
    const direct = new Set();
    const transitive = new Set();
    for (const f of contextOf.keys()) for (const e of ours.edges.get(f) ?? []) if (!onlyInclude || e.kind === 'include') direct.add(`${f} -> ${e.target}`);
    for (const u of units) for (const t of closure(ours.edges, u.file, onlyInclude)) transitive.add(`${u.file} -> ${t}`);
    result[onlyInclude ? 'unconditional' : 'all'] = { direct: score(direct, directTruth), transitive: score(transitive, transitiveTruth) };
    if (!onlyInclude) {
      result.onlyOursDirect = [...direct].filter((x) => !directTruth.has(x)).sort();
      result.onlyTruthDirect = [...directTruth].filter((x) => !direct.has(x)).sort();
    }
  }
  return result;
}

async function cmakeProject(name, src, jobs, edits) {
  if (!fs.existsSync(path.join(src, 'CMakeLists.txt'))) throw new Error(`${src}: no CMakeLists.txt (give a CMake project's source tree: --projects ${name}=DIR)`);
  const tree = path.join(WORK_DIR, `cpp-${name}`);
  rmrf(tree);
  fs.cpSync(src, tree, { recursive: true, filter: (f) => !/[\\/](\.git|\.planning|build)$/.test(f) });
  // the project's tests on (more units) when they configure here; off when they need what the tree lacks (submodules)
  const testOptions = [...fs.readFileSync(path.join(tree, 'CMakeLists.txt'), 'utf8').matchAll(/option\s*\(\s*(\w+_BUILD_(?:TESTS|BENCHMARKS))\b/g)].map((m) => m[1]);
  const configure = (on) => execFileSync('cmake', ['-S', '.', '-B', 'build', '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON', '-DCMAKE_BUILD_TYPE=Release', ...testOptions.map((o) => `-D${o}=${on ? 'ON' : 'OFF'}`)], { cwd: tree, stdio: 'ignore' });
  let testsOn = true;
  try {
    configure(true);
  } catch {
    testsOn = false;
    rmrf(path.join(tree, 'build'));
    configure(false);
  }
  const db = JSON.parse(fs.readFileSync(path.join(tree, 'build', 'compile_commands.json'), 'utf8'));
  const units = [];
  const seen = new Set();
  for (const e of db) {
    const abs = path.resolve(e.directory, e.file);
    const file = path.relative(tree, abs).split(path.sep).join('/');
    if (file.startsWith('..') || file.startsWith('build/') || seen.has(file)) continue;
    seen.add(file);
    units.push({ file, args: e.arguments ?? words(e.command), cwd: e.directory });
  }
  const setup = `${testOptions.length ? `${testOptions.join(' ')} ${testsOn ? 'ON' : 'OFF'}` : 'cmake defaults'}`;
  const withDb = await compare(name, tree, units, await ourGraph(tree), jobs, `build/compile_commands.json from cmake, ${setup}`);
  // the same tree and truth without the database: our include roots inferred
  fs.renameSync(path.join(tree, 'build', 'compile_commands.json'), path.join(tree, 'build', 'compile_commands.json.off'));
  const withoutDb = await compare(`${name}, no database`, tree, units, await ourGraph(tree), jobs, 'compile_commands.json moved away: include roots inferred');
  fs.renameSync(path.join(tree, 'build', 'compile_commands.json.off'), path.join(tree, 'build', 'compile_commands.json'));
  const CPP = /\.(c|h|cc|cpp|cxx|hh|hpp|hxx|ipp|inl)$/;
  const editTimes = edits > 0 ? await editBesideJs({ name: 'cpp', tree, own: (p) => CPP.test(p), comment: (i) => `\n// bench ${i}\n` }, edits, path.join(WORK_DIR, 'languages-cpp')) : null;
  if (editTimes) {
    // the sizes of the files edited, as the corpora have them
    editTimes.cpp.bytes = fs.statSync(path.join(src, editTimes.cpp.file)).size;
    editTimes['js/ts'].bytes = fs.statSync(path.join(CORPORA_DIR, 'zod', editTimes['js/ts'].file)).size;
  }
  rmrf(tree);
  return { results: [withDb, withoutDb], editTimes: editTimes && { project: name, count: edits, ...editTimes } };
}

async function nodeHeaders(jobs) {
  const tree = path.join(WORK_DIR, 'cpp-node-headers');
  rmrf(tree);
  fs.cpSync(NODE_HEADERS, tree, { recursive: true, dereference: true });
  const headers = execFileSync('find', ['.', '-type', 'f', '(', '-name', '*.h', '-o', '-name', '*.hpp', ')'], { cwd: tree, encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((f) => f.replace(/^\.\//, ''))
    .sort()
    // openssl/archs/: 20 per-platform copies of openssl's headers, each compiled only through its own platform's -I
    .filter((f) => !f.startsWith('openssl/archs/'));
  const units = headers.map((file) => ({ file, args: ['g++', '-std=c++20', '-x', 'c++', `-I${tree}`, file], cwd: tree }));
  const ours = await ourGraph(tree);
  const r = await compare('node headers', tree, units, ours, jobs, 'no database: include roots inferred; units: each header outside openssl/archs/ compiled alone with -I<root>');
  rmrf(tree);
  return r;
}

const f4 = (x) => x.toFixed(4);

function section(out) {
  const m = out.machine;
  const L = ['<!-- languages-cpp:start -->', '### C/C++ (bench/languages-cpp.mjs)', ''];
  L.push(
    "Our `#include` edges (graph.db) against the compiler's own header search " +
      `(${out.gcc}, the machine's). Transitive: each translation unit of \`compile_commands.json\` run with its own command plus \`-M -MG\`, against the closure of our edges from the unit, (unit, file) pairs. ` +
      'Direct: every `#include` line of every file a unit reaches, probed in the folder of that file with the flags of each unit reaching it (a one-line file `#include <spec>` preprocessed with `-H`: the first header it opens), against our edges from the same files, (file, header) pairs. ' +
      'Project files only (system headers, and `build/` output, which we do not index, left out). "all" counts every edge; "unconditional" only `include` edges: an include inside `#if` is a `conditional-import` edge for us in every configuration, while `-M` takes the branches this machine selects (the probes resolve every directive, taken or not).',
    '',
  );
  L.push('| corpus | C/C++ files | units | files reached | edges (inferred) | edges counted | direct P / R | transitive P / R |', '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
  for (const r of out.corpora) {
    for (const k of ['all', 'unconditional']) {
      const x = r[k];
      L.push(`| ${r.name} | ${r.files} | ${r.units} | ${r.reached} | ${r.edges} (${r.inferredEdges}) | ${k} | ${f4(x.direct.precision)} / ${f4(x.direct.recall)} | ${f4(x.transitive.precision)} / ${f4(x.transitive.recall)} |`);
    }
  }
  L.push('');
  for (const r of out.corpora) {
    L.push(`- ${r.name} (${r.note}; cold build ${r.buildMs} ms): direct pairs ours ${r.all.direct.ours} / compiler ${r.all.direct.truth}.` + (r.onlyTruthDirect.length ? ` Compiler only: ${r.onlyTruthDirect.slice(0, 6).map((e) => `\`${e}\``).join(', ')}${r.onlyTruthDirect.length > 6 ? ` (+${r.onlyTruthDirect.length - 6})` : ''}.` : ' None the compiler has is missing.') + (r.onlyOursDirect.length ? ` Ours only (first): ${r.onlyOursDirect.slice(0, 4).map((e) => `\`${e}\``).join(', ')}${r.onlyOursDirect.length > 4 ? ` (+${r.onlyOursDirect.length - 4})` : ''}.` : ''));
  }
  L.push(
    '- Without a database the include roots are guesses (each folder\'s `include/` and the folder itself, nearest first, after the folders CMakeLists.txt names), and every edge found through them is marked inferred. ' +
      'The node headers show where a guess parts from a build: a header under `openssl/archs/<platform>/asm/include/openssl/` finds its platform\'s own copy of a sibling header first, where an addon build, given `-I<root>` only, opens the root\'s `openssl/`.',
  );
  if (out.edits) {
    const e = out.edits;
    const kb = (bytes) => (bytes ? `${Math.round(bytes / 1024)} KB, ` : '');
    L.push('', `One-file edit, engine time of \`updateIntel\` in one process (${e.count} edits each, interleaved, medians): C/C++, \`${e.cpp.file}\` of ${e.project} with its database (${kb(e.cpp.bytes)}${e.cpp.direct} direct dependents) ${e.cpp.medianMs.toFixed(1)} ms; JS/TS, \`${e['js/ts'].file}\` of zod (${kb(e['js/ts'].bytes)}${e['js/ts'].direct} direct dependents) ${e['js/ts'].medianMs.toFixed(1)} ms; ratio C/C++ / JS/TS ${(e.cpp.medianMs / e['js/ts'].medianMs).toFixed(2)}. Each is the most included file of its tree; an edit that keeps a file's includes re-parses that file only and re-resolves none of its dependents, so their number costs little, the file's size does. The grammar's parse of the header is no longer what it spends: with its macros blanked (\`engine/src/languages/cpp/decl-macros.ts\`) \`uv.h\` parses without an error across the file, and a process that keeps its tree re-parses the edit incrementally in under 1 ms (\`engine/src/languages/runtime.ts\`; ~10 ms from scratch). What is left beyond the JS/TS edit is the reader's walk over the header's 479 declarations through web-tree-sitter's node API (~5 ms of CPU) and the rows of those declarations patched into graph.db.`);
  }
  L.push('', `Corpora: ${out.sources.join('; ')}.`);
  L.push('', `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadavg} at the start. Command: \`npm run build && node bench/languages-cpp.mjs\` (machine's gcc, g++ and cmake; ${out.date}).`, '<!-- languages-cpp:end -->');
  return L.join('\n');
}

function gitHead(dir) {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (opts.render) {
    writeResultsSection('<!-- languages-cpp:start -->', '<!-- languages-cpp:end -->', section(JSON.parse(fs.readFileSync(path.join(WORK_DIR, 'languages-cpp.json'), 'utf8'))), 'C/C++');
    return;
  }
  if (!fs.existsSync(OUR_CLI)) throw new Error('run npm run build first');
  mkdirp(WORK_DIR);
  const machine = machineInfo();
  const corpora = [];
  const sources = [];
  let edited = null;
  const skipped = [];
  for (const spec of opts.projects.split(',').filter(Boolean)) {
    const [name, dir] = spec.split('=');
    if (!fs.existsSync(dir)) {
      log(`skipping ${name}: ${dir} is missing (a source tree of the project, e.g. a git checkout)`);
      skipped.push(name);
      continue;
    }
    const head = gitHead(dir);
    const version = head ?? (fs.existsSync(path.join(dir, 'VERSION')) ? fs.readFileSync(path.join(dir, 'VERSION'), 'utf8').trim() : null);
    log(`${name}: ${dir}`);
    const { results, editTimes } = await cmakeProject(name, dir, opts.jobs, corpora.length === 0 ? opts.edits : 0);
    corpora.push(...results);
    if (editTimes) edited = editTimes;
    sources.push(`${name}: a checkout of its repository${version ? ` at ${version}` : ''} (${path.relative(ROOT, dir)}), configured by cmake ${execFileSync('cmake', ['--version'], { encoding: 'utf8' }).split('\n')[0].replace(/^cmake version /, '')}`);
  }
  if (fs.existsSync(NODE_HEADERS)) {
    log('node headers');
    corpora.push(await nodeHeaders(opts.jobs));
    sources.push(`node headers: ${NODE_HEADERS} as Debian's \`nodejs\` ${execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'nodejs'], { encoding: 'utf8' })} installs it (v8, cppgc, libuv, openssl, node)`);
  }
  const out = { date: new Date().toISOString().slice(0, 10), machine, edits: edited, gcc: execFileSync('gcc', ['--version'], { encoding: 'utf8' }).split('\n')[0], corpora, sources };
  writeJson(path.join(WORK_DIR, 'languages-cpp.json'), out);
  for (const r of corpora) log(JSON.stringify({ ...r, onlyOursDirect: r.onlyOursDirect.slice(0, 10), onlyTruthDirect: r.onlyTruthDirect.slice(0, 10) }, null, 2));
  // a block written without a corpus would drop its rows from RESULTS.md
  if (skipped.length) log(`not writing bench/RESULTS.md: ${skipped.join(', ')} missing (the figures are in ${path.relative(ROOT, path.join(WORK_DIR, 'languages-cpp.json'))})`);
  else writeResultsSection('<!-- languages-cpp:start -->', '<!-- languages-cpp:end -->', section(out), 'C/C++');
});
