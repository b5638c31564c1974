import { languageOf } from '../languages/registry.js';
import { mapOutsideFences } from '../store/markdown.js';
import type { ExportRecord, FileType, ImportRecord, RelPath } from '../types.js';

const TEST_FILE = /(^|\/)(__tests__|__mocks__|tests?|spec|e2e)\/|\.(test|spec|e2e)\.[cm]?[jt]sx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;
const CONFIG_FILE = /(^|\/)([^/]*\.config|\.[^/]*rc|gulpfile|gruntfile|jest\.setup|vitest\.setup)\.[cm]?[jt]s$/i;
const SCRIPT_DIR = /(^|\/)(scripts|bin|tools)\//;

export function fileType(rel: RelPath): FileType {
  const own = languageOf(rel)?.fileType?.(rel);
  if (own) return own;
  if (DECLARATION.test(rel)) return 'types';
  if (TEST_FILE.test(rel)) return 'test';
  if (CONFIG_FILE.test(rel)) return 'config';
  if (SCRIPT_DIR.test(rel)) return 'script';
  return 'source';
}

/** The file name without folders and without source, declaration and test suffixes: `src/user-card.test.tsx` → `user-card`. */
export function baseStem(rel: RelPath): string {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  return name.replace(/(\.d)?\.[cm]?[jt]sx?$/, '').replace(/\.[a-z]+$/, '').replace(/\.(test|spec|e2e|stories|config)$/, '');
}

/**
 * A fence line of Markdown (``` or ~~~), as doc comments write code examples; indented at most three characters of
 * any whitespace, tabs too: a line taken for a fence here is only left out of the purpose, one missed could open a
 * code block in the page.
 */
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * The doc comment's first sentence, on one line: its tag lines (`@param`) and fenced code examples left out, and a
 * leading heading's `#`s (a Rust crate doc's `# Title`). The purpose is rendered as a line of the entity page, where
 * a fence would open a code block that swallows the rest of the page (and is then read back as a hand-written
 * purpose).
 */
function firstSentence(text: string): string {
  const clean = mapOutsideFences(text.split('\n'), (line, inFence) => (inFence ? null : line), FENCE)
    .filter((line): line is string => line !== null && !/^\s*@\w+/.test(line))
    .map((line) => line.replace(/^\s{0,3}#{1,6}\s+/, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const match = /^(.{8,}?[.!?])(\s|$)/.exec(clean);
  const sentence = match ? match[1] : clean;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}…` : sentence;
}

function listNames(names: string[], max = 4): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

const KIND_LABEL: Record<string, string> = {
  function: 'functions',
  class: 'classes',
  const: 'constants',
  variable: 'variables',
  type: 'types',
  interface: 'interfaces',
  enum: 'enums',
  namespace: 'namespaces',
  default: 'a default export',
  reexport: 're-exports',
  cjs: 'CommonJS exports',
};

/**
 * A deterministic one-line purpose: the first sentence of the leading doc comment, otherwise a description built
 * from the file's role, its exports and its re-exports. Never a model call.
 */
export function generatedPurpose(
  rel: RelPath,
  type: FileType,
  docComment: string | null,
  exports: ExportRecord[],
  imports: ImportRecord[],
): string {
  if (docComment) {
    const sentence = firstSentence(docComment);
    if (sentence.length >= 8) return sentence;
  }
  const stem = baseStem(rel);
  if (type === 'test') return `Tests for ${stem}.`;
  if (type === 'config') return `Configuration: ${rel.slice(rel.lastIndexOf('/') + 1)}.`;
  const reexportSources = imports.filter((i) => i.kind === 'reexport' || (i.kind === 'type-import' && i.reexports));
  const ownExports = exports.filter((e) => e.kind !== 'reexport');
  if (reexportSources.length >= 2 && ownExports.length === 0) {
    const modules = [...new Set(reexportSources.map((i) => i.specifier))];
    return `Barrel: re-exports ${modules.length} modules (${listNames(modules, 3)}).`;
  }
  if (exports.length === 0) {
    return type === 'script' ? `Script ${stem}.` : `Module ${stem} with no exports (side effects or entry point).`;
  }
  const byKind = new Map<string, string[]>();
  for (const e of exports) {
    const names = byKind.get(e.kind) ?? [];
    names.push(e.name);
    byKind.set(e.kind, names);
  }
  const parts = [...byKind.entries()].map(([kind, names]) =>
    kind === 'default' ? KIND_LABEL.default : `${KIND_LABEL[kind] ?? kind} ${listNames(names)}`,
  );
  const prefix = type === 'types' ? 'Type declarations: exports' : 'Exports';
  return `${prefix} ${parts.join('; ')}.`;
}
