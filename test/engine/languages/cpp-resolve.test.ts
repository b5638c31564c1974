import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { blastRadius, buildIntel, intelPaths, intelStatus, openIntel, type IntelReader } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';
import type { FileRecord, IndexDocument } from '../../../engine/src/types.js';
import { blankDeclarationMacros } from '../../../engine/src/languages/cpp/decl-macros.js';
import { cleanupProjects, copyProject, tempProject, writeFile } from '../../helpers/project.js';

const indexOf = (root: string) => JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument;

/** What one include resolved to: `kind:target` (with `~` when inferred) per entry, and the entry's kind. */
function resolvedOf(record: FileRecord, specifier: string): string[] {
  return record.imports
    .filter((i) => i.specifier === specifier)
    .map((i) => `${i.kind} ${i.resolved.kind}:${'path' in i.resolved ? i.resolved.path : 'package' in i.resolved ? i.resolved.package : 'module' in i.resolved ? i.resolved.module : i.resolved.reason}${i.inferred ? ' ~' : ''}`);
}

/** A compilation database for the fixture, as CMake writes it (absolute paths, `command` or `arguments`). */
function compileDb(root: string, mainFlags: string): string {
  return JSON.stringify(
    [
      { directory: root, command: `/usr/bin/cc ${mainFlags} -o CMakeFiles/app.dir/src/main.c.o -c ${root}/src/main.c`, file: `${root}/src/main.c` },
      { directory: root, command: `/usr/bin/cc ${mainFlags} -o CMakeFiles/app.dir/src/util.c.o -c ${root}/src/util.c`, file: `${root}/src/util.c` },
      { directory: `${root}/build`, arguments: ['/usr/bin/c++', '-I../include', '-I../lib', '-std=c++17', '-c', '../lib/geometry.cpp'], file: '../lib/geometry.cpp' },
      { directory: `${root}/build`, arguments: ['/usr/bin/c++', '-iquote', '../lib', '-isystem', '../include', '-c', '../tests/test_geometry.cpp'], file: '../tests/test_geometry.cpp' },
    ],
    null,
    2,
  );
}

