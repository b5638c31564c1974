#!/usr/bin/env node
// `route` asked questions as people word them, on five real packages, each checked against a truth computed without
// our engine: dependency-cruiser's edges (who imports X, what X imports) and the TypeScript compiler's own parse of
// every file's top-level declarations (where X is defined); for a Python package and a Go module, their own languages'
// tools. Several sets of wordings: the tuning set the families were written against and held-out sets (WORDINGS). One call per question, through the
// server as installs run it (dist/runtime/mcp-server.js, in-process), with the answer's size and the handler's time.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureCorpus } from './corpora.mjs';
import { writeResultsSection } from './lib/write-results.mjs';
import { BENCH_DIR, OUR_CLI, ROOT, WORK_DIR, setAside, log, machineInfo, mkdirp, parseArgs, runMain, sh } from './lib/common.mjs';
import { depcruiseCommand, edgesFromDepcruise } from './lib/depcruise-edges.mjs';
import { median, percentile } from './lib/stats.mjs';
import { SERVER } from './mcp-tokens.mjs';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

const USAGE = `
Usage: node bench/route-eval.mjs [--per 8] [--results-md]   (build first: npm run build)

Fetches three, svelte, webpack, rxjs and effect with npm pack (bench/.corpora), copies their source folders to
bench/.work/route-eval/<name>/, builds the intel, runs dependency-cruiser and the TypeScript parser for the truth,
asks route --per subjects per family and package in a tuning and a held-out wording, and checks every answer.`;

const SPEC = {
  per: { type: 'number', default: 8, help: 'subjects per family and package' },
  'results-md': { type: 'boolean', default: false, help: 'rewrite the "Route and tokens" section of bench/RESULTS.md' },
  'from-json': { type: 'boolean', default: false, help: 'ask nothing: write the section from the last run (bench/.work/results/route-eval.json)' },
};

/** the packages and the folders of each that are its source */
const PACKAGES = [
  { name: 'three', pkg: 'three', version: '0.187.0', dirs: ['src', 'examples/jsm'] },
  { name: 'svelte', pkg: 'svelte', version: '5.57.3', dirs: ['src'] },
  { name: 'webpack', pkg: 'webpack', version: '5.112.2', dirs: ['lib'] },
  { name: 'rxjs', pkg: 'rxjs', version: '7.8.2', dirs: ['src'] },
  { name: 'effect', pkg: 'effect', version: '3.22.4', dirs: ['src'] },
];

/**
 * The new languages, on real code from Debian (`apt-get install -y python3-rich golang-github-spf13-cobra-dev`; the
 * bench uses the machine's python3 and go). Python: edges by bench/languages/python_reference.py (Python's ast and
 * importlib's path finder), declarations by Python's ast. Go: declarations by go/parser
 * (bench/languages/go_declarations.go); a Go import names a package (a folder), not a file, so Go is asked where
 * names are defined only.
 */
const OTHER_LANGUAGES = [
  { name: 'rich', lang: 'python', deb: 'python3-rich', from: '/usr/lib/python3/dist-packages/rich', into: 'rich', families: ['dependents', 'imports', 'definition'] },
  { name: 'cobra', lang: 'go', deb: 'golang-github-spf13-cobra-dev', from: '/usr/share/gocode/src/github.com/spf13/cobra', into: '', families: ['definition'] },
];

/**
 * {f} a file, {n} a declared name. `tuning`: the wordings the families were written against (they end with four
 * earlier held-out sets: 82.5 %, 61.7 %, 85.8 % and 79.2 % right when each was first measured, then tuned on).
 * `heldOut`: the set after those, 95.8 % when first measured, seen since. `fresh` … `fresh4`: four fresh
 * sets, each committed before its first run; A, B and C were looked at after their first run (95.4 %, 95.8 %, 95.4 %)
 * and the families mended by general rules; D was not run until the families were final (97.9 %), its one missed
 * form mended since. `fresh5` (E): written by an engineer who had read neither the rules nor the sets above,
 * committed before its first run (84.2 %), then looked at and the families mended by general rules. `fresh6` (F): by
 * the same hand, written after E's first run but before the rules were read, first run after E's mending (85.4 %),
 * then mended the same way. `fresh7` (G): by a third hand who had not read the rules (the sets above only glimpsed), committed
 * before its first run (81.3 %), not tuned on. {b} is the file's bare name where it is unique in the tree.
 */
