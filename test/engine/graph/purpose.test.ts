/**
 * The generated purpose from a doc comment: its first sentence of prose, never a code example's fence, and an entity
 * page that stays the same from one build to the next.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths } from '../../../engine/src/index.js';
import { generatedPurpose } from '../../../engine/src/graph/classify.js';
import { cleanupProjects, tempProject } from '../../helpers/project.js';

const purpose = (doc: string) => generatedPurpose('src/a.rs', 'source', doc, [], []);

describe('generated purpose', () => {
  after(cleanupProjects);

  it('leaves fenced code examples out of the sentence', () => {
    assert.equal(purpose('Parses a config file.\n\n```rust\nlet c = parse("x")?;\n```\n'), 'Parses a config file.');
    assert.equal(purpose('```\nlet a = 1;\n```\nRuns the thing quickly.'), 'Runs the thing quickly.');
    assert.equal(purpose('~~~python\nx = 1\n~~~\nSets the x value. More.'), 'Sets the x value.');
  });

  it('a doc comment that is only a code example gives the purpose built from the file', () => {
    assert.equal(purpose('```compile_fail,E0599\nuse rayon::prelude::*;\nlet a = 1;\n```'), 'Module a with no exports (side effects or entry point).');
  });

  it("drops a leading heading's marks", () => {
    assert.equal(purpose('# Serde JSON\n\nJSON for serde.'), 'Serde JSON JSON for serde.');
  });

  it('an entity page from a doc comment that is a code example is the same after a second build', async () => {
    const root = tempProject({
      'Cargo.toml': '[package]\nname = "p"\nversion = "0.1.0"\n\n[lib]\npath = "src/a.rs"\n',
      'src/a.rs': '/*! ```compile_fail,E0599\n\nuse rayon::prelude::*;\n\nlet a: Vec<usize> = (0..1024).collect();\n``` */\n',
    });
    await buildIntel(root, { cache: false });
    const dir = intelPaths(root).entities;
    const page = () => readFileSync(path.join(dir, readdirSync(dir)[0]!), 'utf8').replace(/^updated: .*$/m, '');
    const first = page();
    assert.match(first, /purpose_source: generated/);
    assert.equal(first.split('## Exports').length, 2);
    await buildIntel(root);
    await buildIntel(root, { cache: false });
    assert.equal(page(), first);
  });
});
