import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { intelPaths, intelStatus } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';
import type { FileRecord } from '../../../engine/src/types.js';
import { builtFixture } from '../../helpers/language-records.js';

/** What one statement resolved to: `kind:target` per entry of the record, in order. */
function resolvedOf(record: FileRecord, specifier: string, line?: number): string[] {
  return record.imports
    .filter((i) => i.specifier === specifier && (line === undefined || i.line === line))
    .map((i) => `${i.kind} ${i.resolved.kind}:${'path' in i.resolved ? i.resolved.path : 'package' in i.resolved ? i.resolved.package : 'module' in i.resolved ? i.resolved.module : i.resolved.reason} ${JSON.stringify(i.targetNames ?? i.names)}`);
}

describe('Python: edges by the import system\'s rules, built through the real pipeline (fixture python-rules)', () => {
  const fixture = builtFixture('python-rules');

  const app = () => fixture.files['app/main.py'];

  it('every .py and .pyi file is indexed as Python', () => {
    const python = Object.values(fixture.files).filter((f) => f.language === 'python').map((f) => f.path);
    assert.equal(python.length, 24);
    assert.ok(python.includes('svc_src/src/alpha/plugins/base.pyi'));
    assert.equal(fixture.files['svc_src/src/alpha/plugins/base.pyi'].type, 'types');
    assert.equal(fixture.files['tests/test_main.py'].type, 'test');
    assert.equal(fixture.files['tests/conftest.py'].type, 'test');
  });

  it('import a.b → the most specific module; a package is its __init__.py', () => {
    assert.deepEqual(resolvedOf(app(), 'alpha'), ['import file:svc_src/src/alpha/__init__.py ["*"]', 'import file:svc_src/src/alpha/__init__.py ["Engine"]', 'import file:svc_src/src/alpha/plugins/__init__.py ["*"]']);
    assert.deepEqual(resolvedOf(app(), 'alpha.plugins.base'), ['import file:svc_src/src/alpha/plugins/base.py ["*"]']);
  });

  it('from a import b: b\'s own file when b is a submodule, else a\'s __init__.py (parents are not edges)', () => {
    assert.deepEqual(resolvedOf(app(), 'alpha.plugins'), ['import file:svc_src/src/alpha/plugins/__init__.py ["nothing_here"]', 'import file:svc_src/src/alpha/plugins/base.py ["*"]']);
    assert.deepEqual(resolvedOf(app(), 'gamma.api'), ['import file:svc_cfg/source/gamma/api.py ["endpoint"]']);
    const targets = new Set(app().imports.flatMap((i) => (i.resolved.kind === 'file' ? [i.resolved.path] : [])));
    assert.ok(!targets.has('svc_cfg/source/gamma/__init__.py'), 'gamma/__init__.py runs, but the statement does not name it');
  });

  it('source roots from every packaging convention, several projects in one repository', () => {
    assert.deepEqual(resolvedOf(app(), 'beta'), ['import file:svc_pkgdir/lib/beta/__init__.py ["Model"]'], 'setuptools package-dir');
    assert.deepEqual(resolvedOf(app(), 'delta'), ['import file:svc_setup/code/delta/__init__.py ["VERSION"]'], 'setup.py package_dir');
    assert.deepEqual(resolvedOf(app(), 'eps'), ['import file:svc_poetry/pysrc/eps/__init__.py ["eps"]'], 'poetry packages from');
    assert.deepEqual(resolvedOf(app(), 'zeta'), ['import file:svc_hatch/hsrc/zeta/__init__.py ["ZETA"]'], 'hatch wheel packages');
    assert.deepEqual(resolvedOf(app(), 'eta'), ['import file:svc_auto/src/eta/__init__.py ["ETA"]'], 'automatic discovery: src layout');
    assert.deepEqual(resolvedOf(app(), 'gamma.api'), ['import file:svc_cfg/source/gamma/api.py ["endpoint"]'], 'setup.cfg package_dir / packages.find where');
  });

  it('namespace packages span roots; a namespace package itself has no file', () => {
    assert.deepEqual(resolvedOf(app(), 'ns', 14), ['import file:svc_src/src/ns/two.py ["*"]', 'import file:svc_pkgdir/lib/ns/three.py ["*"]']);
    assert.match(resolvedOf(app(), 'ns', 15)[0], /^import unresolved:ns is a namespace package/);
  });

  it('relative imports at any level, and never beyond the top-level package', () => {
    assert.deepEqual(resolvedOf(app(), '.'), ['import file:app/settings.py ["*"]']);
    assert.deepEqual(resolvedOf(app(), '.settings'), ['import file:app/settings.py ["DEBUG"]']);
    const base = fixture.files['svc_src/src/alpha/plugins/base.py'];
    assert.deepEqual(resolvedOf(base, '..'), ['import file:svc_src/src/alpha/core.py ["*"]']);
    assert.match(resolvedOf(base, '...alpha')[0], /unresolved:\.\.\.alpha: a relative import beyond the top-level package/);
  });

  it('kinds say when an import runs: TYPE_CHECKING, try, inside a function; __init__.py re-exports; import *', () => {
    const core = fixture.files['svc_src/src/alpha/core.py'];
    assert.deepEqual(resolvedOf(core, 'alpha.plugins.base'), ['type-import file:svc_src/src/alpha/plugins/base.py ["Plugin"]']);
    assert.deepEqual(resolvedOf(core, 'ujson'), ['conditional-import external:ujson ["*"]']);
    assert.deepEqual(resolvedOf(core, '.plugins'), ['lazy-import file:svc_src/src/alpha/plugins/base.py ["*"]']);
    assert.deepEqual(resolvedOf(app(), 'alpha.core'), ['lazy-import file:svc_src/src/alpha/core.py ["*"]']);
    const init = fixture.files['svc_src/src/alpha/__init__.py'];
    assert.deepEqual(resolvedOf(init, '.core'), ['reexport file:svc_src/src/alpha/core.py ["Engine","run"]']);
    assert.deepEqual(init.imports.find((i) => i.specifier === '.core')!.reexports, [{ imported: 'Engine', exported: 'Engine' }, { imported: 'run', exported: 'run' }]);
    assert.deepEqual(resolvedOf(init, '.util'), ['reexport file:svc_src/src/alpha/util.py ["*"]']);
  });

  it('.pyi: the stub when no .py is there, the .py for a .py importer, stubs first for a stub', () => {
    assert.deepEqual(resolvedOf(app(), 'alpha.stubbed'), ['import file:svc_src/src/alpha/stubbed.pyi ["only_a_stub"]']);
    assert.deepEqual(resolvedOf(app(), 'alpha.plugins.base'), ['import file:svc_src/src/alpha/plugins/base.py ["*"]']);
    assert.deepEqual(resolvedOf(fixture.files['svc_src/src/alpha/plugins/base.pyi'], '..core'), ['import file:svc_src/src/alpha/core.py ["Engine"]']);
  });

  it('a test folder without __init__.py is on sys.path for its files; stdlib is builtin, the rest external', () => {
    assert.deepEqual(resolvedOf(fixture.files['tests/test_main.py'], 'helpers'), ['import file:tests/helpers.py ["*"]']);
    assert.deepEqual(resolvedOf(fixture.files['tests/test_main.py'], 'app.main'), ['import file:app/main.py ["main"]']);
    assert.deepEqual(resolvedOf(app(), 'os.path'), ['import builtin:os ["*"]']);
    assert.deepEqual(resolvedOf(app(), 'requests'), ['import external:requests ["*"]']);
    assert.deepEqual(resolvedOf(fixture.files['svc_src/src/alpha/core.py'], '__future__'), ['import builtin:__future__ ["annotations"]']);
  });

  it('exports: top-level functions, classes, assignments, or exactly __all__; purposes from docstrings', () => {
    const core = fixture.files['svc_src/src/alpha/core.py'];
    assert.deepEqual(core.exports.map((e) => `${e.name}:${e.kind}`), ['fastjson:variable', 'MAX_RUNS:const', 'Engine:class', 'run:function']);
    assert.ok(core.symbols.some((s) => s.name === '_private' && !s.exported));
    assert.equal(core.purpose, 'The alpha engine.');
    const init = fixture.files['svc_src/src/alpha/__init__.py'];
    assert.deepEqual(init.exports.map((e) => `${e.name}:${e.kind}`), ['Engine:reexport', 'run:reexport', 'plugins:reexport']);
    assert.equal(init.docComment, 'Alpha: the public face of the alpha package.');
  });

  it('intel status counts the files per language', async () => {
    const status = await intelStatus(fixture.root);
    assert.equal(status.state, 'fresh');
    assert.deepEqual(status.languages, { python: 24 });
  });

  it('summary.md names the language with its files\' naming and the naming its guide asks for', () => {
    const summary = readFileSync(intelPaths(fixture.root).summary, 'utf8');
    assert.match(summary, /- Languages: Python 24 files \(naming snake\\_case \(100%\); its guide: snake\\_case\)/);
  });

  it('graph.db: nodes carry the language, edges say they are exact', async () => {
    const rows = await readGraphRows(intelPaths(fixture.root).graph);
    const node = rows.nodes.find((n) => n.path === 'app/main.py')!;
    assert.equal(JSON.parse(node.body).language, 'python');
    const fromApp = rows.edges.filter((e) => e.source === node.id);
    assert.ok(fromApp.length >= 14);
    assert.ok(fromApp.every((e) => e.exact));
    const idOf = new Map(rows.nodes.map((n) => [n.id, n.path]));
    const plugins = fromApp.find((e) => idOf.get(e.target) === 'svc_src/src/alpha/plugins/__init__.py')!;
    assert.deepEqual(JSON.parse(plugins.names), ['*', 'nothing_here']);
  });
});