const WORDINGS = {
  dependents: {
    tuning: ['who imports {f}?', 'what depends on {f}', '{f}: who imports it?', 'show me everything that imports {f}', 'which files use {f}', 'Who imports {f}', 'dependents of {f}', 'what imports {f}',
      'files importing {f}', 'list the importers of {f}', '{f} — which modules depend on it?', 'what pulls in {f}?', 'who requires {f}', 'which other files import {f}', 'who uses {f}?', 'anything that depends on {f}?',
      'what are the dependents of {f}', 'which modules import {f}?', '{f} is imported by what?', 'who relies on {f}', 'show importers for {f}', 'incoming imports of {f}', 'who else uses {f}', 'reverse dependencies of {f}',
      'which files need {f}?', '{f} - who uses it', 'give me the files that import {f}', 'importers of {f}?', 'what code uses {f}', 'who depends on {f}?', 'find every file importing {f}', '{f} usages',
      'who is importing {f}', 'list every importer of {f}', 'which files reference {f}?', 'what relies on {f}', '{f}: importers?', 'modules that use {f}', 'what else imports {f}', 'show me who uses {f}'],
    heldOut: ['who pulls {f} in?', 'files depending on {f}', 'is {f} imported anywhere?', 'which modules require {f}', 'everything importing {f}', 'who consumes {f}', '{f} importers', 'what needs {f}?'],
    fresh: ['which files are depending on {f}', "{f}'s dependents", 'can you tell me which files import {f}, please', 'list all modules relying on {f}', 'files that are importing {f}', 'who all imports {f}', 'where does {f} get imported', 'what requires {f}?',
      '{f} is used by which files', 'show the files that depend upon {f}', 'which parts of the code import {f}', 'i need the list of files that import {f}', 'does anything import {f}?', 'what is {f} imported by', 'modules importing {f}, please', "{f}'s importers?"],
    fresh2: ['who is depending on {f}?', 'what files rely on {f}', 'tell me what imports {f}', '{f} — what uses it?', 'hey, which modules pull in {f}?', 'which of the files require {f}', 'find files that import {f}', 'list dependents: {f}',
      'Which files are using {f}?', 'who needs {f}', 'what else depends on {f}?', 'show everything depending on {f} please', 'are there files that import {f}', '{f} dependents', 'what files load {f}', 'the importers of {f}, please'],
    fresh3: ['files that use {f}?', 'any modules depending on {f}', 'which code relies upon {f}', 'what imports from {f}', 'who is using {f}', 'find all importers of {f}', 'list the modules that require {f}, thanks', 'where is {f} being imported',
      'which files have an import of {f}', 'who references {f}?', '{f}: used where?', 'dependents for {f}', 'can you find who imports {f}', 'what pulls {f} in', 'which files would need {f}', 'who loads {f}?'],
    fresh4: ['who imports {f} at the moment?', 'list files that depend on {f}', 'what in the project imports {f}', '{f} — dependents?', 'which modules make use of {f}', 'who uses {f} in this repo', 'what files have a dependency on {f}', 'tell me every file importing {f}',
      'show {f} importers', 'what is importing {f}?', 'which files import {f} directly', 'who calls into {f}', 'do any files depend on {f}?', 'get me the dependents of {f}', 'which modules reference {f}', 'what would load {f}'],
    fresh5: ['before I change {f}, what breaks?', 'list everything depending on {b}', 'whos using {f}', 'which files pull in `{f}`', 'if i refactor {b} which modules are affected', 'find all importers of ./{f}', 'what relies on {f}?', 'dependants of {b}',
      "i'm about to delete {f} - what depends on it", 'which modules make use of {f}?', "who's importng {b}", 'show me every file that requires {f}', 'reverse dependencies for {f}', 'Is {b} used anywhere? by which files', 'what hangs off {f}', "I'm renaming an export in {f}; which files consume it and need updating?"],
    fresh6: ['which parts of the codebase depend on {f}', 'callers of {b}', '{f} is imported by?', 'who else uses {b}, I want to change its API', 'get importers: {f}', 'what would be impacted by changing {f}', 'what modules reference `{b}`', 'any file that imports from {f}?',
      'which files consume {f}', 'where is {f} imported', 'who depend on {b}', 'files depending on {f} pls', 'does anything import {b}? list them', 'what code is built on {f}', 'inbound dependencies of {f}', 'whats importing {f} rn'],
    fresh7: ['gonna split {f} into two files, what calls into it today?', 'blast radius of {f}', 'who consumes the exports of {b}?', 'which files have an import statement pointing at {f}', 'if I break {b}, which files stop compiling', 'find usages of {b} across the repo', 'whose imports include {f}', 'what is downstream of {f}',
      'refs to {f}', 'who imprts {b}', 'Need to change a function signature in {f}. Which modules should I check?', 'list consumers of {f}', 'where is {b} used', 'what files reach for {f}', 'which modules would i have to touch if {f} moved', 'can u list the files with a dependency on {b}'],
    unread: ['{f}', 'hmm, {f}?', '{b} ... thoughts?', '{f}??'],
  },
  imports: {
    tuning: ['what does {f} import?', 'which project files does {f} pull in?', 'dependencies of {f}', '{f} imports', 'what does {f} depend on', 'What does {f} import', 'imports of {f}', 'which files does {f} import',
      "list {f}'s imports", 'which files does {f} require', '{f}: what does it import?', 'what files does {f} use', 'show the dependencies of {f}', 'what modules does {f} load', "{f}'s dependencies?", 'what does {f} need',
      'what are the imports of {f}?', 'which modules does {f} import', '{f} depends on what?', 'outgoing imports of {f}', 'list what {f} requires', 'what is imported by {f}', 'files {f} imports', "show {f}'s deps",
      'what does {f} use?', 'which modules are imported by {f}', 'list the dependencies of {f}', '{f} → what does it depend on', 'tell me what {f} imports', 'which files are required by {f}', 'what does {f} pull in', "what are {f}'s imports",
      'what does {f} require?', '{f}: list its imports', 'which files is {f} importing', 'imports in {f}', 'what is {f} importing', 'modules used by {f}', '{f} dependency list', 'which dependencies does {f} have'],
    heldOut: ['what does {f} bring in?', '{f} imports what?', 'what are the dependencies of {f}?', 'which modules does {f} require?', 'files imported by {f}', 'show what {f} imports', 'deps of {f}', '{f}: dependencies'],
    fresh: ["{f}'s deps", 'what is {f} depending on?', 'which files are imported in {f}', 'what modules is {f} using', 'list the files {f} relies on', 'could you show me what {f} imports', 'what does {f} rely on', 'which modules are pulled in by {f}',
      'files that {f} depends on', 'what gets imported by {f}', 'dependencies for {f}', 'what is {f} requiring', '{f} depends on which files', 'show me the imports in {f} please', 'which files does {f} load', 'outgoing dependencies of {f}'],
    fresh2: ['what is {f} importing from?', 'which files does {f} rely on?', 'tell me the dependencies of {f}', '{f} — what does it use?', 'what does {f} pull in, please', 'list deps for {f}', 'which modules are used by {f}', 'what are the files {f} depends on',
      'imports of {f}, please', '{f} requires which modules?', 'show {f} dependencies', 'what does {f} import from the project', 'what is required by {f}', 'which files get imported by {f}', 'what {f} is depending on', 'which files does {f} need?'],
    fresh3: ['which files is {f} using?', 'what does {f} import? list them', 'what modules are imported into {f}', '{f} pulls in what', 'what are the deps of {f}', 'what does the file {f} depend on?', 'list everything {f} imports', 'what is needed by {f}',
      'which modules does {f} rely upon', '{f}: what are its dependencies', '{f} imports which files?', 'show me what {f} uses', 'which project files are imported by {f}?', 'dependencies of the file {f}', 'the modules {f} requires', 'what did {f} import'],
    fresh4: ['what does {f} depend upon?', 'list imports for {f}', 'which modules does {f} pull in?', '{f} — imports?', 'what are all the imports of {f}', 'what files does {f} make use of', 'tell me what {f} requires', '{f}: deps',
      'which files does {f} import directly', 'show the imports of {f}', 'what does {f} reference?', 'get me the dependencies of {f}', 'what modules does {f} need', 'which files are loaded by {f}', 'what does {f} include?', 'files {f} relies upon'],
    fresh5: ['what does {f} rely on', 'deps of {b}', 'list the modules `{f}` pulls in', '{f} depends on what?', 'what does {b} need in order to work', "show {f}'s imports pls", 'what other files does {f} lean on?', 'outgoing deps for ./{f}',
      'which files does {b} bring in', "i'm moving {f} into another package, what does it import that would have to come along?", 'whats {f} dependant on', 'what modules are required by {f}', 'what does {b} reach into', 'imprts of {f}', 'upstream dependencies of {f}', 'what is {b} built on top of'],
    fresh6: ['{f} imports what', 'which files is {b} pulling from', 'list dependencies: {f}', 'what does {f} pull from', 'direct imports for {b}?', "what's imported in {f}", 'what does {f} call into', 'dependencies for `{b}`',
      'what has to be loaded before {f} can run', 'show the import list of {f}', 'I want to unit test {b} in isolation, what does it depend on?', 'what is {f} using under the hood', 'deps {f}', 'outbound edges of {f}', 'which other modules does {b} import from', 'what does {f} depend on directly?'],
    fresh7: ['what does {b} pull in from the rest of the codebase', '{f} deps?', "what are {f}'s dependencies, just the local ones", 'which files must exist for {b} to load', 'trace the imports of {f}', "I'm extracting {f} into its own package — what else would I need to bring along?", 'what does {b} sit on top of', 'show the import graph going out of {f}',
      'what does {f} consume', 'list what {b} imports from', 'wat does {f} import', 'which local modules does {b} reference in its import statements', 'what does {f} have imports for?', 'before I can test {b} I need to mock its imports — which are they?', 'Files referenced by {f}', 'what other modules get loaded when {f} is loaded'],
    unread: ['{f}', 'hmm, {f}?', '{b} ... thoughts?', '{f}??'],
  },
  definition: {
    tuning: ['where is {n} defined?', 'where is the class {n} declared', '{n}: where is it defined?', 'which file defines {n}', 'find the definition of {n}', 'Where is {n} declared?', 'definition of {n}', 'where is {n} defined',
      "where's {n} declared", 'in which file is {n} defined?', 'go to {n}', 'location of {n}', 'where does {n} live', 'which file declares {n}?', 'where is {n} implemented', 'declaration of {n}',
      'where is {n}?', 'where can I find {n}', 'which file has the {n} definition', '{n} is defined where?', 'show me where {n} is declared', 'where is {n} located', 'what file declares {n}', 'source of {n}',
      'where is {n} declared?', 'find {n}', "where's {n} defined", 'the file that defines {n}', '{n} defined in which file', 'where do we define {n}', 'locate {n}', 'where is {n} declared in the code',
      'where is {n} from', 'where was {n} defined?', 'which module defines {n}', 'point me to {n}', 'jump to the definition of {n}', '{n}: which file?', 'where is {n} coming from', 'lookup {n}'],
    heldOut: ['where is {n} declared', 'where do I find {n}?', 'which file is {n} in', 'open the file defining {n}', '{n} location', 'where is the {n} definition', 'find where {n} is defined', 'what file is {n} in?'],
    fresh: ['where is {n} defined in this codebase', 'in what file is {n} declared', 'which file contains the declaration of {n}', 'where does {n} come from', 'show me the definition of {n}', 'where can i find the {n} declaration', 'what module declares {n}?', 'file defining {n}',
      '{n} — where is it declared', 'where is {n} written', 'take me to {n}', 'could you find where {n} is defined please', 'which source file has {n}', 'who defines {n}', 'whereabouts is {n} declared', '{n} defined where'],
    fresh2: ['where is {n} declared in the source?', 'what file declares {n}', 'find where {n} is declared', 'show me the file with {n}', 'where does {n} get defined', 'which file has {n} in it?', "{n}'s definition", 'where is the declaration of {n}',
      'go to definition of {n}', 'where would I find {n}?', 'locate the definition of {n}', 'in which module is {n} defined', 'the declaration of {n}, please', 'where is {n} defined at', 'which file is {n} declared in?', 'where do I go for {n}'],
    fresh3: ['where has {n} been defined', 'which file defines the {n}', 'where is {n} declared please', 'definition for {n}', 'where do we declare {n}?', 'what file has {n} defined', 'in which file does {n} live', 'where might {n} be defined',
      'where is {n} located in the code', 'file with the definition of {n}', '{n} declaration', 'show where {n} is defined', 'what file contains {n}', 'point me at {n}', 'search for the definition of {n}', "can't find {n}, where is it defined?"],
    fresh4: ['where is {n} defined exactly?', 'which file is {n} defined in', 'where was {n} declared', "show me {n}'s declaration", 'where is the definition for {n}', 'find me {n}', 'in what module is {n} declared?', 'what is the file that defines {n}',
      'where is {n} declared and on which line', 'look up {n}', 'the definition of {n}?', '{n} is declared in which file', 'where can {n} be found', 'where does {n} reside', 'which file declares {n} please', 'definition location of {n}'],
    fresh5: ['find the definition of {n}', 'whre is {n} defnied', 'go to def {n}', 'which file has {n} in it', 'where does {n} live?', 'locate {n}', "{n}: where's that implemented", 'jump to {n}',
      'in what module is {n} declared', 'show me the source for {n}', 'I need to change how {n} works, where is it?', 'what file is {n} in', 'source location of {n}', 'who defines {n}?', 'where do we declare {n}', 'look up {n} and tell me the file and line'],
    fresh6: ["where's {n}", 'defn of {n}?', 'which file declares the {n} symbol', 'open {n}', 'find {n} in the repo', 'where is {n} coming from', 'where does {n} get defined', 'file + line for {n}',
      '{n} defined where', 'where is {n} written', 'hey where did we put {n}', 'show the declaration of {n}', 'which module exports {n}', 'where is {n} implemented at', 'whats the path to {n}', 'navigate to the {n} definition'],
    fresh7: ['where does {n} live?', 'jump to {n}', 'what file has the {n} definition', 'find the source of {n}', "where's {n} implemented", 'locate {n}', '{n} - which file?', 'I keep seeing {n} referenced, where is it actually defined?',
      'where is `{n}` declared', 'whr is {n} defined', 'file that defines {n}', 'show me the definition for {n}', 'what module exports {n}', 'take me to {n}', 'goto def {n}', 'path of the file containing the {n} declaration'],
    unread: ['{n}', 'hmm, {n}?', '{n} ... thoughts?', '{n}??'],
  },
};

