/**
 * Cheap string helpers for project-relative paths (`/` separators, no leading `./`, the root is '').
 * These run in the resolver's hot path, so they avoid regexes and `split` unless a path really needs normalising.
 */

import type { RelPath } from '../types.js';

/** Directory part of a project-relative path ('' for a file at the root). */
export function dirOf(path: RelPath): RelPath {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** `dir` + `/` + `name`, for a normalised `name`. */
export function joinDir(dir: RelPath, name: string): RelPath {
  if (dir === '') return name;
  if (name === '') return dir;
  return dir + '/' + name;
}

/** True when `path` contains `.`/`..` segments or empty segments that need normalising. */
function needsNormalising(path: string): boolean {
  if (path.length === 0) return false;
  const c0 = path.charCodeAt(0);
  if (c0 === 46 /* . */ || c0 === 47 /* / */) return true;
  if (path.indexOf('//') !== -1) return true;
  if (path.indexOf('/.') !== -1) return true;
  return false;
}

/**
 * Normalises a project-relative path: resolves `.` and `..`, drops empty segments and a trailing slash.
 * Returns the path with a leading `../` chain when it climbs above the root (callers decide whether that is allowed).
 */
export function normalizeRel(path: string): string {
  if (!needsNormalising(path)) {
    return path.length > 0 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path;
  }
  const out: string[] = [];
  let ups = 0;
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0) out.pop();
      else ups++;
      continue;
    }
    out.push(seg);
  }
  let result = out.join('/');
  for (let i = 0; i < ups; i++) result = result === '' ? '..' : '../' + result;
  return result;
}

/** True when a normalised path climbs above the project root. */
export function isOutsideRoot(path: string): boolean {
  return path === '..' || path.startsWith('../');
}

/**
 * Joins a directory and a relative path (`./x`, `../x`, `x/y`, `.`), normalised.
 * Fast path for the usual `./name` and `../name` shapes.
 */
export function joinRel(dir: RelPath, rel: string): string {
  let d = dir;
  let i = 0;
  const n = rel.length;
  for (;;) {
    if (rel.charCodeAt(i) !== 46 /* . */) break;
    const c1 = rel.charCodeAt(i + 1);
    if (c1 === 47 /* / */) {
      i += 2;
      continue;
    }
    if (i + 1 === n) {
      i += 1;
      break;
    }
    if (c1 === 46 && (i + 2 === n || rel.charCodeAt(i + 2) === 47)) {
      if (d === '' || d === '..' || d.endsWith('/..')) d = d === '' ? '..' : d + '/..';
      else {
        const slash = d.lastIndexOf('/');
        d = slash === -1 ? '' : d.slice(0, slash);
      }
      i += i + 2 === n ? 2 : 3;
      continue;
    }
    break;
  }
  const rest = i === 0 ? rel : rel.slice(i);
  if (needsNormalising(rest) || (rest.length > 0 && rest.charCodeAt(rest.length - 1) === 47)) {
    return normalizeRel(d === '' ? rest : d + '/' + rest);
  }
  // `d` is normalised already (a directory of a normalised path), and so is `rest`
  return d === '' ? rest : rest === '' ? d : d + '/' + rest;
}

/** Splits a bare specifier into its package name (`@scope/name` or `name`) and the subpath after it (without `/`). */
export function splitPackageSpecifier(spec: string): { name: string; subpath: string } {
  let slash = spec.indexOf('/');
  if (spec.charCodeAt(0) === 64 /* @ */ && slash !== -1) slash = spec.indexOf('/', slash + 1);
  if (slash === -1) return { name: spec, subpath: '' };
  return { name: spec.slice(0, slash), subpath: spec.slice(slash + 1) };
}

function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || // a-z
    (c >= 65 && c <= 90) || // A-Z (legacy npm names)
    (c >= 48 && c <= 57) || // 0-9
    c === 45 || // -
    c === 46 || // .
    c === 95 || // _
    c === 126 || // ~
    c === 33 || // !
    c === 39 || // '
    c === 40 || // (
    c === 41 || // )
    c === 42 // *
  );
}

function isValidNamePart(part: string): boolean {
  if (part.length === 0) return false;
  const c0 = part.charCodeAt(0);
  if (c0 === 46 /* . */ || c0 === 95 /* _ */ || c0 === 126 /* ~ */) return false;
  for (let i = 0; i < part.length; i++) if (!isNameChar(part.charCodeAt(i))) return false;
  return true;
}

/** Whether `name` (as returned by splitPackageSpecifier) could be an npm package name. */
export function isValidPackageName(name: string): boolean {
  if (name.charCodeAt(0) === 64 /* @ */) {
    const slash = name.indexOf('/');
    if (slash === -1) return false;
    return isValidNamePart(name.slice(1, slash)) && isValidNamePart(name.slice(slash + 1));
  }
  return isValidNamePart(name);
}

/**
 * The nearest value found in `dir` or a folder above it (within the root), memoised per folder in `cache`:
 * every folder walked through on the way up is filled in, so each folder is asked at most once.
 */
export function nearestUp<T>(cache: Map<RelPath, T | null>, dir: RelPath, own: (dir: RelPath) => T | null): T | null {
  const cached = cache.get(dir);
  if (cached !== undefined) return cached;
  const walked: RelPath[] = [];
  let cur = dir;
  let found: T | null = null;
  for (;;) {
    const hit = cache.get(cur);
    if (hit !== undefined) {
      found = hit;
      break;
    }
    walked.push(cur);
    const value = own(cur);
    if (value !== null) {
      found = value;
      break;
    }
    if (cur === '') break;
    cur = dirOf(cur);
  }
  for (const d of walked) cache.set(d, found);
  return found;
}
