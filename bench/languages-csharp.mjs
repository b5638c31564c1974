#!/usr/bin/env node
// C#: our file-to-file edges against the C# compiler's own binding, on a real library the machine's Mono compiles.
//
// Truth (the machine's Mono: `apt-get install -y mono-devel libmono-cecil-cil-dev`; mcs 6.8, C# up to about 7):
//   1. mcs compiles the project's .cs files (every file under the project folder, as an SDK-style project globs
//      them) with the defines of one target framework of its .csproj, `-debug`: one assembly and its .mdb symbols.
//   2. bench/languages/csharp_reference.cs (built here with mcs against Mono.Cecil) reads that assembly: every type
//      a method body's IL, locals, signature and attributes refer to, placed at the file of the body's sequence
//      points; every type the metadata outside bodies refers to (base types, interfaces, fields, properties, events,
//      attributes, constraints), placed at the files declaring the type that holds it.
//   3. Which files declare a type: a probe compile, the project plus one line `T.__probe();` per type, where mcs
//      answers every line with an error and "(Location of the symbol related to previous error)": the declaring
//      file, from the compiler (interfaces and enums have no code to carry sequence points); plus the files holding
//      the type's code (the parts of a partial type).
//   4. Drop-one compiles: each file B left out in turn, the rest compiled; a file A mcs reports an error in depends on
//      B. This checks the reading of 2-3, and adds what an assembly keeps no trace of (a constant or enum member the
//      compiler copies into A, a base type of A's base, the other part of a partial type).
//   A truth pair (A, B): code compiled from A refers to a type B declares, or A does not compile without B; A ≠ B. Pairs of a partial type's
//   declaration-level references (fields, bases, attributes) cannot be placed in one part: they are left out of
//   both sides and counted.
// Ours: `intel build --no-cache` of the same tree, edges .cs → .cs of every kind from index.json (exact or inferred).
// Labels of the disagreements read A's text (comments and strings blanked, inactive #if branches cut with the same
// defines); they label, never decide.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { OUR_CLI, WORK_DIR, log, machineInfo, parseArgs, rmrf, runMain, writeJson } from './lib/common.mjs';
import { writeResultsSection } from './lib/write-results.mjs';
import { exportSnapshot, SNAPSHOTS_OPTION } from './lib/snapshots.mjs';

const USAGE = 'Usage: node bench/languages-csharp.mjs [--snapshots DIR] [--drop N] [--no-write]';
const SPEC = {
  snapshots: SNAPSHOTS_OPTION,
  write: { type: 'boolean', default: true, help: 'replace the C# truth block of bench/RESULTS.md' },
  drop: { type: 'number', default: 0, help: 'files dropped one at a time to check the reading (0: every file; each is a compile of the rest)' },
};

const CECIL = '/usr/lib/mono-cecil';

const FRAMEWORK_REFS = ['System.dll', 'System.Core.dll', 'System.Xml.dll', 'System.Xml.Linq.dll', 'System.Data.dll', 'System.Runtime.Serialization.dll', 'System.Numerics.dll', 'Microsoft.CSharp.dll', 'System.ComponentModel.DataAnnotations.dll'];
// doc-comment and obsolete warnings, and the restore of them
const NOWARN = '-nowarn:1591,618,612,1570,1572,1573,1574,1584,1580,1581,436,1635';

const CORPORA = [
  // the last release whose C# mcs compiles (11.x uses C# 8 syntax); net45, the framework Mono implements
  { repo: 'JamesNK/Newtonsoft.Json', tag: '10.0.3', project: 'Src/Newtonsoft.Json', csproj: 'Newtonsoft.Json.csproj', framework: 'net45' },
];

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

function exportProject(snapshots, c) {
  const escaped = c.project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tree = exportSnapshot(snapshots, { repo: c.repo, commit: c.tag }, new RegExp(`^${escaped}/.*\\.(cs|csproj)$`), path.join(WORK_DIR, 'csharp', c.repo.replace('/', '+')));
  c.commit = execFileSync('git', ['--git-dir', path.join(snapshots, c.repo.replace('/', '+'), 'repo'), 'rev-parse', `${c.tag}^{commit}`], { encoding: 'utf8' }).trim();
  return tree;
}

