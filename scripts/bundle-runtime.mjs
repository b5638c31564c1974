#!/usr/bin/env node
// Bundles what an install runs into dist/runtime/, the folder `get-shit-done-cc install` copies to
// <config>/gsdcc/ so that nothing runs from the (temporary) npx cache:
//   hooks/post-tool-use.cjs, hooks/session-start.cjs  the hook bundles (from scripts/bundle-hooks.mjs)
//   hooks/worker.js                                    the background worker with the engine, one ESM file
//   mcp-server.js, chunks/                             the MCP server with the engine and the SDK, ESM split at the engine's
//                                                      lazy imports (the build pipeline loads only to drain a journal)
//   parse-worker.js                                    the engine's parse worker, thread or process (engine/src/parse/worker.ts), for both
//   sql-wasm.wasm                                      sql.js's wasm (engine/src/store/sqlite.ts finds it next to or above the bundle)
//   tree-sitter/                                       the tree-sitter runtime and the grammars the language modules name, with a
//                                                      package.json of its own ({"type":"commonjs"}: tree-sitter.js is CommonJS)
//                                                      (engine/src/languages/runtime.ts finds it next to or above the bundle)
//   package.json ({"type":"module"}), VERSION
//   guidance/                                          the package's guidance files (guidance_load finds them beside the runtime's package.json)
//   babel-parser.cjs, babel-parser.LICENSE             @babel/parser (one self-contained CommonJS file), required on first use:
//                                                      most edits and builds never need it (the skeleton reader takes the file)
//                                                      and half a megabyte less to compile is a few ms off every process start
// Two engine files are adapted while bundling (their sources stay as they are): parse-ast.ts loads @babel/parser with
// createRequire, which esbuild cannot follow (here: from babel-parser.cjs beside the bundle or one folder up), and
// pool.ts starts ./worker.js beside itself, which in a bundle would be the wrong file (scripts/lib/esbuild-engine.mjs,
// shared with the CLI bundle of scripts/bundle-cli.mjs).
// Part of `npm run build`, after tsc and bundle-hooks.mjs.
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { adaptEngine, esmOptions } from './lib/esbuild-engine.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'runtime');
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const staging = `${out}.tmp-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(path.join(staging, 'hooks'), { recursive: true });

const BABEL = 'babel-parser.cjs';
const adapt = (parseWorker) => adaptEngine(parseWorker, BABEL);
const esm = esmOptions;
await Promise.all([
  build({ ...esm, plugins: [adapt('../parse-worker.js')], entryPoints: [path.join(root, 'hooks', 'src', 'worker.ts')], outfile: path.join(staging, 'hooks', 'worker.js') }),
  // split at the engine's dynamic imports: the pipeline (babel, resolver, writers) loads only when a journal is drained,
  // so start-up compiles the server, the SDK and the query side only
  build({
    ...esm,
    plugins: [adapt(null)],
    entryPoints: { 'mcp-server': path.join(root, 'mcp-server', 'src', 'index.ts') },
    outdir: staging,
    splitting: true,
    chunkNames: 'chunks/mcp-[hash]',
    // smaller text to compile at start-up; identifiers kept for readable stack traces
    minifyWhitespace: true,
    minifySyntax: true,
  }),
  build({ ...esm, plugins: [adapt('./parse-worker.js')], entryPoints: [path.join(root, 'engine', 'src', 'parse', 'worker.ts')], outfile: path.join(staging, 'parse-worker.js') }),
]);
for (const hook of ['post-tool-use', 'session-start']) {
  copyFileSync(path.join(root, 'dist', 'hooks', 'src', `${hook}.cjs`), path.join(staging, 'hooks', `${hook}.cjs`));
}
copyFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'), path.join(staging, 'sql-wasm.wasm'));
// @babel/parser's lib/index.js requires nothing: it runs as it is from the runtime's folder
const babelMain = createRequire(import.meta.url).resolve('@babel/parser');
if (/\brequire\(/.test(readFileSync(babelMain, 'utf8'))) throw new Error(`bundle-runtime: ${babelMain} requires other modules; bundle it instead of copying it`);
copyFileSync(babelMain, path.join(staging, BABEL));
copyFileSync(path.join(path.dirname(babelMain), '..', 'LICENSE'), path.join(staging, 'babel-parser.LICENSE'));
// the tree-sitter runtime, and each grammar a registered language module names, not all 16: read from the registry's
// tsc output (this script runs after tsc), so a grammar named through a constant is not missed
const treeSitter = path.dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm'));
const { LANGUAGES } = await import(pathToFileURL(path.join(root, 'dist', 'engine', 'src', 'languages', 'registry.js')).href);
const grammars = new Set(LANGUAGES.map((l) => l.grammar).filter(Boolean));
mkdirSync(path.join(staging, 'tree-sitter'));
for (const f of ['tree-sitter.js', 'tree-sitter.wasm', ...grammars]) copyFileSync(path.join(treeSitter, f), path.join(staging, 'tree-sitter', f));
copyFileSync(path.join(treeSitter, '..', 'LICENSE'), path.join(staging, 'tree-sitter', 'LICENSE'));
// tree-sitter.js is a CommonJS (UMD) file that finds its folder through __filename: without this, the runtime's
// {"type":"module"} would make Node load it as ESM, where it throws "Unable to determine script URL"
writeFileSync(path.join(staging, 'tree-sitter', 'package.json'), `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`);
cpSync(path.join(root, 'guidance'), path.join(staging, 'guidance'), { recursive: true });
writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify({ type: 'module', private: true, version }, null, 2)}\n`);
writeFileSync(path.join(staging, 'VERSION'), `${version}\n`);
rmSync(out, { recursive: true, force: true });
(await import('node:fs')).renameSync(staging, out);
