import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { buildIntel, intelPaths, updateIntel } from '../../../engine/src/index.js';
import { parseWithLanguage, prepareGrammars } from '../../../engine/src/languages/parse.js';
import { dropKeptTrees, editBetween } from '../../../engine/src/languages/runtime.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { cleanupProjects, copyProject } from '../../helpers/project.js';

const FIXTURES = path.resolve('test/fixtures/projects');
const fixture = (rel: string) => readFileSync(path.join(FIXTURES, rel), 'utf8');

/** A C# file the grammar cannot read with its directives in place: parsed again with the first branch of each `#if`. */
const CSHARP_IF = `using System;
#if NET6_0
using System.Text.Json;
#endif

namespace Shop.Core
{
    public class Reader
#if NET6_0
        : IDisposable
#endif
    {
        public Order Read() => new Order();
    }
}
`;

/** Edits as an agent makes them: appended, inserted mid-file, a line removed, a name changed, text beyond ASCII. */
const EDITS: Array<(s: string) => string> = [
  (s) => `${s}\n// edited 1\n`,
  (s) => {
    const i = s.indexOf('\n', s.length >> 1);
    return `${s.slice(0, i)}\n// inserted é ✓ 😀 line\n${s.slice(i)}`;
  },
  (s) => {
    const i = s.indexOf('\n', s.length >> 2);
    const j = s.indexOf('\n', i + 1);
    return `${s.slice(0, i)}${s.slice(j)}`;
  },
  (s) => s.replace(/(class|struct|function) (\w)/, '$1 Renamed$2'),
  (s) => s.replace('😀', '😁'),
  (s) => `${s}\n// the end\n`,
];

describe('kept tree-sitter trees: an edited file parsed from its previous tree', () => {
  afterEach(() => dropKeptTrees());
  after(() => cleanupProjects());

  it('editBetween: the one changed span, in UTF-16 units with rows and columns, never inside a surrogate pair', () => {
    assert.deepEqual(editBetween('ab\ncd', 'ab\ncXd'), {
      startIndex: 4,
      oldEndIndex: 4,
      newEndIndex: 5,
      startPosition: { row: 1, column: 1 },
      oldEndPosition: { row: 1, column: 1 },
      newEndPosition: { row: 1, column: 2 },
    });
    assert.deepEqual(editBetween('a\nb\nc\n', 'a\nc\n'), {
      startIndex: 2,
      oldEndIndex: 4,
      newEndIndex: 2,
      startPosition: { row: 1, column: 0 },
      oldEndPosition: { row: 2, column: 0 },
      newEndPosition: { row: 1, column: 0 },
    });
    // 😀 and 😁 share their high surrogate: the span starts before it
    const e = editBetween('x😀y', 'x😁y');
    assert.deepEqual([e.startIndex, e.oldEndIndex, e.newEndIndex], [1, 3, 3]);
    const same = editBetween('abc', 'abc');
    assert.deepEqual([same.startIndex, same.oldEndIndex, same.newEndIndex], [3, 3, 3]);
  });

  for (const [name, file, start] of [
    ['C#', 'Reader.cs', CSHARP_IF],
    ['C# (no directives)', 'Pricing.cs', fixture('csharp-rules/src/Shop.Core/Services/Pricing.cs')],
    ['PHP', 'Router.php', fixture('php-rules/src/Http/Router.php')],
    ['C', 'util.h', fixture('cpp-rules/src/util.h')],
    ['Python', 'mod.py', 'import os\n\n\ndef f(x):\n    """Doc."""\n    return os.path.join(x)\n\n\nclass K:\n    pass\n'],
  ] as const) {
    it(`${name}: every parse from the kept tree gives the facts a fresh parse gives`, async () => {
      await prepareGrammars([file]);
      let text = start;
      assert.deepEqual(parseWithLanguage(file, text, true), parseWithLanguage(file, text));
      for (const edit of EDITS) {
        text = edit(text);
        const kept = parseWithLanguage(file, text, true);
        assert.deepEqual(kept, parseWithLanguage(file, text), `after edit ${EDITS.indexOf(edit)}`);
      }
      // back to where it started
      assert.deepEqual(parseWithLanguage(file, start, true), parseWithLanguage(file, start));
    });
  }

  it('updates in one process give the records a full build gives (C# with #if, PHP, C)', async () => {
    for (const [project, rel, comment] of [
      ['csharp-rules', 'src/Shop.Core/Services/Pricing.cs', '//'],
      ['php-rules', 'src/Http/Router.php', '//'],
      ['cpp-rules', 'src/util.h', '//'],
    ] as const) {
      const root = copyProject(project);
      await buildIntel(root, { cache: false });
      const file = path.join(root, rel);
      if (project === 'csharp-rules') writeFileSync(file, readFileSync(file, 'utf8').replace(/^(namespace [^\n]*)$/m, '#if DEBUG\n#endif\n$1'));
      await updateIntel(root, [rel]);
      for (let i = 0; i < 3; i++) {
        appendFileSync(file, `\n${comment} edit ${i}\n`);
        await updateIntel(root, [rel]);
      }
      writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\/\/ edit 1\n/, '\n'));
      await updateIntel(root, [rel]);
      const updated = (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files[rel];
      dropKeptTrees();
      await buildIntel(root, { cache: false });
      const built = (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files[rel];
      assert.deepEqual(updated, built, project);
    }
  });
});
