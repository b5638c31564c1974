/**
 * Declaration macros blanked before tree-sitter reads a C/C++ file. Library headers put an export or linkage macro
 * before each prototype (`UV_EXTERN int uv_run(uv_loop_t*, uv_run_mode);`, `SQLITE_API int sqlite3_open(…);`,
 * `GTEST_API_ void InitGoogleTest();`). Without the preprocessor, tree-sitter-cpp takes the macro for the
 * declaration's type, meets a second type (`int`) and recovers from an error on every such line: libuv's `uv.h`
 * (73 KB, 220 prototypes) parses 4 times slower than a clean file of its size, and that parse is most of the cost of
 * an edit to the header. Blanked, each line is an ordinary declaration: the same names on the same lines.
 *
 * What is blanked: at the start of a line, one or more upper-case words (`[A-Z_][A-Z0-9_]*`) followed by a C keyword
 * that starts a declaration (`int`, `void`, `struct`, `const`, `static`, …). A type name cannot stand there (two
 * types in a row is no C or C++), so the words are macros the compiler expands; an upper-case typedef followed by a
 * name (`FILE *f;`, `HANDLE h;`) is left as it is. Blanks are spaces of the same length: offsets and lines are the
 * file's own.
 */
const DECLARATION_MACROS =
  /^([ \t]*)((?:[A-Z_][A-Z0-9_]*[ \t]+)+)(?=(?:void|char|short|int|long|float|double|signed|unsigned|bool|_Bool|struct|union|enum|class|const|volatile|static|inline|extern|typedef)\b)/gm;

export function blankDeclarationMacros(source: string): string {
  return source.replace(DECLARATION_MACROS, (_, indent: string, words: string) => indent + ' '.repeat(words.length));
}