// fresh held-out H: written by a fourth hand that had read neither the families' rules nor the sets above, committed
// before any run
WORDINGS.dependents.fresh8 = [
  'before I rename {f}, what else in the repo pulls it in?',
  'whats using {b}',
  'list every file that requires {f}',
  'if I change {b} what breaks',
  'callers of {f}',
  'which modules depend on {b}? need the full list',
  'find references to {f} across the codebase',
  'who consumes {b}',
  'im about to delete {f} - anything still importing it?',
  'reverse deps for {f}',
  'show me the importers of {b} pls',
  'where is {b} imported?',
  'blast radius of editing {f}',
  'does anything reference {b} or is it dead code?',
  'files that use {f}',
  'who dependson {b}',
];
WORDINGS.imports.fresh8 = [
  'what does {f} import?',
  'deps of {b}',
  'what modules does {f} pull in',
  'list the imports in {b}',
  'before I move {f} I need to know everything it relies on',
  'what files does {b} require',
  "show {f}'s dependencies",
  'which of our files does {b} use',
  'outgoing imports for {f}',
  'what does {b} need in order to load',
  'what is {f} built on top of',
  'imprts of {f}',
  "I'm extracting {b} into its own package, what internal files does it depend on?",
  'forward deps {f}',
  'what does {b} bring in',
  'give me everything {f} references',
];
WORDINGS.definition.fresh8 = [
  'where is {n} defined?',
  'find the definition of {n}',
  'go to def {n}',
  'which file declares {n}',
  'where does {n} live',
  '{n} - where is it',
  'jump to {n}',
  "where's {n} implemented",
  'locate {n}',
  'in which file is {n} declared? I want to read its source',
  'wher is {n} defind',
  'source of {n}',
  'I keep seeing {n} used everywhere, where is it actually declared?',
  'what file has {n}',
  'def of {n}',
  'show me where {n} is written',
];

