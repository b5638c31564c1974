import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { prepareGrammars } from '../../../engine/src/languages/parse.js';
import { loadFile, parseSource } from '../../../engine/src/parse/index.js';
import type { LoadedFile } from '../../../engine/src/types.js';
import { fixture } from '../../helpers/paths.js';

const sha1 = (data: Uint8Array | string) => createHash('sha1').update(data).digest('hex');
const opts = { maxFileBytes: 1024 };

function skipReason(file: LoadedFile): string | null {
  return 'skipped' in file ? file.skipped : null;
}

describe('loadFile', () => {
  let tmp = '';
  let outside = '';

  before(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-load-file-'));
    outside = mkdtempSync(path.join(os.tmpdir(), 'gsd-load-file-outside-'));
    mkdirSync(path.join(tmp, 'src'));
    writeFileSync(path.join(tmp, 'src/binary.js'), Buffer.from([0x63, 0x6f, 0x6e, 0x00, 0x73, 0x74]));
    writeFileSync(path.join(tmp, 'src/latin1.js'), Buffer.from('const caf\xe9 = 1;\n', 'latin1'));
    writeFileSync(path.join(tmp, 'src/bom.ts'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("import x from './x';\n")]));
    writeFileSync(path.join(tmp, 'src/large.js'), `export const big = '${'x'.repeat(2000)}';\n`);
    writeFileSync(path.join(tmp, 'src/exact.js'), `// ${'y'.repeat(1024 - 4)}\n`);
    writeFileSync(path.join(tmp, 'src/target.js'), 'exports.linked = true;\n');
    symlinkSync(path.join(tmp, 'src/target.js'), path.join(tmp, 'src/inside-link.js'));
    writeFileSync(path.join(outside, 'secret.js'), 'exports.secret = true;\n');
    symlinkSync(path.join(outside, 'secret.js'), path.join(tmp, 'src/outside-link.js'));
    symlinkSync(outside, path.join(tmp, 'src/outside-folder'));
    symlinkSync(path.join(tmp, 'src/missing.js'), path.join(tmp, 'src/dangling-link.js'));
    symlinkSync(path.join(tmp, 'src/loop-b.js'), path.join(tmp, 'src/loop-a.js'));
    symlinkSync(path.join(tmp, 'src/loop-a.js'), path.join(tmp, 'src/loop-b.js'));
  });

  after(() => {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('reads, hashes and parses a source file', () => {
    const root = fixture('parse');
    const rel = 'load-file/plain-module.ts';
    const bytes = readFileSync(path.join(root, rel));
    const loaded = loadFile(root, rel, { maxFileBytes: 1_000_000 });
    assert.deepEqual(loaded, {
      path: rel,
      hash: sha1(bytes),
      size: bytes.length,
      mtimeMs: statSync(path.join(root, rel)).mtimeMs,
      parsed: parseSource(rel, bytes.toString('utf8')),
    });
    assert.ok('parsed' in loaded);
    assert.equal(loaded.parsed.docComment, 'A small module loaded from disk.');
  });

  it('skips a file with a NUL byte as binary, with its hash', () => {
    const loaded = loadFile(tmp, 'src/binary.js', opts);
    assert.deepEqual(loaded, {
      path: 'src/binary.js',
      hash: sha1(readFileSync(path.join(tmp, 'src/binary.js'))),
      size: 6,
      mtimeMs: statSync(path.join(tmp, 'src/binary.js')).mtimeMs,
      skipped: 'binary',
    });
  });

  it('skips invalid UTF-8 as non-utf8', () => {
    const loaded = loadFile(tmp, 'src/latin1.js', opts);
    assert.equal(skipReason(loaded), 'non-utf8');
    assert.equal(loaded.hash, sha1(readFileSync(path.join(tmp, 'src/latin1.js'))));
  });

  it('skips files above maxFileBytes without hashing them; a file of exactly the limit is read', () => {
    const large = loadFile(tmp, 'src/large.js', opts);
    assert.equal(skipReason(large), 'too-large');
    assert.equal(large.hash, null);
    assert.equal(large.size, statSync(path.join(tmp, 'src/large.js')).size);
    assert.equal(skipReason(loadFile(tmp, 'src/exact.js', opts)), null);
  });

  it('drops a UTF-8 BOM before parsing, but hashes the bytes as they are', () => {
    const loaded = loadFile(tmp, 'src/bom.ts', opts);
    assert.ok('parsed' in loaded);
    assert.equal(loaded.hash, sha1(readFileSync(path.join(tmp, 'src/bom.ts'))));
    assert.equal(loaded.parsed.syntaxError, null);
    assert.deepEqual(loaded.parsed.imports, [{ specifier: './x', kind: 'import', names: ['default'], line: 1 }]);
  });

  it('follows a symlink that stays inside the root', () => {
    const loaded = loadFile(tmp, 'src/inside-link.js', opts);
    assert.ok('parsed' in loaded);
    assert.deepEqual(loaded.parsed.exports, [{ name: 'linked', kind: 'cjs', line: 1 }]);
  });

  it('refuses a symlink that leaves the root, also through a linked folder', () => {
    const loaded = loadFile(tmp, 'src/outside-link.js', opts);
    assert.equal(skipReason(loaded), 'not-a-file');
    assert.equal(loaded.hash, null);
    assert.equal(skipReason(loadFile(tmp, 'src/outside-folder/secret.js', opts)), 'not-a-file');
  });

  it('reports dangling and looping symlinks as unreadable', () => {
    assert.equal(skipReason(loadFile(tmp, 'src/dangling-link.js', opts)), 'unreadable');
    assert.equal(skipReason(loadFile(tmp, 'src/loop-a.js', opts)), 'unreadable');
  });

  it('reports a directory as not-a-file and a missing file as unreadable, without throwing', () => {
    assert.equal(skipReason(loadFile(tmp, 'src', opts)), 'not-a-file');
    const missing = loadFile(tmp, 'src/nope.js', opts);
    assert.equal(skipReason(missing), 'unreadable');
    assert.ok('detail' in missing && missing.detail?.startsWith('ENOENT'));
  });

  it('gives the same result for a path a scan listed (walked), links, folders and pipes included, without waiting on a pipe', () => {
    const fifo = spawnSync('mkfifo', [path.join(tmp, 'src/pipe.js')]).status === 0;
    // every file of this test a scan can list: a scan follows no link into a folder, so not src/outside-folder/…
    const paths = ['binary.js', 'latin1.js', 'bom.ts', 'large.js', 'exact.js', 'target.js', 'inside-link.js', 'outside-link.js', 'dangling-link.js', 'loop-a.js', 'nope.js', ...(fifo ? ['pipe.js'] : [])];
    for (const p of [...paths.map((f) => `src/${f}`), 'src']) assert.deepEqual(loadFile(tmp, p, { ...opts, walked: true }), loadFile(tmp, p, opts), p);
    if (fifo) assert.equal(skipReason(loadFile(tmp, 'src/pipe.js', { ...opts, walked: true })), 'not-a-file');
  });

  it('reports a file without read permission as unreadable', { skip: process.getuid?.() === 0 ? 'root can read anything' : false }, () => {
    const file = path.join(tmp, 'src/locked.js');
    writeFileSync(file, 'x', { mode: 0o000 });
    assert.equal(skipReason(loadFile(tmp, 'src/locked.js', opts)), 'unreadable');
  });
});

