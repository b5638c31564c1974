/** C#: `.cs` files (and `.csproj` project files), read by tree-sitter-c-sharp; usings bound to the files declaring the types used. */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { GRAMMAR, parseCsharp } from './parse.js';
import { CsharpResolver } from './resolve.js';

/** A test project's files (`X.Tests/`, `X.UnitTests/`, `X.IntegrationTests/`, `tests/`) and `*Tests.cs`. */
const TEST_FILE = /(^|\/)[^/]*\.(Unit|Integration|Functional)?Tests?\/|(^|\/)[Tt]ests?\/|(^|\/|[a-z0-9])Tests?\.cs$/;

export const csharp: LanguageModule = {
  id: 'csharp',
  name: 'C#',
  extensions: ['.cs', '.csproj'],
  grammar: GRAMMAR,
  parse: parseCsharp,
  // .csproj files are indexed (the resolver reads their ProjectReferences from the file set), so no config names
  configFiles: [],
  createResolver: (host) => new CsharpResolver(host),
  resolvesFromFacts: true,
  // the resolver reads every file's types (with namespace, container and extension methods) and global usings (resolve.ts)
  resolutionKey: ({ symbols, imports }) =>
    JSON.stringify([
      symbols.map((s) => `${s.kind}:${s.namespace ?? ''}:${s.container ?? ''}:${s.name}:${s.extensions?.join(',') ?? ''}`),
      imports.filter((i) => i.global).map((i) => `${i.specifier}:${i.names.join(',')}`),
    ]),
  fileType(path): FileType | null {
    if (path.toLowerCase().endsWith('.csproj')) return 'config';
    if (TEST_FILE.test(path)) return 'test';
    return null;
  },
  // MSBuild's output folders
  exclude: ['**/bin/Debug/**', '**/bin/Release/**', '**/obj/**'],
  namingConvention: 'PascalCase',
};