describe('C/C++ without compile_commands.json: the compiler\'s search with inferred include roots (fixture cpp-rules)', () => {
  let root: string;
  let files: Record<string, FileRecord>;
  let reader: IntelReader;
  before(async () => {
    root = copyProject('cpp-rules');
    await buildIntel(root);
    files = indexOf(root).files;
    reader = await openIntel(root);
  });
  after(() => {
    reader?.close();
    cleanupProjects();
  });

  it('every C and C++ source and header is indexed as C/C++; build/ output is not; test files are tests', () => {
    const cpp = Object.values(files).filter((f) => f.language === 'cpp').map((f) => f.path).sort();
    assert.deepEqual(cpp, ['include/lib/api.h', 'include/lib/config.h', 'lib/geometry.cpp', 'lib/geometry.hpp', 'shadow/lib/api.h', 'src/main.c', 'src/table.c', 'src/util.c', 'src/util.h', 'src/win/port.h', 'tests/test_geometry.cpp', 'third/inc/third.h']);
    assert.equal(files['tests/test_geometry.cpp'].type, 'test');
    assert.equal(files['src/main.c'].type, 'source');
    assert.ok(Object.values(files).every((f) => f.syntaxError === null), 'what unexpanded macros make of a line is no syntax error');
  });

  it('"x" is found in the including file\'s own folder first: exact', () => {
    assert.deepEqual(resolvedOf(files['src/main.c'], '"util.h"'), ['include file:src/util.h']);
    assert.deepEqual(resolvedOf(files['lib/geometry.cpp'], '"geometry.hpp"'), ['include file:lib/geometry.hpp']);
  });

  it('then the folders CMakeLists.txt names and the include/ roots: inferred', () => {
    assert.deepEqual(resolvedOf(files['src/main.c'], '"lib/api.h"'), ['include file:include/lib/api.h ~']);
    assert.deepEqual(resolvedOf(files['src/main.c'], '"third.h"'), ['include file:third/inc/third.h ~'], 'target_include_directories');
    assert.deepEqual(resolvedOf(files['lib/geometry.hpp'], '"lib/api.h"'), ['include file:include/lib/api.h ~']);
    assert.deepEqual(resolvedOf(files['include/lib/api.h'], '"lib/config.h"'), ['include file:include/lib/config.h ~']);
    assert.deepEqual(resolvedOf(files['tests/test_geometry.cpp'], '"geometry.hpp"'), ['include file:lib/geometry.hpp ~'], 'last: the only file whose path ends so');
  });

  it('system headers are builtins, other <x> external, a "x" found nowhere unresolved; a computed include says so', () => {
    assert.deepEqual(resolvedOf(files['src/main.c'], '<stdio.h>'), ['include builtin:stdio.h']);
    assert.deepEqual(resolvedOf(files['lib/geometry.hpp'], '<vector>'), ['include builtin:vector']);
    assert.deepEqual(resolvedOf(files['src/main.c'], '<openssl/ssl.h>'), ['include external:openssl ~']);
    assert.match(resolvedOf(files['src/main.c'], '"missing.h"')[0], /^include unresolved:"missing.h": in no folder searched/);
    assert.match(resolvedOf(files['src/main.c'], 'CONFIG_HEADER')[0], /^include unresolved:CONFIG_HEADER: a computed include/);
  });

  it('includes inside #if/#ifdef/#else are conditional edges, inside #if 0 or a comment none; an include guard is no condition', () => {
    assert.deepEqual(resolvedOf(files['src/main.c'], '"win/port.h"'), ['conditional-import file:src/win/port.h']);
    assert.deepEqual(resolvedOf(files['src/main.c'], '<unistd.h>'), ['conditional-import builtin:unistd.h']);
    assert.deepEqual(resolvedOf(files['src/main.c'], '"dead.h"'), []);
    assert.deepEqual(resolvedOf(files['src/main.c'], '"commented.h"'), []);
    assert.deepEqual(resolvedOf(files['include/lib/api.h'], '<stddef.h>'), ['include builtin:stddef.h'], 'inside the #ifndef guard');
  });

  it('a directive is a line wherever it sits: inside an initializer; a file found that the scan does not index is unresolved, with where', () => {
    assert.deepEqual(resolvedOf(files['src/table.c'], '"table.def"'), ['include unresolved:"table.def": found at src/table.def, which is not indexed (build output or excluded)']);
  });

  it('exports: functions, structs, enums, typedefs, macros, variables with kind and line; static ones are not; purpose from the leading comment', () => {
    const api = files['include/lib/api.h'];
    assert.deepEqual(
      api.exports.map((e) => `${e.name}:${e.kind}:${e.line}`),
      ['API_VERSION:macro:14', 'API_MAX:macro:15', 'api_point:struct:17', 'api_mode:enum:21', 'api_init:function:25', 'api_count:function:26', 'api_debug:variable:29'],
    );
    assert.ok(api.symbols.some((s) => s.name === 'api_helper' && !s.exported), 'a static inline function is internal');
    assert.equal(api.docComment, 'The public API of the rules library.', 'the @file comment, not the licence above it');
    assert.deepEqual(files['src/util.c'].exports.map((e) => e.name), ['util_twice']);
    assert.ok(files['src/util.c'].symbols.some((s) => s.name === 'util_private' && !s.exported));
    assert.equal(files['src/util.h'].docComment, 'Small helpers shared by the app.');
    assert.equal(files['src/main.c'].docComment, 'The app\'s entry point: reads the options and runs the rules.');
  });

  it('C++: namespaces, classes behind an export macro, templates, aliases; an anonymous namespace exports nothing', () => {
    const hpp = files['lib/geometry.hpp'];
    assert.deepEqual(hpp.exports.map((e) => `${e.name}:${e.kind}:${e.line}`), ['GEOMETRY_EXPORT:macro:7', 'geo:namespace:9', 'Shape:class:11', 'Point:struct:18', 'square:function:22', 'Points:type:25', 'total_area:function:27']);
    const cpp = files['lib/geometry.cpp'];
    assert.ok(cpp.symbols.some((s) => s.name === 'helper' && !s.exported));
    assert.ok(cpp.exports.some((e) => e.name === 'Shape::describe' && e.kind === 'function'), 'an out-of-line member, qualified');
    assert.ok(cpp.exports.some((e) => e.name === 'total_area'));
  });

  it('blast radius through headers; graph.db edges carry exact; CMakeLists.txt is stamped; intel status counts the language', async () => {
    const r = blastRadius(reader, 'include/lib/config.h');
    assert.deepEqual(Object.fromEntries(r.byDepth.map((l) => [l.depth, l.files.map((f) => f.path).sort()])), {
      1: ['include/lib/api.h'],
      2: ['lib/geometry.hpp', 'src/main.c'],
      3: ['lib/geometry.cpp', 'tests/test_geometry.cpp'],
    });
    const rows = await readGraphRows(intelPaths(root).graph);
    const id = (p: string) => rows.nodes.find((n) => n.path === p)!.id;
    const edge = (s: string, t: string) => rows.edges.find((e) => e.source === id(s) && e.target === id(t));
    assert.ok(edge('src/main.c', 'src/util.h')?.exact);
    assert.ok(edge('src/main.c', 'include/lib/api.h') && !edge('src/main.c', 'include/lib/api.h')!.exact);
    assert.equal(JSON.parse(rows.nodes.find((n) => n.path === 'src/main.c')!.body).language, 'cpp');
    assert.ok('CMakeLists.txt' in indexOf(root).configFiles);
    assert.equal((await intelStatus(root)).languages?.cpp, 12);
  });
});

