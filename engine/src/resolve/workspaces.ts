/**
 * Workspace packages: npm/yarn `workspaces` (array or `{ packages: [...] }`) in the root package.json, pnpm's
 * pnpm-workspace.yaml `packages:` list and lerna.json `packages`. Globs are matched against the directories that
 * hold indexed files (the resolver has no directory listing), and a matching directory with a named package.json is
 * a workspace package.
 */

import type { RelPath } from '../types.js';
import { isRecord } from './jsonc.js';
import type { PackageInfo } from './package-json.js';
import type { ConfigReader } from './reader.js';

/** The `packages:` list of a pnpm-workspace.yaml (block or flow style); a tiny YAML subset, never throws. */
export function parsePnpmWorkspace(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.startsWith('packages:')) continue;
    let rest = stripComment(line.slice('packages:'.length)).trim();
    if (rest.startsWith('[')) {
      // flow sequence, possibly over several lines
      let j = i;
      while (!rest.includes(']') && j + 1 < lines.length) rest += ' ' + stripComment(lines[++j]).trim();
      const body = rest.slice(1, rest.includes(']') ? rest.indexOf(']') : undefined);
      for (const item of body.split(',')) {
        const v = unquote(item.trim());
        if (v) out.push(v);
      }
      return out;
    }
    for (let j = i + 1; j < lines.length; j++) {
      const raw = lines[j];
      const trimmed = raw.trim();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      if (trimmed.startsWith('-')) {
        const v = unquote(stripComment(trimmed.slice(1)).trim());
        if (v) out.push(v);
        continue;
      }
      if (raw.charCodeAt(0) !== 32 && raw.charCodeAt(0) !== 9) break; // next top-level key
    }
    return out;
  }
  return out;
}

function stripComment(s: string): string {
  // a `#` starts a comment at the start or after whitespace, outside quotes
  let quote = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 35 && (i === 0 || s.charCodeAt(i - 1) === 32 || s.charCodeAt(i - 1) === 9)) return s.slice(0, i);
  }
  return s;
}

function unquote(s: string): string {
  if (s.length >= 2 && (s[0] === '"' || s[0] === "'") && s[s.length - 1] === s[0]) return s.slice(1, -1);
  return s;
}

/** Matches one path segment against a glob segment with `*` and `?`. */
function segmentMatcher(seg: string): (s: string) => boolean {
  if (!seg.includes('*') && !seg.includes('?')) return (s) => s === seg;
  let src = '^';
  for (const ch of seg) src += ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(src + '$');
  return (s) => re.test(s);
}

type GlobSeg = { any: true } | { any: false; match: (s: string) => boolean };

/** A directory glob (`packages/*`, `apps/**`, `tools/cli`) as a predicate on project-relative directories. */
export function compileDirGlob(glob: string): (dir: RelPath) => boolean {
  let g = glob.trim();
  while (g.startsWith('./')) g = g.slice(2);
  while (g.endsWith('/')) g = g.slice(0, -1);
  if (g.endsWith('/package.json')) g = g.slice(0, -'/package.json'.length);
  const segs: GlobSeg[] = g
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .map((s) => (s === '**' ? { any: true } : { any: false, match: segmentMatcher(s) }));
  const test = (parts: string[], pi: number, si: number): boolean => {
    if (si === segs.length) return pi === parts.length;
    const seg = segs[si];
    if (seg.any) {
      for (let k = pi; k <= parts.length; k++) if (test(parts, k, si + 1)) return true;
      return false;
    }
    return pi < parts.length && seg.match(parts[pi]) && test(parts, pi + 1, si + 1);
  };
  return (dir) => dir !== '' && test(dir.split('/'), 0, 0);
}

/** The workspace globs declared by the project (root package.json, pnpm-workspace.yaml, lerna.json). */
export function workspaceGlobs(reader: ConfigReader): string[] {
  const globs: string[] = [];
  const pkg = reader.json('package.json');
  if (isRecord(pkg)) {
    const ws = pkg.workspaces;
    const list = Array.isArray(ws) ? ws : isRecord(ws) && Array.isArray(ws.packages) ? ws.packages : [];
    for (const g of list) if (typeof g === 'string') globs.push(g);
  }
  const pnpm = reader.text('pnpm-workspace.yaml');
  if (pnpm !== null) globs.push(...parsePnpmWorkspace(pnpm));
  if (reader.text('lerna.json') !== null) {
    const lerna = reader.json('lerna.json');
    if (isRecord(lerna) && Array.isArray(lerna.packages)) {
      for (const g of lerna.packages) if (typeof g === 'string') globs.push(g);
    }
  }
  return globs;
}

/**
 * Name → package of every workspace package. `packageAt` reads a directory's package.json (cached by the caller).
 * Directories are those holding indexed files, so a package without any indexed file is not found.
 */
export function discoverWorkspaces(
  reader: ConfigReader,
  files: Iterable<RelPath>,
  packageAt: (dir: RelPath) => PackageInfo | null,
): Map<string, PackageInfo> {
  const byName = new Map<string, PackageInfo>();
  const globs = workspaceGlobs(reader);
  if (globs.length === 0) return byName;
  const include: ((d: string) => boolean)[] = [];
  const exclude: ((d: string) => boolean)[] = [];
  for (const g of globs) {
    if (g.startsWith('!')) exclude.push(compileDirGlob(g.slice(1)));
    else include.push(compileDirGlob(g));
  }
  if (include.length === 0) return byName;

  const dirs = new Set<RelPath>();
  for (const f of files) {
    let slash = f.lastIndexOf('/');
    while (slash > 0) {
      const d = f.slice(0, slash);
      if (dirs.has(d)) break;
      dirs.add(d);
      slash = d.lastIndexOf('/');
    }
  }
  for (const d of [...dirs].sort()) {
    if (d.includes('node_modules')) continue;
    if (!include.some((m) => m(d)) || exclude.some((m) => m(d))) continue;
    const pkg = packageAt(d);
    if (pkg?.name && !byName.has(pkg.name)) byName.set(pkg.name, pkg);
  }
  return byName;
}
