/**
 * C and C++: sources and headers read by tree-sitter-cpp (C through the same grammar), `#include` resolved by the
 * compiler's search with the include paths of compile_commands.json, or guessed (inferred) without one.
 */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { blankDeclarationMacros } from './decl-macros.js';
import { parseCpp } from './parse.js';
import { CPP_CONFIG_FILES, CppResolver } from './resolve.js';

/** GoogleTest's and most projects' test files: `test_x.c`, `x_test.cc`, `x_unittest.cpp`, `x_tests.cpp`, `XTest.cpp`. */
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_(test|tests|unittest)|[^/]*[a-z]Tests?)\.(c|cc|cpp|cxx)$/;

export const cpp: LanguageModule = {
  id: 'cpp',
  name: 'C/C++',
  extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hh', '.hpp', '.hxx', '.ipp', '.inl'],
  grammar: 'tree-sitter-cpp.wasm',
  parse: parseCpp,
  grammarText: blankDeclarationMacros,
  configFiles: CPP_CONFIG_FILES,
  createResolver: (host) => new CppResolver(host),
  fileType(path): FileType | null {
    if (TEST_FILE.test(path)) return 'test';
    return null;
  },
  exclude: ['**/CMakeFiles/**', '**/cmake-build-*/**', '**/.cache/clangd/**'],
  namingConvention: 'snake_case',
};
