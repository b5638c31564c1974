import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { purposeHash, readEntityPurpose, renderEntity, renderSummary, yamlString, type EntityView, type SummaryView } from '../../../engine/src/store/markdown.js';
import type { FileRecord } from '../../../engine/src/types.js';

function record(over: Partial<FileRecord> = {}): FileRecord {
  return {
    path: 'src/a.ts',
    id: 'src-a-ts',
    hash: 'h',
    size: 1,
    mtimeMs: 1,
    type: 'source',
    moduleSystem: 'esm',
    docComment: null,
    purpose: 'Does A things.',
    purposeSource: 'generated',
    exports: [{ name: 'a', kind: 'function', line: 1 }],
    symbols: [],
    imports: [],
    syntaxError: null,
    skipped: null,
    ...over,
  };
}
function view(over: Partial<FileRecord> = {}, rest: Partial<EntityView> = {}): EntityView {
  return { record: record(over), dependencies: [], dependents: [], externals: [], unresolved: [], updated: '2025-01-01T00:00:00.000Z', ...rest };
}
function frontmatter(md: string): Record<string, string> {
  const block = md.split('\n---\n')[0].replace(/^---\n/, '');
  return Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
}

describe('readEntityPurpose', () => {
  it('a generated page reads back as not manual, with the purpose text', () => {
    const md = renderEntity(view({ purpose: 'Line one.\n\nLine two with `code` and: colon.' }));
    assert.deepEqual(readEntityPurpose(md), { purpose: 'Line one.\n\nLine two with `code` and: colon.', manual: false });
  });

  it('an edited Purpose section is manual', () => {
    const md = renderEntity(view());
    const edited = md.replace('Does A things.', 'Does A things, and B when asked.');
    assert.deepEqual(readEntityPurpose(edited), { purpose: 'Does A things, and B when asked.', manual: true });
  });

  it('purpose_source: manual stays manual even when the text matches the hash', () => {
    const md = renderEntity(view({ purpose: 'Written by hand.', purposeSource: 'manual' }));
    assert.equal(frontmatter(md).purpose_source, 'manual');
    assert.deepEqual(readEntityPurpose(md), { purpose: 'Written by hand.', manual: true });
  });

  it('tolerates CRLF line ends and trailing blanks (editors on Windows)', () => {
    const md = renderEntity(view({ purpose: 'First.\nSecond.' }));
    const crlf = md.replace(/\n/g, '\r\n').replace('First.', 'First.   ');
    assert.deepEqual(readEntityPurpose(crlf), { purpose: 'First.\nSecond.', manual: false });
    assert.equal(readEntityPurpose(crlf.replace('Second.', 'Third.'))?.manual, true);
  });

  it('without frontmatter any non-empty text is manual', () => {
    assert.deepEqual(readEntityPurpose('# x\n\n## Purpose\n\nHand written.\n\n## Exports\n\n- a\n'), { purpose: 'Hand written.', manual: true });
    assert.deepEqual(readEntityPurpose('## Purpose\n\n\n## Exports\n'), { purpose: '', manual: false });
  });

  it('an emptied section is not manual (clearing it asks for the generated text again)', () => {
    const md = renderEntity(view({ purposeSource: 'manual', purpose: 'Old manual text.' }));
    assert.deepEqual(readEntityPurpose(md.replace('Old manual text.', '')), { purpose: '', manual: false });
  });

  it('a Purpose section that opens a fence and never closes it ends at the next section', () => {
    // a page an earlier version wrote from a doc comment that was a code example: without this the fence swallowed
    // the sections after it, the purpose read back differed from its hash, and every rebuild appended them again
    const md = renderEntity(view({ purpose: '```compile_fail,E0599 use rayon::prelude::*;' }));
    assert.deepEqual(readEntityPurpose(md), { purpose: '```compile_fail,E0599 use rayon::prelude::*;', manual: false });
  });

  it('returns null without a Purpose section', () => {
    assert.equal(readEntityPurpose('---\npath: a\n---\n\n## Exports\n\n- a\n'), null);
    assert.equal(readEntityPurpose(''), null);
  });

  it('keeps headings inside the purpose from ending the section', () => {
    const md = renderEntity(view({ purpose: 'Intro.\n## Details\nMore.\n# Big' }));
    const read = readEntityPurpose(md);
    assert.equal(read?.manual, false);
    assert.equal(read?.purpose, 'Intro.\n### Details\nMore.\n### Big');
  });

  it('stops at the next section and ignores text after it', () => {
    const md = renderEntity(view());
    const read = readEntityPurpose(md.replace('## Exports', 'Added line.\n\n## Exports'));
    assert.deepEqual(read, { purpose: 'Does A things.\n\nAdded line.', manual: true });
  });

  it('reads a hand-quoted purpose_hash and a BOM', () => {
    const text = 'Quoted.';
    const md = `\uFEFF---\npurpose_source: 'generated'\npurpose_hash: "${purposeHash(text)}"\n---\n## Purpose\n${text}\n`;
    assert.deepEqual(readEntityPurpose(md), { purpose: text, manual: false });
  });
});