const tokens = (v) => Math.ceil(JSON.stringify(v).length / 4);

/** Top-level declarations by the TypeScript compiler's parser (not ours): name → [{ file, line, kind }]. */
function tsDeclarations(root, files) {
  const out = new Map();
  const add = (name, file, line, kind) => out.set(name, [...(out.get(name) ?? []), { file, line, kind }]);
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /\.tsx?$/.test(file) ? undefined : ts.ScriptKind.JS);
    const lineOf = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    for (const st of sf.statements) {
      const kind = ts.isClassDeclaration(st) ? 'class' : ts.isFunctionDeclaration(st) ? 'function' : ts.isInterfaceDeclaration(st) ? 'interface' : ts.isTypeAliasDeclaration(st) ? 'type' : ts.isEnumDeclaration(st) ? 'enum' : null;
      if (kind && st.name) add(st.name.text, file, lineOf(st), kind);
      else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, file, lineOf(d), 'const');
    }
  }
  return out;
}

/** Every file under root, intel excluded: the names a bare file name must be unique among. */
const treeFiles = (root) => fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !path.join(e.parentPath ?? e.path, e.name).includes(`${path.sep}.planning${path.sep}`)).map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)));

/** Every k-th item of a sorted list: a spread sample that is the same every run. */
const spread = (items, n) => (items.length <= n ? items : Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]));

