import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths } from '../../../engine/src/index.js';
import { type IndexFacts, factsOfRecords, readIndexFacts } from '../../../engine/src/graph/index-facts.js';
import { readIndexDocument, serializeIndex } from '../../../engine/src/graph/index-document.js';
import { entityId } from '../../../engine/src/ids.js';
import type { FileRecord, ResolvedImport } from '../../../engine/src/types.js';
import { STORE_FORMAT_VERSION } from '../../../engine/src/version.js';
import { repoRoot } from '../../helpers/paths.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';

/** The facts of the decoded records: what intel status reported before it stopped decoding them. */
function reference(file: string): IndexFacts {
  const read = readIndexDocument(file);
  assert.ok(read.ok);
  return factsOfRecords(read.header, read.records.entries());
}

const plain = (f: IndexFacts) => ({ ...f, stats: [...f.stats], paths: [...f.paths] });
/** Each record's own path, size and mtime by its key. */
const filesOf = (f: IndexFacts) => new Map(f.keys.map((k, i) => [k, { path: f.paths.get(i) ?? k, size: f.stats[2 * i], mtimeMs: f.stats[2 * i + 1] }]));

/** Both passes (with and without the edges) agree with the decoded records. */
function assertSameFacts(file: string): IndexFacts {
  const expected = plain(reference(file));
  const quick = readIndexFacts(file, { edges: false });
  assert.ok(quick.ok, JSON.stringify(quick));
  assert.deepEqual(plain(quick.facts), { ...expected, edges: NaN });
  const read = readIndexFacts(file);
  assert.ok(read.ok, JSON.stringify(read));
  assert.deepEqual(plain(read.facts), expected);
  return read.facts;
}

const imp = (specifier: string, kind: ResolvedImport['kind'], resolved: ResolvedImport['resolved'], extra: Partial<ResolvedImport> = {}): ResolvedImport => ({
  specifier, kind, names: ['x'], line: 1, ...extra, resolved,
});

function record(p: string, imports: ResolvedImport[], extra: Partial<FileRecord> = {}): FileRecord {
  return {
    path: p, id: entityId(p), hash: 'abc', size: p.length, mtimeMs: 1795565035791.94, type: 'source', moduleSystem: 'esm', docComment: 'a "doc" ,"imports":[ \\',
    purpose: 'Exports x.', purposeSource: 'generated', exports: [{ name: 'x', kind: 'const', line: 1 }], symbols: [], imports,
    syntaxError: null, skipped: null, ...extra,
  };
}

const tmp = (text: string | Uint8Array) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gsd-facts-')), 'index.json');
  writeFileSync(file, text);
  return file;
};

