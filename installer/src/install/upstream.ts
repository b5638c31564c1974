/**
 * Upstream GSD (the published get-shit-done-cc 1.x and its successor @opengsd/gsd-core) in a Claude config folder:
 * what of it is there, and which files in the shared old runtime folder are ours. Read-only: nothing here writes.
 * The layouts and the rules of their installers are in docs/coexistence.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isObject, readJson, sha256 } from '../settings/json.js';
import { listFiles } from './fsops.js';
import { LEGACY_RUNTIME_FOLDER } from './target.js';

export interface UpstreamReport {
  /** one line per layout found, e.g. "57 /gsd: commands in commands/gsd/" */
  found: string[];
  /** the upstream version its manifest or VERSION file names, when one does */
  version?: string;
}

const entries = (dir: string) => {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
};

/** sha256 by path relative to the config folder, from upstream's gsd-file-manifest.json (empty when absent). */
export function upstreamManifest(configDir: string): Map<string, string> {
  const read = readJson(path.join(configDir, 'gsd-file-manifest.json'));
  const out = new Map<string, string>();
  if (read.kind !== 'ok' || !isObject(read.value.files)) return out;
  for (const [rel, hash] of Object.entries(read.value.files)) if (typeof hash === 'string') out.set(rel.split('/').join(path.sep), hash);
  return out;
}

/**
 * Every trace of upstream GSD under `configDir`. `ours` holds the absolute paths our manifest lists, which never
 * count as upstream (an older release of ours used the same command and agent names).
 */
export function detectUpstream(configDir: string, ours: ReadonlySet<string>, settings?: unknown): UpstreamReport {
  const found: string[] = [];
  const notOurs = (dir: string, pick: (name: string) => boolean) =>
    entries(dir).filter((e) => pick(e.name) && !e.name.includes('.gsd-backup-') && !ours.has(path.join(dir, e.name))).length;
  const commands = listFiles(path.join(configDir, 'commands', 'gsd')).filter((f) => !f.includes('.gsd-backup-') && !ours.has(path.join(configDir, 'commands', 'gsd', f))).length;
  if (commands) found.push(`${commands} /gsd: command file(s) in commands/gsd/`);
  const flat = notOurs(path.join(configDir, 'commands'), (n) => n.startsWith('gsd-') && n.endsWith('.md'));
  if (flat) found.push(`${flat} gsd-*.md command(s) in commands/`);
  const skills = entries(path.join(configDir, 'skills')).filter((e) => e.isDirectory() && e.name.startsWith('gsd-')).length;
  if (skills) found.push(`${skills} skill(s) in skills/gsd-*/`);
  const agents = notOurs(path.join(configDir, 'agents'), (n) => n.startsWith('gsd-') && n.endsWith('.md'));
  if (agents) found.push(`${agents} agent(s) agents/gsd-*.md`);
  const legacy = path.join(configDir, LEGACY_RUNTIME_FOLDER);
  if (existsSync(path.join(legacy, 'workflows')) || existsSync(path.join(legacy, 'bin', 'gsd-tools.cjs'))) found.push(`its runtime in ${LEGACY_RUNTIME_FOLDER}/ (workflows, tools)`);
  if (existsSync(path.join(configDir, 'gsd-core'))) found.push('its runtime in gsd-core/');
  const manifest = readJson(path.join(configDir, 'gsd-file-manifest.json'));
  let version: string | undefined;
  if (manifest.kind === 'ok') {
    found.push('its file manifest gsd-file-manifest.json');
    if (typeof manifest.value.version === 'string') version = manifest.value.version;
  }
  for (const f of [path.join(legacy, 'VERSION'), path.join(configDir, 'gsd-core', 'VERSION')]) {
    if (version || !found.length) break;
    try {
      version = readFileSync(f, 'utf8').trim().slice(0, 40) || undefined;
    } catch {
      // none
    }
  }
  const hooks = entries(path.join(configDir, 'hooks')).filter((e) => /^gsd-/.test(e.name)).length;
  if (hooks) found.push(`${hooks} hook script(s) hooks/gsd-*`);
  if (isObject(settings)) {
    const registered = JSON.stringify(settings.hooks ?? {}).match(/hooks[\\/]+gsd-[\w.-]+/g)?.length ?? 0;
    if (registered) found.push(`${registered} of its hook(s) registered in settings.json`);
    if (isObject(settings.statusLine) && /gsd-/.test(String(settings.statusLine.command ?? ''))) found.push('its statusLine in settings.json');
  }
  return { found, version };
}

/**
 * The files of ours in the old runtime folder `<config>/get-shit-done/` (relative to it): the ones this release also
 * ships (`shipped`) plus manifest.json, minus any upstream's gsd-file-manifest.json lists with the same bytes. Every
 * other file there is left alone.
 */
export function oursInLegacyFolder(configDir: string, shipped: readonly string[]): string[] {
  const legacy = path.join(configDir, LEGACY_RUNTIME_FOLDER);
  const theirs = upstreamManifest(configDir);
  const out: string[] = [];
  for (const rel of new Set([...shipped, 'manifest.json'])) {
    const file = path.join(legacy, rel);
    if (!existsSync(file)) continue;
    const listed = theirs.get(path.join(LEGACY_RUNTIME_FOLDER, rel));
    if (listed && listed === sha256(readFileSync(file))) continue;
    out.push(rel);
  }
  return out.sort();
}
