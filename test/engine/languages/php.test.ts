import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { blastRadius, buildIntel, intelPaths, intelStatus } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { HOOKS, payload, runHookProcess, waitForWorkers } from '../../helpers/hooks.js';
import { builtFixture, indexFiles, resolvedOf } from '../../helpers/language-records.js';
import { cleanupProjects, copyProject, tempProject } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

const indexOf = indexFiles;

describe('PHP: includes by PHP\'s rules, class names by Composer\'s autoload, through the real pipeline (fixture php-rules)', () => {
  const f = builtFixture('php-rules');

  it('every .php file outside vendor/ is indexed as PHP; *Test.php under tests/ is a test', () => {
    const php = Object.values(f.files).filter((f) => f.language === 'php').map((f) => f.path);
    assert.equal(php.length, 14);
    assert.ok(!php.some((p) => p.startsWith('vendor/')), 'Composer\'s vendor/ is never indexed');
    assert.equal(f.files['tests/Http/ControllerTest.php'].type, 'test');
    assert.equal(f.files['src/Http/Controller.php'].type, 'source');
  });

  it('use: psr-4 (a single use and a group use with an alias), autoload-dev, and external packages', () => {
    const c = f.files['src/Http/Controller.php'];
    assert.deepEqual(resolvedOf(c, 'App\\Models\\User'), ['file:src/Models/User.php']);
    assert.deepEqual(resolvedOf(c, 'App\\Models\\Post'), ['file:src/Models/Post.php']);
    assert.deepEqual(resolvedOf(c, 'App\\Models\\Comment'), ['file:src/Models/Comment.php']);
    assert.deepEqual(c.imports.find((i) => i.specifier === 'App\\Models\\Comment')?.names, ['C']);
    assert.deepEqual(resolvedOf(c, 'Psr\\Log\\LoggerInterface'), ['external:psr/log'], 'the package composer.lock says declares the prefix');
    assert.deepEqual(resolvedOf(f.files['tests/Http/ControllerTest.php'], 'App\\Http\\Controller'), ['file:src/Http/Controller.php']);
  });

  it('use function / use const: the composer.json `files` entry declaring them', () => {
    const c = f.files['src/Http/Controller.php'];
    assert.deepEqual(resolvedOf(c, 'function App\\helper'), ['file:src/helpers.php']);
    assert.deepEqual(resolvedOf(c, 'const App\\LIMIT'), ['file:src/helpers.php']);
  });

  it('class names in code resolve as PHP resolves them: fully qualified, same namespace, psr-0, classmap; the rest inferred or unresolved', () => {
    const c = f.files['src/Http/Controller.php'];
    assert.deepEqual(resolvedOf(c, 'App\\Base\\Controller'), ['file:src/Base/Controller.php'], '`extends \\App\\Base\\Controller`');
    assert.deepEqual(resolvedOf(c, 'App\\Http\\Handler'), ['file:src/Http/Handler.php'], 'an unqualified name is in the current namespace');
    assert.equal(c.imports.find((i) => i.specifier === 'App\\Http\\Handler')?.kind, 'same-package');
    assert.deepEqual(resolvedOf(c, 'App\\Http\\Router'), ['file:src/Http/Router.php'], 'a constructor-promoted parameter\'s type');
    assert.deepEqual(resolvedOf(c, 'Legacy_Mailer'), ['file:lib/Legacy/Mailer.php'], 'psr-0: `_` in the class name is a folder');
    assert.deepEqual(resolvedOf(c, 'OldThing'), ['file:classes/old.php'], 'classmap: the class declared in a file under classes/');
    assert.deepEqual(resolvedOf(c, 'Plugins\\Extra\\Widget'), ['file:plugins/Extra/Widget.php (inferred)'], 'no autoload rule: the file declaring it, inferred');
    assert.deepEqual(resolvedOf(c, 'RuntimeException'), ['builtin:RuntimeException']);
    assert.deepEqual(resolvedOf(c, 'App\\Missing'), ['unresolved:App\\Missing: no file for it under the composer.json autoload folders']);
    // names a `use` imported, and the file's own classes and traits, are not imported again
    assert.equal(c.imports.filter((i) => i.specifier === 'App\\Models\\User').length, 1);
    assert.deepEqual(f.files['src/Models/User.php'].imports, []);
    assert.deepEqual(resolvedOf(f.files['src/Models/Comment.php'], 'App\\Models\\Post'), ['file:src/Models/Post.php']);
  });

  it('require/include: __DIR__ and dirname(__FILE__) forms exact, a plain literal inferred, vendor/ external, a computed path skipped', () => {
    const b = f.files['bootstrap.php'];
    assert.deepEqual(resolvedOf(f.files['src/Http/Controller.php'], '__DIR__/../../bootstrap.php'), ['file:bootstrap.php']);
    assert.deepEqual(resolvedOf(b, '__DIR__/src/helpers.php'), ['file:src/helpers.php'], 'dirname(__FILE__)');
    assert.deepEqual(resolvedOf(b, 'config.php'), ['file:config.php (inferred)'], 'the include path is the working directory first: a guess');
    assert.deepEqual(resolvedOf(b, '__DIR__/vendor/autoload.php'), ['external:vendor/autoload.php']);
    assert.deepEqual(resolvedOf(b, '__DIR__/../outside.php'), ['unresolved:__DIR__/../outside.php: outside the project'], 'dirname(__DIR__)');
    assert.equal(b.imports.length, 4, 'the path with $env is not known before run time');
    assert.deepEqual(b.imports.map((i) => i.kind), ['require', 'require', 'include', 'require']);
    assert.deepEqual(resolvedOf(f.files['src/Models/Post.php'], '__DIR__/../../config.php'), ['file:config.php'], 'an include inside a method');
  });

  it('exports: classes, interfaces, traits, enums, functions and constants with kind and line; purpose from the docblock, not the licence', () => {
    assert.deepEqual(f.files['src/Models/User.php'].exports.map((e) => `${e.name}:${e.kind}:${e.line}`), ['User:class:8', 'HasName:trait:15', 'Role:enum:19', 'make_user:function:24', 'DEFAULT_ROLE:const:26']);
    assert.deepEqual(f.files['src/helpers.php'].exports.map((e) => `${e.name}:${e.kind}`), ['helper:function', 'LIMIT:const'], 'a function behind a function_exists guard');
    assert.equal(f.files['src/Http/Controller.php'].docComment, 'Serves the shop\'s pages.');
    assert.equal(f.files['src/Http/Handler.php'].docComment, 'Something that handles a request.');
  });

  it('blast radius, graph.db exactness and composer.json stamping', async () => {
    const r = blastRadius(f.reader, 'src/Models/Post.php');
    assert.deepEqual(Object.fromEntries(r.byDepth.map((l) => [l.depth, l.files.map((f) => f.path).sort()])), { 1: ['src/Http/Controller.php', 'src/Models/Comment.php'], 2: ['tests/Http/ControllerTest.php'] });
    const rows = await readGraphRows(intelPaths(f.root).graph);
    const byPath = new Map(rows.nodes.map((n) => [n.id, n.path]));
    const inexact = rows.edges.filter((e) => !e.exact).map((e) => `${byPath.get(e.source)} -> ${byPath.get(e.target)}`).sort();
    assert.deepEqual(inexact, ['bootstrap.php -> config.php', 'src/Http/Controller.php -> plugins/Extra/Widget.php']);
    assert.equal(JSON.parse(rows.nodes.find((n) => n.path === 'src/Models/User.php')!.body).language, 'php');
    const configFiles = (JSON.parse(readFileSync(intelPaths(f.root).index, 'utf8')) as IndexDocument).configFiles;
    assert.ok('composer.json' in configFiles && 'composer.lock' in configFiles);
    assert.deepEqual((await intelStatus(f.root)).languages, { php: 14 });
  });
});

