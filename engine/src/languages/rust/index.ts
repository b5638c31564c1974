/** Rust: `.rs` files, read by tree-sitter-rust, resolved by rustc's module rules over Cargo's crates and targets. */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { parseRust } from './parse.js';
import { RUST_CONFIG_FILES, RustResolver } from './resolve.js';

export const rust: LanguageModule = {
  id: 'rust',
  name: 'Rust',
  extensions: ['.rs'],
  grammar: 'tree-sitter-rust.wasm',
  parse: parseRust,
  configFiles: RUST_CONFIG_FILES,
  createResolver: (host) => new RustResolver(host),
  // the file set and the Cargo.toml files it reads (stamped), nothing of other files' facts
  resolvesFromFacts: true,
  fileType(path): FileType | null {
    // Cargo's layout: integration tests and benches, example programs, the build script; `tests.rs` test modules
    if (/(^|\/)(tests|benches)\//.test(path) || /(^|\/)tests\.rs$/.test(path)) return 'test';
    if (/(^|\/)examples\//.test(path)) return 'script';
    if (/(^|\/)build\.rs$/.test(path)) return 'config';
    return null;
  },
  // Cargo's `target/` is left to .gitignore (`cargo new` writes `/target` there): a folder named `target` elsewhere may be source
  namingConvention: 'snake_case',
};
