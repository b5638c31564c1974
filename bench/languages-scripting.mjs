#!/usr/bin/env node
// PHP, Ruby and C#: the share of a real project's intra-project import statements we resolve, exact and inferred,
// and, where the language's own resolver is at hand on this machine, agreement with it statement by statement.
//
// Corpora: git snapshots of public repositories (pinned commits below), bare clones in bench/.snapshots made on first
// use (bench/lib/snapshots.mjs), or read from `--snapshots DIR` (DIR/<owner>+<name>/repo git directories); each
// is exported (its files at `<commit>`) into bench/.work/ and built cold with our CLI (`intel build --no-cache`).
// Edit path: a one-file update on the largest corpus of each language beside the same on zod (JS/TS, from the npm
// registry through bench/corpora.mjs), interleaved in one process.
// Truth (the machine's toolchains, `apt-get install -y ruby php-cli composer`; a language whose tool is missing is
// reported without it):
//   PHP   Composer's ClassLoader::findFile after `composer dump-autoload` of the project's own composer.json
//         (bench/languages/php_reference.php), for every class name our parser read (use, fully qualified and
//         same-namespace names): precision = agreeing exact targets / our exact targets, recall = agreeing / names
//         Composer maps to a project file.
//   Ruby  Ruby's own $LOAD_PATH.resolve_feature_path with the gem's require_paths first (and File.expand_path for
//         require_relative), bench/languages/ruby_reference.rb, for every require / require_relative / autoload
//         statement of lib/: precision and recall over statements, as for PHP.
//   C#    the share only (usings that name a namespace the project declares, bound to files); against the compiler:
//         bench/languages-csharp.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { OUR_CLI, OUR_ENGINE, WORK_DIR, log, machineInfo, parseArgs, rmrf, runMain, writeJson } from './lib/common.mjs';
import { exportSnapshot, SNAPSHOTS_OPTION } from './lib/snapshots.mjs';
import { writeResultsSection } from './lib/write-results.mjs';
import { corpusDir, ensureCorpus, getCorpus } from './corpora.mjs';

const USAGE = 'Usage: node bench/languages-scripting.mjs [--snapshots DIR] [--no-write]';
const SPEC = {
  snapshots: SNAPSHOTS_OPTION,
  write: { type: 'boolean', default: true, help: 'replace the PHP, Ruby and C# subsections of bench/RESULTS.md' },
  edits: { type: 'number', default: 30, help: 'one-file edits per language (edit path; 0: none)' },
};

const CORPORA = {
  php: [
    { repo: 'thephpleague/commonmark', commit: '8c812a3cd319485fa7b1110b926829013551afa3' },
    { repo: 'composer/composer', commit: 'eba7baa59eb1b59246cf9800b0120fe78915b6ac', edits: true },
  ],
  ruby: [
    { repo: 'rack/rack', commit: '8bf4eb078498edc9105fb04add80d89c5340e60b', loadPath: ['lib'] },
    { repo: 'lobsters/lobsters', commit: '57268d762e1c2c95b7a8e64ee8deb259cddd8cc0', edits: true },
  ],
  csharp: [
    { repo: 'serilog/serilog', commit: '60935b4d7abad71cf6157b45a10f5c3c65ead527' },
    { repo: 'JamesNK/Newtonsoft.Json', commit: '09bb545d72969ad7fb4ea07db0d5c34f4fc07877', edits: true },
  ],
};

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** what a snapshot is exported with: the language's sources and the files that steer its resolution */
const PATHS = { php: /(\.php|(^|\/)composer\.(json|lock))$/, ruby: /(\.rb|\.gemspec|\.rake|(^|\/)Gemfile)$/, csharp: /\.(cs|csproj)$/ };

