/**
 * The workflow assets (commands, agents, templates, docs) as the tests see them: frontmatter read with the same
 * parser the MCP server uses for GSD documents, mentions of `mcp__gsd__<tool> {arg, …}` and of shipped paths.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDoc, type Yaml } from '../../mcp-server/src/adapters/markdown.js';
import { repoRoot } from './paths.js';

export { parseDoc, type Yaml };

export interface Asset {
  /** repo-relative path */
  file: string;
  name: string;
  text: string;
  frontmatter: Record<string, Yaml>;
  /** the raw frontmatter block (without the --- lines), or null when there is none */
  rawFrontmatter: string | null;
  body: string;
}

export function readAsset(rel: string): Asset {
  const text = readFileSync(path.join(repoRoot, rel), 'utf8');
  const raw = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(\n|$)/.exec(text)?.[1] ?? null;
  const { frontmatter, body } = parseDoc(text);
  return { file: rel, name: path.basename(rel, '.md'), text, frontmatter, rawFrontmatter: raw, body };
}

export function listAssets(dir: string): Asset[] {
  return readdirSync(path.join(repoRoot, dir))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readAsset(`${dir}/${f}`));
}

export interface ToolMention {
  file: string;
  tool: string;
  /** argument names given in braces; null when the mention has no braces */
  args: string[] | null;
}

/**
 * The convention the commands, agents and docs follow: a tool is named `mcp__gsd__<tool>`, and where its arguments
 * matter they follow in braces, `mcp__gsd__blast_radius {file, symbol, change_type}` (`{}` = no arguments).
 * `mcp__gsd__*` (the whole server) is not a mention.
 */
export function toolMentions(file: string, text: string): ToolMention[] {
  const out: ToolMention[] = [];
  for (const m of text.matchAll(/mcp__gsd__([a-z][a-z0-9_]*)(?:[ \t\n]*\{([^}\n]*)\})?/g)) {
    const args = m[2] === undefined ? null : m[2].split(',').map((a) => a.trim().split(/[\s:=]/)[0]).filter(Boolean);
    out.push({ file, tool: m[1], args });
  }
  return out;
}

/** Repo paths of shipped assets mentioned in a text: templates/…, docs/…, agents/…, commands/…, guidance/… with an extension. */
export function shippedPathMentions(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./$}-])((?:templates|docs|agents|commands|guidance)\/[A-Za-z0-9_.\/-]*[A-Za-z0-9_-]\.(?:md|json))/g)) found.add(m[1]);
  return [...found];
}

/** `{{KEY}}` placeholders of a template, in order of first appearance. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\{\{([A-Z0-9_]+)\}\}/g)].map((m) => m[1]))];
}

/** Fills a template; throws when a placeholder has no value, so a test notices a template that grew a new one. */
export function fill(template: string, values: Record<string, string>): string {
  const missing = placeholders(template).filter((k) => !(k in values));
  if (missing.length) throw new Error(`no value for ${missing.join(', ')}`);
  return template.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, k: string) => values[k]);
}

export function template(name: string): string {
  return readFileSync(path.join(repoRoot, 'templates', name), 'utf8');
}
