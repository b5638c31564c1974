#!/usr/bin/env node
// Bundles the CLI (package.json "bin") into dist/cli/:
//   cli.js            the entry: argument dispatch, --version, --help (ESM, with the #!/usr/bin/env node line)
//   chunks/cli-*.js   the rest, split at the dynamic imports: each command (installer/src/commands/*.ts) loads only
//                     when it runs, the engine's pipeline only inside buildIntel & co., prompts only for an interactive
//                     install. `intel build` loads no installer code and no prompts; `install` loads no babel.
//   parse-worker.js   the engine's parse worker: threads from 4 cores up, below that one process for the tree-sitter files of a large load; one file
// Unlike dist/runtime/ (which install copies out of the package), the CLI always runs from the installed package, so
// it may load dependencies from its node_modules: @babel/parser (only when a file needs it) and sql-wasm.wasm
// (engine/src/store/sqlite.ts resolves sql.js's own when none lies beside the bundle) are not bundled or copied.
// Why: the unbundled tsc output (dist/installer/src/cli.js) spent ~100 ms of every `intel build` loading ~60 ESM
// modules and the CommonJS trees of fast-glob, picomatch, ignore and sql.js through Node's loaders. A few bundled
// files skip that resolve/link work (figures in ARCHITECTURE.md, "Start-up").
// Everything the CLI process runs of the engine is inside this bundle: engine errors are checked with instanceof, so
// one process must never mix bundled and unbundled (dist/engine) copies of an engine module.
// Files located from the bundle's own place (installer/src/install/target.ts packageRoot()) walk up to the package root.
// Part of `npm run build`, after tsc.
import { build } from 'esbuild';
import { chmodSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adaptEngine, esmOptions } from './lib/esbuild-engine.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'cli');
const staging = `${out}.tmp-${process.pid}`;
rmSync(staging, { recursive: true, force: true });

const bin = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).bin?.['get-shit-done-cc'];
if (bin !== 'dist/cli/cli.js') throw new Error(`bundle-cli: package.json "bin" is ${bin}, expected dist/cli/cli.js`);

// @babel/parser stays in node_modules, loaded with require() on first use (engine/src/parse/parse-ast.ts): most builds
// never need it (the skeleton reader handles the files), and 0.5 MB less to compile is ~15 ms less start-up.
const external = ['@babel/parser'];

const [cli] = await Promise.all([
  build({
    ...esmOptions,
    external,
    plugins: [adaptEngine(null)],
    entryPoints: { cli: path.join(root, 'installer', 'src', 'cli.ts') },
    outdir: staging,
    splitting: true,
    chunkNames: 'chunks/cli-[hash]',
    // smaller text to compile at start-up; identifiers kept for readable stack traces
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
  }),
  build({ ...esmOptions, external, minifyWhitespace: true, minifySyntax: true, plugins: [adaptEngine('./parse-worker.js')], entryPoints: [path.join(root, 'engine', 'src', 'parse', 'worker.ts')], outfile: path.join(staging, 'parse-worker.js') }),
]);

// ---------------------------------------------------------------- what each command loads
const outputs = cli.metafile.outputs;
const rel = (p) => path.relative(root, path.resolve(root, p)).split(path.sep).join('/');
const outputOf = (input) => {
  const found = Object.entries(outputs).find(([, o]) => Object.keys(o.inputs).some((i) => rel(i) === input));
  if (!found) throw new Error(`bundle-cli: ${input} is in no output`);
  return found[0];
};
/** The inputs of `starts` and of every chunk they import statically (what loads with them). */
const loadedWith = (...starts) => {
  const seen = new Set();
  const visit = (o) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const i of outputs[o].imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  starts.forEach(visit);
  return [...seen].flatMap((o) => Object.keys(outputs[o].inputs).map(rel));
};
// (the targets of dynamic imports have an entryPoint too)
const entry = Object.keys(outputs).find((o) => outputs[o].entryPoint && rel(outputs[o].entryPoint) === 'installer/src/cli.ts');
const checks = [
  ['the entry (--version, --help)', loadedWith(entry), /^(engine\/src\/(?!version)|node_modules\/|installer\/src\/commands\/)/],
  ['intel build', loadedWith(entry, outputOf('installer/src/commands/intel.ts'), outputOf('engine/src/pipeline/build.ts')), /^(installer\/src\/(commands\/(install|uninstall|doctor)|install\/|settings\/)|node_modules\/prompts\/)/],
  ['install', loadedWith(entry, outputOf('installer/src/commands/install.ts')), /^(engine\/src\/(?!version)|node_modules\/(@babel|sql\.js|prompts)\/)/],
  // the graph page's ~0.6 MB of inlined script loads for `intel view` only
  ['intel build/query', loadedWith(entry, outputOf('installer/src/commands/intel.ts'), outputOf('engine/src/pipeline/build.ts')), /^engine\/src\/view\//],
];
for (const [what, inputs, forbidden] of checks) {
  const bad = inputs.filter((i) => forbidden.test(i));
  if (bad.length) throw new Error(`bundle-cli: ${what} would load ${bad.slice(0, 8).join(', ')}${bad.length > 8 ? ', …' : ''}; keep it behind a dynamic import`);
}

chmodSync(path.join(staging, 'cli.js'), 0o755);
rmSync(out, { recursive: true, force: true });
renameSync(staging, out);
