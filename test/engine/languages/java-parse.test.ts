import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepareGrammars } from '../../../engine/src/languages/parse.js';
import { loadFile } from '../../../engine/src/parse/index.js';
import type { ParsedFile } from '../../../engine/src/types.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';

const SOURCE = `// Licence header, not documentation.
package com.acme.svc;

import java.util.Map;
import com.acme.core.Shape;
import static com.acme.core.Units.*;
import com.acme.io.*;

@Service
public class Svc<T extends Shape> implements Handler, Comparable<Svc<T>> {
  private Map.Entry<String, T> entry;
  private com.acme.core.Point origin;
  private final Local local = new Local();

  public <R> R run(Function<T, R> f, T t) {
    Registry.register(this);
    Runnable r = Helper::print;
    Object o = com.acme.util.Strings.EMPTY;
    int n = Config.MAX + local.count;
    var list = Lists.empty();
    return f.apply(t);
  }

  class Local {
    int count;
  }
}
`;

describe('Java facts: the names a file uses, as written', () => {
  let root: string;
  let facts: ParsedFile;
  before(async () => {
    root = tempProject({ 'src/com/acme/svc/Svc.java': SOURCE });
    await prepareGrammars(['x.java']);
    const l = loadFile(root, 'src/com/acme/svc/Svc.java', { maxFileBytes: 1e6 });
    assert.ok('parsed' in l, JSON.stringify(l));
    facts = l.parsed;
  });
  after(cleanupProjects);

  it('one record per import statement: single-type, static on-demand, on-demand', () => {
    const statements = facts.imports.filter((i) => i.line <= 7 && i.kind === 'import').map((i) => [i.specifier, i.kind, i.line]);
    assert.deepEqual(statements, [
      ['java.util.Map', 'import', 4],
      ['com.acme.core.Shape', 'import', 5],
      ['com.acme.core.Units.*', 'import', 6],
      ['com.acme.io.*', 'import', 7],
    ]);
  });

  it('used simple type names: types, annotations, qualifiers of calls, fields and method references; not own types, type parameters or single-type imports', () => {
    const same = facts.imports.find((i) => i.kind === 'same-package')!;
    assert.equal(same.specifier, 'com.acme.svc.*');
    assert.equal(same.line, 2);
    assert.deepEqual(same.names, ['Comparable', 'Config', 'Function', 'Handler', 'Helper', 'Lists', 'Object', 'Registry', 'Runnable', 'Service', 'String']);
    assert.deepEqual(facts.imports.find((i) => i.specifier === 'com.acme.io.*')!.names, same.names, 'an on-demand import may provide any of them');
    assert.deepEqual(facts.imports.find((i) => i.specifier === 'com.acme.core.Units.*')!.names, ['*'], 'a static on-demand import names members');
  });

  it('fully-qualified names in a type and in an expression are references of their own', () => {
    assert.deepEqual(
      facts.imports.filter((i) => i.line > 7 && i.kind === 'import').map((i) => [i.specifier, i.names, i.line]),
      [
        ['com.acme.core.Point', ['Point'], 12],
        ['com.acme.util.Strings', ['Strings'], 18],
      ],
    );
  });

  it('a leading comment that is not Javadoc is no purpose; a generic public class is exported with its public method', () => {
    assert.equal(facts.docComment, null);
    assert.deepEqual(facts.exports, [
      { name: 'Svc', kind: 'class', line: 10 },
      { name: 'Svc.run', kind: 'function', line: 15 },
    ]);
    assert.equal(facts.syntaxError, null);
  });
});