describe('C/C++ with compile_commands.json: each unit\'s own include paths, exact', () => {
  after(cleanupProjects);

  it('translation units use their command\'s -I/-iquote/-isystem; headers those of the units nearest them; a hit in build/ is not indexed', async () => {
    const root = copyProject('cpp-rules');
    writeFile(root, 'compile_commands.json', compileDb(root, '-Iinclude -Ithird/inc -Ibuild'));
    await buildIntel(root);
    const files = indexOf(root).files;
    assert.deepEqual(resolvedOf(files['src/main.c'], '"lib/api.h"'), ['include file:include/lib/api.h']);
    assert.deepEqual(resolvedOf(files['src/main.c'], '"third.h"'), ['include file:third/inc/third.h']);
    assert.deepEqual(resolvedOf(files['src/main.c'], '"gen/version.h"'), ['include unresolved:"gen/version.h": found at build/gen/version.h, which is not indexed (build output or excluded)']);
    assert.deepEqual(resolvedOf(files['tests/test_geometry.cpp'], '"geometry.hpp"'), ['include file:lib/geometry.hpp'], '-iquote, relative to the entry\'s directory');
    // a header: compiled as part of the units of its folder's tree (lib/geometry.cpp for lib/)
    assert.deepEqual(resolvedOf(files['lib/geometry.hpp'], '"lib/api.h"'), ['include file:include/lib/api.h']);
    // include/ has no unit: every unit's search paths, which agree here
    assert.deepEqual(resolvedOf(files['include/lib/api.h'], '"lib/config.h"'), ['include file:include/lib/config.h']);
    // <x> with no unit's folder holding it: external, exactly so
    assert.deepEqual(resolvedOf(files['src/main.c'], '<openssl/ssl.h>'), ['include external:openssl']);
    // not in the database and no -I gives it: the compiler would not find it
    assert.match(resolvedOf(files['src/util.c'], '"util.h"')[0], /^include file:src\/util.h$/);
    assert.ok('compile_commands.json' in indexOf(root).configFiles);
  });

  it('search order: -I folders in order (a header that shadows another wins), quotes before angle brackets', async () => {
    const root = copyProject('cpp-rules');
    writeFile(root, 'compile_commands.json', compileDb(root, '-Ishadow -Iinclude -Ithird/inc'));
    await buildIntel(root);
    const files = indexOf(root).files;
    assert.deepEqual(resolvedOf(files['src/main.c'], '"lib/api.h"'), ['include file:shadow/lib/api.h']);
    // include/lib/api.h has units with different search paths now: one edge per answer, each inferred
    writeFile(root, 'lib/lib/config.h', '#define OTHER 1\n');
    await buildIntel(root);
    assert.deepEqual(resolvedOf(indexOf(root).files['include/lib/api.h'], '"lib/config.h"').sort(), ['include file:include/lib/config.h ~', 'include file:lib/lib/config.h ~']);
  });

  it('clangd\'s place: build/compile_commands.json is read too; a database of another checkout steers nothing', async () => {
    const root = copyProject('cpp-rules');
    writeFile(root, 'build/compile_commands.json', compileDb(root, '-Ishadow'));
    await buildIntel(root);
    assert.deepEqual(resolvedOf(indexOf(root).files['src/main.c'], '"lib/api.h"'), ['include file:shadow/lib/api.h']);
    writeFile(root, 'build/compile_commands.json', compileDb('/elsewhere/checkout', '-Ishadow'));
    await buildIntel(root);
    assert.deepEqual(resolvedOf(indexOf(root).files['src/main.c'], '"lib/api.h"'), ['include file:include/lib/api.h ~']);
  });
});

