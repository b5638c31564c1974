import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { dialectOf } from '../../../engine/src/parse/babel-options.js';
import { parseSource, parseWhole } from '../../../engine/src/parse/parse-source.js';
import { skeletonOf } from '../../../engine/src/parse/skeleton.js';
import { factsFromSkeleton } from '../../../engine/src/parse/skeleton-facts.js';
import { repoRoot } from '../../helpers/paths.js';
import { randomCut, seededRandom, sourcesUnder } from '../../helpers/sources.js';

const lines = (text: string) => text.split(/\r\n?|[\n\u2028\u2029]/).length;
const skeleton = (source: string, file = 'src/x.ts') => skeletonOf(source, dialectOf(file));

/** Facts from the skeleton and from the whole text must be the same, and the skeleton must have been used. */
function assertSameFacts(file: string, source: string): void {
  assert.deepEqual(parseSource(file, source), parseWhole(file, source), file);
}

describe('skeletonOf: what babel reads', () => {
  it('drops function, class and interface bodies and call arguments, keeps every line', () => {
    const source = [
      "import { a } from './a';",
      'export function f(x: number) {',
      '  const y = x * 2;',
      '  return y;',
      '}',
      'export class C { method() { return 1; } }',
      'interface I { a: string; b: number }',
      "console.log('hello', a);",
      '',
    ].join('\n');
    const text = skeleton(source)!;
    assert.equal(lines(text), lines(source));
    assert.ok(!text.includes('return y'), text);
    assert.ok(!text.includes('method'), text);
    assert.ok(!text.includes('b: number'), text);
    assert.ok(!text.includes("'hello'"), text);
    assert.ok(text.includes("import { a } from './a';"), text);
    assertSameFacts('src/x.ts', source);
  });

  it('keeps blocks that hold require, import(), import.meta and CommonJS exports', () => {
    const source = [
      '(function () {',
      "  var helper = function () { return 1; };",
      "  var dep = require('./dep');",
      '  function load() { return import("./lazy"); }',
      '  module.exports = { dep: dep, load: load, nested: { inner: 1 } };',
      '  exports.extra = function () { return import.meta; };',
      '})();',
    ].join('\n');
    const text = skeleton(source, 'src/x.js')!;
    assert.ok(text.includes("require('./dep')"), text);
    assert.ok(text.includes('import("./lazy")'), text);
    assert.ok(text.includes('dep: dep, load: load'), text);
    assert.ok(!text.includes('return 1'), text);
    assertSameFacts('src/x.js', source);
  });

  it('keeps destructuring patterns whole: top-level declarations and the names taken from require()', () => {
    const source = [
      'const { a, b: { c }, ...rest } = make();',
      'let [d, { e }] = make();',
      'function f() {',
      "  const { g, h: { i } } = require('./gh');",
      "  let j; ({ j } = require('./j'));",
      '}',
    ].join('\n');
    assertSameFacts('src/x.js', source);
    const facts = parseSource('src/x.js', source);
    assert.deepEqual(
      facts.symbols.map((s) => s.name),
      ['a', 'c', 'rest', 'd', 'e', 'f'],
    );
    assert.deepEqual(
      facts.imports.map((i) => [i.specifier, i.names]),
      [
        ['./gh', ['g', 'h']],
        ['./j', ['j']],
      ],
    );
  });

  it('keeps the leading comments (doc comment, triple-slash references) and drops later ones', () => {
    const source = [
      "'use strict';",
      '/// <reference path="./globals.d.ts" />',
      '/** The module doc. */',
      "import x from './x';",
      '/* a later comment that mentions require("./not-a-dependency") */',
      'export const y = x; // trailing',
    ].join('\n');
    const text = skeleton(source)!;
    assert.ok(text.includes('/** The module doc. */'), text);
    assert.ok(text.includes('/// <reference path="./globals.d.ts" />'), text);
    assert.ok(!text.includes('not-a-dependency'), text);
    assert.ok(!text.includes('trailing'), text);
    assertSameFacts('src/x.ts', source);
  });

  it('keeps tokens apart where a comment separated them', () => {
    assert.equal(skeleton('export const a = 1;\nlet b = a/**/\n;')!.includes('a \n'), true);
  });

  it('reads regular expressions, template literals and divisions as a parser does', () => {
    const source = [
      'const quote = /["\'`{]/g;',
      'const klass = /[/]{/;',
      'const half = width / 2 / 1;',
      'if (quote) /{/.test(half);',
      'const t = `a ${ { b: `c ${ "}" }` }.b } \\` {`;',
      "export const s = 'a { string';",
      "export function later() { return require('./later'); }",
    ].join('\n');
    const text = skeleton(source, 'src/x.js');
    assert.notEqual(text, null);
    assertSameFacts('src/x.js', source);
    assert.deepEqual(
      parseSource('src/x.js', source).imports.map((i) => i.specifier),
      ['./later'],
    );
  });

  it('returns null, and the whole file is parsed, when it cannot vouch for the text', () => {
    assert.equal(skeleton('function f() {'), null, 'unbalanced');
    assert.equal(skeleton('const s = "open\nx";'), null, 'unterminated string');
    assert.equal(skeleton('/* open'), null, 'unterminated comment');
    assert.equal(skeleton('const t = `open'), null, 'unterminated template');
    assert.equal(skeleton('const a = (b]'), null, 'mismatched brackets');
    assert.equal(skeleton('export const A = () => <div>it\'s</div>;', 'src/x.js'), null, 'JSX in a .js file');
    assert.equal(skeleton('export const A = () => <div />;', 'src/x.tsx'), null, '.tsx');
    // a syntax error babel finds in the skeleton sends the whole file to babel, which reports it
    const broken = 'export function f() { return 1 }\nexport const = 2;\n';
    assert.equal(parseSource('src/x.ts', broken).syntaxError?.line, 2);
    assertSameFacts('src/x.ts', broken);
  });

  it('reads shifts, non-null assertions, setters and statements after `if (…)` without giving up', () => {
    const cases: Array<[string, string]> = [
      ['src/x.js', "export const MODE = 1 << 5;\nlet size = 2;\nsize <<= 1;\nexport function f() { return require('./f'); }\n"],
      ['src/x.ts', "export function half(n: number | undefined) { return n! / 2; }\nexport const quote = \"'\";\n"],
      ['src/x.js', "export class C {\n  set id(value) { this._id = value; }\n  get id() { return this._id; }\n}\n"],
      ['src/x.js', "var a = {};\nif (a.pattern)\n  (a.check = function (p) { return require('./p'); });\nmodule.exports = a;\n"],
    ];
    for (const [file, source] of cases) {
      const text = skeletonOf(source, dialectOf(file));
      assert.notEqual(text, null, source);
      assert.equal(parseWhole(file, text!).syntaxError, null, text!);
      assert.notEqual(factsFromSkeleton(text!, dialectOf(file)), null, text!);
      assertSameFacts(file, source);
    }
  });

  it('reads from tokens what babel reads from the tree: parenthesised require(), minified statements', () => {
    const cases: Array<[string, string]> = [
      // the parentheses are no node: the pattern takes the names
      ['src/x.js', "const { globalPaths } =\n  /** @type {any} */\n  (require('module'));\n"],
      // after a keyword a `(` groups too: the class extends the module's `Base`
      ['src/x.js', "class A extends (require('./base')).Base {}\nmodule.exports = A;\n"],
      // an argument list is not a parenthesis: `.replace` belongs to the outer call
      ['src/x.js', "const text = (t) =>\n  T.content(\n    require('./runtime')\n  )\n    .replace(/a/g, t);\n"],
      // minified: declarations right after `}` of try/catch, if/else, loops
      ['src/x.js', "var a;try{a=1}catch{}function f(){}if(a)b();else{c()}function g(){}for(;;){break}var h=1;do{}while(0);function k(){}\n"],
      ['src/x.js', "label: for (;;) { break label; }\nexport function after() {}\n"],
      // a property called import; a require() whose argument sits in parentheses (JSDoc casts)
      ['src/x.js', "module.exports = { entry: { import: ['./a'] }, load: () => require(/** @type {string} */ ('./b')) };\n"],
    ];
    for (const [file, source] of cases) {
      const text = skeletonOf(source, dialectOf(file))!;
      assert.notEqual(factsFromSkeleton(text, dialectOf(file)), null, text);
      assertSameFacts(file, source);
    }
    assert.deepEqual(parseSource('src/x.js', cases[0][1]).imports[0].names, ['globalPaths']);
    assert.deepEqual(parseSource('src/x.js', cases[1][1]).imports[0].names, ['Base']);
    assert.deepEqual(parseSource('src/x.js', cases[2][1]).imports[0].names, ['*']);
    assert.deepEqual(
      parseSource('src/x.js', cases[3][1]).symbols.map((s) => s.name),
      ['a', 'f', 'g', 'h', 'k'],
    );
    assert.deepEqual(parseSource('src/x.js', cases[5][1]).imports.map((i) => i.specifier), ['./b']);
  });

  it('ends a statement at a line break where a type ends it: `as const`, `a.as`, `B<C>`, `void`, `let a: Map<K, V>`', () => {
    const source = [
      'const proto = {',
      '  pipe() { return 1 },',
      '} as const',
      'export const isA = (u: unknown): u is A => true',
      'export const b: { (x: number): number } = internal.as',
      'export const c = 1',
      'type MaybeReturn<F> = F extends () => infer R ? R : NonNullable<F>',
      '',
      'type Values<X extends [any, any]> = X extends [infer A, infer I]',
      '  ? Exclude<keyof A, I>',
      '  : never',
      'export type Task = () => void',
      '',
      'export interface Scheduler { run(task: Task): void }',
      'let store: Map<unknown, any>',
      '',
      'export const value = <A>(id: unknown, f: () => A): A => f()',
      'const nil = Object.create(null) as List<never>',
      'export const isList = (u: unknown) => u === nil',
      '',
    ].join('\n');
    assertSameFacts('src/x.ts', source);
    const names = parseSource('src/x.ts', source).symbols.map((s) => s.name);
    for (const n of ['isA', 'b', 'c', 'Values', 'Scheduler', 'value', 'isList']) assert.ok(names.includes(n), n);
  });

  it('gives the same facts as a whole-file parse for every fixture and every source file of this repository', () => {
    const files = [...sourcesUnder(path.join(repoRoot, 'test')), ...['engine', 'installer', 'hooks', 'mcp-server', 'scripts', 'bench'].flatMap((d) => sourcesUnder(path.join(repoRoot, d)))];
    assert.ok(files.length > 300, `found ${files.length} files`);
    let reduced = 0;
    let read = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const rel = path.relative(repoRoot, file).split(path.sep).join('/');
      assertSameFacts(rel, source);
      const text = skeletonOf(source, dialectOf(rel));
      if (text !== null && text.length < source.length) reduced++;
      if (text !== null && factsFromSkeleton(text, dialectOf(rel)) !== null) read++;
    }
    assert.ok(reduced > files.length / 2, `${reduced} of ${files.length} files were reduced`);
    // most files are read from their tokens, without babel; the facts are the same either way (above)
    assert.ok(read > files.length / 2, `${read} of ${files.length} files were read from tokens`);
  });
});

describe('skeleton and token reader on cut and spliced files', () => {
  it('never throws, and agrees with a whole-file parse whenever that parse finds no error', () => {
    const files = ['engine', 'hooks', 'mcp-server', 'test/fixtures'].flatMap((d) => sourcesUnder(path.join(repoRoot, d)));
    const next = seededRandom(Number(process.env.CUT_SEED ?? 20261122));
    let compared = 0;
    for (let k = 0; k < Number(process.env.CUTS ?? 400); k++) {
      const file = files[Math.floor(next() * files.length)];
      const source = readFileSync(file, 'utf8');
      const rel = path.relative(repoRoot, file).split(path.sep).join('/');
      const { text: cut, a, b } = randomCut(source, next);
      const fast = parseSource(rel, cut);
      const whole = parseWhole(rel, cut);
      if (whole.syntaxError === null) {
        compared++;
        assert.deepEqual(fast, whole, `${rel} cut at lines ${a}/${b}`);
      }
    }
    assert.ok(compared > 50, `${compared} cuts parsed cleanly`);
  });
});
