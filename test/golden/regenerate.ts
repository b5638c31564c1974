/**
 * Rewrites the expected output of every golden test from its input:
 *   node --import tsx test/golden/regenerate.ts
 * test/golden/markdown/NN-name.json holds { "render": "entity" | "summary", "view": … } and NN-name.md the
 * expected page. Review the diff before committing: the goldens are the spec of the Markdown output.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderEntity, renderSummary, type EntityView, type SummaryView } from '../../engine/src/store/markdown.js';
import { repoRoot } from '../helpers/paths.js';

export type GoldenInput = { render: 'entity'; view: EntityView } | { render: 'summary'; view: SummaryView };

/** test/golden/markdown in the source tree, whether this runs from test/ (tsx) or from dist/test/ (compiled) */
export function markdownGoldenDir(): string {
  return path.join(repoRoot, 'test', 'golden', 'markdown');
}

export function renderGolden(input: GoldenInput): string {
  switch (input.render) {
    case 'entity':
      return renderEntity(input.view);
    case 'summary':
      return renderSummary(input.view);
    default:
      throw new Error(`unknown golden kind ${(input as { render: string }).render}`);
  }
}

export function goldenCases(): Array<{ name: string; input: GoldenInput; expectedFile: string }> {
  const dir = markdownGoldenDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      name: f.replace(/\.json$/, ''),
      input: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as GoldenInput,
      expectedFile: path.join(dir, f.replace(/\.json$/, '.md')),
    }));
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
// `node --test` runs every .js file under test/ (NODE_TEST_CONTEXT is set then): never rewrite goldens from a test run
if (isMain && !process.env.NODE_TEST_CONTEXT) {
  for (const c of goldenCases()) {
    writeFileSync(c.expectedFile, renderGolden(c.input));
    console.log(`wrote ${path.relative(process.cwd(), c.expectedFile)}`);
  }
}