/** The DefineConstants of one target framework in an SDK-style .csproj. */
function definesOf(csprojText, framework) {
  const m = new RegExp(`'\\$\\(TargetFramework\\)'\\s*==\\s*'${framework.replace(/\./g, '\\.')}'\\s*">[^]*?<DefineConstants>([^<]*)`).exec(csprojText);
  if (!m) throw new Error(`no DefineConstants for ${framework}`);
  return m[1].split(';').filter((d) => d && !d.startsWith('$('));
}

function mcs(args, cwd) {
  const r = spawnSync('mcs', ['-langversion:experimental', '-target:library', NOWARN, ...FRAMEWORK_REFS.map((x) => `-r:${x}`), ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

/** The compiler's pairs for one project folder. */
function compilerTruth(tree, c, defines, tmp, dropSample) {
  const projectDir = path.join(tree, c.project);
  const files = execFileSync('find', ['.', '-name', '*.cs', '-not', '-path', './obj/*', '-not', '-path', './bin/*'], { cwd: projectDir, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  fs.writeFileSync(path.join(tmp, 'files.rsp'), files.join('\n'));
  const d = `-d:${defines.join(';')}`;
  const t0 = performance.now();
  const full = mcs(['-debug', d, `-out:${path.join(tmp, 'project.dll')}`, `@${path.join(tmp, 'files.rsp')}`], projectDir);
  const compileMs = Math.round(performance.now() - t0);
  if (!full.ok) throw new Error(`mcs did not compile ${c.repo}@${c.tag}:\n${full.out.split('\n').filter((l) => l.includes('error')).slice(0, 20).join('\n')}`);
  const tool = path.join(tmp, 'csharp_reference.exe');
  const built = spawnSync('mcs', ['-target:exe', `-r:${CECIL}/Mono.Cecil.dll`, `-r:${CECIL}/Mono.Cecil.Mdb.dll`, `-out:${tool}`, path.join(import.meta.dirname, 'languages', 'csharp_reference.cs')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`csharp_reference.cs: ${built.stdout}${built.stderr}`);
  for (const dll of ['Mono.Cecil.dll', 'Mono.Cecil.Mdb.dll']) fs.copyFileSync(path.join(CECIL, dll), path.join(tmp, dll));
  const lines = execFileSync('mono', [tool, path.join(tmp, 'project.dll')], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n').filter(Boolean).map((l) => l.split('\t'));
  const rel = (p) => path.relative(tree, path.resolve(projectDir, p)).split(path.sep).join('/');
  const types = new Map(); // full name → { probe, kind, files: Set, constants: Set }
  for (const [tag, a, b, k] of lines) {
    if (tag === 'T') types.set(a, { probe: b, kind: k, files: new Set(), constants: new Set() });
  }
  for (const [tag, a, b] of lines) {
    if (tag === 'S' && types.has(a)) types.get(a).files.add(rel(b));
    if (tag === 'C' && types.has(a)) types.get(a).constants.add(b);
  }
  // the probe compile: the compiler names each type's declaring file
  const names = [...types.keys()];
  fs.writeFileSync(path.join(tmp, 'probe.cs'), names.map((n, i) => `static class __Probe${i} { static void M() { ${types.get(n).probe}.__probe(); } }`).join('\n') + '\n');
  const probe = mcs([d, `-out:${path.join(tmp, 'probe.dll')}`, `@${path.join(tmp, 'files.rsp')}`, path.join(tmp, 'probe.cs')], projectDir);
  let current = null;
  let located = 0;
  for (const l of probe.out.split('\n')) {
    const e = /probe\.cs\((\d+),\d+\): error/.exec(l);
    if (e) current = names[Number(e[1]) - 1];
    else if (current && /\(Location of the symbol related to previous error\)/.test(l)) {
      const file = /^(.*?)\(\d+,\d+\):/.exec(l)?.[1];
      if (file && !file.endsWith('probe.cs') && !file.endsWith('.dll')) {
        const t = types.get(current);
        if (!t.probed) located++;
        t.probed = true;
        t.files.add(rel(file));
      }
    } else if (!/^\s/.test(l)) current = null;
  }
  // pairs, with what carries them
  const pairs = new Map(); // "A\tB" → { via: Set<type>, placed: boolean }
  const partialOnly = new Set();
  const add = (a, target, placed) => {
    for (const b of types.get(target)?.files ?? []) {
      if (a === b) continue;
      const k = `${a}\t${b}`;
      const p = pairs.get(k) ?? { via: new Set(), placed: false };
      p.via.add(target);
      p.placed ||= placed;
      pairs.set(k, p);
    }
  };
  for (const [tag, from, target] of lines) {
    if (tag !== 'R') continue;
    if (from.startsWith('@')) {
      const owner = types.get(from.slice(1));
      for (const a of owner?.files ?? []) add(a, target, owner.files.size === 1);
    } else add(rel(from), target, true);
  }
  for (const [k, p] of pairs) if (!p.placed) (partialOnly.add(k), pairs.delete(k));
  // a check of the reading above by the compiler alone: drop one file B, compile the rest; every other file mcs
  // reports an error in depends on B (mcs stops at the first phase with errors, so these are some of B's dependents)
  const dropped = [];
  const step = Math.max(1, Math.ceil(files.length / Math.min(dropSample || files.length, files.length)));
  for (let i = 0; i < files.length; i += step) {
    const b = files[i];
    fs.writeFileSync(path.join(tmp, 'drop.rsp'), files.filter((f) => f !== b).join('\n'));
    const out = mcs([d, `-out:${path.join(tmp, 'drop.dll')}`, `@${path.join(tmp, 'drop.rsp')}`], projectDir).out;
    const failing = new Set([...out.matchAll(/^(.+?)\(\d+,\d+\): error CS\d+/gm)].map((m) => rel(m[1])));
    for (const a of failing) if (a !== rel(b)) dropped.push(`${a}\t${rel(b)}`);
  }
  // what only the drop-one compiles show (constants the compiler copies, a base's base, a partial type's other part) joins the truth
  for (const k of dropped) {
    if (pairs.has(k)) continue;
    partialOnly.delete(k);
    pairs.set(k, { via: new Set(), placed: true, dropOnly: true });
  }
  return { files: files.map(rel), types, pairs, partialOnly, located, compileMs, dropped, dropSample: Math.ceil(files.length / step) };
}

function ourPairs(tree) {
  rmrf(path.join(tree, '.planning'));
  const t0 = performance.now();
  execFileSync(process.execPath, [OUR_CLI, 'intel', 'build', tree, '--no-cache'], { stdio: 'ignore' });
  const buildMs = Math.round(performance.now() - t0);
  const index = JSON.parse(fs.readFileSync(path.join(tree, '.planning', 'intel', 'index.json'), 'utf8'));
  const pairs = new Map(); // "A\tB" → { exact, kinds: Set, names: Set }
  for (const f of Object.values(index.files)) {
    if (!f.path.endsWith('.cs')) continue;
    for (const i of f.imports) {
      if (i.resolved.kind !== 'file' || !i.resolved.path.endsWith('.cs') || i.resolved.path === f.path) continue;
      const k = `${f.path}\t${i.resolved.path}`;
      const p = pairs.get(k) ?? { exact: false, kinds: new Set(), names: new Set() };
      p.exact ||= !i.inferred;
      p.kinds.add(i.kind);
      for (const n of i.names ?? []) p.names.add(n);
      pairs.set(k, p);
    }
  }
  return { pairs, buildMs };
}

/** A's text as the build compiles it: comments and strings blanked, branches of #if the defines leave out removed. */
function activeText(file, defines) {
  const text = fs.readFileSync(file, 'utf8').replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|@"(?:[^"]|"")*"|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => (m.startsWith('/') ? m.replace(/[^\n]/g, ' ') : '""'));
  const on = new Set(defines);
  const evalCond = (expr) => {
    const js = expr.replace(/\/\/.*$/, '').replace(/\b(true|false)\b|[A-Za-z_]\w*/g, (w) => (w === 'true' || w === 'false' ? w : on.has(w) ? 'true' : 'false'));
    return !!Function(`return (${js});`)();
  };
  const out = [];
  const stack = []; // { active, taken, parent }
  const active = () => stack.every((s) => s.active);
  for (const line of text.split('\n')) {
    const m = /^\s*#\s*(if|elif|else|endif)\b(.*)$/.exec(line);
    if (m) {
      if (m[1] === 'if') {
        const v = evalCond(m[2]);
        stack.push({ active: v, taken: v });
      } else if (m[1] === 'elif') {
        const s = stack[stack.length - 1];
        const v = !s.taken && evalCond(m[2]);
        s.active = v;
        s.taken ||= v;
      } else if (m[1] === 'else') {
        const s = stack[stack.length - 1];
        s.active = !s.taken;
        s.taken = true;
      } else stack.pop();
      out.push('');
      continue;
    }
    out.push(active() ? line : '');
  }
  return { all: text, active: out.join('\n') };
}

const UNNAMED = "missed: A uses a type of B without naming it (`var`, a member's type, an inherited member)";
const simple = (full) => full.split(/[./]/).pop().replace(/`\d+$/, '');

/** Why a pair is on one side only, read from A's text (a label, not a verdict). */
function label(side, a, b, truth, tree, defines, ours) {
  const text = activeText(path.join(tree, a), defines);
  const declared = [...truth.types].filter(([, t]) => t.files.has(b));
  const named = (src, n) => new RegExp(`(?<![\\w.])${n}(?!\\w)|(?<=\\busing\\s+static\\s+[\\w.]*)\\b${n}\\b`).test(src);
  if (side === 'truth') {
    const via = [...truth.pairs.get(`${a}\t${b}`).via];
    if (!via.length) return 'missed: only the compile without B shows it (a constant A copies, a base type of its base, a partial type\'s other part)';
    if (via.some((t) => named(text.active, simple(t)))) return `missed: A names a type of B it uses`;
    if (via.every((t) => truth.types.get(t)?.kind === 'static')) return 'missed: B is a static class A never names (extension methods)';
    return UNNAMED;
  }
  const p = ours.pairs.get(`${a}\t${b}`);
  const compiled = new Set(declared.map(([full]) => simple(full)));
  if (!p.exact) return 'extra: inferred (a static class of a namespace A imports, for its extension methods), not used';
  if (![...p.names].some((n) => compiled.has(n))) {
    // the names of an extension-method edge are methods: A calls one in this build's text, and the call binds something else
    const called = [...p.names].some((n) => new RegExp(`\\.\\s*${n}\\s*(<[^;()]*>)?\\s*\\(`).test(text.active));
    if (called && declared.some(([, t]) => t.kind === 'static')) return 'extra: A calls a method of the name B declares as an extension method, and the compiler binds the call elsewhere (an instance method, another class\'s extension)';
    return 'extra: B declares the name we bound only in #if branches this build leaves out (a polyfill for another framework)';
  }
  const names = declared.map(([full]) => simple(full)).filter((n) => p.names.has(n) || p.names.has('*'));
  if (names.length && !names.some((n) => named(text.active, n))) return "extra: B's types are named in A only in #if branches this build leaves out";
  if (names.length && names.every((n) => declared.filter(([full]) => simple(full) === n).every(([full]) => full.includes('/')))) return "extra: the name is a type nested in one of B's types (seen only through it or a subclass), bound as a member of B's namespace";
  if (names.length) {
    // every use of the name is T.Member of a constant (enum member, const) or inside nameof(): the compiler keeps no reference
    const inlined = names.every((n) => {
      const uses = [...text.active.matchAll(new RegExp(`(?<![\\w.])${n}(?!\\w)(\\s*\\.\\s*(\\w+))?`, 'g'))];
      const t = declared.find(([full]) => simple(full) === n)?.[1];
      return uses.length > 0 && uses.every((u) => (u[2] && t?.constants.has(u[2])) || /nameof\s*\(\s*$/.test(text.active.slice(0, u.index)));
    });
    if (inlined) return 'extra: A names B\'s type only for constants or enum members (inlined by the compiler) or in nameof';
    return "extra: the name A writes is a member of that name (`Color Color`: a property named as its type) or a partial type's other part whose members A does not use";
  }
  return 'extra: A does not name a type of B';
}

async function corpus(snapshots, c, dropSample) {
  const tree = exportProject(snapshots, c);
  const tmp = path.join(WORK_DIR, 'csharp', `${c.repo.replace('/', '+')}.mcs`);
  rmrf(tmp);
  fs.mkdirSync(tmp, { recursive: true });
  const defines = definesOf(fs.readFileSync(path.join(tree, c.project, c.csproj), 'utf8'), c.framework);
  log(`${c.repo}@${c.tag}: mcs, ${defines.length} defines of ${c.framework}`);
  const truth = compilerTruth(tree, c, defines, tmp, dropSample);
  log(`${c.repo}@${c.tag}: ${truth.types.size} types (${truth.located} located by the probe), ${truth.pairs.size} pairs`);
  const ours = ourPairs(tree);
  const compared = new Set(truth.files);
  const mine = [...ours.pairs].filter(([k]) => compared.has(k.split('\t')[0]) && compared.has(k.split('\t')[1]) && !truth.partialOnly.has(k));
  const shared = mine.filter(([k]) => truth.pairs.has(k));
  const exact = mine.filter(([, p]) => p.exact);
  const inferred = mine.filter(([, p]) => !p.exact);
  const onlyTruth = [...truth.pairs.keys()].filter((k) => !ours.pairs.has(k));
  const onlyOurs = mine.filter(([k]) => !truth.pairs.has(k)).map(([k]) => k);
  const classes = new Map();
  for (const [side, list] of [['truth', onlyTruth], ['ours', onlyOurs]]) {
    for (const k of list.sort()) {
      const [a, b] = k.split('\t');
      const name = label(side, a, b, truth, tree, defines, ours);
      const c = classes.get(name) ?? { name, count: 0, examples: [] };
      c.count++;
      c.examples.push(`${a} -> ${b}`);
      classes.set(name, c);
    }
  }
  const dropMissing = truth.dropped.filter((k) => truth.pairs.get(k)?.dropOnly);
  const untyped = [...truth.types].filter(([, t]) => t.files.size === 0).map(([n]) => n);
  const declared = [...truth.types.values()].filter((t) => t.files.size > 0);
  return {
    corpus: `${c.repo}@${c.tag}`,
    commit: c.commit,
    framework: c.framework,
    files: truth.files.length,
    types: truth.types.size,
    partialTypes: declared.filter((t) => t.files.size > 1).length,
    located: truth.located,
    untyped,
    compileMs: truth.compileMs,
    buildMs: ours.buildMs,
    truthPairs: truth.pairs.size,
    partialOnly: truth.partialOnly.size,
    ourPairs: mine.length,
    shared: shared.length,
    precision: shared.length / mine.length,
    recall: shared.length / truth.pairs.size,
    // the compiler's pairs less those whose types A never writes (`var`, a member's type): what a reading of names can reach
    namedRecall: shared.length / (truth.pairs.size - (classes.get(UNNAMED)?.count ?? 0)),
    exact: { pairs: exact.length, shared: exact.filter(([k]) => truth.pairs.has(k)).length },
    inferred: { pairs: inferred.length, shared: inferred.filter(([k]) => truth.pairs.has(k)).length },
    drop: { sample: truth.dropSample, pairs: truth.dropped.length, inTruth: truth.dropped.length - dropMissing.length, missing: dropMissing, oursHave: truth.dropped.filter((k) => ours.pairs.has(k)).length },
    classes: [...classes.values()].sort((x, y) => y.count - x.count),
  };
}

const f4 = (x) => (Number.isFinite(x) ? x.toFixed(4) : '—');

function render(result) {
  const m = result.machine;
  const L = ['### C#: against the compiler (bench/languages-csharp.mjs)', ''];
  L.push(
    "Our file-to-file edges from `.cs` files (index.json, every kind) against the C# compiler's own binding: Mono's `mcs` compiles the project with the defines of one of its target frameworks and `-debug`; `bench/languages/csharp_reference.cs` (Mono.Cecil, no engine code) reads, from the assembly, every project type each method body refers to (IL operands, locals, signature, attributes), placed at the file of its sequence points, and every type the declarations refer to (bases, interfaces, fields, properties, events, attributes, constraints), placed at the files declaring the type; which files declare a type, the compiler says itself: a probe compile of the project plus one `T.__probe();` per type answers each with an error and the type's declaring location. Then every file B is left out in turn and the rest compiled: the files mcs reports errors in depend on B (this adds what an assembly keeps no trace of: constants the compiler copies, a base's base, a partial type's other part). A pair (A, B): code compiled from A refers to a type B declares, or A does not compile without B. Precision = shared / ours, recall = shared / compiler's.",
    '',
    '| corpus | .cs files | types | pairs ours / compiler | precision | precision, exact pairs | recall | recall, types A names | our exact pairs (in the truth) | our inferred pairs (in the truth) | build |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of result.corpora) {
    L.push(`| ${r.corpus} (${r.framework}) | ${r.files} | ${r.types} | ${r.ourPairs} / ${r.truthPairs} | ${f4(r.precision)} | ${f4(r.exact.shared / r.exact.pairs)} | ${f4(r.recall)} | ${f4(r.namedRecall)} | ${r.exact.pairs} (${r.exact.shared}) | ${r.inferred.pairs} (${r.inferred.shared}) | ${r.buildMs} ms |`);
  }
  L.push('');
  for (const r of result.corpora) {
    L.push(
      `- ${r.corpus} (${r.commit.slice(0, 9)}), the library project \`Src/Newtonsoft.Json\` alone: mcs compiled its ${r.files} files in ${r.compileMs} ms with the ${r.framework} DefineConstants of its .csproj; the probe located ${r.located} of ${r.types} types${r.untyped.length ? ` (no file for ${r.untyped.length}: ${r.untyped.slice(0, 4).map((x) => `\`${x}\``).join(', ')})` : ''}; ${r.partialTypes} types are partial (several files). ${r.partialOnly} pairs carried only by a partial type's declaration-level references (no part can be named) are left out of both sides.`,
    );
    L.push(
      `- Check of the assembly's reading by the compiler alone: ${r.drop.sample === r.files ? 'every file' : `${r.drop.sample} files`} dropped one at a time and the rest compiled (mcs stops at the first phase with errors, so these are some of each file's dependents): mcs reports errors in ${r.drop.pairs} (file, dropped file) pairs; ${r.drop.inTruth} are pairs the assembly shows${r.drop.missing.length ? `; the other ${r.drop.missing.length} join the truth (${r.drop.missing.slice(0, 3).map((k) => `\`${k.replace('\t', ' -> ')}\``).join(', ')}${r.drop.missing.length > 3 ? ' …' : ''})` : ''}. We have ${r.drop.oursHave} of the ${r.drop.pairs}.`,
    );
    L.push('', '| disagreement | pairs | examples (A -> B) |', '| --- | ---: | --- |');
    for (const c of r.classes) L.push(`| ${c.name} | ${c.count} | ${c.examples.slice(0, 4).map((e) => `\`${e}\``).join(', ')} |`);
    L.push('');
  }
  L.push(
    "The compiler's pairs count every type the compiled code touches, named or not (`var`, the type of a called member, an inherited member's declaring type); our C# edges follow the names a file writes, so those are misses by design, listed apart from the names we fail to bind. The build's `#if` branches are one framework's (net45); we index every branch, so names only in other frameworks' branches are extra for this build and right for another. Constants and enum members are copied into the using code by the compiler and leave no reference: such pairs are labelled, and are real dependencies of the source.",
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadavg} at the start; ${result.mcs}. Command: \`npm run build && node bench/languages-csharp.mjs\` (${result.date}); needs the machine's Mono and Mono.Cecil (\`apt-get install -y mono-devel libmono-cecil-cil-dev\`) and a git snapshot of the corpus (\`--snapshots DIR\` holding \`<owner>+<name>/repo\`).`,
    '',
  );
  return L.join('\n');
}

async function main() {
  const { opts: args } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  for (const tool of ['mcs', 'mono']) if (!has(tool)) throw new Error(`${tool} is missing: apt-get install -y mono-devel libmono-cecil-cil-dev`);
  if (!fs.existsSync(path.join(CECIL, 'Mono.Cecil.Mdb.dll'))) throw new Error(`${CECIL}/Mono.Cecil.Mdb.dll is missing: apt-get install -y libmono-cecil-cil-dev`);
  const result = { date: new Date().toISOString().slice(0, 10), machine: machineInfo(), mcs: execFileSync('mcs', ['--version'], { encoding: 'utf8' }).trim(), corpora: [] };
  for (const c of CORPORA) {
    const r = await corpus(args.snapshots, c, args.drop);
    log(`${r.corpus}: precision ${f4(r.precision)} recall ${f4(r.recall)} (ours ${r.ourPairs}, compiler ${r.truthPairs}); drop-one: ${r.drop.pairs} pairs, ${r.drop.inTruth} in the assembly's, ours ${r.drop.oursHave}`);
    for (const k of r.classes) log(`  ${k.count} ${k.name}: ${k.examples.slice(0, 4).join(', ')}`);
    result.corpora.push(r);
  }
  writeJson(path.join(WORK_DIR, 'results', 'languages-csharp.json'), result);
  if (args.write) writeResultsSection('<!-- languages-csharp:start -->', '<!-- languages-csharp:end -->', `<!-- languages-csharp:start -->\n${render(result)}<!-- languages-csharp:end -->`, 'C# against the compiler');
}

runMain(main);