describe('loadFile: what is kept of a file', () => {
  let tmp = '';
  const FILES = 40;
  const PAD = 500_000;

  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-load-file-text-'));
    for (let i = 0; i < FILES; i++) {
      // one long name per file (a view into the source would keep the whole text), half a megabyte of comment
      writeFileSync(path.join(tmp, `m${i}.py`), `from package_with_a_long_name_${i} import a_rather_long_symbol_name\n# ${'x'.repeat(PAD)}\n`);
      writeFileSync(path.join(tmp, `m${i}.ts`), `import { aRatherLongSymbolName } from './a-module-with-a-long-name-${i}';\n// ${'x'.repeat(PAD)}\n`);
    }
    await prepareGrammars([`m0.py`]);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('holds the names and specifiers a parse cut out of a file, not the file text (Python and TS)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: LoadedFile[] = [];
    for (let i = 0; i < FILES; i++) for (const ext of ['py', 'ts']) kept.push(loadFile(tmp, `m${i}.${ext}`, { maxFileBytes: 2 * PAD }));
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    for (const f of kept) assert.ok('parsed' in f && f.parsed.imports.length === 1 && f.parsed.imports[0].specifier.length > 13);
    // the texts are 2 × 40 × 0.5 MB = 40 MB; the facts kept of them are a few KB
    assert.ok(grown < (FILES * PAD) / 4, `heap grew by ${grown} bytes while keeping the facts of ${kept.length} files`);
  });
});
