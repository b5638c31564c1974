/**
 * Instantiating the engine's WebAssembly modules (engine/assembly/, built into engine/src/<part>/generated/ by
 * scripts/build-wasm.mjs): synchronously, with no imports. Where WebAssembly cannot be used, callers fall back to
 * their JavaScript implementation, which gives the same results.
 */
import { Buffer } from 'node:buffer';

/** A module's memory, as far as the engine uses it. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The part of the WebAssembly global used here (the project's lib settings have no WebAssembly types). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

/** The exports of the module whose bytes are `base64`, or null when WebAssembly is unavailable or refuses it. */
export function instantiateWasm<T>(base64: string): T | null {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined) return null;
  try {
    return new wasm.Instance(new wasm.Module(Buffer.from(base64, 'base64')), {}).exports as T;
  } catch {
    return null;
  }
}
