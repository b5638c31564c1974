// What the esbuild bundles that contain the engine share (scripts/bundle-runtime.mjs, scripts/bundle-cli.mjs).
import { readFileSync } from 'node:fs';

/**
 * Two engine files are adapted while bundling (their sources stay as they are): parse-ast.ts loads @babel/parser with
 * createRequire, which esbuild cannot follow, and pool.ts starts ./worker.js beside itself, which in a bundle would be
 * the wrong file. `parseWorker` is the parse worker's path relative to the bundle (null: found at run time, beside the
 * chunk holding pool.ts or one folder up). `babelFile` (a file name): @babel/parser is required from that file beside
 * the bundle or one folder up, on first use (the runtime ships it there, scripts/bundle-runtime.mjs); without it the
 * require names the package (bundled, or left external by the caller).
 */
export const adaptEngine = (parseWorker, babelFile = null) => ({
  name: 'gsd-adapt-engine',
  setup(b) {
    b.onLoad({ filter: /engine[\\/]src[\\/]parse[\\/](parse-ast|pool)\.ts$/ }, async (args) => {
      let text = readFileSync(args.path, 'utf8');
      const before = text;
      if (args.path.endsWith('parse-ast.ts')) {
        const babel = babelFile
          ? `require(((f) => (require('node:fs').existsSync(new URL(f, import.meta.url)) ? f : \`.\${f}\`))(${JSON.stringify(`./${babelFile}`)}))`
          : "require('@babel/parser')";
        text = text.replace("createRequire(import.meta.url)('@babel/parser')", babel);
      }
      else {
        // a split chunk does not know its folder at build time: look beside it, then one folder up
        const where = parseWorker ?? "(require('node:fs').existsSync(new URL('./parse-worker.js', here)) ? './parse-worker.js' : '../parse-worker.js')";
        text = text.replace("here.endsWith('.ts') ? './worker.ts' : './worker.js'", parseWorker ? JSON.stringify(parseWorker) : where);
      }
      if (text === before) throw new Error(`esbuild-engine: ${args.path} changed; update the rewrite in scripts/lib/esbuild-engine.mjs`);
      return { contents: text, loader: 'ts' };
    });
  },
});

/** esbuild options for an ESM bundle for Node 20 that may contain CommonJS dependencies. */
export const esmOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // sql.js and other CommonJS dependencies call require() for node built-ins
  // (and sql.js's Node loader reads __dirname, which ESM has not)
  banner: {
    js: [
      "import { createRequire as __gsdCreateRequire } from 'node:module';",
      "import { fileURLToPath as __gsdFileURLToPath } from 'node:url';",
      'const require = __gsdCreateRequire(import.meta.url);',
      'const __filename = __gsdFileURLToPath(import.meta.url);',
      "const __dirname = __gsdFileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
  logLevel: 'warning',
  legalComments: 'none',
};
