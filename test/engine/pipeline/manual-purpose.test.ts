import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, entityId, intelPaths, openIntel, searchIntel, updateIntel } from '../../../engine/src/index.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';

describe('a Purpose written by a person or an agent', () => {
  after(cleanupProjects);

  it('is kept across updates and rebuilds, and feeds the index, graph.db and search', async () => {
    const root = tempProject({ 'src/pay.ts': 'export function charge() {}\n', 'src/use.ts': "import { charge } from './pay.js';\n" });
    await buildIntel(root);
    const page = path.join(intelPaths(root).entities, `${entityId('src/pay.ts')}.md`);
    const generated = readFileSync(page, 'utf8');
    assert.match(generated, /## Purpose\n\nExports functions charge\./);
    writeFileSync(page, generated.replace('Exports functions charge.', 'Talks to the Stripe gateway and retries idempotently.'));
    writeFile(root, 'src/pay.ts', 'export function charge() {}\nexport function refund() {}\n');
    await updateIntel(root, ['src/pay.ts']);
    const after1 = readFileSync(page, 'utf8');
    assert.match(after1, /Talks to the Stripe gateway and retries idempotently\./);
    assert.match(after1, /refund/);
    const index = JSON.parse(readFileSync(intelPaths(root).index, 'utf8'));
    assert.equal(index.files['src/pay.ts'].purposeSource, 'manual');
    await buildIntel(root, { cache: false });
    assert.match(readFileSync(page, 'utf8'), /Talks to the Stripe gateway/);
    const reader = await openIntel(root);
    assert.equal(searchIntel(reader, 'stripe gateway').results[0]?.path, 'src/pay.ts');
    reader.close();
  });

  it('entity ids differ for paths that differ only in case, even lower-cased', () => {
    const a = entityId('src/Button.tsx');
    const b = entityId('src/button.tsx');
    assert.notEqual(a.toLowerCase(), b.toLowerCase());
    assert.match(a, /^[a-z0-9-]+$/);
    assert.equal(entityId('src/Button.tsx'), a, 'deterministic');
  });
});
