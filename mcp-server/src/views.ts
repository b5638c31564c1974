/** Shared views over the intel used by several tools: file arguments, critical files, excerpts. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { entryPoints, hotspots, looksLikeEntityId, type IntelReader, type NodeInfo } from '../../engine/src/index.js';
import type { Project } from './context.js';
import { isSecretPath, resolveInside } from './security.js';

/** A file argument (root-relative path, absolute path inside the root, or entity id) → the indexed node. */
export function lookupFile(project: Project, reader: IntelReader, file: string): NodeInfo {
  if (looksLikeEntityId(file.trim()) && reader.nodes.has(file.trim())) return reader.nodes.get(file.trim())!;
  const { rel } = resolveInside(project.root, file, 'file');
  return reader.lookup(rel);
}

const API_PATH = /(^|\/)(api|apis|routes?|controllers?|handlers?|endpoints?|server|graphql|rpc)(\/|\.|$)/i;

export interface Critical {
  entryPoints: Set<string>;
  hotspots: Set<string>;
  isApi(path: string): boolean;
  why(node: { id: string; path: string }): string[];
}

/** Entry points (all of them, by the engine's rule), top-10 hotspots, and API-looking paths. */
export function critical(reader: IntelReader): Critical {
  return reader.memo('gsd-critical', () => {
    const entry = new Set(entryPoints(reader).map((n) => n.id));
    const hot = new Set(hotspots(reader, { limit: 10 }).hotspots.map((h) => h.id));
    const isApi = (p: string) => API_PATH.test(p) || /(^|\/)(src\/)?index\.[cm]?[jt]sx?$/.test(p) && p.split('/').length <= 3;
    return {
      entryPoints: entry,
      hotspots: hot,
      isApi,
      why(node: { id: string; path: string }) {
        const out: string[] = [];
        if (entry.has(node.id)) out.push('entry point');
        if (isApi(node.path)) out.push('api');
        if (hot.has(node.id)) out.push('hotspot');
        return out;
      },
    };
  });
}

/** A short excerpt of a file around a line (secrets never read; lines clipped). */
export function excerpt(project: Project, rel: string, line: number, context = 2): string | null {
  if (isSecretPath(rel)) return null;
  try {
    const { abs } = resolveInside(project.root, rel);
    const lines = readFileSync(abs, 'utf8').split('\n');
    const from = Math.max(0, line - 1 - context);
    return lines
      .slice(from, from + context * 2 + 1)
      .map((l) => (l.length > 140 ? `${l.slice(0, 139)}…` : l))
      .join('\n');
  } catch {
    return null;
  }
}

/** Reads an indexed file's text for lexical checks (null for secrets or unreadable files). */
export function readSource(project: Project, rel: string): string | null {
  if (isSecretPath(rel)) return null;
  try {
    const { abs } = resolveInside(project.root, rel);
    return readFileSync(abs, 'utf8');
  } catch {
    return null;
  }
}