describe('renderEntity', () => {
  it('writes the frontmatter fields and a hash of the purpose as rendered', () => {
    const md = renderEntity(view({ purpose: '  Padded purpose.  \n' }));
    const fm = frontmatter(md);
    assert.deepEqual(Object.keys(fm), ['path', 'id', 'type', 'exports', 'dependencies', 'dependents', 'updated', 'purpose_source', 'purpose_hash']);
    assert.equal(fm.purpose_hash.replace(/"/g, ''), purposeHash('Padded purpose.'));
    assert.match(fm.purpose_hash.replace(/"/g, ''), /^[0-9a-f]{12}$/);
  });

  it('is independent of the order of its inputs', () => {
    const deps = [
      { path: 'src/z.ts', id: 'z', kinds: ['import'] },
      { path: 'src/b.ts', id: 'b', kinds: ['type-import', 'import'] },
    ];
    const one = renderEntity(view({}, { dependencies: deps, externals: ['zod', 'react'] }));
    const two = renderEntity(view({}, { dependencies: [...deps].reverse().map((d) => ({ ...d, kinds: [...d.kinds].reverse() })), externals: ['react', 'zod', 'react'] }));
    assert.equal(one, two);
  });
});

describe('yamlString', () => {
  it('quotes what YAML would misread', () => {
    for (const v of ['a: b', '#x', 'it\'s', '"q"', 'true', 'No', 'null', '~', '123', '1.5', '-x', '', ' lead', 'x, y', '[a]', '{a}', '@x', '`x`', 'a\nb', '.5', '2025-01-01']) {
      const out = yamlString(v);
      assert.ok(out.startsWith('"'), `${JSON.stringify(v)} → ${out}`);
      assert.equal(JSON.parse(out), v);
    }
    for (const v of ['src/a.ts', 'foo', 'src/__x__/y.tsx', 'a-b_c', '$scope']) assert.equal(yamlString(v), v);
  });
});

describe('renderSummary', () => {
  it('stays well under 4,000 characters for a big project with long names', () => {
    const long = (i: number) => `packages/some-very-long-package-name-${i}/src/deeply/nested/folder/structure/with/many/levels/file-${i}.ts`;
    const v: SummaryView = {
      root: 'x'.repeat(300),
      fileCount: 250_000,
      edgeCount: 2_000_000,
      externalCount: 3_000,
      unresolvedCount: 10_000,
      skippedCount: 500,
      syntaxErrorCount: 40,
      builtAt: '2025-01-01T00:00:00.000Z',
      hotspots: Array.from({ length: 500 }, (_, i) => ({ path: long(i), id: `id-${'y'.repeat(80)}-${i}`, direct: 1000 - i, transitive: 90_000 - i })),
      entryPoints: Array.from({ length: 100 }, (_, i) => long(i)),
      conventions: {
        fileNaming: { style: 'kebab-case', share: 0.9 },
        moduleSystem: { style: 'mixed (mostly esm)', share: 0.55 },
        exportStyle: { style: 'named exports', share: 0.7 },
        tests: { count: 9000, layout: 'mostly colocated', pattern: '*.test.ts' },
        folderRoles: Array.from({ length: 200 }, (_, i) => ({ folder: long(i), role: 'UI components and other things '.repeat(5), files: 300 - i })),
      },
    };
    const md = renderSummary(v);
    assert.ok(md.length < 4_000, `${md.length} characters`);
    assert.match(md, /… and 490 more/);
    assert.match(md, /mcp__gsd__blast_radius/);
    for (const q of ['blast-radius', 'hotspots', 'search', 'deps', 'path']) assert.ok(md.includes(`get-shit-done-cc intel query ${q}`), q);
  });
});

describe('readEntityPurpose with code blocks', () => {
  it('does not end the section at `#` lines inside a fenced block', () => {
    const purpose = 'Run it like this:\n\n```sh\n# install first\nnpm i\n## not a heading\n```\n\nThen done.';
    const md = renderEntity(view({ purpose, purposeSource: 'manual' }));
    assert.ok(md.includes('# install first'), 'code is kept verbatim');
    assert.deepEqual(readEntityPurpose(md), { purpose, manual: true });
    const generated = renderEntity(view({ purpose }));
    assert.deepEqual(readEntityPurpose(generated), { purpose, manual: false });
  });
});