function build(tree) {
  rmrf(path.join(tree, '.planning'));
  const t0 = performance.now();
  execFileSync(process.execPath, [OUR_CLI, 'intel', 'build', tree, '--no-cache'], { stdio: 'ignore' });
  const ms = performance.now() - t0;
  const index = JSON.parse(fs.readFileSync(path.join(tree, '.planning', 'intel', 'index.json'), 'utf8'));
  return { ms: Math.round(ms), files: index.files };
}

/** Statements (first entries, not `part`s) of files of `language`, with what they resolved to. */
function statements(files, language) {
  const out = [];
  for (const f of Object.values(files)) {
    if (f.language !== language) continue;
    const byStatement = new Map();
    for (const i of f.imports) {
      const key = `${i.line}\u0000${i.specifier}\u0000${i.kind}`;
      const s = byStatement.get(key) ?? { from: f.path, specifier: i.specifier, kind: i.kind, line: i.line, targets: [] };
      s.targets.push({ resolved: i.resolved, inferred: !!i.inferred });
      byStatement.set(key, s);
    }
    out.push(...byStatement.values());
  }
  return out;
}

const shareOf = (list) => {
  const file = list.filter((s) => s.targets.some((t) => t.resolved.kind === 'file'));
  const exact = file.filter((s) => s.targets.some((t) => t.resolved.kind === 'file' && !t.inferred));
  const unresolved = list.filter((s) => s.targets.every((t) => t.resolved.kind === 'unresolved'));
  return { statements: list.length, resolved: file.length, exact: exact.length, inferred: file.length - exact.length, unresolved: unresolved.length };
};

/** precision / recall of our exact file targets against the truth's file per key. */
function agreement(ours, truth) {
  let oursExact = 0;
  let truthFiles = 0;
  let shared = 0;
  let inferredAgree = 0;
  const onlyOurs = [];
  const onlyTruth = [];
  for (const [key, t] of ours) {
    const want = truth[key] ?? null;
    if (want) truthFiles++;
    if (t.path && !t.inferred) oursExact++;
    if (t.path && t.inferred && t.path === want) inferredAgree++;
    if (t.path && !t.inferred && t.path === want) shared++;
    else {
      if (t.path && !t.inferred) onlyOurs.push(`${key} -> ${t.path}`);
      if (want) onlyTruth.push(`${key} -> ${want}${t.path ? ` (ours ${t.inferred ? 'inferred ' : ''}${t.path})` : ''}`);
    }
  }
  return { oursExact, truthFiles, shared, inferredAgree, precision: shared / oursExact, recall: shared / truthFiles, onlyOurs: onlyOurs.sort(), onlyTruth: onlyTruth.sort() };
}

const firstFile = (s) => {
  const t = s.targets.find((x) => x.resolved.kind === 'file');
  return { path: t?.resolved.path ?? null, inferred: t?.inferred ?? false };
};

async function php(tree, c) {
  const { ms, files } = build(tree);
  const all = statements(files, 'php');
  const classes = all.filter((s) => s.kind === 'import' || s.kind === 'same-package').filter((s) => !/^(function|const) /.test(s.specifier));
  const includes = all.filter((s) => s.kind === 'require' || s.kind === 'include');
  const r = { corpus: `${c.repo}@${c.commit.slice(0, 7)}`, phpFiles: Object.values(files).filter((f) => f.language === 'php').length, buildMs: ms, classes: shareOf(classes), uses: shareOf(classes.filter((s) => s.kind === 'import')), includes: shareOf(includes), functionUses: shareOf(all.filter((s) => /^(function|const) /.test(s.specifier))) };
  if (has('php') && has('composer')) {
    const env = { ...process.env, COMPOSER_ALLOW_SUPERUSER: '1', COMPOSER_DISABLE_NETWORK: '1', COMPOSER_NO_INTERACTION: '1' };
    execFileSync('composer', ['config', 'platform-check', 'false'], { cwd: tree, env, stdio: 'ignore' });
    execFileSync('composer', ['dump-autoload', '--no-scripts', '--no-plugins'], { cwd: tree, env, stdio: 'ignore' });
    const names = [...new Set(classes.map((s) => s.specifier))];
    const truth = JSON.parse(execFileSync('php', [path.join(import.meta.dirname, 'languages', 'php_reference.php'), tree], { input: JSON.stringify(names), encoding: 'utf8', maxBuffer: 1 << 28 }));
    const ours = new Map();
    for (const s of classes) if (!ours.has(s.specifier)) ours.set(s.specifier, firstFile(s));
    r.truth = { tool: execFileSync('composer', ['--version'], { env, encoding: 'utf8' }).trim().split('\n')[0], names: names.length, ...agreement(ours, truth) };
  }
  return r;
}

