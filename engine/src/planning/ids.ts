/** Ids of tasks, skills, agents and intents: one safe word each, so none can name a path outside `.planning/`. */
import { PlanningError } from './types.js';

/** letters, digits, `_`, `-`, `.` (not first), at most 128 characters; never `..` */
export const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** never an id: they name the prototype machinery of the objects ids key */
const PROTO_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

export function checkId(kind: string, value: unknown): string {
  if (typeof value !== 'string' || !value) throw new PlanningError(`${kind} is missing`);
  if (!SAFE_ID.test(value) || value.includes('..') || value.split('.').some((part) => PROTO_KEYS.has(part))) {
    throw new PlanningError(
      `${kind} ${JSON.stringify(value.slice(0, 80))} is not a safe id`,
      'Use letters, digits, "_", "-" and "." (not first, no ".."), at most 128 characters; an id never names a path, nor __proto__, prototype or constructor.',
    );
  }
  return value;
}

/** `<prefix>-` + 12 random hex digits */
export function newId(prefix: string): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
