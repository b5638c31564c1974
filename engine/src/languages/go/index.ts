/** Go: `.go` files, read by tree-sitter-go, resolved by the go command's rules (modules, workspaces, vendor, internal). */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { parseGo } from './parse.js';
import { GO_CONFIG_FILES, GoResolver } from './resolve.js';

export const go: LanguageModule = {
  id: 'go',
  name: 'Go',
  extensions: ['.go'],
  grammar: 'tree-sitter-go.wasm',
  parse: parseGo,
  configFiles: GO_CONFIG_FILES,
  createResolver: (host) => new GoResolver(host),
  resolvesFromFacts: true,
  // same-package names bind to the files declaring them (resolve.ts reads the package clause and package-level names)
  resolutionKey: ({ symbols }) => symbols.filter((s) => !s.name.includes('.')).map((s) => `${s.kind === 'namespace' ? 'package ' : ''}${s.name}`).join('\n'),
  fileType(path): FileType | null {
    if (path.endsWith('_test.go')) return 'test';
    return null;
  },
  namingConvention: 'snake_case',
  // the go command builds every folder of a module but `.x`, `_x`, testdata and vendor: `build/` is a package
  sourceInOutputFolder: () => true,
  moduleSystem: 'modules (packages as folders)',
};