async function ruby(tree, c) {
  const { ms, files } = build(tree);
  const all = statements(files, 'ruby');
  const requires = all.filter((s) => !(s.kind === 'lazy-import' && /^[A-Z]/.test(s.specifier)));
  const constants = all.filter((s) => s.kind === 'lazy-import' && /^[A-Z]/.test(s.specifier));
  const r = { corpus: `${c.repo}@${c.commit.slice(0, 7)}`, rubyFiles: Object.values(files).filter((f) => f.language === 'ruby').length, buildMs: ms, requires: shareOf(requires), constants: shareOf(constants) };
  if (c.loadPath && has('ruby')) {
    const lib = requires.filter((s) => c.loadPath.some((d) => s.from.startsWith(`${d}/`)));
    const truth = JSON.parse(
      execFileSync('ruby', [path.join(import.meta.dirname, 'languages', 'ruby_reference.rb'), tree, ...c.loadPath], { input: JSON.stringify(lib.map((s) => [s.from, s.kind, s.specifier])), encoding: 'utf8', maxBuffer: 1 << 28 }),
    );
    const ours = new Map(lib.map((s) => [`${s.from}\t${s.specifier}`, firstFile(s)]));
    r.truth = { tool: execFileSync('ruby', ['-v'], { encoding: 'utf8' }).trim(), statements: lib.length, ...agreement(ours, truth) };
  }
  return r;
}

