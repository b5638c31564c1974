/** The file's leading doc comment and its `/// <reference … />` directives, read from the comments before the first statement. */
import type { File } from '@babel/types';
import type { ImportRecord } from '../types.js';

export const MAX_DOC_COMMENT_CHARS = 600;

/** Tool directives that are not documentation. */
const PRAGMA =
  /^(?:eslint[-\s]|eslint$|global\s|globals\s|jshint\s|jslint\s|jscs:|istanbul\s|c8\s|v8\s|prettier-ignore|tslint:|@ts-|@flow\b|@noflow\b|@jsx\s|@jsxImportSource\s|@jsxRuntime\s|@format\b|@vitest-environment\s|@jest-environment\s|@refresh\s|#\s*(?:end)?region\b|webpack[A-Z]|biome-ignore|deno-lint-ignore|deno-fmt-ignore|oxlint-)/;
const LICENSE = /licen[cs]e|copyright/i;
/** `/// <reference path="…" />`: the comment's value starts after `//`. */
const TRIPLE_SLASH = /^\/\s*<(?:reference|amd-module|amd-dependency)\b/;
/** TypeScript's reading of a `/// <name … />` directive (its tripleSlashXMLCommentStartRegEx), on the value after `//`. */
const XML_DIRECTIVE = /^\/\s*<(\S+)\s.*?\/>/;
/** An attribute of a `/// <reference … />` directive, in any order, as TypeScript finds it (getNamedArgRegEx). */
const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:'([^']*)'|"([^"]*)")`, 'i');
const NO_DEFAULT_LIB = attribute('no-default-lib');
const TYPES = attribute('types');
const LIB = attribute('lib');
const PATH = attribute('path');

function attributeValue(value: string, re: RegExp): string {
  const match = re.exec(value);
  return match ? match[1] || match[2] || '' : '';
}

/** Start offset of the first statement (directives such as `'use strict'` count); Infinity for an empty program. */
function firstStatementStart(file: File): number {
  const program = file.program;
  const starts = [program.directives[0]?.start, program.body[0]?.start].filter((s): s is number => typeof s === 'number');
  return starts.length ? Math.min(...starts) : Infinity;
}

function firstBodyStart(file: File): number {
  return file.program.body[0]?.start ?? Infinity;
}

/**
 * The `/// <reference … />` directives at the top of the file, read as TypeScript reads them: `types="…"` (a type
 * reference, resolved like a package) before `path="…"` (a file relative to this one); `lib="…"` and
 * `no-default-lib="true"` name no project file and give no record.
 */
export function tripleSlashReferences(file: File): ImportRecord[] {
  const limit = firstStatementStart(file);
  const records: ImportRecord[] = [];
  for (const comment of file.comments ?? []) {
    if ((comment.start ?? 0) >= limit) break;
    if (comment.type !== 'CommentLine') continue;
    const value = comment.value;
    const directive = XML_DIRECTIVE.exec(value);
    if (directive === null || directive[1].toLowerCase() !== 'reference') continue;
    if (attributeValue(value, NO_DEFAULT_LIB) === 'true') continue;
    const line = comment.loc?.start.line ?? 1;
    const types = attributeValue(value, TYPES);
    if (types !== '') records.push({ specifier: types, kind: 'triple-slash-types', names: [], line });
    else if (attributeValue(value, LIB) === '') {
      const path = attributeValue(value, PATH);
      if (path !== '') records.push({ specifier: path, kind: 'triple-slash', names: [], line });
    }
  }
  return records;
}

function cleanBlock(value: string): string[] {
  const lines = value.replace(/^[*!]+/, '').split(/\r?\n/);
  return lines.map((line) => line.replace(/^\s*\* ?/, '').replace(/\s+$/, ''));
}

function cleanLine(value: string): string {
  return value.replace(/^\/*!? ?/, '').replace(/\s+$/, '');
}

/** Comments before the first statement, as cleaned text: consecutive `//` lines merged, tool pragmas left out. */
function leadingComments(file: File): string[] {
  const limit = firstBodyStart(file);
  const texts: string[] = [];
  let lineGroup: string[] | null = null;
  let lastLine = -2;
  for (const comment of file.comments ?? []) {
    if ((comment.start ?? 0) >= limit) break;
    const startLine = comment.loc?.start.line ?? 0;
    const endLine = comment.loc?.end.line ?? startLine;
    if (comment.type === 'CommentLine') {
      const text = cleanLine(comment.value);
      if (TRIPLE_SLASH.test(comment.value) || PRAGMA.test(text.trim())) {
        lineGroup = null;
      } else if (lineGroup && startLine === lastLine + 1) {
        lineGroup.push(text);
        texts[texts.length - 1] = lineGroup.join('\n');
      } else {
        lineGroup = [text];
        texts.push(text);
      }
    } else {
      lineGroup = null;
      const text = cleanBlock(comment.value).join('\n');
      if (!PRAGMA.test(text.trim())) texts.push(text);
    }
    lastLine = endLine;
  }
  return texts.map((text) => text.trim()).filter((text) => text.length > 0);
}

/**
 * The first comment before the first statement, skipping tool pragmas and a license header that another comment follows.
 * Star prefixes and comment markers are stripped; at most MAX_DOC_COMMENT_CHARS characters are kept.
 */
export function leadingDocComment(file: File): string | null {
  const candidates = leadingComments(file);
  let index = 0;
  while (index < candidates.length - 1 && LICENSE.test(candidates[index])) index++;
  const text = candidates[index];
  if (text === undefined) return null;
  if (text.length <= MAX_DOC_COMMENT_CHARS) return text;
  // cut at the last word boundary when there is one near the limit
  const head = text.slice(0, MAX_DOC_COMMENT_CHARS);
  const boundary = Math.max(head.lastIndexOf(' '), head.lastIndexOf('\n'));
  return `${(boundary > MAX_DOC_COMMENT_CHARS - 80 ? head.slice(0, boundary) : head).trimEnd()}…`;
}
