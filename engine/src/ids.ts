import { sha1Hex } from './hash.js';
import path from 'node:path';
import type { RelPath } from './types.js';

const MAX_SLUG = 80;

/**
 * The entity id of a file: a readable lower-case slug of the path plus 12 hex digits of the sha1 of the exact path.
 * Deterministic from the path alone, filesystem-safe, and two paths that differ only in case get different ids
 * that also differ when lower-cased (the hash part), so they never collide on a case-insensitive file system.
 */
export function entityId(relPath: RelPath): string {
  const slug = relPath
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(-MAX_SLUG)
    .replace(/^-+/, '');
  const hash = sha1Hex(relPath).slice(0, 12);
  return `${slug || 'file'}-${hash}`;
}

/** Normalises a path given by a user or a tool to a repo-relative `/` path, or null when it leaves the root. */
export function toRelPath(root: string, p: string): RelPath | null {
  const abs = path.resolve(root, p);
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

const ID_PATTERN = /^[a-z0-9-]+-[0-9a-f]{12}$/;

export function looksLikeEntityId(value: string): boolean {
  return ID_PATTERN.test(value);
}