async function csharp(tree, c) {
  const { ms, files } = build(tree);
  const all = statements(files, 'csharp');
  const usings = all.filter((s) => s.kind === 'import');
  // intra-project: a using that did not end at the framework or a package (what the project's namespaces declare)
  const intra = usings.filter((s) => s.targets.some((t) => t.resolved.kind === 'file' || t.resolved.kind === 'unresolved'));
  const own = all.filter((s) => s.kind === 'same-package');
  const edges = Object.values(files).flatMap((f) => f.imports.filter((i) => i.resolved.kind === 'file'));
  return {
    corpus: `${c.repo}@${c.commit.slice(0, 7)}`,
    csFiles: Object.values(files).filter((f) => f.path.endsWith('.cs')).length,
    projects: Object.values(files).filter((f) => f.path.endsWith('.csproj')).length,
    buildMs: ms,
    usings: usings.length,
    intra: shareOf(intra),
    ownNamespace: { files: own.length, bound: own.filter((s) => s.targets.some((t) => t.resolved.kind === 'file')).length },
    targets: { exact: edges.filter((i) => !i.inferred).length, inferred: edges.filter((i) => i.inferred).length },
    unresolvedSample: intra.filter((s) => s.targets.every((t) => t.resolved.kind === 'unresolved')).slice(0, 10).map((s) => `${s.from}: ${s.specifier} (${s.targets[0].resolved.reason})`),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const COMMENT = { php: '//', ruby: '#', csharp: '//', 'js/ts': '//' };
const OWN = { php: /\.php$/, ruby: /\.rb$/, csharp: /\.cs$/, 'js/ts': /\.[cm]?tsx?$/ };

/**
 * The edit path: in this process, updateIntel after appending a comment line to the file of the language with the
 * most direct dependents, `edits` times, interleaved with the same edit on a JS/TS tree (zod, bench/corpora.mjs);
 * the engine's own time (UpdateReport.engineMs), medians, the first edit of each a warm-up. One language at a time
 * beside zod: a process keeps the warm state of two projects (engine/src/pipeline/warm-state.ts), as the hook's
 * worker keeps its one, so interleaving all of them would measure a cold read of index.json on every edit. For C#
 * also an edit that declares a new type (and the next removes it): the path where the project is resolved again.
 */
async function editPath(trees, edits) {
  const engine = await import(OUR_ENGINE);
  const zod = getCorpus('zod');
  ensureCorpus(zod);
  const jsTree = path.join(WORK_DIR, 'scripting', 'zod');
  rmrf(jsTree);
  fs.cpSync(corpusDir('zod'), jsTree, { recursive: true, filter: (f) => !f.includes(`${path.sep}.planning`) });
  const all = { ...trees, 'js/ts': jsTree };
  const picked = {};
  for (const [name, tree] of Object.entries(all)) {
    await engine.buildIntel(tree, { cache: false });
    const reader = await engine.openIntel(tree);
    const records = JSON.parse(fs.readFileSync(engine.intelPaths(tree).index, 'utf8')).files;
    // a file that parses cleanly (one with a syntax error keeps its previous facts, so its edit would measure less)
    const top = engine.hotspots(reader, { limit: 100000 }).hotspots.filter((h) => OWN[name].test(h.path) && !/\.d\.[cm]?ts$/.test(h.path) && !records[h.path]?.syntaxError).sort((a, b) => b.direct - a.direct || (a.path < b.path ? -1 : 1))[0];
    reader.close();
    picked[name] = { file: top.path, direct: top.direct, times: [] };
  }
  const declaring = [];
  const ratios = {};
  for (const language of Object.keys(trees)) {
    const pair = [language, 'js/ts'];
    const js = [];
    for (let i = 0; i <= edits; i++) {
      for (const name of pair) {
        fs.appendFileSync(path.join(all[name], picked[name].file), `\n${COMMENT[name]} bench ${i}\n`);
        const r = await engine.updateIntel(all[name], [picked[name].file]);
        if (i > 0) (name === language ? picked[name].times : js).push(r.engineMs);
      }
      if (language === 'csharp') {
        const file = path.join(trees.csharp, picked.csharp.file);
        const text = fs.readFileSync(file, 'utf8');
        fs.writeFileSync(file, i % 2 ? text.replace(/\nnamespace BenchAdded \{ public class Added\d+ \{ \} \}\n/, '\n') : `${text}\nnamespace BenchAdded { public class Added${i} { } }\n`);
        const r = await engine.updateIntel(trees.csharp, [picked.csharp.file]);
        if (i > 0) declaring.push(r.engineMs);
      }
    }
    ratios[language] = median(picked[language].times) / median(js);
    picked['js/ts'].times.push(...js);
  }
  rmrf(jsTree);
  const out = Object.fromEntries(Object.entries(picked).map(([name, p]) => [name, { file: p.file, direct: p.direct, medianMs: median(p.times), ...(ratios[name] !== undefined && { ratio: ratios[name] }) }]));
  if (declaring.length) out.csharpDeclaring = median(declaring);
  return out;
}

const f4 = (x) => (Number.isFinite(x) ? x.toFixed(4) : '—');
const share = (s) => `${s.resolved} / ${s.statements} (${s.exact} exact, ${s.inferred} inferred, ${s.unresolved} unresolved)`;

function render(result) {
  const m = result.machine;
  const machine = `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadavg} at the start. Command: \`npm run build && node bench/languages-scripting.mjs\` (${result.date}); corpora are git snapshots at the commits named (bare clones in bench/.snapshots, made on first use, or \`--snapshots DIR\` holding \`<owner>+<name>/repo\` git directories); toolchains: ${result.tools.join(', ')}.`;
  const L = [];
  L.push('### PHP (bench/languages-scripting.mjs)', '');
  L.push("Class names (`use`, fully qualified, same-namespace) our parser read, against Composer's own `ClassLoader::findFile` after `composer dump-autoload` of the project's composer.json (`bench/languages/php_reference.php`, no engine code). Precision = agreeing exact targets / our exact targets; recall = agreeing / names Composer maps to a project file.", '');
  L.push('| corpus | .php files | class names resolved to a file | of them `use` | precision | recall | includes resolved | build |', '| --- | ---: | --- | --- | ---: | ---: | --- | ---: |');
  for (const r of result.php) L.push(`| ${r.corpus} | ${r.phpFiles} | ${share(r.classes)} | ${share(r.uses)} | ${f4(r.truth?.precision)} | ${f4(r.truth?.recall)} | ${share(r.includes)} | ${r.buildMs} ms |`);
  L.push('');
  for (const r of result.php) if (r.truth) L.push(`- ${r.corpus}: ${r.truth.names} distinct names; Composer maps ${r.truth.truthFiles} to project files, we agree on ${r.truth.shared} exactly${r.truth.inferredAgree ? ` and ${r.truth.inferredAgree} more by an inferred edge` : ''}; only ours: ${r.truth.onlyOurs.length ? r.truth.onlyOurs.slice(0, 3).map((x) => `\`${x}\``).join(', ') : 'none'}; only Composer's: ${r.truth.onlyTruth.length ? r.truth.onlyTruth.slice(0, 3).map((x) => `\`${x}\``).join(', ') : 'none'}.`);
  L.push('- Names left unresolved are classes of the project namespace that no file declares (test fixtures built at run time, removed classes); names outside every autoload prefix are external packages or PHP\'s own classes.', '');
  L.push('### Ruby (bench/languages-scripting.mjs)', '');
  L.push("`require` / `require_relative` / `autoload` / `load` statements, and constants (Zeitwerk-style, always inferred). On a gem, the statements of `lib/` against Ruby's own `$LOAD_PATH.resolve_feature_path` with the gem's `lib` first (`File.expand_path` for `require_relative`; `bench/languages/ruby_reference.rb`, no engine code).", '');
  L.push('| corpus | Ruby files | requires resolved to a file | precision | recall | constants resolved (inferred) | build |', '| --- | ---: | --- | ---: | ---: | --- | ---: |');
  for (const r of result.ruby) L.push(`| ${r.corpus} | ${r.rubyFiles} | ${share(r.requires)} | ${f4(r.truth?.precision)} | ${f4(r.truth?.recall)} | ${r.constants.resolved} / ${r.constants.statements} | ${r.buildMs} ms |`);
  L.push('');
  for (const r of result.ruby) if (r.truth) L.push(`- ${r.corpus}: ${r.truth.statements} statements of lib/; Ruby loads a project file for ${r.truth.truthFiles}, we agree on ${r.truth.shared}; only ours: ${r.truth.onlyOurs.length ? r.truth.onlyOurs.slice(0, 3).map((x) => `\`${x}\``).join(', ') : 'none'}; only Ruby's: ${r.truth.onlyTruth.length ? r.truth.onlyTruth.slice(0, 3).map((x) => `\`${x}\``).join(', ') : 'none'}.`);
  L.push('- Requires left unresolved or external are gems and the standard library; a constant no project file matches (a gem\'s, Ruby\'s, one defined inside another file) is external.', '');
  L.push('### C# (bench/languages-scripting.mjs)', '');
  L.push("The share resolved (against the compiler: the next subsection, bench/languages-csharp.mjs). A using names a project namespace when some project file declares it; it is bound exactly to the files that declare a type the file uses, and to those whose static classes declare an extension method the file calls (exact when one file of the file's scope declares the name, else inferred), or is unresolved (no type used, no extension method called: an unused using as far as the text shows). Own namespace: the file's namespace, its parents and the project's global usings bind at least one type the file uses to another file.", '');
  L.push('| corpus | .cs files | .csproj | usings | project usings bound to a file | own namespace bound | exact / inferred targets | build |', '| --- | ---: | ---: | ---: | --- | --- | --- | ---: |');
  for (const r of result.csharp) L.push(`| ${r.corpus} | ${r.csFiles} | ${r.projects} | ${r.usings} | ${share(r.intra)} | ${r.ownNamespace.bound} / ${r.ownNamespace.files} files | ${r.targets.exact} / ${r.targets.inferred} | ${r.buildMs} ms |`);
  L.push('');
  for (const r of result.csharp) if (r.unresolvedSample.length) L.push(`- ${r.corpus}, unresolved: ${r.unresolvedSample.slice(0, 3).map((x) => `\`${x}\``).join('; ')}.`);
  if (result.edits) {
    const e = result.edits;
    const one = (name, label) => `${label}, \`${e[name].file}\` (${e[name].direct} direct dependents) ${e[name].medianMs.toFixed(1)} ms (${e[name].ratio.toFixed(2)}× the JS/TS edits interleaved with it)`;
    L.push('', `One-file edit (a comment appended), engine time of \`updateIntel\` in one process, ${e.count} edits each interleaved with the same edit of zod's \`${e['js/ts'].file}\` (JS/TS, ${e['js/ts'].direct} direct dependents, ${e['js/ts'].medianMs.toFixed(1)} ms), medians: ${[e.php && one('php', 'PHP'), e.ruby && one('ruby', 'Ruby'), e.csharp && one('csharp', 'C#')].filter(Boolean).join('; ')}.${e.csharpDeclaring !== undefined ? ` A C# edit that declares or removes a type (a new resolver, every import of the project resolved again): ${e.csharpDeclaring.toFixed(1)} ms.` : ''}`);
  }
  L.push('', machine, '');
  return L.join('\n');
}

