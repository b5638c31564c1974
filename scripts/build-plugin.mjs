#!/usr/bin/env node
// Writes the plugin's commands and agents into dist/plugin/, laid out like the package (commands/gsd/, agents/):
// the set under the gsdcc names (/gsdcc:<name>, gsdcc-<agent>), made by the installer's own rewrite
// (installer/src/install/assets.ts, ourAssets(root, 'gsdcc')), so the plugin `gsdcc` names only itself beside upstream
// GSD's /gsd: commands and gsd-* agents. .claude-plugin/plugin.json points its `commands` and `agents` here, and the
// plugin's .mcp.json points the server's GSD_ASSETS_DIR here (spawn plans and hints then say gsdcc).
// Part of `npm run build`, after tsc.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { ourAssets } = await import(pathToFileURL(path.join(root, 'dist', 'installer', 'src', 'install', 'assets.js')).href);
const out = path.join(root, 'dist', 'plugin');
const staging = `${out}.tmp-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
for (const asset of ourAssets(root, 'gsdcc')) {
  const file = path.join(staging, asset.runtimeRel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, asset.bytes);
}
rmSync(out, { recursive: true, force: true });
renameSync(staging, out);
