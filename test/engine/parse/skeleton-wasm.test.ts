import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { dialectOf } from '../../../engine/src/parse/babel-options.js';
import { loadFile } from '../../../engine/src/parse/load-file.js';
import { parseBytes, parseSource } from '../../../engine/src/parse/parse-source.js';
import { skeletonOf, tokenize, type Tokens } from '../../../engine/src/parse/skeleton.js';
import { lexBytes, skeletonFromBytes } from '../../../engine/src/parse/skeleton-wasm.js';
import { repoRoot } from '../../helpers/paths.js';
import { randomCut, seededRandom, sourcesUnder } from '../../helpers/sources.js';

/** The WebAssembly lexer's skeleton of `source`; fails the test when WebAssembly is not used at all. */
function wasmSkeleton(source: string, file: string): string | null {
  const result = skeletonFromBytes(Buffer.from(source, 'utf8'), dialectOf(file), () => source);
  assert.notEqual(result, undefined, 'the WebAssembly lexer is available');
  return result as string | null;
}

const plain = (t: Tokens | null) =>
  t && { kinds: Array.from(t.kinds), starts: Array.from(t.starts), ends: Array.from(t.ends), texts: Array.from(t.texts), comments: Array.from(t.comments) };

/** Both lexers give the same skeleton and the same tokens of it, or both give up. Returns the skeleton. */
function assertSameSkeleton(source: string, file: string, what = file): string | null {
  const dialect = dialectOf(file);
  const reference = skeletonOf(source, dialect);
  assert.equal(wasmSkeleton(source, file), reference, what);
  const lexed = lexBytes(Buffer.from(source, 'utf8'), dialect, () => source);
  assert.notEqual(lexed, undefined, 'the WebAssembly lexer is available');
  if (reference === null) {
    assert.equal(lexed, null, what);
    return null;
  }
  assert.equal(lexed!.text, reference, what);
  assert.deepEqual(plain(lexed!.tokens), plain(tokenize(reference, dialect)), `${what}: tokens`);
  return reference;
}