async function main() {
  const { opts: args } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  const tools = [];
  if (has('php')) tools.push(execFileSync('php', ['-r', 'echo "PHP ", PHP_VERSION;'], { encoding: 'utf8' }));
  if (has('composer')) tools.push(execFileSync('composer', ['--version'], { encoding: 'utf8', env: { ...process.env, COMPOSER_ALLOW_SUPERUSER: '1' } }).trim().split('\n')[0].replace(/ \d{4}-.*$/, ''));
  if (has('ruby')) tools.push(execFileSync('ruby', ['-v'], { encoding: 'utf8' }).trim().replace(/ \(.*$/, ''));
  const result = { date: new Date().toISOString().slice(0, 10), machine: machineInfo(), tools, php: [], ruby: [], csharp: [] };
  const editTrees = {};
  for (const [language, run] of [['php', php], ['ruby', ruby], ['csharp', csharp]]) {
    for (const c of CORPORA[language]) {
      const tree = exportSnapshot(args.snapshots, c, PATHS[language], path.join(WORK_DIR, 'scripting', c.repo.replace('/', '+')));
      const r = await run(tree, c);
      result[language].push(r);
      log(JSON.stringify({ ...r, truth: r.truth ? { ...r.truth, onlyOurs: r.truth.onlyOurs.slice(0, 15), onlyTruth: r.truth.onlyTruth.slice(0, 15) } : undefined }, null, 2));
      if (c.edits && args.edits > 0) editTrees[language] = tree;
      else rmrf(tree);
    }
  }
  if (Object.keys(editTrees).length) {
    result.edits = { count: args.edits, ...(await editPath(editTrees, args.edits)) };
    log(JSON.stringify(result.edits));
    for (const tree of Object.values(editTrees)) rmrf(tree);
  }
  writeJson(path.join(WORK_DIR, 'languages-scripting.json'), result);
  if (args.write) writeResultsSection('<!-- languages-scripting:start -->', '<!-- languages-scripting:end -->', `<!-- languages-scripting:start -->\n${render(result)}<!-- languages-scripting:end -->`, 'PHP, Ruby and C#');
  else log(render(result));
}

runMain(main);
