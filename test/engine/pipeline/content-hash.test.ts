/**
 * Facts are reused by content hash: a file whose mtime moved but whose bytes did not (a checkout back and forth, a
 * copy, `touch`) is read and hashed, not parsed. An index written by another version of the tool is never reused.
 */
import assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, intelStatus, refreshIntel, updateIntel } from '../../../engine/src/index.js';
import { TOOL_VERSION } from '../../../engine/src/version.js';
import { moveIntelAside, snapshotIntel } from '../../helpers/intel-snapshot.js';
import { repoRoot } from '../../helpers/paths.js';
import { cleanupProjects, tempProject, writeFile } from '../../helpers/project.js';

const FILES = {
  'src/a.ts': "import { b } from './b';\n/** Adds. */\nexport function a(x: number) { return b + x; }\n",
  'src/b.ts': 'export const b = 1;\nexport type B = number;\n',
  'src/c.js': "const { a } = require('./a');\nmodule.exports = { c: a };\n",
  'src/broken.ts': 'export const ok = 1;\nexport function (\n',
};

function touchAll(root: string, seconds: number): void {
  for (const rel of Object.keys(FILES)) utimesSync(path.join(root, rel), seconds, seconds);
}

function setToolVersion(root: string, version: string): void {
  const file = intelPaths(root).index;
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(`"toolVersion":"${TOOL_VERSION}"`));
  writeFileSync(file, text.replace(`"toolVersion":"${TOOL_VERSION}"`, `"toolVersion":"${version}"`));
}

describe('content-hash reuse of parse facts', () => {
  after(cleanupProjects);

  it('a rebuild after mtimes moved parses only what changed, and equals a build from nothing', async () => {
    const root = tempProject(FILES);
    const first = await buildIntel(root);
    assert.equal(first.parsed, 4);
    touchAll(root, 2_000_000_000);
    const second = await buildIntel(root);
    // the file with a syntax error keeps an earlier content's facts, so it is parsed again; the others are reused
    assert.deepEqual({ parsed: second.parsed, reused: second.reused }, { parsed: 1, reused: 3 });
    writeFile(root, 'src/b.ts', 'export const b = 2;\nexport const b2 = 3;\n');
    const third = await buildIntel(root);
    assert.deepEqual({ parsed: third.parsed, reused: third.reused }, { parsed: 1, reused: 3 }, 'only the edited file');
    const cached = await snapshotIntel(intelPaths(root).dir);
    moveIntelAside(root, 'cached');
    await buildIntel(root, { cache: false });
    assert.deepEqual(cached, await snapshotIntel(intelPaths(root).dir));
  });

  it('the catch-up after a checkout that only moved mtimes equals a build from nothing', async () => {
    const root = tempProject(FILES);
    await buildIntel(root);
    touchAll(root, 2_100_000_000);
    writeFile(root, 'src/a.ts', "import { b } from './b';\nexport function a2() { return b; }\n");
    await refreshIntel(root);
    await updateIntel(root, ['src/b.ts']);
    const incremental = await snapshotIntel(intelPaths(root).dir);
    moveIntelAside(root, 'incremental');
    await buildIntel(root, { cache: false });
    assert.deepEqual(incremental, await snapshotIntel(intelPaths(root).dir));
  });

  it('an index written by another version is parsed again, updated by a rebuild, and reported stale', async () => {
    const root = tempProject(FILES);
    await buildIntel(root);
    setToolVersion(root, '0.0.1-old');
    const status = await intelStatus(root);
    assert.equal(status.state, 'stale');
    assert.equal(status.pending?.otherVersion, true);
    const rebuilt = await buildIntel(root);
    assert.equal(rebuilt.parsed, 4);
    setToolVersion(root, '0.0.1-old');
    const update = await updateIntel(root, ['src/a.ts']);
    assert.equal(update.mode, 'rebuild');
    assert.match(readFileSync(intelPaths(root).index, 'utf8'), new RegExp(`"toolVersion":"${TOOL_VERSION.replace(/\./g, '\\.')}"`));
  });

  it('TOOL_VERSION is the package version', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    assert.equal(TOOL_VERSION, pkg.version);
  });
});
