/** `intel.entityPages: false` in .planning/config.json: no entity pages, the other artefacts as with them. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, updateIntel } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';

const base = mkdtempSync(path.join(os.tmpdir(), 'gsd-entity-pages-'));
after(() => rmSync(base, { recursive: true, force: true }));

function project(name: string, entityPages: boolean | undefined): string {
  const root = path.join(base, name);
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(path.join(root, '.planning'), { recursive: true });
  if (entityPages !== undefined) writeFileSync(path.join(root, '.planning', 'config.json'), JSON.stringify({ intel: { entityPages } }));
  writeFileSync(path.join(root, 'src', 'a.ts'), "import { b } from './b.js';\nexport const a = b + 1;\n");
  writeFileSync(path.join(root, 'src', 'b.ts'), 'export const b = 1;\n');
  return root;
}

const pages = (root: string) => (existsSync(intelPaths(root).entities) ? readdirSync(intelPaths(root).entities).filter((n) => n.endsWith('.md')) : []);

describe('intel.entityPages', () => {
  it('false: builds and updates without entity pages; the other artefacts are the same as with them', async () => {
    const off = project('off', false);
    const on = project('on', undefined);
    await buildIntel(off);
    await buildIntel(on);
    assert.deepEqual(pages(off), []);
    assert.equal(pages(on).length, 2, 'pages by default');
    assert.deepEqual(await readGraphRows(intelPaths(off).graph), await readGraphRows(intelPaths(on).graph));
    const strip = (root: string) => readFileSync(intelPaths(root).index, 'utf8').replace(/"builtAt":"[^"]*"/, '').replace(/"mtimeMs":[\d.]+/g, '');
    assert.equal(strip(off), strip(on));

    writeFileSync(path.join(off, 'src', 'c.ts'), "export { a } from './a.js';\n");
    await updateIntel(off, ['src/c.ts']);
    assert.deepEqual(pages(off), [], 'an update writes none either');

    // switched back on, the next build writes them
    writeFileSync(path.join(off, '.planning', 'config.json'), JSON.stringify({ intel: { entityPages: true } }));
    await buildIntel(off);
    assert.equal(pages(off).length, 3);
    // and off again, a rebuild removes them
    writeFileSync(path.join(off, '.planning', 'config.json'), JSON.stringify({ intel: { entityPages: false } }));
    await buildIntel(off);
    assert.deepEqual(pages(off), []);
  });
});
