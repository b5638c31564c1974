#!/usr/bin/env node
// Java: our edges against javac's own name resolution, on real code: modules of the JDK's own source (src.zip).
//
// Truth: `bench/languages/JavaReferences.java`, compiled here with the machine's javac (JDK 17): it parses and
// attributes the corpus through the compiler's API (com.sun.source: JavacTask.analyze) and prints, for every simple
// or qualified name javac resolves to a type (import statements, declarations, expressions, annotations, static
// imports' classes), the pair (file, file declaring that type's top-level type) when the type comes from the
// corpus's source. No engine code. Ours: graph.db's edges between `.java` files after a cold `intel build`, every
// kind (`import`, `same-package`). Precision = shared / ours, recall = shared / truth, over (file, file) pairs.
//
// Corpora:
// - jdk: modules of the JDK 17 source (`apt-get install -y openjdk-17-source`), as src.zip lays them out
//   (`<module>/<package path>/X.java`, no build file: the roots are inferred); javac compiles them as modules
//   (`--module-source-path`), so the truth has no compile error; java.base and the modules not copied come from
//   the JDK image (external for both sides).
// - jdk-maven: the same sources as a Maven multi-module build (`<module>/src/main/java`, a parent pom.xml with
//   `<modules>`): the declared-root rules on the same truth.
// - `--projects DIR,…`: Maven or Gradle projects (e.g. checkouts of gson and mockito), compiled one module at a time
//   (its src/*/java files, every module's non-test roots on the source path); dependencies missing from the class
//   path are compile errors (counted) that leave the project's own names resolved.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { BENCH_DIR, OUR_CLI, WORK_DIR, log, machineInfo, mkdirp, parseArgs, rmrf, runMain, writeJson } from './lib/common.mjs';
import { editBesideJs, scaleBesideJs } from './lib/language-speed.mjs';
import { coldBuildRows } from './lib/our-edges.mjs';
import { writeResultsSection } from './lib/write-results.mjs';

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';
const MODULES = ['java.sql', 'java.sql.rowset', 'java.transaction.xa', 'java.logging', 'java.net.http', 'java.naming', 'java.management', 'java.rmi', 'java.compiler', 'jdk.compiler', 'jdk.javadoc', 'jdk.jshell', 'jdk.jdeps', 'jdk.httpserver'];
const USAGE = 'node bench/languages-java.mjs [--edits N] [--scale N] [--projects DIR,… [--labels name=text,…]] [--no-write]';
const SPEC = {
  edits: { type: 'number', default: 20, help: 'one-file edits in the JDK tree and in zod (0: none)' },
  scale: { type: 'number', default: 5, help: 'copies of the JDK tree in the memory comparison, against 12 of zod (0: none)' },
  projects: { type: 'string', default: '', help: 'also measure these Maven or Gradle projects (folders, comma-separated)' },
  labels: { type: 'string', default: '', help: 'what each folder holds, for RESULTS.md: `name=text,…` by folder name (a project and its commit)' },
  write: { type: 'boolean', default: true, help: 'replace the Java subsection of bench/RESULTS.md' },
};

