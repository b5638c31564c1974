import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths } from '../../../engine/src/index.js';
import { languageOf } from '../../../engine/src/languages/registry.js';
import { prepareGrammars } from '../../../engine/src/languages/parse.js';
import { grammarLoaded } from '../../../engine/src/languages/runtime.js';
import { createParsePool, loadFile } from '../../../engine/src/parse/index.js';
import { defaultThreads, IN_PROCESS_BELOW } from '../../../engine/src/parse/pool.js';
import { moveIntelAside, snapshotIntel } from '../../helpers/intel-snapshot.js';
import { fixture } from '../../helpers/paths.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';

/**
 * A mixed project with more tree-sitter files than a load keeps in-process: a Python package whose modules import
 * each other, a Go module of two packages (imports and same-package names), and a few TS files.
 */
function mixedProject(): { root: string; paths: string[] } {
  const files: Record<string, string> = { 'go.mod': 'module example.com/m\n\ngo 1.21\n', 'web/index.ts': "import { a } from './a.js';\nexport const b = a;\n", 'web/a.ts': '/** A value. */\nexport const a = 1;\n' };
  for (let i = 0; i < 30; i++) {
    files[`app/pkg/m${i}.py`] = `"""Module ${i}."""\n${i ? `from .m${i - 1} import Thing${i - 1}\nimport app.pkg.m0\n` : ''}\n\nclass Thing${i}:\n    pass\n\n\ndef helper_${i}(x):\n    return x\n`;
  }
  files['app/__init__.py'] = '';
  files['app/pkg/__init__.py'] = 'from .m0 import Thing0\n';
  for (const pkg of ['util', 'cmd']) {
    for (let i = 0; i < 10; i++) {
      const uses = pkg === 'cmd' ? `import "example.com/m/util"\n\nfunc Run${i}() int { return util.Value${i}() + Local${(i + 1) % 10}() }\n` : `func Value${i}() int { return Local${(i + 1) % 10}() }\n`;
      files[`${pkg}/f${i}.go`] = `// Package ${pkg} does things.\npackage ${pkg}\n\n${uses}\nfunc Local${i}() int { return ${i} }\n`;
    }
  }
  return { root: tempProject(files), paths: Object.keys(files).filter((p) => languageOf(p)).sort() };
}

const grammarFiles = (paths: string[]) => paths.filter((p) => languageOf(p)?.grammar);

describe('tree-sitter files parsed by a worker (below 4 cores a child process)', () => {
  after(cleanupProjects);
  const { root, paths } = mixedProject();

  // first in this file: nothing before it has loaded a grammar on this thread
  it('the pool sends them to a worker by default, this thread never loads their grammars, the facts are the same', async () => {
    const treeSitter = grammarFiles(paths);
    assert.ok(treeSitter.length >= IN_PROCESS_BELOW, `only ${treeSitter.length} tree-sitter files`);
    const grammars = new Set(treeSitter.map((p) => languageOf(p)!.grammar!));
    const pool = createParsePool(root, { maxFileBytes: 1e6 });
    let results;
    try {
      results = await pool.load(paths);
      const stats = pool.stats();
      assert.equal(stats.workerFailures, 0);
      // below 4 cores only the tree-sitter files go to the worker, JS/TS stays here; from 4 cores up, everything goes
      if (defaultThreads() === 0) assert.deepEqual(stats, { workerFiles: treeSitter.length, inProcessFiles: paths.length - treeSitter.length, workerFailures: 0 });
      else assert.equal(stats.workerFiles, paths.length);
    } finally {
      await pool.close();
    }
    for (const g of grammars) assert.equal(grammarLoaded(g), false, `${g} was loaded on this thread`);
    // the same facts as loading each file here
    await prepareGrammars(paths);
    assert.deepEqual(results, paths.map((p) => loadFile(root, p, { maxFileBytes: 1e6 })));
  });

  it('a worker process that dies: its files are loaded here, none lost, and it is not started again after two deaths', async (t) => {
    if (defaultThreads() !== 0) return t.skip('from 4 cores up every file goes to worker threads (pool.test.ts)');
    const treeSitter = grammarFiles(paths);
    const pool = createParsePool(root, { maxFileBytes: 1e6, workerScript: pathToFileURL(fixture('parse', 'pool', 'crashing-process-worker.mjs')) });
    try {
      const expected = paths.map((p) => loadFile(root, p, { maxFileBytes: 1e6 }));
      assert.deepEqual(await pool.load(paths), expected);
      assert.deepEqual(pool.stats(), { workerFiles: 0, inProcessFiles: paths.length, workerFailures: 1 });
      assert.deepEqual(await pool.load(paths), expected);
      assert.deepEqual(await pool.load(paths), expected);
      assert.equal(pool.stats().workerFailures, 2);
      assert.equal(pool.stats().inProcessFiles, 3 * paths.length);
      assert.ok(treeSitter.length >= IN_PROCESS_BELOW);
    } finally {
      await pool.close();
    }
  });

  it('a build gives the same index, graph and pages with the worker as with everything in-process', async () => {
    const inProcess = await buildIntel(root, { cache: false, threads: 0 });
    const before = await snapshotIntel(moveIntelAside(root, 'in-process'));
    const withWorker = await buildIntel(root, { cache: false });
    const now = await snapshotIntel(intelPaths(root).dir);
    assert.ok(inProcess.edges > 40, `only ${inProcess.edges} edges`);
    assert.deepEqual({ ...withWorker, builtAt: 0, timings: 0 }, { ...inProcess, builtAt: 0, timings: 0 });
    assert.deepEqual(now.index, before.index);
    assert.deepEqual(now.graph, before.graph);
    assert.deepEqual(now.entities, before.entities);
    assert.equal(now.summary, before.summary);
  });
});
