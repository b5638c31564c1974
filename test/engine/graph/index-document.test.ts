import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readIndexDocument, serializeIndex } from '../../../engine/src/graph/index-document.js';
import { LazyRecords } from '../../../engine/src/graph/lazy-records.js';
import { entityId } from '../../../engine/src/ids.js';
import type { FileRecord } from '../../../engine/src/types.js';
import { STORE_FORMAT_VERSION } from '../../../engine/src/version.js';

function record(p: string): FileRecord {
  return {
    path: p, id: entityId(p), hash: 'abc', size: 1, mtimeMs: 2, type: 'source', moduleSystem: 'esm', docComment: 'a "doc"\n',
    purpose: 'Exports x.', purposeSource: 'generated', exports: [{ name: 'x', kind: 'const', line: 1 }], symbols: [],
    imports: [{ specifier: './b"c', kind: 'import', names: ['x'], line: 1, resolved: { kind: 'unresolved', reason: 'no file' } }],
    syntaxError: null, skipped: null,
  };
}

const tmp = (name: string, text: string | Uint8Array) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gsd-index-')), name);
  writeFileSync(file, text);
  return file;
};

describe('index.json: one record per line, parsed lazily', () => {
  const paths = ['src/a.ts', 'src/we"ird\\name.ts', 'src/ünï code.ts', 'src/line\nbreak.ts', 'z.ts'];
  const records = new Map(paths.map((p) => [p, record(p)]));

  it('round-trips records with quotes, backslashes, unicode and newlines in paths', () => {
    const text = serializeIndex(records, { 'tsconfig.json': 5 }, '2026-01-01T00:00:00.000Z');
    const parsedWhole = JSON.parse(text.toString('utf8'));
    assert.deepEqual(Object.keys(parsedWhole.files), [...paths].sort());
    const read = readIndexDocument(tmp('index.json', text));
    assert.ok(read.ok);
    assert.deepEqual(read.header.configFiles, { 'tsconfig.json': 5 });
    assert.deepEqual(new Map(read.records), new Map([...records].sort()));
  });

  it('writes untouched records back byte for byte and parses only what it is asked for', () => {
    const text = serializeIndex(records, {}, 'T');
    const read = readIndexDocument(tmp('index.json', text));
    assert.ok(read.ok);
    const lazy = read.records as LazyRecords;
    assert.equal(lazy.size, paths.length);
    assert.ok(lazy.rawOf('z.ts'));
    const a = lazy.get('src/a.ts')!;
    assert.equal(lazy.rawOf('src/a.ts'), undefined);
    lazy.set('src/a.ts', { ...a, purpose: 'changed' });
    const again = serializeIndex(lazy, {}, 'T');
    assert.deepEqual(again, serializeIndex(new Map([...records, ['src/a.ts', { ...a, purpose: 'changed' }]]), {}, 'T'));
  });

  it('reads a pretty-printed index too, and reports corrupt and other-version files as data', () => {
    const pretty = JSON.stringify({ storeFormatVersion: STORE_FORMAT_VERSION, toolVersion: 'x', builtAt: 'T', configFiles: {}, files: Object.fromEntries(records) }, null, 2);
    const read = readIndexDocument(tmp('index.json', pretty));
    assert.ok(read.ok);
    assert.equal(read.records.size, paths.length);
    const broken = readIndexDocument(tmp('index.json', serializeIndex(records, {}, 'T').subarray(0, 300)));
    assert.equal(broken.ok, false);
    assert.equal(!broken.ok && broken.reason, 'corrupt');
    const other = readIndexDocument(tmp('index.json', pretty.replace(`"storeFormatVersion": ${STORE_FORMAT_VERSION}`, '"storeFormatVersion": 999')));
    assert.equal(!other.ok && other.reason, 'format-mismatch');
    assert.equal(readIndexDocument('/nonexistent/index.json').ok, false);
  });

  it('peekFacts reads a raw record\'s symbols and imports as the record has them, keeps nothing parsed, and says which imports may have a field', () => {
    const tricky: FileRecord = { ...record('src/tricky.ts'), docComment: 'x,"symbols":[1],"imports":[2],"skipped":"no"', symbols: [{ name: 'A,"imports":', kind: 'class', line: 3, exported: true }] };
    const global: FileRecord = { ...record('src/global.cs'), imports: [{ specifier: 'N', kind: 'import', names: ['*'], line: 1, global: true, resolved: { kind: 'builtin', module: 'N' } }] };
    const skipped: FileRecord = { ...record('src/big.ts'), skipped: 'too-large' };
    const all = new Map<string, FileRecord>([...records, ['src/tricky.ts', tricky], ['src/global.cs', global], ['src/big.ts', skipped]]);
    // more records than one window of the file (a peek reads 256 KB at a time)
    for (let i = 0; i < 300; i++) {
      const p = `pkg/m${String(i).padStart(3, '0')}.ts`;
      all.set(p, { ...record(p), purpose: 'p'.repeat(2000 + i), symbols: [{ name: `S${i}`, kind: 'function', line: i, exported: true }] });
    }
    const read = readIndexDocument(tmp('index.json', serializeIndex(all, {}, '2026-01-01T00:00:00.000Z')));
    assert.ok(read.ok);
    const lazy = read.records as LazyRecords;
    for (const [p, r] of all) {
      const facts = lazy.peekFacts(p);
      if (r.skipped) {
        assert.equal(facts, null, p);
        continue;
      }
      assert.ok(facts, p);
      assert.deepEqual(facts.symbols, r.symbols, p);
      assert.equal(facts.importsMayHave?.('global'), r.imports.some((i) => 'global' in i), p);
      assert.deepEqual(facts.imports, r.imports, p);
    }
    assert.equal(lazy.peekFacts('src/none.ts'), undefined);
    assert.deepEqual(lazy.parsedKeys(), [], 'nothing kept parsed');
  });
});
