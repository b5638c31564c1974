/**
 * The edit path at scale keeps every record but the touched ones as spans of index.json: the dependents of a page
 * are found by a byte search of the raw index, untouched lines are copied back, size/mtime are read off the lines,
 * and summary.md is updated from summary-state.json when no edge moved. Each must give exactly what parsing
 * everything gives.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, updateIntel } from '../../../engine/src/index.js';
import { readIndexDocument, serializeIndex } from '../../../engine/src/graph/index-document.js';
import { LazyRecords, statOf } from '../../../engine/src/graph/lazy-records.js';
import { edgeIndex, edgesAround } from '../../../engine/src/pipeline/artifacts.js';
import { entityId } from '../../../engine/src/ids.js';
import type { FileRecord, ResolvedImport } from '../../../engine/src/types.js';
import { moveIntelAside, snapshotIntel } from '../../helpers/intel-snapshot.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gsd-edit-path-'));
after(() => rmSync(dir, { recursive: true, force: true }));
after(cleanupProjects);

function record(p: string, imports: Array<[string, string | null]>, extra: Partial<FileRecord> = {}): FileRecord {
  return {
    path: p, id: entityId(p), hash: 'h', size: p.length, mtimeMs: 1700000000000.25, type: 'source', moduleSystem: 'esm', docComment: null,
    purpose: 'p', purposeSource: 'generated', exports: [], symbols: [],
    imports: imports.map(([specifier, target], line): ResolvedImport => ({
      specifier, kind: 'import', names: ['x'], line: line + 1,
      resolved: target === null ? { kind: 'unresolved', reason: 'no file' } : { kind: 'file', path: target },
    })),
    syntaxError: null, skipped: null, ...extra,
  };
}

/** index.json of `records` written and read back lazily */
function lazyIndex(records: FileRecord[]): LazyRecords {
  const file = path.join(mkdtempSync(path.join(dir, 'i-')), 'index.json');
  writeFileSync(file, serializeIndex(new Map(records.map((r) => [r.path, r])), {}, 'T'));
  const read = readIndexDocument(file, { stats: true });
  assert.ok(read.ok);
  return read.records;
}

const sources = (list: Array<{ source: string }> | undefined) => (list ?? []).map((e) => e.source).sort();