describe('skeletonFromBytes (the WebAssembly lexer) against skeletonOf (the reference)', () => {
  it('gives the same skeleton for every fixture and every source file of this repository', () => {
    const files = ['test', 'engine', 'installer', 'hooks', 'mcp-server', 'scripts', 'bench'].flatMap((d) => sourcesUnder(path.join(repoRoot, d)));
    assert.ok(files.length > 300, `found ${files.length} files`);
    let reduced = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8').replace(/^\ufeff/, '');
      const rel = path.relative(repoRoot, file).split(path.sep).join('/');
      const text = assertSameSkeleton(source, rel);
      if (text !== null && text !== source) reduced++;
    }
    assert.ok(reduced > files.length / 2, `${reduced} of ${files.length} files were reduced`);
  });

  it('gives the same skeleton, or gives up with it, on cut and spliced files', () => {
    const files = ['engine', 'hooks', 'mcp-server', 'test/fixtures'].flatMap((d) => sourcesUnder(path.join(repoRoot, d)));
    const next = seededRandom(Number(process.env.CUT_SEED ?? 20261124));
    let bails = 0;
    for (let k = 0; k < Number(process.env.CUTS ?? 1000); k++) {
      const file = files[Math.floor(next() * files.length)];
      const rel = path.relative(repoRoot, file).split(path.sep).join('/');
      const { text, a, b } = randomCut(readFileSync(file, 'utf8'), next);
      if (assertSameSkeleton(text, rel, `${rel} cut at lines ${a}/${b}`) === null) bails++;
    }
    assert.ok(bails > 10, `${bails} cuts made both lexers give up`);
  });

  it('reads characters from U+0080 on as the reference does: blanks, line terminators, names, literals (offsets in UTF-16 units)', () => {
    const cases: Array<[string, string]> = [
      // wide blanks between tokens (no-break space, ideographic space, BOM inside the text, en quad, narrow nbsp)
      ['src/a.ts', 'export\u00a0function\u3000f()\u2000{ return 1; }\nexport const x\ufeff= { a: 1 };\u202fexport function g() { return [1]; }\n'],
      // U+2028/U+2029 end a line comment and count as line breaks in dropped blocks
      ['src/b.ts', '// lead\u2028export function f() {\u2028  return 1;\u2029}\nfunction g() { // c\u2028 return 2 }\n'],
      // non-ASCII names, strings, templates and regular expressions, astral characters included
      ['src/c.ts', "export const caf\u00e9 = 'na\u00efve \u{1f600}';\nexport function \u00fcber(x) { return `\u00e9${x}\u{1f680}` + /[\u00e9-\u00ff]+\u{1f600}/u.source; }\nconst \u03c0 = 3.14;\nfunction f() { return \u03c0; }\n"],
      // a backslash before a wide character in a name, a string and a regular expression
      ['src/d.js', "var a\\u00e9 = 1;\nvar s = 'x\\\u00e9y';\nvar r = /\\\u00e9/;\nfunction f() { return a\\u00e9 + s; }\nmodule.exports = f;\n"],
      // a regular expression broken by U+2028 makes both give up
      ['src/e.js', 'function f() { return /a\u2028b/; }\n'],
      // `-->` first on a line after U+2028 (an HTML-like comment): both give up
      ['src/f.js', 'var a = 1;\u2028--> comment\nfunction f() { return 1; }\n'],
      // \r\n and lone \r line ends, in kept and dropped text
      ['src/g.ts', "import { a } from './a';\r\nexport function f() {\r\n  return a;\r\n}\rfunction g() {\r  return 2;\r}\r\n"],
      // a shebang, a directive prologue with comments, a name right after a dropped block
      ['src/h.js', "#!/usr/bin/env node\n'use strict'; // kept\n/* kept too */\nfunction f(){return 1}g();\nexports.f = f;\n"],
      // words looked up by hash next to similar names, and `{ a } = require()` patterns
      ['src/i.js', "var requirex = 1, exportsy = 2, importz = 3;\nconst { a, b: { c } } = require('./x');\nfunction f() { const { d } = require('./y'); return d; }\nmodule.exports = { requirex, exportsy };\n"],
      // unterminated literals and unbalanced brackets make both give up
      ['src/j.ts', "export function f() { return 'x; }\n"],
      ['src/k.ts', 'export function f() { return `x${1}\n'],
      ['src/l.ts', 'export function f() { return [1, 2); }\n'],
      // every punctuator the token texts name, and one that gives up in tokenize only (a skeleton's `}` of a template)
      ['src/o.ts', "export const a = b => c == d && e === f != g !== h, i = [...j], k = l?.m ?? n?.[0], o = p++ + --q;\nexport const r = s << 2 >> 1 >>> 3 <= 4 >= 5, t = `u${v}w${`x${y}`}z` / 2, aa = !bb, cc = #dd in ee, ff = @gg;\n"],
      // astral characters before tokens: offsets in UTF-16 units are two per character
      ['src/p.ts', "/** \u{1f600}\u{1f600} doc */\nimport { a } from './\u{1f600}';\nexport const \u00e9 = `\u{1f680}${a}`; // \u{1f600}\n"],
      // JSX where a JavaScript expression starts: both give up; .tsx is never lexed
      ['src/m.js', 'export const el = <div>hello</div>;\n'],
      ['src/n.tsx', 'export const el = <div>hello</div>;\n'],
    ];
    for (const [file, source] of cases) assertSameSkeleton(source, file);
    // the cases do exercise the paths they name
    const text = (file: string) => cases.find(([f]) => f === file)![1];
    assert.notEqual(skeletonOf(text('src/a.ts'), 'ts'), text('src/a.ts'));
    assert.equal(skeletonOf(text('src/e.js'), 'js'), null);
    assert.equal(skeletonOf(text('src/f.js'), 'js'), null);
    assert.equal(wasmSkeleton(text('src/n.tsx'), 'src/n.tsx'), null);
    // after two astral characters (8 bytes, 4 UTF-16 units) the name `a` starts where JavaScript finds it
    const astral = text('src/p.ts');
    const lexed = lexBytes(Buffer.from(astral, 'utf8'), 'ts', () => astral)!;
    const a = Array.from(lexed.tokens!.texts).indexOf('a');
    assert.equal(lexed.tokens!.starts[a], astral.indexOf('{ a }') + 2);
  });

  it('handles files larger than its first memory (the memory grows), and many files one after the other', () => {
    const body = Array.from({ length: 12_000 }, (_, k) => `export function f${k}(x) { return { v: x + ${k}, s: 'caf\u00e9' }; }`).join('\n');
    assert.ok(Buffer.byteLength(body) > 600_000);
    assertSameSkeleton(body, 'src/big.js');
    // a small file after a big one: nothing of the big one's text leaks into it
    assertSameSkeleton('export function f() { return 1 }', 'src/small.ts');
  });
});

describe('parseBytes', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gsd-wasm-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives parseSource’s facts for the same text, and loadFile drops a BOM before it parses', () => {
    const source = "/** The module. */\nimport { a } from './a';\nexport function f(x: number) { return require('./b') + a + x; }\nexport default class K {}\n";
    assert.deepEqual(parseBytes('src/x.ts', Buffer.from(source, 'utf8')), parseSource('src/x.ts', source));
    writeFileSync(path.join(dir, 'bom.ts'), `\ufeff${source}`);
    const loaded = loadFile(dir, 'bom.ts', { maxFileBytes: 1_000_000 });
    assert.ok('parsed' in loaded && loaded.parsed, 'parsed');
    assert.deepEqual(loaded.parsed, parseSource('bom.ts', source));
    assert.equal(loaded.parsed.docComment, 'The module.');
  });

  it('falls back to babel on the whole text where the lexer gives up, with the same facts', () => {
    const source = "export const el = <div>{require('./x')}</div>;\n";
    assert.deepEqual(parseBytes('src/x.js', Buffer.from(source, 'utf8')), parseSource('src/x.js', source));
  });
});
