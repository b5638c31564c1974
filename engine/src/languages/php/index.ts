/** PHP: `.php` files, read by tree-sitter-php, resolved by PHP's include rules and Composer's autoload rules. */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { parsePhp } from './parse.js';
import { PHP_CONFIG_FILES, PhpResolver } from './resolve.js';

/** PHPUnit's `*Test.php`, and files under a `tests`/`Tests` folder. */
const TEST_FILE = /(^|\/)[^/]*Test\.php$|(^|\/)[Tt]ests?\//;

export const php: LanguageModule = {
  id: 'php',
  name: 'PHP',
  extensions: ['.php'],
  grammar: 'tree-sitter-php.wasm',
  parse: parsePhp,
  configFiles: PHP_CONFIG_FILES,
  createResolver: (host) => new PhpResolver(host),
  resolvesFromFacts: true,
  // the resolver reads the namespaces and declarations of files (classmap, a class no autoload rule maps, functions
  // and constants), from their parse facts (resolve.ts)
  resolutionKey: ({ symbols }) => symbols.map((s) => `${s.kind}:${s.namespace ?? ''}:${s.name}`).join('\n'),
  fileType(path): FileType | null {
    if (TEST_FILE.test(path)) return 'test';
    return null;
  },
  // Composer installs dependencies into vendor/ (only its PHP files: a Go module's vendor/ stays)
  exclude: ['**/vendor/**/*.php'],
  namingConvention: 'PascalCase',
};
