/** The module system a file's facts show: ES import/export, CommonJS require/exports, both or neither. */
import type { ModuleSystem } from '../types.js';

export function moduleSystem(esm: boolean, cjs: boolean): ModuleSystem {
  if (esm && cjs) return 'mixed';
  if (esm) return 'esm';
  if (cjs) return 'cjs';
  return 'none';
}
