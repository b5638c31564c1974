/** Java: `.java` files, read by tree-sitter-java, resolved as javac finds types on a source path (packages, source roots). */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { parseJava } from './parse.js';
import { JAVA_CONFIG_FILES, JavaResolver } from './resolve.js';

/** Maven/Gradle test source sets (`src/test/java`, `src/integrationTest/java`) and JUnit/Surefire's class names. */
const TEST_FILE = /(^|\/)src\/[^/]*[tT]est[^/]*\/|(^|\/)(Test[^/]*|[^/]*(Test|Tests|TestCase|IT))\.java$/;

export const java: LanguageModule = {
  id: 'java',
  name: 'Java',
  extensions: ['.java'],
  grammar: 'tree-sitter-java.wasm',
  parse: parseJava,
  configFiles: JAVA_CONFIG_FILES,
  createResolver: (host) => new JavaResolver(host),
  resolvesFromFacts: true,
  // the resolver reads every file's package, types, member types, their supertypes and private-ness (inherited member
  // types); the imports a supertype is named through are the file's own specifiers (a change re-resolves every file)
  resolutionKey: ({ symbols }) => symbols.map((s) => `${s.kind}:${s.name}:${s.exported}:${s.private ? 'private' : ''}:${s.supertypes?.join(',') ?? ''}`).join('\n'),
  fileType(path): FileType | null {
    if (TEST_FILE.test(path)) return 'test';
    if (path.endsWith('/module-info.java') || path === 'module-info.java') return 'config';
    return null;
  },
  // Maven's and Gradle's output (generated sources included: a clean checkout has none); `**/build/**` is a default
  exclude: ['**/target/**', '**/.gradle/**'],
  namingConvention: 'PascalCase',
};
