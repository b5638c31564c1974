/**
 * `/// <reference types>` through the whole pipeline: a type reference into a workspace package is an edge of the
 * graph (a monorepo's shared process-env.d.ts, referenced by two packages), and the incremental path re-resolves it
 * when its target comes or goes and when tsconfig `typeRoots` change, giving what a rebuild gives.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { blastRadius, buildIntel, intelPaths, openIntel, updateIntel, type Resolution } from '../../../engine/src/index.js';
import { fixture } from '../../helpers/paths.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

after(cleanupProjects);

function copyFixture(name: string): string {
  const root = tempProject({});
  cpSync(fixture('resolve', name), root, { recursive: true });
  return root;
}

/** How each import of `file` resolved, from index.json. */
function resolutions(root: string, file: string): Record<string, Resolution> {
  const index = JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as { files: Record<string, { imports: Array<{ specifier: string; kind: string; resolved: Resolution }> }> };
  return Object.fromEntries(index.files[file]!.imports.map((i) => [`${i.kind} ${i.specifier}`, i.resolved]));
}

const ENV = 'packages/tsconfig/process-env.d.ts';
const REF = 'triple-slash-types @documenso/tsconfig/process-env.d.ts';

describe('type references in the graph', () => {
  it('the blast radius of a workspace declaration file reached by `reference types` includes every file referencing it', async () => {
    const root = copyFixture('documenso-env');
    await buildIntel(root);
    const reader = await openIntel(root);
    try {
      const r = blastRadius(reader, ENV);
      const byDepth = Object.fromEntries(r.byDepth.map((l) => [l.depth, l.files.map((f) => f.path)]));
      assert.deepEqual(byDepth, { 1: ['packages/lib/utils/env.ts', 'packages/prisma/helper.ts'], 2: ['apps/remix/app/server.ts'] });
      assert.deepEqual(r.byDepth[0]!.files[0]!.via, { path: ENV, kinds: ['triple-slash-types'] });
    } finally {
      reader.close();
    }
  });

  it('removing and adding back the target re-resolves the references, as a rebuild would', async () => {
    const root = copyFixture('documenso-env');
    await buildIntel(root);
    const text = readFileSync(path.join(root, ENV), 'utf8');
    rmSync(path.join(root, ENV));
    await updateIntel(root, [ENV]);
    // no project file any more (the package folder now holds no indexed file, so the name is taken as installed)
    for (const file of ['packages/lib/utils/env.ts', 'packages/prisma/helper.ts']) assert.notEqual(resolutions(root, file)[REF]!.kind, 'file', file);
    await assertSameAsRebuild(root, 'target removed');
    writeFileSync(path.join(root, ENV), text);
    await updateIntel(root, [ENV]);
    for (const file of ['packages/lib/utils/env.ts', 'packages/prisma/helper.ts']) assert.deepEqual(resolutions(root, file)[REF], { kind: 'file', path: ENV }, file);
    await assertSameAsRebuild(root, 'target added back');
  });

  it('a typeRoots change in an extended tsconfig re-resolves the references, as a rebuild would', async () => {
    const root = copyFixture('reference-types');
    await buildIntel(root);
    assert.deepEqual(resolutions(root, 'src/app.ts')['triple-slash-types shadowed'], { kind: 'file', path: 'types/shadowed/index.d.ts' });
    const base = 'config/tsconfig.base.json';
    const config = JSON.parse(readFileSync(path.join(root, base), 'utf8')) as { compilerOptions: { typeRoots?: string[] } };
    delete config.compilerOptions.typeRoots;
    writeFileSync(path.join(root, base), JSON.stringify(config, null, 2));
    await updateIntel(root, [base]);
    const app = resolutions(root, 'src/app.ts');
    // without the project typeRoot: the workspace package of that name, and an installed package for the others
    assert.deepEqual(app['triple-slash-types shadowed'], { kind: 'file', path: 'packages/shadowed/index.d.ts' });
    assert.deepEqual(app['triple-slash-types globals'], { kind: 'external', package: 'globals' });
    await assertSameAsRebuild(root, 'typeRoots removed');
  });
});