describe('PHP through the hook and updates', () => {
  after(cleanupProjects);

  it('the PostToolUse hook, spawned on a .php edit, puts the new use into the graph', async () => {
    const root = copyProject('php-rules');
    await buildIntel(root);
    const file = path.join(root, 'src', 'Http', 'Router.php');
    const original = readFileSync(file, 'utf8');
    const edited = original.replace('namespace App\\Http;\n', 'namespace App\\Http;\n\nuse App\\Models\\User;\n');
    writeFileSync(file, edited);
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, 'namespace App\\Http;\n', 'namespace App\\Http;\n\nuse App\\Models\\User;\n', original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    await waitForWorkers(root);
    assert.deepEqual(resolvedOf(indexOf(root)['src/Http/Router.php'], 'App\\Models\\User'), ['file:src/Models/User.php']);
    await assertSameAsRebuild(root, 'php-rules');
  });

  it('a file that changes its namespace moves the names other files resolve through it', async () => {
    const root = copyProject('php-rules');
    await buildIntel(root);
    assert.deepEqual(resolvedOf(indexOf(root)['src/Http/Controller.php'], 'Plugins\\Extra\\Widget'), ['file:plugins/Extra/Widget.php (inferred)']);
    writeFileSync(path.join(root, 'plugins/Extra/Widget.php'), '<?php\n\nnamespace Plugins\\Other;\n\nclass Widget\n{\n}\n');
    const { updateIntel } = await import('../../../engine/src/index.js');
    const report = await updateIntel(root, ['plugins/Extra/Widget.php']);
    assert.ok(report.reresolved.includes('src/Http/Controller.php'));
    assert.deepEqual(resolvedOf(indexOf(root)['src/Http/Controller.php'], 'Plugins\\Extra\\Widget'), ['external:Plugins\\Extra']);
    await assertSameAsRebuild(root, 'php-rules');
  });

  it('declarations of other files come from their parse records: classmap classes in their own namespace blocks, define() constants; an edit re-resolves their users', async () => {
    const root = tempProject({
      'composer.json': '{ "autoload": { "classmap": ["lib/"], "files": ["lib/consts.php"] } }',
      'lib/both.php': '<?php\nnamespace First { class One {} }\nnamespace Second { class Two {} }\n',
      'lib/consts.php': "<?php\nnamespace Ignored;\ndefine('Shop\\\\LIMIT', 3);\nif (!function_exists('Shop\\\\helper')) { function other() {} }\n",
      'app.php': '<?php\nuse First\\One;\nuse Second\\Two;\nuse const Shop\\LIMIT;\nnew One(); new Two();\n',
    });
    await buildIntel(root);
    const app = () => indexOf(root)['app.php'];
    assert.deepEqual(resolvedOf(app(), 'First\\One'), ['file:lib/both.php']);
    assert.deepEqual(resolvedOf(app(), 'Second\\Two'), ['file:lib/both.php'], 'the class of the second namespace block is in that namespace');
    assert.deepEqual(resolvedOf(app(), 'const Shop\\LIMIT'), ['file:lib/consts.php'], "define('Shop\\LIMIT') declares the constant in namespace Shop");
    assert.deepEqual(indexOf(root)['lib/both.php'].symbols.map((x) => [x.kind, x.namespace ?? '', x.name]), [['namespace', '', 'First'], ['class', 'First', 'One'], ['namespace', '', 'Second'], ['class', 'Second', 'Two']]);
    const { updateIntel } = await import('../../../engine/src/index.js');
    writeFileSync(path.join(root, 'lib/both.php'), '<?php\nnamespace First { class One {} }\nnamespace Third { class Two {} }\n');
    const report = await updateIntel(root, ['lib/both.php']);
    assert.ok(report.reresolved.includes('app.php'));
    assert.deepEqual(resolvedOf(app(), 'Second\\Two'), ['external:Second\\Two']);
    await assertSameAsRebuild(root, 'php: a class moved to another namespace block');
  });

  it('a composer.json edit re-resolves the project; a malformed one steers nothing and a syntax error keeps the facts', async () => {
    const root = tempProject({
      'composer.json': '{ "autoload": { "psr-4": { "Shop\\\\": "lib/" } } }',
      'lib/Cart.php': '<?php\nnamespace Shop;\nclass Cart {}\n',
      'app.php': '<?php\nuse Shop\\Cart;\nfunction broken( {\n',
    });
    await buildIntel(root);
    assert.deepEqual(resolvedOf(indexOf(root)['app.php'], 'Shop\\Cart'), ['file:lib/Cart.php']);
    assert.match(indexOf(root)['app.php'].syntaxError?.message ?? '', /syntax error/);
    const { updateIntel } = await import('../../../engine/src/index.js');
    writeFileSync(path.join(root, 'composer.json'), '{ "autoload": ');
    await updateIntel(root, ['composer.json']);
    assert.deepEqual(resolvedOf(indexOf(root)['app.php'], 'Shop\\Cart'), ['file:lib/Cart.php (inferred)'], 'no autoload rule left: the declaring file, inferred');
  });
});
