/**
 * Where the package's own Markdown lives at run time: `/gsd:` command files, agent prompts and templates. The server
 * runs from one of four layouts, and in each the assets sit at a fixed place above the running module:
 *
 * | layout | the server | commands | agents | templates |
 * |---|---|---|---|---|
 * | install (global or local) | `<config>/gsdcc/mcp-server.js` (+ `chunks/`) | `<config>/gsdcc/commands/gsd/` | `<config>/gsdcc/agents/` | `<config>/gsdcc/templates/` |
 * | plugin | `<pkg>/dist/runtime/mcp-server.js` | `<pkg>/dist/plugin/commands/gsd/` (GSD_ASSETS_DIR) | `<pkg>/dist/plugin/agents/` | `<pkg>/templates/` |
 * | npm package | `<pkg>/dist/runtime/mcp-server.js` | `<pkg>/commands/gsd/` | `<pkg>/agents/` | `<pkg>/templates/` |
 * | checkout (tsc output) | `<repo>/dist/mcp-server/src/*.js` | `<repo>/commands/gsd/` | `<repo>/agents/` | `<repo>/templates/` |
 *
 * (An install keeps its own copy of the commands and agents inside its runtime folder, as installed, so the server never
 * reads upstream GSD's `<config>/commands/gsd/` one level up.) So: walk up from the module's folder; the first folder holding `commands/gsd/` gives commands (and `agents/` beside
 * it), the first holding `templates/PLAN.md` gives templates. `GSD_ASSETS_DIR` (a folder laid out like the package)
 * is searched first.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readText } from './markdown.js';

export interface AssetDirs {
  commands: string | null;
  agents: string | null;
  templates: string | null;
  /** every folder looked at, for error messages */
  searched: string[];
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The asset folders above `start` (default: this module's folder), at most 6 levels up. */
export function findAssetDirs(start = path.dirname(fileURLToPath(import.meta.url)), env: NodeJS.ProcessEnv = process.env): AssetDirs {
  const out: AssetDirs = { commands: null, agents: null, templates: null, searched: [] };
  const candidates: string[] = [];
  if (env.GSD_ASSETS_DIR) candidates.push(path.resolve(env.GSD_ASSETS_DIR));
  for (let d = path.resolve(start), i = 0; i < 7; i++, d = path.dirname(d)) {
    candidates.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of candidates) {
    out.searched.push(d);
    if (!out.commands && isDir(path.join(d, 'commands', 'gsd'))) {
      out.commands = path.join(d, 'commands', 'gsd');
      if (isDir(path.join(d, 'agents'))) out.agents = path.join(d, 'agents');
    }
    if (!out.templates && readText(path.join(d, 'templates', 'PLAN.md')) !== null) out.templates = path.join(d, 'templates');
    if (out.commands && out.templates) break;
  }
  return out;
}

let cached: AssetDirs | null = null;
export function assetDirs(): AssetDirs {
  return (cached ??= findAssetDirs());
}

let renames: Map<string, string> | null = null;
/**
 * Our agents' names as installed: beside upstream GSD an install names them `gsdcc-<x>` instead of `gsd-<x>`
 * (installer/src/install/assets.ts), so spawn plans must name those. Empty when the agents are installed as shipped.
 */
export function installedAgentNames(dirs: AssetDirs = assetDirs()): Map<string, string> {
  if (renames && dirs === cached) return renames;
  const ids = new Set(listAssetIds(dirs.agents));
  const out = new Map<string, string>();
  for (const id of ids) if (id.startsWith('gsdcc-') && !ids.has(`gsd-${id.slice(6)}`)) out.set(`gsd-${id.slice(6)}`, id);
  if (dirs === cached) renames = out;
  return out;
}

/** A copy of `value` where every string equal to a renamed agent's shipped name is its installed name. */
export function withInstalledAgentNames<T>(value: T, names: Map<string, string> = installedAgentNames()): T {
  if (!names.size) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return names.get(v) ?? v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * The namespace our commands are installed under, `gsd` or `gsdcc`: the installer renames commands and agents together
 * (`/gsdcc:<name>` with `gsdcc-<agent>`, installer/src/install/assets.ts), and so does the plugin's build, so the
 * agents' names tell it.
 */
export function installedCommandNamespace(dirs: AssetDirs = assetDirs()): 'gsd' | 'gsdcc' {
  return installedAgentNames(dirs).size ? 'gsdcc' : 'gsd';
}

/** `/gsd:<name>` or `/gsdcc:<name>`, as our command `name` is installed. */
export function installedCommand(name: string, dirs: AssetDirs = assetDirs()): string {
  return `/${installedCommandNamespace(dirs)}:${name}`;
}

/** A safe asset id: lower-case words joined by `-`, `_` or `:` (`plan-phase`, `gsd:plan-phase`, `gsd-planner`). */
export const ASSET_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** `gsd:plan-phase`, `/gsdcc:plan-phase`, `plan-phase` → `plan-phase`; null for anything that is not an id. */
export function assetId(value: string): string | null {
  const v = value.trim().toLowerCase().replace(/^\//, '').replace(/^gsd(cc)?:/, '');
  return ASSET_ID.test(v) ? v : null;
}

/** The ids (`<id>.md`) of one asset folder, sorted. */
export function listAssetIds(dir: string | null): string[] {
  if (!dir) return [];
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3))
      .filter((id) => ASSET_ID.test(id))
      .sort();
  } catch {
    return [];
  }
}

/** The text of `<dir>/<id>.md`, or null (unknown id, unsafe id, no folder). */
export function readAsset(dir: string | null, id: string): string | null {
  if (!dir || !ASSET_ID.test(id)) return null;
  return readText(path.join(dir, `${id}.md`));
}

/** The text of one template (`PLAN.md`, …), or null. */
export function readTemplate(name: string, dirs: AssetDirs = assetDirs()): string | null {
  if (!dirs.templates || !/^[A-Z]+\.md$/.test(name)) return null;
  return readText(path.join(dirs.templates, name));
}
