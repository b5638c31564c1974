#!/usr/bin/env node
// Bundles each Claude Code hook into one CommonJS file next to its tsc output: dist/hooks/src/<hook>.cjs.
// Why: a hook blocks Claude Code for as long as Node takes to start it. One CommonJS file skips the ESM loader's
// resolve/link work over half a dozen modules (measured in bench/hooks.mjs and ARCHITECTURE.md). The worker
// (dist/hooks/src/worker.js) stays tsc output: it runs in the background and loads the engine anyway.
// Part of `npm run build`, after tsc.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOOKS = ['post-tool-use', 'session-start'];
// what the PostToolUse hook captures: every registered language's files and resolution config files, read from the
// registry's tsc output (this script runs after tsc) so the hook itself loads no engine module
const registry = await import(pathToFileURL(path.join(root, 'dist', 'engine', 'src', 'languages', 'registry.js')).href);
const languages = { extensions: registry.indexedExtensions(), configFiles: registry.resolutionConfigNames() };

await Promise.all(
  HOOKS.map((name) =>
    build({
      entryPoints: [path.join(root, 'hooks', 'src', `${name}.ts`)],
      outfile: path.join(root, 'dist', 'hooks', 'src', `${name}.cjs`),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      // the hooks find their worker relative to themselves; a CommonJS bundle has __filename instead
      define: { 'import.meta.url': '__gsdImportMetaUrl', __GSD_LANGUAGES__: JSON.stringify(languages) },
      banner: { js: "const __gsdImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
      // the hooks import node built-ins and the engine's light modules only; anything else is a mistake
      external: [],
      logLevel: 'warning',
      legalComments: 'none',
      sourcemap: 'linked',
      metafile: true,
    }).then((result) => {
      const inputs = Object.keys(result.metafile.inputs);
      const heavy = inputs.filter((p) => /node_modules|engine\/src\/(?!journal|root|process-alive|worker-role|planning\/lease-check)/.test(p));
      if (heavy.length) throw new Error(`${name}: the hook bundle pulled in ${heavy.join(', ')}; hooks may import only the engine's light modules (journal, root, process-alive, worker-role, planning/lease-check)`);
    }),
  ),
);