describe('C/C++: declaration macros before a prototype', () => {
  after(cleanupProjects);

  it('`EXPORT_MACRO int f(void);` declares f, as the compiler sees it after expansion; an upper-case type stays a type', async () => {
    const root = tempProject({
      'include/mylib.h': [
        '/*',
        '   NOTE const and static calls of mylib are',
        '   thread-safe.',
        ' */',
        '#ifndef MYLIB_H',
        '#define MYLIB_H',
        '#include <stdio.h>',
        '#define MYLIB_API __attribute__((visibility("default")))',
        '#define MYLIB_DEPRECATED',
        'MYLIB_API int mylib_init(void);',
        'MYLIB_API const char *mylib_name(int code);',
        'MYLIB_API MYLIB_DEPRECATED void mylib_old(void);',
        '  MYLIB_API unsigned long mylib_count(void);',
        'MYLIB_API struct mylib_opts *mylib_opts_new(void);',
        'FILE *mylib_log;',
        '#endif',
        '',
      ].join('\n'),
      'src/mylib.c': '#include "../include/mylib.h"\n\nint mylib_init(void) { return 0; }\n',
    });
    await buildIntel(root);
    const f = indexOf(root).files['include/mylib.h'];
    const symbols = f.symbols.map((s) => `${s.kind} ${s.name}:${s.line}${s.exported ? '' : ' (internal)'}`);
    assert.deepEqual(symbols, [
      'macro MYLIB_API:8',
      'macro MYLIB_DEPRECATED:9',
      'function mylib_init:10',
      'function mylib_name:11',
      'function mylib_old:12',
      'function mylib_count:13',
      'function mylib_opts_new:14',
      'variable mylib_log:15',
    ]);
    assert.equal(f.docComment, 'NOTE const and static calls of mylib are\n   thread-safe.', 'the doc comment is the file\'s own text');
    assert.deepEqual(resolvedOf(indexOf(root).files['src/mylib.c'], '"../include/mylib.h"'), ['include file:include/mylib.h']);
  });
});

describe('C/C++: macros the grammar cannot read, blanked', () => {
  after(cleanupProjects);

  it('an export macro before a type name, member macros, X-macro calls and a C++-only `extern "C" {`: the declarations as the compiler sees them, the tree no error across the file', async () => {
    const header = [
      '#ifndef LIB_H',
      '#define LIB_H',
      '#ifdef __cplusplus',
      'extern "C" {',
      '#endif',
      '#define LIB_EXTERN',
      '#define LIB_FIELDS int a;',
      '#define LIB_MAP(XX) XX(ONE) XX(TWO)',
      'typedef struct lib_loop_s lib_loop_t;',
      'typedef enum {',
      '#define XX(n) LIB_##n,',
      '  LIB_MAP(XX)',
      '#undef XX',
      '  LIB_MAX',
      '} lib_kind;',
      'struct lib_req_s {',
      '  LIB_FIELDS',
      '};',
      'LIB_EXTERN lib_loop_t* lib_default_loop(void);',
      'LIB_EXTERN size_t',
      '  lib_size(const lib_loop_t* loop);',
      'WORD lib_word(BYTE* b);',
      'FILE *lib_log;',
      '#ifdef __cplusplus',
      '}',
      '#endif',
      '#endif',
      '',
    ].join('\n');
    const root = tempProject({ 'include/lib.h': header, 'src/lib.c': '#include "../include/lib.h"\n' });
    await buildIntel(root);
    const f = indexOf(root).files['include/lib.h'];
    assert.deepEqual(
      f.symbols.map((s) => `${s.kind} ${s.name}:${s.line}`),
      [
        'macro LIB_EXTERN:6',
        'macro LIB_FIELDS:7',
        'macro LIB_MAP:8',
        'type lib_loop_t:9',
        'type lib_kind:10',
        'struct lib_req_s:16',
        'function lib_default_loop:19',
        'function lib_size:20',
        'function lib_word:22',
        'variable lib_log:23',
      ],
    );
    assert.deepEqual(resolvedOf(indexOf(root).files['src/lib.c'], '"../include/lib.h"'), ['include file:include/lib.h']);
    // the grammar's text: the same length and lines, the macros blanked, a macro's body left as it is
    const text = blankDeclarationMacros(header);
    assert.equal(text.length, header.length);
    assert.equal(text.split('\n').length, header.split('\n').length);
    assert.ok(!/LIB_EXTERN lib|^ {2}LIB_FIELDS|^ {2}LIB_MAP\(XX\)|extern "C"|^}$/m.test(text));
    assert.ok(text.includes('#define LIB_MAP(XX) XX(ONE) XX(TWO)') && text.includes('WORD lib_word(BYTE* b);') && text.includes('FILE *lib_log;'));
    assert.equal(blankDeclarationMacros('#define A(x) \\\n  B(x)\n#define C \\\n  D\n'), '#define A(x) \\\n  B(x)\n#define C \\\n  D\n');
  });
});

describe('C/C++: bad input', () => {
  after(cleanupProjects);

  it('C that uses a C++ keyword as a name keeps its includes and other declarations; a malformed database steers nothing', async () => {
    const root = tempProject({
      'legacy.c': '#include "legacy.h"\n\nint compute(void) { int new = 1; int class = 2; return new + class; }\n\nint after_it(void) { return 0; }\n',
      'legacy.h': 'int compute(void);\n',
      'compile_commands.json': '{ not json',
    });
    await buildIntel(root);
    const f = indexOf(root).files['legacy.c'];
    assert.deepEqual(resolvedOf(f, '"legacy.h"'), ['include file:legacy.h']);
    assert.ok(f.exports.some((e) => e.name === 'after_it'));
  });
});
