/**
 * Key-value state addressed by dot paths (`phase.3.owner`). Every segment matches SAFE_SEGMENT; `__proto__`,
 * `prototype` and `constructor` are refused, as segments and as keys anywhere inside a value. `set` creates
 * intermediate objects; `delete` removes a leaf only. Values are JSON, at most MAX_VALUE_BYTES each.
 */
import { isPlainObject, PlanningError } from './types.js';

export const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);
export const MAX_SEGMENTS = 32;
export const MAX_VALUE_BYTES = 64 * 1024;
export const MAX_KV_BYTES = 1024 * 1024;
export const MAX_VALUE_DEPTH = 32;
export const MAX_LIST = 500;

type Obj = Record<string, unknown>;

export function parseKeyPath(keyPath: unknown): string[] {
  if (typeof keyPath !== 'string' || !keyPath) throw new PlanningError('keyPath is missing', 'Pass a dot path such as "phase.3.owner".');
  const parts = keyPath.split('.');
  if (parts.length > MAX_SEGMENTS) throw new PlanningError(`keyPath has ${parts.length} segments; at most ${MAX_SEGMENTS}`);
  for (const p of parts) {
    if (FORBIDDEN_KEYS.has(p)) throw new PlanningError(`keyPath segment "${p}" is refused`, '__proto__, prototype and constructor are never keys.');
    if (!SAFE_SEGMENT.test(p)) {
      throw new PlanningError(`keyPath segment ${JSON.stringify(p.slice(0, 60))} is not allowed`, 'Each segment: 1-128 of A-Z a-z 0-9 _ - (segments are separated by dots).');
    }
  }
  return parts;
}

/** A JSON copy of `value`, refused when it is not JSON, too deep, too big or carries a forbidden key. */
export function checkValue(value: unknown): unknown {
  if (value === undefined) throw new PlanningError('value is missing', 'Pass any JSON value.');
  const walk = (v: unknown, depth: number, where: string): void => {
    if (depth > MAX_VALUE_DEPTH) throw new PlanningError(`value is nested deeper than ${MAX_VALUE_DEPTH} levels`);
    if (typeof v === 'number' && !Number.isFinite(v)) throw new PlanningError(`value${where} is not a finite number`);
    if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') throw new PlanningError(`value${where} is not JSON`);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, depth + 1, `${where}[${i}]`));
    else if (typeof v === 'object' && v !== null) {
      for (const key of Object.keys(v)) {
        if (FORBIDDEN_KEYS.has(key)) throw new PlanningError(`value${where} has the key "${key}", which is refused`);
        walk((v as Obj)[key], depth + 1, `${where}.${key.slice(0, 40)}`);
      }
    }
  };
  walk(value, 0, '');
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_VALUE_BYTES) throw new PlanningError(`value is ${Math.round(bytes / 1024)} KB; at most ${MAX_VALUE_BYTES / 1024} KB`, 'Keep documents in .planning/ files and store their path.');
  return JSON.parse(text);
}

function describeType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export function getPath(kv: Obj, keyPath: unknown): { found: boolean; value?: unknown } {
  let node: unknown = kv;
  for (const p of parseKeyPath(keyPath)) {
    if (!isPlainObject(node) || !Object.hasOwn(node, p)) return { found: false };
    node = node[p];
  }
  return { found: true, value: node };
}

/** Sets a value, creating intermediate objects; refused when a segment on the way holds a non-object. */
export function setPath(kv: Obj, keyPath: unknown, value: unknown): unknown {
  const parts = parseKeyPath(keyPath);
  const checked = checkValue(value);
  let node: Obj = kv;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i];
    if (!Object.hasOwn(node, p)) node[p] = {};
    const next = node[p];
    if (!isPlainObject(next)) {
      throw new PlanningError(`${parts.slice(0, i + 1).join('.')} holds ${describeType(next)}, not an object; cannot set ${parts.join('.')}`, 'Delete it first or choose another path.');
    }
    node = next;
  }
  node[parts[parts.length - 1]] = checked;
  const bytes = Buffer.byteLength(JSON.stringify(kv));
  if (bytes > MAX_KV_BYTES) throw new PlanningError(`the key-value state would grow to ${Math.round(bytes / 1024)} KB; at most ${MAX_KV_BYTES / 1024} KB`, 'Delete values you no longer need.');
  return checked;
}

/** Deletes a leaf (anything but a non-empty object). False when there was nothing at the path. */
export function deletePath(kv: Obj, keyPath: unknown): boolean {
  const parts = parseKeyPath(keyPath);
  let node: unknown = kv;
  for (const p of parts.slice(0, -1)) {
    if (!isPlainObject(node) || !Object.hasOwn(node, p)) return false;
    node = node[p];
  }
  const last = parts[parts.length - 1];
  if (!isPlainObject(node) || !Object.hasOwn(node, last)) return false;
  const target = node[last];
  if (isPlainObject(target) && Object.keys(target).length > 0) {
    throw new PlanningError(`${parts.join('.')} is an object with ${Object.keys(target).length} key(s), not a leaf; nothing was deleted`, 'Delete its keys one by one (action list shows them).');
  }
  delete node[last];
  return true;
}

/** The leaf paths under `keyPath` (everything when absent), sorted, at most MAX_LIST. */
export function listPaths(kv: Obj, keyPath?: string): { total: number; keys: string[] } {
  let start: unknown = kv;
  const prefix = keyPath ? parseKeyPath(keyPath) : [];
  if (prefix.length) {
    const got = getPath(kv, keyPath);
    if (!got.found) return { total: 0, keys: [] };
    start = got.value;
  }
  const keys: string[] = [];
  const walk = (v: unknown, at: string[]) => {
    if (isPlainObject(v) && Object.keys(v).length) for (const k of Object.keys(v)) walk(v[k], [...at, k]);
    else if (at.length) keys.push(at.join('.'));
  };
  walk(start, prefix);
  keys.sort();
  return { total: keys.length, keys: keys.slice(0, MAX_LIST) };
}
