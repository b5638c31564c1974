import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepareGrammars } from '../../../engine/src/languages/parse.js';
import { createParsePool, loadFile } from '../../../engine/src/parse/index.js';
import type { LoadedFile, ParsedFile } from '../../../engine/src/types.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';

const parsed = (l: LoadedFile): ParsedFile => {
  assert.ok('parsed' in l, JSON.stringify(l));
  return l.parsed;
};

describe('Python facts, read by tree-sitter through loadFile and the parse pool', () => {
  let root: string;
  const files: Record<string, string> = {
    'pkg/__init__.py': '"""The package."""\nfrom .a import x as y, z\nfrom .b import *\nimport pkg.c\ntry:\n    from .fast import speed\nexcept ImportError:\n    speed = None\n',
    'pkg/a.py': [
      "r'''",
      '    Module docstring, first line.',
      '',
      '    More text.',
      "'''",
      'import os, sys as system',
      'from typing import TYPE_CHECKING',
      'if TYPE_CHECKING:',
      '    from pkg.b import B',
      'else:',
      '    B = None',
      '@decorator',
      'def x():',
      '    import json',
      '    def inner():',
      '        from . import c',
      'class Z:',
      '    from .b import helper',
      '    def method(self): pass',
      'async def run(): pass',
      'A, (C, D) = 1, (2, 3)',
      'E: int = 5',
      '__all__ = ["x", "Z"]',
      '__all__ += ["run", "missing"]',
      'match x:',
      '    case 1:',
      '        import wave',
    ].join('\n'),
    'pkg/b.py': 'def broken(:\n    pass\nclass Fine:\n    pass\n',
    'pkg/c.py': 'x = f"{1}"\n"""not a docstring"""\n',
  };
  before(() => {
    root = tempProject(files);
  });
  after(cleanupProjects);

  it('imports with their kinds, exports by __all__, symbols with lines, the docstring', async () => {
    await prepareGrammars(Object.keys(files));
    const a = parsed(loadFile(root, 'pkg/a.py', { maxFileBytes: 1e6 }));
    assert.deepEqual(
      a.imports.map((i) => `${i.line} ${i.kind} ${i.specifier} ${i.names.join(',')}`),
      ['6 import os *', '6 import sys *', '7 import typing TYPE_CHECKING', '9 type-import pkg.b B', '14 lazy-import json *', '16 lazy-import . c', '18 import .b helper', '27 conditional-import wave *'],
    );
    assert.equal(a.docComment, 'Module docstring, first line.\n\nMore text.');
    assert.deepEqual(a.exports.map((e) => `${e.name}:${e.kind}:${e.line}`), ['x:function:13', 'Z:class:17', 'run:function:20']);
    assert.deepEqual(a.symbols.map((s) => `${s.name}:${s.kind}:${s.exported}`), ['B:const:false', 'x:function:true', 'Z:class:true', 'run:function:true', 'A:const:false', 'C:const:false', 'D:const:false', 'E:const:false']);
    assert.equal(a.moduleSystem, 'none');
    assert.equal(a.syntaxError, null);
  });

  it('__init__.py: top-level from-imports re-export (aliases and *), a guarded one is conditional', async () => {
    await prepareGrammars(['pkg/__init__.py']);
    const init = parsed(loadFile(root, 'pkg/__init__.py', { maxFileBytes: 1e6 }));
    assert.deepEqual(init.imports.map((i) => `${i.kind} ${i.specifier} ${JSON.stringify(i.reexports ?? null)}`), [
      'reexport .a [{"imported":"x","exported":"y"},{"imported":"z","exported":"z"}]',
      'reexport .b [{"imported":"*","exported":"*"}]',
      'import pkg.c null',
      'conditional-import .fast null',
    ]);
    assert.deepEqual(init.exports.map((e) => `${e.name}:${e.kind}`), ['y:reexport', 'z:reexport', 'speed:variable']);
    assert.equal(init.docComment, 'The package.');
  });

  it('a syntax error is reported with its line, and what error recovery still finds is kept; an f-string is no docstring', async () => {
    const b = parsed(loadFile(root, 'pkg/b.py', { maxFileBytes: 1e6 }));
    assert.equal(b.syntaxError?.line, 1);
    assert.ok(b.symbols.some((s) => s.name === 'Fine'));
    assert.equal(parsed(loadFile(root, 'pkg/c.py', { maxFileBytes: 1e6 })).docComment, null);
  });

  it('worker threads load the grammar themselves and give the same facts as this thread', async () => {
    const paths = Array.from({ length: 60 }, (_, i) => Object.keys(files)[i % 4]);
    const expected = paths.map((p) => loadFile(root, p, { maxFileBytes: 1e6 }));
    const pool = createParsePool(root, { maxFileBytes: 1e6, threads: 1 });
    try {
      const results = await pool.load(paths);
      assert.ok(pool.stats().workerFiles > 0, 'a worker parsed files');
      assert.deepEqual(results, expected);
    } finally {
      await pool.close();
    }
  });
});
