/** manifest.json in the runtime folder: everything one install added, so that uninstall removes exactly that. */
import { readJson, isObject } from '../settings/json.js';
import type { SharedRecord } from './shared.js';

export interface JsonFileRecord {
  file: string;
  /** the file did not exist before the first install */
  created: boolean;
  /** a copy of the file as it was before the first install, while nothing but us changed it since */
  restore?: string;
  /** sha256 of the file right after our last write: equal now means nobody else changed it */
  hashAfter: string;
}

export interface Manifest {
  name: 'get-shit-done-cc';
  version: string;
  installedAt: string;
  scope: 'global' | 'local';
  configDir: string;
  projectDir?: string;
  node: string;
  runtimeDir: string;
  /**
   * files installed outside the runtime folder (commands, agents), absolute; `hash`: sha256 as we wrote it; `aside`:
   * someone else's file moved to `backup` so that a set of ours is never mixed with theirs (`--names gsd` beside upstream)
   */
  files: { path: string; backup?: string; hash?: string; aside?: boolean }[];
  /** the runtime folder's files, relative to it (manifest.json aside): uninstall deletes these and nothing else */
  runtimeFiles?: string[];
  /** a folder of someone else's found where the runtime goes, moved aside; uninstall puts it back */
  runtimeBackup?: string;
  /** the names our commands and agents were installed under: `gsd` (/gsd:…, gsd-*) or `gsdcc` (/gsdcc:…, gsdcc-*) */
  names?: 'gsd' | 'gsdcc';
  settings?: JsonFileRecord & { hooks: { event: string; command: string }[] };
  mcp?: { method: 'claude-cli' | 'claude-json' | 'mcp-json'; name: string; file: string; entry: unknown; record?: JsonFileRecord };
  /** `install --shared`: what it added to the GSD home (install/shared.ts) */
  shared?: SharedRecord;
  backups: string[];
}

export type ManifestRead = { kind: 'missing' } | { kind: 'ok'; manifest: Manifest } | { kind: 'invalid'; reason: string };

export function readManifest(file: string): ManifestRead {
  let read;
  try {
    read = readJson(file);
  } catch (error) {
    return { kind: 'invalid', reason: `${file}: ${(error as Error).message}` };
  }
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind === 'invalid') return { kind: 'invalid', reason: `${file} line ${read.line}: ${read.reason}` };
  const m = read.value;
  if (m.name !== 'get-shit-done-cc' || typeof m.version !== 'string' || !Array.isArray(m.files)) {
    return { kind: 'invalid', reason: `${file} is not a get-shit-done-cc manifest` };
  }
  if (m.settings !== undefined && !isObject(m.settings)) return { kind: 'invalid', reason: `${file}: "settings" is malformed` };
  return { kind: 'ok', manifest: { ...(m as unknown as Manifest), backups: Array.isArray(m.backups) ? (m.backups as string[]) : [] } };
}
