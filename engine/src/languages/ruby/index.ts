/** Ruby: `.rb` files (and gemspecs), read by tree-sitter-ruby, resolved by Ruby's load path, constants inferred. */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { parseRuby } from './parse.js';
import { RUBY_CONFIG_FILES, RubyResolver } from './resolve.js';

/** RSpec's `*_spec.rb`, minitest's `*_test.rb` / `test_*.rb`, and what sits under `spec/` or `test/`. */
const TEST_FILE = /(^|\/)([^/]*_(spec|test)|test_[^/]*)\.rb$|(^|\/)(spec|test)\//;

/** A Rails application's configuration: `config/application.rb`, `config/routes.rb`, `config/initializers/` … */
const RAILS_CONFIG = /(^|\/)config\/(initializers|environments)\/[^/]*\.rb$|(^|\/)config\/(application|environment|routes|boot|puma|spring|importmap)\.rb$/;

export const ruby: LanguageModule = {
  id: 'ruby',
  name: 'Ruby',
  extensions: ['.rb', '.gemspec', '.rake'],
  grammar: 'tree-sitter-ruby.wasm',
  parse: parseRuby,
  configFiles: RUBY_CONFIG_FILES,
  createResolver: (host) => new RubyResolver(host),
  resolvesFromFacts: true,
  fileType(path): FileType | null {
    if (TEST_FILE.test(path)) return 'test';
    if (path.endsWith('.gemspec') || RAILS_CONFIG.test(path)) return 'config';
    if (path.endsWith('.rake')) return 'script';
    return null;
  },
  // Bundler's `--path vendor/bundle` and a Rails app's generated folders
  exclude: ['**/vendor/bundle/**', '**/tmp/cache/**'],
  namingConvention: 'snake_case',
};