function listJava(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.planning' || e.name === 'target' || e.name === '.git') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.java')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** javac's pairs for one compilation: `options` then the files (absolute), through JavaReferences; and its error count. */
function javacPairsCounted(classes, options, files, tree) {
  const errFile = path.join(WORK_DIR, 'java-references.err');
  const args = ['-cp', classes, 'JavaReferences', '-Xmaxerrs', '1000000', ...options, '--', ...files];
  const fd = fs.openSync(errFile, 'w');
  let stdout;
  try {
    stdout = execFileSync('java', args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', fd] });
  } finally {
    fs.closeSync(fd);
  }
  const errors = Number(/errors (\d+)/.exec(fs.readFileSync(errFile, 'utf8'))?.[1] ?? 0);
  const rel = (p) => path.relative(tree, p).split(path.sep).join('/');
  const pairs = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t').map(rel).join(' -> '));
  return { pairs, errors };
}

/** Our (file, file) pairs between .java files and the import statements' fate, after a cold build. */
async function ours(tree) {
  const { rows, pathOf, buildMs } = await coldBuildRows(tree);
  const pairs = new Set();
  const inferred = new Set();
  for (const e of rows.edges) {
    const s = pathOf.get(e.source);
    const t = pathOf.get(e.target);
    if (!s.endsWith('.java') || !t.endsWith('.java')) continue;
    pairs.add(`${s} -> ${t}`);
    if (!e.exact) inferred.add(`${s} -> ${t}`);
  }
  // import statements (the `import …;` lines; fully-qualified names in code and same-package records are not statements)
  const index = JSON.parse(fs.readFileSync(path.join(tree, '.planning', 'intel', 'index.json'), 'utf8'));
  const statements = { total: 0, file: 0, unresolved: 0, builtin: 0, external: 0, asset: 0 };
  const unresolved = [];
  for (const r of Object.values(index.files)) {
    if (r.language !== 'java') continue;
    const lines = fs.readFileSync(path.join(tree, r.path), 'utf8').split('\n');
    for (const i of r.imports) {
      if (i.part || i.kind !== 'import' || !/^\s*import\s/.test(lines[i.line - 1] ?? '')) continue;
      statements.total++;
      statements[i.resolved.kind]++;
      if (i.resolved.kind === 'unresolved') unresolved.push(`${r.path}: ${i.specifier} (${i.resolved.reason})`);
    }
  }
  return { pairs, inferred, buildMs: Math.round(buildMs), files: rows.nodes.filter((n) => n.path.endsWith('.java')).length, statements, unresolved };
}

function compare(name, description, truth, errors, o) {
  const t = new Set(truth);
  const shared = [...o.pairs].filter((x) => t.has(x)).length;
  return {
    name,
    description,
    files: o.files,
    compileErrors: errors,
    pairs: { ours: o.pairs.size, truth: t.size, shared },
    precision: shared / o.pairs.size,
    recall: shared / t.size,
    inferredEdges: o.inferred.size,
    inferredWrong: [...o.inferred].filter((x) => !t.has(x)).length,
    statements: o.statements,
    unresolved: o.unresolved,
    buildMs: o.buildMs,
    onlyOurs: [...o.pairs].filter((x) => !t.has(x)).sort(),
    onlyTruth: [...t].filter((x) => !o.pairs.has(x)).sort(),
  };
}

async function jdkCorpora(classes) {
  if (!fs.existsSync(SRC_ZIP)) throw new Error(`${SRC_ZIP} is missing: apt-get install -y openjdk-17-source`);
  const flat = path.join(WORK_DIR, 'java-jdk');
  rmrf(flat);
  mkdirp(flat);
  execFileSync('unzip', ['-q', SRC_ZIP, ...MODULES.map((m) => `${m}/*`), '-d', flat]);
  const files = listJava(flat);
  const truth = javacPairsCounted(classes, ['-d', path.join(WORK_DIR, 'java-jdk-classes'), '--module-source-path', flat], files, flat);
  const out = [compare('jdk', `JDK 17 modules as src.zip lays them out (${MODULES.join(', ')}); roots inferred`, truth.pairs, truth.errors, await ours(flat))];

  // the same sources as a Maven multi-module build
  const maven = path.join(WORK_DIR, 'java-jdk-maven');
  rmrf(maven);
  for (const m of MODULES) {
    fs.cpSync(path.join(flat, m), path.join(maven, m, 'src', 'main', 'java'), { recursive: true, filter: (f) => !f.includes('.planning') });
    fs.writeFileSync(path.join(maven, m, 'pom.xml'), `<project><modelVersion>4.0.0</modelVersion><artifactId>${m}</artifactId></project>\n`);
  }
  fs.writeFileSync(path.join(maven, 'pom.xml'), `<project><modelVersion>4.0.0</modelVersion><artifactId>jdk</artifactId><packaging>pom</packaging><modules>\n${MODULES.map((m) => `  <module>${m}</module>\n`).join('')}</modules></project>\n`);
  const moved = (p) => p.replace(/^([^/]+)\//, '$1/src/main/java/');
  const mapped = truth.pairs.map((x) => x.split(' -> ').map(moved).join(' -> '));
  out.push(compare('jdk-maven', 'the same sources as a Maven multi-module build (`<module>/src/main/java`, a parent pom.xml with `<modules>`)', mapped, truth.errors, await ours(maven)));
  rmrf(maven);
  return { corpora: out, flat };
}

async function projectCorpus(classes, dir, label) {
  const tree = path.join(WORK_DIR, 'java-project');
  rmrf(tree);
  fs.cpSync(dir, tree, { recursive: true, filter: (f) => !/\/(\.git|\.planning|target)(\/|$)/.test(f) });
  const files = listJava(tree).filter((f) => !f.endsWith('module-info.java'));
  const rootOf = (f) => /^(.*\/src\/[^/]+\/java[^/]*)\//.exec(f)?.[1];
  const roots = [...new Set(files.map(rootOf).filter(Boolean))].sort();
  const mainRoots = roots.filter((r) => !/\/src\/test\/java/.test(r));
  const moduleOf = (r) => r.replace(/\/src\/[^/]+\/java[^/]*$/, '');
  const truth = [];
  let errors = 0;
  for (const mod of [...new Set(roots.map(moduleOf))]) {
    const own = files.filter((f) => rootOf(f) && moduleOf(rootOf(f)) === mod);
    const r = javacPairsCounted(classes, ['-d', path.join(WORK_DIR, 'java-project-classes'), '-sourcepath', [...roots.filter((x) => moduleOf(x) === mod), ...mainRoots].join(':')], own, tree);
    truth.push(...r.pairs);
    errors += r.errors;
  }
  const build = fs.existsSync(path.join(dir, 'pom.xml')) ? 'Maven' : 'Gradle';
  const result = compare(path.basename(dir), `${label || path.basename(dir)}: ${roots.length} source roots in ${new Set(roots.map(moduleOf)).size} ${build} modules, compiled one module at a time without its dependencies (javac's errors are theirs: libraries not on the class path)`, truth, errors, await ours(tree));
  rmrf(tree);
  return result;
}

function render(out) {
  const f = (x) => x.toFixed(4);
  const L = ['<!-- languages-java:start -->', '### Java (bench/languages-java.mjs)', ''];
  L.push(
    "Our file-to-file edges between `.java` files (graph.db, kinds `import` and `same-package`) against javac's own name resolution: `bench/languages/JavaReferences.java` attributes the corpus with the compiler's API (JDK 17 `javac`, `JavacTask.analyze`) and lists, for every name javac resolves to a type (imports, static imports' classes, declarations, expressions, annotations), the file declaring that type's top-level type when it is in the corpus. No engine code. Pairs are (file, file); precision = shared / ours, recall = shared / javac.",
    '',
  );
  L.push('| corpus | .java files | javac errors | pairs ours / javac | precision | recall | inferred edges (not in javac) | import statements: to a file / unused package / unresolved / JDK / external | intra-project statements resolved |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const a of out.corpora) {
    const st = a.statements;
    const share = (st.file + st.asset) / (st.file + st.asset + st.unresolved);
    L.push(`| ${a.name} | ${a.files} | ${a.compileErrors} | ${a.pairs.ours} / ${a.pairs.truth} | ${f(a.precision)} | ${f(a.recall)} | ${a.inferredEdges} (${a.inferredWrong}) | ${st.file} / ${st.asset} / ${st.unresolved} / ${st.builtin} / ${st.external} | ${f(share)} |`);
  }
  L.push('');
  for (const a of out.corpora) {
    L.push(`- ${a.name}: ${a.description}. Cold build ${a.buildMs} ms.${a.unresolved.length ? ` Unresolved statements (${a.unresolved.length}), e.g. \`${a.unresolved[0]}\`.` : ''}`);
    if (a.onlyOurs.length || a.onlyTruth.length) L.push(`  Pairs only one side has (first of each): ${[...a.onlyOurs.slice(0, 3).map((e) => `ours \`${e}\``), ...a.onlyTruth.slice(0, 3).map((e) => `javac \`${e}\``)].join('; ')}.`);
  }
  L.push(
    "- What the two sides count differently: a member type a class inherits (JLS 8.5) is followed when the code names it by its simple name (`Kind` declared in a supertype's file, through any depth of supertypes), not when it is qualified by a subtype (`JCLambda.BodyKind`, `BodyKind` declared in an interface JCLambda implements) or reached through a static import; javac also reaches a class whose name starts lower-case used only as a qualifier (`ldapURLContextFactory.m()`); we read names as written. An `import a.b.*` from which the file uses no type by its simple name (unused, or serving only Javadoc) is no edge on either side: we record it as the package's folder (`unused package`). A type named only in Javadoc is neither side's.",
  );
  if (out.edits) {
    const e = out.edits;
    L.push('', `One-file edit, engine time of \`updateIntel\` in one process (${e.count} edits each, interleaved, medians): Java, \`${e.java.file}\` of the jdk tree (${e.java.direct} direct dependents) ${e.java.medianMs.toFixed(1)} ms; JS/TS, \`${e['js/ts'].file}\` of zod (${e['js/ts'].direct} direct dependents) ${e['js/ts'].medianMs.toFixed(1)} ms; ratio Java / JS/TS ${(e.java.medianMs / e['js/ts'].medianMs).toFixed(2)}.`);
  }
  if (out.scale) {
    const c = out.scale;
    L.push('', `Memory at scale, cold build (\`intel build --no-cache\`), peak RSS (max of 2) and wall (min of 2), ${c.method}: Java, ${c.copies} copies of the jdk tree, ${c.java.files} files (${c.java.sourceMB.toFixed(0)} MB of source) ${c.java.maxRssMB.toFixed(0)} MB, ${(c.java.wallMs / 1000).toFixed(1)} s; JS/TS, ${c.jsCopies} copies of zod, ${c['js/ts'].files} files (${c['js/ts'].sourceMB.toFixed(0)} MB) ${c['js/ts'].maxRssMB.toFixed(0)} MB, ${(c['js/ts'].wallMs / 1000).toFixed(1)} s; peak RSS ratio Java / JS/TS ${(c.java.maxRssMB / c['js/ts'].maxRssMB).toFixed(2)} for as many files, ${((c.java.maxRssMB / c.java.sourceMB) / (c['js/ts'].maxRssMB / c['js/ts'].sourceMB)).toFixed(2)} per MB of source. Most of the Java build's wall time is tree-sitter's parse of large files (the JDK's average ${((c.java.sourceMB * 1024) / c.java.files).toFixed(1)} KB).`);
  }
  L.push('', 'Cold build beside codegraph and GitNexus on JDK 17 modules: "Beside the peers" (bench/languages-peers.mjs).');
  const m = out.machine;
  L.push('', `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadavg} at the start; ${out.javac}. Command: \`npm run build && node bench/languages-java.mjs${out.projectsArg}\` (${out.date}); needs the machine's JDK 17 and its source (\`apt-get install -y openjdk-17-jdk openjdk-17-source\`).`, '', '<!-- languages-java:end -->');
  return L.join('\n');
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  if (!fs.existsSync(OUR_CLI)) throw new Error('run npm run build first');
  const machine = machineInfo();
  const classes = mkdirp(path.join(WORK_DIR, 'java-references'));
  execFileSync('javac', ['-d', classes, path.join(BENCH_DIR, 'languages', 'JavaReferences.java')]);
  const { corpora, flat } = await jdkCorpora(classes);
  const labels = Object.fromEntries(opts.labels.split(',').filter(Boolean).map((l) => l.split('=')));
  for (const dir of opts.projects.split(',').filter(Boolean)) corpora.push(await projectCorpus(classes, path.resolve(dir), labels[path.basename(dir)]));
  const work = mkdirp(path.join(WORK_DIR, 'languages-java'));
  const edits = opts.edits > 0 ? { count: opts.edits, ...(await editBesideJs({ name: 'java', tree: flat, own: (p) => p.endsWith('.java'), comment: (i) => `\n// bench ${i}\n` }, opts.edits, work)) } : null;
  const scale = opts.scale > 0 ? await scaleBesideJs('java', flat, opts.scale, work, 12) : null;
  rmrf(flat);
  const out = {
    edits,
    scale,
    date: new Date().toISOString().slice(0, 10),
    javac: execFileSync('javac', ['-version'], { encoding: 'utf8' }).trim(),
    projectsArg: opts.projects ? ' --projects DIR,…' : '',
    corpora,
    machine,
  };
  writeJson(path.join(WORK_DIR, 'languages-java.json'), out);
  for (const r of corpora) log(JSON.stringify({ ...r, onlyOurs: r.onlyOurs.slice(0, 15), onlyTruth: r.onlyTruth.slice(0, 15), unresolved: r.unresolved.slice(0, 10) }, null, 2));
  if (opts.write) writeResultsSection('<!-- languages-java:start -->', '<!-- languages-java:end -->', render(out), 'Languages: Java');
});