describe('the edit path without parsing every record', () => {
  const weird = 'src/we"ird\\name.ts';
  const records = [
    record('src/a.ts', []),
    record('src/a.tsx', []),
    record('src/a.ts.d/b.ts', [['../a', 'src/a.ts']]),
    record('src/b.ts', [['./a.tsx', 'src/a.tsx']]),
    // mentions src/a.ts in a specifier, a doc comment and an unresolved import, but imports something else
    record('src/c.ts', [['src/a.ts', null]], { docComment: '"resolved":{"kind":"file","path":"src/a.ts"}' }),
    record('src/d.ts', [['./a', 'src/a.ts'], ['./we', weird]]),
    record('src/ünï code.ts', [['./a', 'src/a.ts']]),
    record(weird, [['./ünï code', 'src/ünï code.ts']]),
  ];
  const parsedAll = edgeIndex(new Map(records.map((r) => [r.path, r])));

  it('finds every dependent and only those: prefixes, look-alike text, quotes, backslashes and unicode in paths', () => {
    for (const target of ['src/a.ts', 'src/a.tsx', weird, 'src/ünï code.ts', 'src/b.ts']) {
      const lazy = lazyIndex(records);
      const around = edgesAround(lazy, new Set([target]));
      assert.deepEqual(sources(around.in.get(target)), sources(parsedAll.in.get(target)), target);
      assert.deepEqual(around.out.get(target), parsedAll.out.get(target), target);
      // only the candidates were parsed: the target itself and the records whose bytes name it as a file
      assert.ok(lazy.parsedKeys().length <= 1 + sources(parsedAll.in.get(target)).length, target);
    }
  });

  it('sees a dependent that was changed in memory, and drops one whose import moved away', () => {
    const lazy = lazyIndex(records);
    lazy.set('src/b.ts', record('src/b.ts', [['./a', 'src/a.ts']]));
    lazy.set('src/d.ts', record('src/d.ts', []));
    const around = edgesAround(lazy, new Set(['src/a.ts']));
    assert.deepEqual(sources(around.in.get('src/a.ts')), ['src/a.ts.d/b.ts', 'src/b.ts', 'src/ünï code.ts']);
  });

  it('reads size and mtime off the lines without parsing, and copies untouched lines back byte for byte', () => {
    const lazy = lazyIndex(records);
    for (const r of records) assert.deepEqual({ ...statOf(lazy, r.path)! }, { ...statOf(lazy, r.path)!, size: r.size, mtimeMs: r.mtimeMs });
    assert.equal(lazy.parsedKeys().length, 0);
    const changed = record('src/b.ts', [], { purpose: 'changed' });
    lazy.set('src/b.ts', changed);
    lazy.delete('src/c.ts');
    const plain = new Map(records.filter((r) => r.path !== 'src/c.ts').map((r) => [r.path, r.path === 'src/b.ts' ? changed : r]));
    assert.deepEqual(serializeIndex(lazy, {}, 'T2'), serializeIndex(plain, {}, 'T2'));
    // read without { stats: true } (an update, not a refresh): the stats come from parsing the record
    const file = path.join(mkdtempSync(path.join(dir, 'i-')), 'index.json');
    writeFileSync(file, serializeIndex(new Map(records.map((r) => [r.path, r])), {}, 'T'));
    const plainRead = readIndexDocument(file);
    assert.ok(plainRead.ok);
    assert.equal(statOf(plainRead.records, 'src/d.ts')?.mtimeMs, 1700000000000.25);
    assert.deepEqual(plainRead.records.parsedKeys(), ['src/d.ts']);
  });

  it('splits and writes back a record line longer than the read block (1 MB)', () => {
    const big = record('src/big.ts', [['./a', 'src/a.ts']], { docComment: 'x'.repeat(1_500_000) + '"\\\n' });
    const all = [...records, big];
    const lazy = lazyIndex(all);
    assert.equal(lazy.size, all.length);
    lazy.set('src/a.tsx', record('src/a.tsx', [], { purpose: 'touched' }));
    const plain = new Map(all.map((r) => [r.path, r.path === 'src/a.tsx' ? lazy.get('src/a.tsx')! : r]));
    assert.deepEqual(serializeIndex(lazy, {}, 'T'), serializeIndex(plain, {}, 'T'));
    assert.deepEqual(lazy.get('src/big.ts'), big);
  });

  it('keeps summary.md equal to a rebuild when an edit changes only an export style, with or without summary-state.json', async () => {
    const root = tempProject({
      'src/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'src/b.ts': 'export const b = 1;\n',
      'src/c.js': "const { a } = require('./a');\nmodule.exports = a;\n",
    });
    await buildIntel(root);
    const state = intelPaths(root).summaryState;
    assert.ok(existsSync(state));
    const steps: Array<[string, string, boolean]> = [
      ['src/b.ts', 'export default 1;\n', true], // named → default: counters moved
      ['src/c.js', "const { a } = require('./a');\nmodule.exports = a;\nexport const x = 1;\n", true], // cjs → mixed
      ['src/b.ts', 'export default 1;\nexport const y = 2;\n', false], // without summary-state.json: computed from every record
    ];
    for (const [file, text, keepState] of steps) {
      if (!keepState) rmSync(state);
      writeFile(root, file, text);
      await updateIntel(root, [file]);
      assert.ok(existsSync(state));
      const aside = moveIntelAside(root, `incremental-${file.replace(/\W/g, '')}-${keepState}`);
      const incremental = await snapshotIntel(aside);
      await buildIntel(root, { cache: false });
      const rebuilt = await snapshotIntel(intelPaths(root).dir);
      assert.equal(incremental.summary, rebuilt.summary, `${file}: ${text}`);
      const viewOf = (folder: string) => JSON.parse(readFileSync(path.join(folder, 'summary-state.json'), 'utf8')).view;
      assert.deepEqual(viewOf(aside), viewOf(intelPaths(root).dir));
    }
  });
});