function questions(truth, per, families = ['dependents', 'imports', 'definition']) {
  const { edges, decls, names } = truth;
  // {b}: a file by its bare name when no other file in the tree has that name, else by its path
  const seen = new Map();
  for (const n of names) seen.set(path.basename(n), (seen.get(path.basename(n)) ?? 0) + 1);
  const bare = (f) => (seen.get(path.basename(f)) === 1 ? path.basename(f) : f);
  const into = new Map();
  const from = new Map();
  for (const e of edges.values()) {
    if (e.source === e.target) continue;
    into.set(e.target, [...(into.get(e.target) ?? []), e.source]);
    from.set(e.source, [...(from.get(e.source) ?? []), e.target]);
  }
  const byCount = (m) => [...m.keys()].sort((a, b) => m.get(a).length - m.get(b).length || (a < b ? -1 : 1));
  const unique = [...decls.entries()].filter(([n, d]) => d.length === 1 && d[0].kind !== 'const' && n.length >= 5 && !/\.d\.ts$|_test\.go$/.test(d[0].file)).map(([n]) => n).sort();
  const qs = [];
  // each subject: every tuning wording in turn (i, i + per, …) and one held-out wording
  const push = (family, subjects, make) => subjects.forEach((s, i) => {
    const { tuning, heldOut, fresh, fresh2, fresh3, fresh4, fresh5, fresh6, fresh7, fresh8, unread } = WORDINGS[family];
    const ws = [...tuning.filter((_, k) => k % subjects.length === i % subjects.length).map((w) => ['tuning', w]), ['heldOut', heldOut[i % heldOut.length]]];
    for (const [set, list] of [['fresh', fresh], ['fresh2', fresh2], ['fresh3', fresh3], ['fresh4', fresh4], ['fresh5', fresh5], ['fresh6', fresh6], ['fresh7', fresh7], ['fresh8', fresh8], ['unread', unread]]) ws.push([set, list[(2 * i) % list.length]], [set, list[(2 * i + 1) % list.length]]);
    for (const [set, w] of ws) qs.push({ family, set, query: w.replace('{f}', s).replace('{b}', bare(s)).replace('{n}', s), ...make(s) });
  });
  if (families.includes('dependents')) push('dependents', spread(byCount(into), per), (f) => ({ file: f, want: [...new Set(into.get(f))].sort() }));
  if (families.includes('imports')) push('imports', spread(byCount(from), per), (f) => ({ file: f, want: [...new Set(from.get(f))].sort() }));
  if (families.includes('definition')) push('definition', spread(unique, per), (n) => ({ name: n, want: decls.get(n)[0] }));
  return qs;
}

/**
 * Right in one call: the answer is about the subject and gives the whole truth, or says it was cut (total right, kept
 * items true). A combined answer (family `links`: a file's both directions, or a name's definition and its users) is
 * judged on the part the question asked for, by the same rule: its direction of a file's links, its definition of a
 * name. `old`: the judging before combined answers for names existed (a `links` answer to "where is N defined" is
 * wrong), kept so every set is reported under both.
 */
function judge(q, a, rule = 'new') {
  const step = a.results?.find((r) => r.id === 'answer');
  const d = step?.data;
  if (!d) return { ok: false, why: `answered as ${a.family}, no answer step` };
  const list = (items, total, cut) => {
    const got = [...items].sort();
    if (!cut) return JSON.stringify(got) === JSON.stringify(q.want) ? null : `got ${got.length}, want ${q.want.length}: missing ${q.want.filter((x) => !got.includes(x)).slice(0, 3)} extra ${got.filter((x) => !q.want.includes(x)).slice(0, 3)}`;
    return total === q.want.length && got.every((x) => q.want.includes(x)) && a.budget?.rest ? null : `cut: total ${total} want ${q.want.length}`;
  };
  let why = null;
  if (a.family === 'links') {
    // both directions in one answer (file_context): the direction asked must be there whole
    const l = q.family === 'dependents' ? d.dependents : d.dependencies;
    if (q.family === 'definition') {
      const top = rule === 'new' ? d.locations?.[0] : null;
      why = top && top.path === q.want.file && top.line === q.want.line ? null : rule === 'new' ? `combined answer: first location ${top ? `${top.path}:${top.line}` : 'none'}, want ${q.want.file}:${q.want.line}` : "a file's links for a definition";
    } else why = d.path !== q.file ? `about ${d.path}` : list(l.items, l.total, l.items.length < l.total);
  } else if (q.family === 'dependents') {
    const level = d.by_depth?.[0];
    why = d.file !== q.file ? `about ${d.file}` : level ? list(level.files, level.total, level.files.length < level.total) : q.want.length ? 'no dependents listed' : null;
  } else if (q.family === 'imports') {
    why = d.path !== q.file ? `about ${d.path}` : list(d.dependencies.items, d.dependencies.total, d.dependencies.items.length < d.dependencies.total);
  } else {
    const top = d.locations?.[0];
    why = top && top.path === q.want.file && top.line === q.want.line ? null : `first location ${top ? `${top.path}:${top.line}` : 'none'}, want ${q.want.file}:${q.want.line}`;
  }
  return { ok: !why, why };
}

async function packageRun(p, per) {
  const corpus = ensureCorpus(p);
  const root = path.join(WORK_DIR, 'route-eval', p.name);
  // a fresh tree and intel each run: an index left by an earlier run would lend its parse facts to unchanged files
  setAside(root);
  for (const dir of p.dirs) fs.cpSync(path.join(corpus, dir), path.join(root, dir), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: `${p.name}-eval`, private: true, type: JSON.parse(fs.readFileSync(path.join(corpus, 'package.json'), 'utf8')).type ?? 'commonjs' }));
  log(`route-eval: building the intel of ${p.name}`);
  sh(process.execPath, [OUR_CLI, 'intel', 'build', root]);
  const out = path.join(mkdirp(path.join(WORK_DIR, 'route-eval-truth')), `${p.name}.json`);
  const c = depcruiseCommand(root, 'plain', out);
  c.args[0] = DEPCRUISE; // the project's own devDependency
  log(`route-eval: dependency-cruiser on ${p.name}`);
  sh(c.cmd, c.args, { cwd: c.cwd });
  const { files, edges } = edgesFromDepcruise(JSON.parse(fs.readFileSync(out, 'utf8')));
  const decls = tsDeclarations(root, [...files]);
  const answers = await ask(p.name, root, questions({ edges, decls, names: treeFiles(root) }, per));
  return { package: `${p.pkg}@${p.version}`, dirs: p.dirs, files: files.size, edges: edges.size, answers };
}