describe('index.json facts for intel status, read without decoding the records', () => {
  after(cleanupProjects);

  it('match the decoded records of a real project (this repository\'s engine and MCP server)', async () => {
    const root = tempProject({});
    for (const dir of ['engine/src', 'mcp-server/src']) cpSync(path.join(repoRoot, dir), path.join(root, dir), { recursive: true });
    await buildIntel(root);
    const facts = assertSameFacts(intelPaths(root).index);
    assert.ok(facts.keys.length > 100 && facts.edges > 100, `${facts.keys.length} files, ${facts.edges} edges`);
  });

  it('match them on every kind of import, escapes, reexports, self imports, skipped and broken files', () => {
    const records = [
      record('src/a.ts', [
        imp('./b', 'import', { kind: 'file', path: 'src/b.ts' }),
        imp('./b', 'import', { kind: 'file', path: 'src/b.ts' }),
        imp('./b', 'type-import', { kind: 'file', path: 'src/b.ts' }),
        imp('./a', 'import', { kind: 'file', path: 'src/a.ts' }),
        imp('./c', 'reexport', { kind: 'file', path: 'src/c "q".ts' }, { reexports: [{ imported: 'x', exported: 'y' }] }),
        imp('./d"e', 'require', { kind: 'unresolved', reason: 'no file "./d\\"e"' }),
        imp('./e', 'dynamic-import', { kind: 'unresolved', reason: 'no file' }),
        imp('lodash', 'import', { kind: 'external', package: 'lodash' }),
        imp('fs', 'import', { kind: 'builtin', module: 'fs' }),
        imp('./x.json', 'import', { kind: 'asset', path: 'src/x.json' }),
      ]),
      record('src/b.ts', [imp('./a', 'import', { kind: 'file', path: 'src/a.ts' }, { names: [] })]),
      record('src/c "q".ts', [imp('./a', 'import', { kind: 'file', path: 'src/a.ts' }), imp('./c', 'import', { kind: 'file', path: 'src/c "q".ts' })]),
      record('src/ünï\\cöde.ts', [imp('./ünï', 'import', { kind: 'file', path: 'src/ünï\\cöde.ts' }), imp('./a', 'import', { kind: 'file', path: 'src/a.ts' })]),
      record('src/big.js', [], { skipped: 'too-large', hash: null }),
      record('src/broken.ts', [imp('./a', 'import', { kind: 'file', path: 'src/a.ts' })], { syntaxError: { message: 'Unexpected token ,"skipped":"x"', line: 3 } }),
    ];
    const facts = assertSameFacts(tmp(serializeIndex(new Map(records.map((r) => [r.path, r])), { 'tsconfig.json': 7 }, 'T')));
    assert.deepEqual({ imports: facts.imports, edges: facts.edges, unresolved: facts.unresolved, skipped: facts.skipped, syntaxErrors: facts.syntaxErrors, files: facts.keys.length, header: facts.header.configFiles }, {
      files: 6, header: { 'tsconfig.json': 7 }, imports: 11, edges: 7, unresolved: 2, skipped: 1, syntaxErrors: 1,
    });
    assert.deepEqual(filesOf(facts).get('src/ünï\\cöde.ts'), { path: 'src/ünï\\cöde.ts', size: 15, mtimeMs: 1795565035791.94 });
  });

  it('decode what is not laid out as serializeIndex writes it: reordered fields, hand edits, pretty-printed files', () => {
    const a = record('src/a.ts', [imp('./b', 'import', { kind: 'file', path: 'src/b.ts' })]);
    const b = record('src/b.ts', [imp('./a', 'import', { kind: 'file', path: 'src/a.ts' }), imp('./z', 'import', { kind: 'unresolved', reason: 'r' })]);
    const lines = serializeIndex(new Map([[a.path, a], [b.path, b]]), {}, 'T').toString('utf8').split('\n');
    // fields in another order, and a resolution with its keys swapped
    const { imports, ...rest } = b;
    const swapped = { imports: [{ ...imports[0], resolved: { path: 'src/a.ts', kind: 'file' } }, imports[1]], ...rest };
    const reordered = [lines[0], lines[1], `${JSON.stringify(b.path)}:${JSON.stringify(swapped)}`, ...lines.slice(3)].join('\n');
    assert.deepEqual(plain(assertSameFacts(tmp(reordered))), plain(assertSameFacts(tmp(lines.join('\n')))));
    // a key that names another file than its record: status compares by key and lists removed files by the record's path
    const renamed = [lines[0], lines[1].replace('"src/a.ts":', '"src/old.ts":'), ...lines.slice(2)].join('\n');
    const facts = assertSameFacts(tmp(renamed));
    assert.equal(filesOf(facts).get('src/old.ts')?.path, 'src/a.ts');
    // the same key twice: the last one wins, as when decoded
    assertSameFacts(tmp([lines[0], lines[1], lines[1], ...lines.slice(2)].join('\n')));
    assertSameFacts(tmp(JSON.stringify({ ...JSON.parse(lines.join('\n')) }, null, 2)));
  });

  it('report a missing, corrupt or other-version index as data', () => {
    assert.equal((readIndexFacts(path.join(os.tmpdir(), 'gsd-no-such-dir', 'index.json')) as { reason: string }).reason, 'missing');
    const text = serializeIndex(new Map([['src/a.ts', record('src/a.ts', [])]]), {}, 'T').toString('utf8');
    assert.equal((readIndexFacts(tmp(text.slice(0, 200))) as { reason: string }).reason, 'corrupt');
    // a record line that is not a record (the layout is checked, not every byte of a record that has it)
    assert.equal((readIndexFacts(tmp(text.replace(/^("src\/a\.ts":)\{.*\}$/m, '$1{"oops"}'))) as { reason: string }).reason, 'corrupt');
    assert.equal((readIndexFacts(tmp(text.replace(`"storeFormatVersion":${STORE_FORMAT_VERSION}`, '"storeFormatVersion":99'))) as { reason: string }).reason, 'format-mismatch');
    assert.ok(readFileSync(tmp(text), 'utf8').endsWith('}}\n'));
  });
});
