import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { blastRadius, buildIntel, intelPaths, intelStatus } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';
import { HOOKS, payload, runHookProcess, waitForWorkers } from '../../helpers/hooks.js';
import { builtFixture, indexFiles, resolvedOf } from '../../helpers/language-records.js';
import { cleanupProjects, copyProject, tempProject } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

const indexOf = indexFiles;

describe('Ruby: requires by the load path, constants inferred as Zeitwerk would load them (fixture ruby-rules)', () => {
  const f = builtFixture('ruby-rules');

  it('.rb, .rake and .gemspec files are Ruby; spec/ and *_spec.rb are tests; vendor/bundle is never indexed', () => {
    const ruby = Object.values(f.files).filter((f) => f.language === 'ruby').map((f) => f.path);
    assert.equal(ruby.length, 19);
    assert.ok(!ruby.some((p) => p.startsWith('vendor/')));
    assert.equal(f.files['spec/widget/core_spec.rb'].type, 'test');
    assert.equal(f.files['widget.gemspec'].type, 'config');
    assert.equal(f.files['lib/widget/core.rb'].type, 'source');
  });

  it('require_relative and File.expand_path(\'../x\', __FILE__) are relative to the file, exact', () => {
    assert.deepEqual(resolvedOf(f.files['lib/widget.rb'], './widget/version'), ['file:lib/widget/version.rb']);
    assert.deepEqual(resolvedOf(f.files['lib/widget/core.rb'], './helpers'), ['file:lib/widget/helpers.rb']);
    assert.deepEqual(resolvedOf(f.files['spec/widget/core_spec.rb'], '../../lib/widget/core'), ['file:lib/widget/core.rb']);
    assert.deepEqual(resolvedOf(f.files['shop/config/application.rb'], './boot'), ['file:shop/config/boot.rb']);
    assert.deepEqual(resolvedOf(f.files['lib/widget/core.rb'], './missing_file'), ['unresolved:./missing_file: no such Ruby file beside lib/widget/core.rb']);
  });

  it('require and autoload search the gemspec\'s require_paths (exact), spec/ (inferred); the rest is the standard library or a gem', () => {
    const w = f.files['lib/widget.rb'];
    assert.deepEqual(resolvedOf(w, 'widget/core'), ['file:lib/widget/core.rb']);
    assert.deepEqual(resolvedOf(w, 'widget/parts'), ['file:lib/widget/parts.rb']);
    assert.deepEqual(w.imports.find((i) => i.specifier === 'widget/parts')?.names, ['Parts']);
    assert.deepEqual(resolvedOf(w, 'json'), ['builtin:json']);
    assert.deepEqual(resolvedOf(w, 'rack'), ['external:rack']);
    assert.deepEqual(resolvedOf(f.files['spec/spec_helper.rb'], 'widget'), ['file:lib/widget.rb']);
    assert.deepEqual(resolvedOf(f.files['spec/widget/core_spec.rb'], 'spec_helper'), ['file:spec/spec_helper.rb (inferred)']);
    assert.deepEqual(resolvedOf(f.files['tasks/build.rake'], 'tasks/helper.rb'), ['file:tasks/helper.rb (inferred)'], 'load: the working directory, a guess');
    // kinds say when it runs
    const kinds = Object.fromEntries(w.imports.map((i) => [i.specifier, i.kind]));
    assert.deepEqual(kinds, { './widget/version': 'require', 'widget/core': 'require', json: 'require', rack: 'require', 'json/ext': 'conditional-import', 'widget/parts': 'lazy-import', 'widget/helpers': 'lazy-import' });
  });

  it('constants: looked up from their nesting as Ruby does, mapped to files as Zeitwerk names them, inferred', () => {
    assert.deepEqual(resolvedOf(f.files['lib/widget/core.rb'], 'Base (in Widget)'), ['file:lib/widget/base.rb (inferred)']);
    assert.deepEqual(resolvedOf(f.files['lib/widget/core.rb'], 'Parts::Gear (in Widget::Core)'), ['file:lib/widget/parts/gear.rb (inferred)']);
    const controller = f.files['shop/app/controllers/admin/users_controller.rb'];
    assert.deepEqual(resolvedOf(controller, 'User (in Admin::UsersController)'), ['file:shop/app/models/user.rb (inferred)']);
    assert.deepEqual(resolvedOf(controller, 'ApplicationController (in Admin)'), ['file:shop/app/controllers/application_controller.rb (inferred)']);
    assert.deepEqual(resolvedOf(controller, 'HTMLParser (in Admin::UsersController)'), ['external:HTMLParser']);
    assert.deepEqual(resolvedOf(f.files['shop/app/models/user.rb'], 'Trackable (in User)'), ['file:shop/app/models/concerns/trackable.rb (inferred)'], 'app/models/concerns is a root');
    assert.ok(!f.files['shop/app/models/application_record.rb'].imports.length, 'ActiveRecord is a framework constant');
  });

  it('exports: classes and modules with kind and line, methods as Class#m and Class.m; purpose from the comment above', () => {
    assert.deepEqual(f.files['lib/widget/core.rb'].exports.map((e) => `${e.name}:${e.kind}:${e.line}`), ['Core:class:8', 'MAX:const:9', 'Core#call:function:11', 'Core.build:function:15', 'Core.shared:function:20']);
    assert.deepEqual(f.files['lib/widget/parts/gear.rb'].exports.map((e) => e.name), ['Gear'], 'modules that only wrap are namespaces, not definitions');
    assert.equal(f.files['lib/widget/core.rb'].docComment, 'The core of a widget: holds its parts.');
    assert.equal(f.files['lib/widget.rb'].docComment, 'Widget builds widgets out of parts.', 'the magic comment is left out');
    assert.equal(f.files['shop/app/models/user.rb'].docComment, 'A customer who signs in.');
  });

  it('blast radius over exact and inferred edges; graph.db marks which are which', async () => {
    const r = blastRadius(f.reader, 'lib/widget/helpers.rb');
    assert.deepEqual(Object.fromEntries(r.byDepth.map((l) => [l.depth, l.files.map((f) => f.path).sort()])), { 1: ['lib/widget.rb', 'lib/widget/core.rb'], 2: ['spec/spec_helper.rb', 'spec/widget/core_spec.rb'] });
    const rows = await readGraphRows(intelPaths(f.root).graph);
    const byPath = new Map(rows.nodes.map((n) => [n.id, n.path]));
    const edge = (s: string, t: string, kind: string) => rows.edges.find((e) => byPath.get(e.source) === s && byPath.get(e.target) === t && e.kind === kind);
    assert.equal(edge('lib/widget.rb', 'lib/widget/core.rb', 'require')?.exact, true);
    assert.equal(edge('shop/app/models/user.rb', 'shop/app/models/application_record.rb', 'lazy-import')?.exact, false);
    assert.equal(edge('spec/widget/core_spec.rb', 'lib/widget/core.rb', 'require')?.exact, true);
    assert.equal(edge('spec/widget/core_spec.rb', 'lib/widget/core.rb', 'lazy-import')?.exact, false, 'the constant Widget::Core names the same file, by a guess');
    assert.deepEqual((await intelStatus(f.root)).languages, { ruby: 19 });
  });
});

describe('Ruby through the hook', () => {
  after(cleanupProjects);

  it('the PostToolUse hook, spawned on a .rb edit, puts the new require into the graph', async () => {
    const root = copyProject('ruby-rules');
    await buildIntel(root);
    const file = path.join(root, 'lib', 'widget', 'parts.rb');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `require_relative 'parts/gear'\n${original}`);
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, 'module Widget', "require_relative 'parts/gear'\nmodule Widget", original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    await waitForWorkers(root);
    assert.deepEqual(resolvedOf(indexOf(root)['lib/widget/parts.rb'], './parts/gear'), ['file:lib/widget/parts/gear.rb']);
    await assertSameAsRebuild(root, 'ruby-rules');
  });

  it('a file with a syntax error keeps its requires and says where', async () => {
    const root = tempProject({ 'lib/a.rb': "require_relative 'b'\ndef broken(\n", 'lib/b.rb': 'B = 1\n' });
    await buildIntel(root);
    const a = indexOf(root)['lib/a.rb'];
    assert.match(a.syntaxError?.message ?? '', /syntax error/);
    assert.deepEqual(resolvedOf(a, './b'), ['file:lib/b.rb']);
  });
});