/** A Python package or Go module from Debian: its own language's truth. */
async function otherRun(p, per) {
  if (!fs.existsSync(p.from)) throw new Error(`${p.from} is missing: apt-get install -y ${p.deb}`);
  const root = path.join(WORK_DIR, 'route-eval', p.name);
  setAside(root);
  fs.cpSync(p.from, path.join(root, p.into), { recursive: true, filter: (f) => !f.includes('__pycache__') && !f.endsWith('.so') });
  log(`route-eval: building the intel of ${p.name}`);
  sh(process.execPath, [OUR_CLI, 'intel', 'build', root]);
  const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', p.deb], { encoding: 'utf8' });
  const decls = new Map();
  let edges = new Map();
  let files = 0;
  if (p.lang === 'python') {
    const ref = JSON.parse(execFileSync('python3', [path.join(BENCH_DIR, 'languages', 'python_reference.py'), root, '.'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    edges = new Map(ref.edges.map(([a, b]) => [`${a} -> ${b}`, { source: a, target: b }]));
    files = ref.files;
    const py = `import ast, json, os, sys
root = sys.argv[1]; out = []
for d, dirs, names in os.walk(root):
    dirs[:] = sorted(x for x in dirs if not x.startswith('.') and x != '__pycache__')
    for n in sorted(names):
        if not n.endswith('.py'): continue
        f = os.path.join(d, n)
        for st in ast.parse(open(f, 'rb').read(), f).body:
            if isinstance(st, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append([st.name, os.path.relpath(f, root), st.lineno, 'class' if isinstance(st, ast.ClassDef) else 'function'])
print(json.dumps(out))`;
    for (const [name, file, line, kind] of JSON.parse(execFileSync('python3', ['-c', py, root], { encoding: 'utf8', maxBuffer: 1 << 28 }))) decls.set(name, [...(decls.get(name) ?? []), { file, line, kind }]);
  } else {
    const out = execFileSync('go', ['run', path.join(BENCH_DIR, 'languages', 'go_declarations.go'), root], { encoding: 'utf8', maxBuffer: 1 << 28, cwd: path.join(BENCH_DIR, 'languages'), env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '', GO111MODULE: 'off' } });
    const list = JSON.parse(out);
    for (const [name, file, line, kind] of list) decls.set(name, [...(decls.get(name) ?? []), { file, line, kind }]);
    files = new Set(list.map((d) => d[1])).size;
  }
  const answers = await ask(p.name, root, questions({ edges, decls, names: treeFiles(root) }, per, p.families));
  return { package: `${p.name} ${version} (Debian)`, lang: p.lang, dirs: [p.into || '.'], files, edges: edges.size, answers };
}

async function ask(name, root, qs) {
  const client = new Client({ name: 'gsd-route-eval', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: root, env: { ...process.env, GSD_MCP_TIMING: '1', GSD_MCP_MODE: 'in-process' } }));
  const answers = [];
  for (const q of qs) {
    const r = await client.callTool({ name: 'route', arguments: { query: q.query } });
    const a = r.structuredContent ?? {};
    const j = r.isError ? { ok: false, why: JSON.stringify(r.content).slice(0, 200) } : judge(q, a);
    const old = r.isError ? j : judge(q, a, 'old');
    answers.push({ package: name, family: q.family, set: q.set, query: q.query, ok: j.ok, okOld: old.ok, answeredAs: a.family, why: j.why, tokens: tokens(a), ms: r._meta?.['gsd/timing']?.handlerMs ?? NaN, cut: Boolean(a.truncated) });
    if (!j.ok) log(`route-eval ${name}: FAIL ${q.set} "${q.query}": ${j.why}`);
  }
  await client.close();
  return answers;
}

const pct = (xs) => (xs.length ? `${((100 * xs.filter((x) => x.ok).length) / xs.length).toFixed(1)} % (${xs.filter((x) => x.ok).length}/${xs.length})` : '—');
const meanTokens = (xs) => Math.round(xs.reduce((n, x) => n + x.tokens, 0) / Math.max(1, xs.length));

const SETS = [
  ['tuning', 'tuning wordings (the families were written against these)'],
  ['heldOut', 'earlier held-out wordings (seen: tuned on since)'],
  ['fresh', 'fresh held-out A (first run 95.4 %, then seen and tuned on)'],
  ['fresh2', 'fresh held-out B (first run 95.8 %, then seen and tuned on)'],
  ['fresh3', 'fresh held-out C (first run 95.4 %, then seen and tuned on)'],
  ['fresh4', 'fresh held-out D (first run 97.9 %; its one missed form mended since by a general rule)'],
  ['fresh5', 'fresh held-out E (another hand; first run 84.2 %, then seen and tuned on)'],
  ['fresh6', 'fresh held-out F (another hand, written before the rules were read; first run 85.4 %, then seen and tuned on)'],
  ['fresh7', 'fresh held-out G (a third hand, written before the rules were read and before any run; first run 81.3 %, then seen and tuned on)'],
  ['fresh8', 'fresh held-out H (written by a fourth hand before any run; never tuned on)'],
];

function section(runs) {
  const m = machineInfo();
  // the probe of wordings no family reads is reported on its own line, outside every other figure
  const probe = runs.filter((r) => !r.lang).flatMap((r) => r.answers).filter((x) => x.set === 'unread');
  runs = runs.map((r) => ({ ...r, answers: r.answers.filter((x) => x.set !== 'unread') }));
  const js = runs.filter((r) => !r.lang).flatMap((r) => r.answers);
  const L = ['<!-- route-eval:start -->', '', '### route: questions as people word them (bench/route-eval.mjs)', ''];
  L.push(`Command: \`npm run build && ${process.env.GSD_BENCH_NO_SETTLE === "1" ? "GSD_BENCH_NO_SETTLE=1 " : ""}node bench/route-eval.mjs --results-md\` on ${m.cpu} (${m.cores} cores, ${m.memGiB} GiB), ${m.os}, Node ${process.version}, python3 and go ${execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim()} from the machine, ${new Date().toISOString().slice(0, 16)} UTC, load average at the end ${m.loadavg} (the machine is shared).`);
  L.push('');
  L.push('Questions as people word them, asked once each through `route` (the server as installed, in-process), on the source folders of five packages from the npm registry and, for the new languages, a Python package and a Go module from Debian. The truth is not ours: dependency-cruiser\'s edges (Python: bench/languages/python_reference.py, on Python\'s ast and importlib\'s path finder) for "who imports X" and "what does X import"; the TypeScript compiler\'s parse (Python\'s ast, Go\'s go/parser) of each file\'s top-level declarations for "where is X defined" (names declared in exactly one file). Right = the answer is about the subject and holds the whole truth, or says it was cut with the right total and the call for the rest. Each subject is asked in about five tuning wordings, one earlier held-out wording and two of each fresh set (16 wordings per family in each fresh set). Each fresh set was written and committed before it was first run. Sets A, B and C were then looked at and the families mended with general rules (no phrase of them added), so set D, written and committed before C was looked at, and never run until the families were final, was the evidence until the sets by another hand below. Each of A–C was 95.4–95.8 % right when first run, D 97.9 %: new wordings keep finding new gaps. The same engineer wrote the rules and sets A–D, so sets E and F were written by another who had read neither the rules nor the earlier sets (terse, sloppy, long, typos, phrasal verbs, a file by path, by ./path, in backticks or by its bare name where unique), each committed before its first run; F after E\'s first run but before the rules were read or mended. E\'s first run: 84.2 % (202/240) right on the five packages, rich 85.4 % (41/48), cobra 93.8 % (15/16); its misses were mended by general rules (phrasal and light verbs, "dependent on", British spelling, typing slips, the written case of a file name, a code-shaped name over a plain word), which also took D\'s five misses. F\'s first run, after those rules: 85.4 % (205/240), rich 83.3 % (40/48), cobra 75.0 % (12/16). A different hand finds about one question in seven worded in a way the rules do not read yet. F\'s misses were then mended the same way (a bare file name of any indexed language, "impacted", inbound/outbound, a passive before "for"/"before" the file, "defn"/"decl", "module" for file, a file, line or path for or to a name, "whats"), so every set up to F has now been seen. Set G was then written by a third hand who had not read the rules or this section (the earlier sets were only glimpsed while learning the harness\'s format), and committed alone before its first run: 81.3 % (195/240) on the five packages, rich 81.3 % (39/48), cobra 87.5 % (14/16); its misses are five wordings answered by a text search instead of a graph step ("refs to F", "what files reach for F", "if I break F, which files stop compiling", "which modules would I have to touch if F moved", "goto def N"; about 1,800 tokens each against about 210), three read in the wrong direction ("files with a dependency on F" as what F imports, "what other modules get loaded when F is loaded" as who imports F, "downstream of F" as a summary of F) and one where a side clause outweighed the question ("I keep seeing N referenced, where is it actually defined?" as who uses N). The first runs of E, F and G agree that a new hand finds about one question in five to seven worded in a way the rules do not read, so route no longer answers an unread question by a text search: a question that names a file, or a name declared in exactly one file, whose words no family reads gets a combined answer that is right whatever was meant (a file: the files importing it and the files it imports, then its exports, a list over the budget cut with its total and the call for the rest; a name: where it is declared, then the files importing it). G was then looked at and mended by general rules (a consequence or what-if framing reads as dependents, "a dependency on F" as dependents of F, "loaded when F is loaded" as what F imports, "downstream of F" as its dependents and "upstream of F" as its dependencies, "refs", "reach for", "goto"/"def", and the question\'s clause outweighing a side clause when it names the subject by "it"), so G is tuned on now. Judging: a combined answer is right when the part the question asked for holds the whole truth by the rule above (a file\'s direction asked, a name\'s first location). Before combined answers for names existed, a `links` answer to "where is N defined" was judged wrong; every set is reported under both (old judging in its own column). The probe of wordings no family reads by construction (a file or name alone, "hmm, F?", "F ... thoughts?") measures the combined answer; it is not a wording set and is left out of every other figure. Route time is the handler\'s own (GSD_MCP_TIMING), every question a cache miss. Set H was then written by a fourth hand who had read neither the rules, this section nor the earlier sets, and committed alone before its first run, which left it at 99.6 % (239/240) right on the five packages under both the new and the old judging, 235 tokens (who imports 100.0 % (80/80), what a file imports 100.0 % (80/80), where a name is defined 98.8 % (79/80); rich 100.0 % (48/48), cobra 100.0 % (16/16)), its one miss "I keep seeing N used everywhere, where is it actually declared?" answered as who uses N for Symbol$ (effect) though right for the six other names it was asked with; H has not been looked at to mend anything or tuned on.');
  L.push('');
  const bar = (xs) => (xs.length && xs.filter((x) => x.ok).length / xs.length >= 0.97 && meanTokens(xs) <= 2000 ? 'PASS' : 'FAIL');
  const b = js.filter((x) => x.set === 'fresh6');
  L.push(`Bar: >= 97 % right in one call, mean answer <= 2,000 tokens, on a fresh held-out set over the five packages. On set F, by a different hand, at its first run (85.4 % (205/240), 364 tokens): **FAIL**. The same set after mending, tuned on: ${bar(b)} (${pct(b)}, ${meanTokens(b)} tokens); all questions on them ${pct(js)}, ${meanTokens(js)} tokens.`);
  const g = js.filter((x) => x.set === 'fresh7');
  L.push(`On set G, by a third hand, at its first run (81.3 % (195/240), 403 tokens; by family: who imports 62.5 % (50/80), what a file imports 93.8 % (75/80), where a name is defined 87.5 % (70/80)): **FAIL**. G after mending, tuned on: ${bar(g)} (${pct(g)}, ${meanTokens(g)} tokens). Set H, by a fourth hand after these mends, is the evidence (its first run is in the table).`);
  const h = js.filter((x) => x.set === 'fresh8');
  L.push(`On set H, by a fourth hand after those mends, at its first run (99.6 % (239/240), 235 tokens; written and committed before any run, never tuned on): **PASS**. This run: ${bar(h)} (${pct(h)}, ${meanTokens(h)} tokens).`);
  const old = (xs) => pct(xs.map((x) => ({ ok: x.okOld ?? x.ok })));
  L.push(`Combined answers, on the probe of wordings no family reads (five packages, every family): ${pct(probe)} right (old judging ${old(probe)}), mean ${meanTokens(probe)} tokens, p95 ${percentile(probe.map((x) => x.tokens), 95)}, against about 1,800 for the text search they replace.`);
  L.push('');
  L.push('| set (five npm packages) | questions | right in one call | right, old judging | mean answer tokens | p95 tokens | answers cut by the budget |');
  L.push('|---|---|---|---|---|---|---|');
  for (const [set, label] of SETS) {
    const xs = js.filter((x) => x.set === set);
    L.push(`| ${label} | ${xs.length} | ${pct(xs)} | ${old(xs)} | ${meanTokens(xs)} | ${percentile(xs.map((x) => x.tokens), 95)} | ${xs.filter((x) => x.cut).length} |`);
  }
  L.push(`| all | ${js.length} | ${pct(js)} | ${old(js)} | ${meanTokens(js)} | ${percentile(js.map((x) => x.tokens), 95)} | ${js.filter((x) => x.cut).length} |`);
  L.push('');
  L.push('| package | folders | files | edges | dependents | imports | definition | fresh set E | fresh set F | fresh set G | fresh set H | route time in the server, median / p95 (cache misses) |');
  L.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of runs) {
    const f = (fam) => pct(r.answers.filter((x) => x.family === fam));
    const ms = r.answers.map((x) => x.ms).filter(Number.isFinite);
    L.push(`| ${r.package} | ${r.dirs.join(', ')} | ${r.files} | ${r.edges || '—'} | ${f('dependents')} | ${f('imports')} | ${f('definition')} | ${pct(r.answers.filter((x) => x.set === 'fresh5'))} | ${pct(r.answers.filter((x) => x.set === 'fresh6'))} | ${pct(r.answers.filter((x) => x.set === 'fresh7'))} | ${pct(r.answers.filter((x) => x.set === 'fresh8'))} | ${median(ms).toFixed(2)} / ${percentile(ms, 95).toFixed(2)} ms |`);
  }
  L.push('');
  L.push('The new languages, every set together (Go: definitions only; a Go import names a package, not a file):');
  L.push('');
  L.push('| language | questions, every set | right in one call | fresh set E alone | fresh set F alone | fresh set G alone | fresh set H alone | mean answer tokens |');
  L.push('|---|---|---|---|---|---|---|---|');
  for (const r of runs.filter((x) => x.lang)) L.push(`| ${r.lang === 'python' ? 'Python' : 'Go'}: ${r.package} | ${r.answers.length} | ${pct(r.answers)} | ${pct(r.answers.filter((x) => x.set === 'fresh5'))} | ${pct(r.answers.filter((x) => x.set === 'fresh6'))} | ${pct(r.answers.filter((x) => x.set === 'fresh7'))} | ${pct(r.answers.filter((x) => x.set === 'fresh8'))} | ${meanTokens(r.answers)} |`);
  const misses = runs.flatMap((r) => r.answers).filter((x) => !x.ok);
  if (misses.length) {
    L.push('');
    L.push('Misses:');
    L.push('');
    for (const x of misses) L.push(`- ${x.package}, ${x.set}: "${x.query}": ${x.why}`);
  }
  L.push('', '<!-- route-eval:end -->');
  return L.join('\n');
}

