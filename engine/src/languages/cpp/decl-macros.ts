/**
 * Macros blanked before tree-sitter reads a C/C++ file. Without the preprocessor, tree-sitter-cpp takes a macro for
 * code and recovers from an error wherever one stands where the compiler sees its expansion. An error that reaches
 * across the file makes the whole tree one ERROR node: declarations read askew (`UV_EXTERN uv_loop_t*
 * uv_default_loop(void);` as a variable named `* uv_default_loop(void)`), and an edit of the file re-parses all of
 * it, since an incremental parse (runtime.ts, kept trees) reuses nothing inside an error. Blanks are spaces of the
 * same length: offsets and lines are the file's own; only the grammar's text is blanked, never what `parse` reads.
 *
 * What is blanked, at the start of a line:
 * - one or more upper-case words (`[A-Z_][A-Z0-9_]*`) followed by a C keyword that starts a declaration (`int`,
 *   `void`, `struct`, `const`, `static`, …): `SQLITE_API int sqlite3_open(…);`, `GTEST_API_ void InitGoogleTest();`;
 * - one or more upper-case words followed by a type name and a declared name (`UV_EXTERN uv_loop_t*
 *   uv_default_loop(void);`, `LEVELDB_EXPORT Status DestroyDB(…);`): two types in a row is no C or C++, so the words
 *   are macros; an upper-case typedef followed by a name alone (`FILE *f;`, `WORD size(BYTE* b);`) stays;
 * - a line holding one upper-case word and nothing else (a trailing `\` aside): a macro expanding to members or
 *   statements (`UV_HANDLE_FIELDS` inside a struct, `TASK_LIST_START`);
 * - a line holding one call of an upper-case macro and nothing else, no `;` (`UV_ERRNO_MAP(XX)` inside an enum, an
 *   X-macro list's `TEST_DECLARE (name)`): what it expands to is no statement the grammar can read;
 * - `extern "C" {` and its closing `}` alone between `#ifdef __cplusplus` (or `#if defined(__cplusplus)`) and
 *   `#endif`: the braces of a block a C compiler never sees, which the grammar cannot pair across directives.
 * On libuv's `uv.h` (74 KB) the grammar's parse went from ~10 ms to ~7 ms, and from its kept tree after a comment
 * appended from ~10 ms (nothing reusable) to ~2 ms; the declarations of libuv's and leveldb's headers read right
 * where they were askew (uv.h: 479 symbols, 184 before; leveldb's c.h: its functions, not `* leveldb_open(…)`).
 */
const DECLARATION_MACROS =
  /^([ \t]*)((?:[A-Z_][A-Z0-9_]*[ \t]+)+)(?=(?:void|char|short|int|long|float|double|signed|unsigned|bool|_Bool|struct|union|enum|class|const|volatile|static|inline|extern|typedef)\b)/gm;
const MACRO_BEFORE_TYPE = /^(?<!\\[ \t]*\r?\n)([ \t]*)((?:[A-Z_][A-Z0-9_]*[ \t]+)+)(?=(?:\w|::)+(?:\s+|\s*[*&]+\s*)[A-Za-z_]\w*\s*[(;,=[])/gm;
const MACRO_LINE = /^(?<!\\[ \t]*\r?\n)([ \t]*)([A-Z_][A-Z0-9_]*)(?=[ \t]*\\?[ \t]*\r?$)/gm;
const MACRO_CALL_LINE = /^(?<!\\[ \t]*\r?\n)([ \t]*)([A-Z_][A-Z0-9_]*[ \t]*\([^;{}()\n]*\))(?=[ \t]*\\?[ \t]*\r?$)/gm;
const CPLUSPLUS_BRACE = /^([ \t]*#[ \t]*(?:ifdef[ \t]+__cplusplus|if[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[ \t]*\r?\n)([ \t]*(?:extern[ \t]+"C"[ \t]*\{|\})[ \t]*)(?=\r?\n[ \t]*#[ \t]*endif\b)/gm;

const blank = (_: string, lead: string, words: string): string => lead + ' '.repeat(words.length);

export function blankDeclarationMacros(source: string): string {
  return source.replace(DECLARATION_MACROS, blank).replace(MACRO_BEFORE_TYPE, blank).replace(MACRO_LINE, blank).replace(MACRO_CALL_LINE, blank).replace(CPLUSPLUS_BRACE, blank);
}
