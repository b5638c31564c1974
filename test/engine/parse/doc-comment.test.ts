import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSource } from '../../../engine/src/parse/index.js';
import { fixture } from '../../helpers/paths.js';

const docOf = (file: string) => parseSource(`src/${file}`, readFileSync(fixture('parse', 'doc-comment', file), 'utf8')).docComment;

describe('parseSource: leading doc comment', () => {
  it('strips the stars of a JSDoc block and keeps its inner layout', () => {
    assert.equal(docOf('jsdoc-block.ts'), 'Formats durations for humans.\n\nUses `Intl` when available:\n  - short form\n  - long form');
  });

  it('skips a shebang, a license header and directives when another comment follows', () => {
    assert.equal(docOf('license-then-doc.js'), 'Command-line entry point: parses argv and runs the selected command.');
  });

  it('keeps a license comment when it is the only one', () => {
    assert.equal(docOf('license-only.js'), '@license MIT\nCopyright Example Corp.');
  });

  it('merges consecutive line comments and skips tool pragmas', () => {
    assert.equal(docOf('line-comments.ts'), 'Reads the configuration file\nand merges the defaults.');
    assert.equal(docOf('pragmas-only.js'), null);
  });

  it('is null without a comment before the first statement', () => {
    assert.equal(docOf('no-comment.ts'), null);
  });

  it('takes the comment of a file without statements', () => {
    assert.equal(docOf('only-comment.ts'), 'A file holding nothing but this comment.');
  });

  it('skips triple-slash references', () => {
    assert.equal(docOf('doc-before-triple-slash.d.ts'), 'Ambient declarations for the build scripts.');
  });

  it('truncates long comments at a word boundary', () => {
    const doc = docOf('long-comment.js');
    assert.ok(doc !== null);
    assert.ok(doc.length <= 601, `length ${doc.length}`);
    assert.ok(doc.endsWith('…'));
    assert.match(doc, /^word0 word1 word2 .* word\d+…$/);
  });
});