runMain(async () => {
  const { opts } = parseArgs(process.argv.slice(2), SPEC, USAGE);
  const saved = path.join(WORK_DIR, 'results', 'route-eval.json');
  if (opts['from-json']) {
    writeResultsSection('<!-- route-eval:start -->', '<!-- route-eval:end -->', section(JSON.parse(fs.readFileSync(saved, 'utf8'))), 'route-eval');
    return 0;
  }
  const runs = [];
  for (const p of OTHER_LANGUAGES) runs.push(await otherRun(p, opts.per));
  for (const p of PACKAGES) runs.push(await packageRun(p, opts.per));
  const all = runs.flatMap((r) => r.answers);
  for (const set of ['tuning', 'heldOut', 'fresh', 'fresh2', 'fresh3', 'fresh4', 'fresh5', 'fresh6', 'fresh7', 'fresh8', 'unread']) {
    const xs = all.filter((x) => x.set === set);
    process.stdout.write(`${set}: ${pct(xs)} right (old judging ${pct(xs.map((x) => ({ ok: x.okOld ?? x.ok })))}), mean ${meanTokens(xs)} tokens\n`);
  }
  for (const r of runs) process.stdout.write(`${r.package} (${r.files} files): ${pct(r.answers)}, median ${median(r.answers.map((x) => x.ms)).toFixed(2)} ms\n`);
  fs.mkdirSync(path.join(WORK_DIR, 'results'), { recursive: true });
  fs.writeFileSync(path.join(WORK_DIR, 'results', 'route-eval.json'), JSON.stringify(runs, null, 2));
  if (opts['results-md']) {
    writeResultsSection('<!-- route-eval:start -->', '<!-- route-eval:end -->', section(runs), 'route-eval');
  }
  return 0; // a missed bar is a FAIL verdict in the section, not an exit code (bench/README.md)
});
