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
  /** files installed outside the runtime folder (commands, agents), absolute */
  files: { path: string; backup?: string }[];
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
