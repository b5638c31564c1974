/**
 * Reading and writing the JSON files the installer touches (settings.json, ~/.claude.json, .mcp.json, manifest.json).
 * A file that does not parse is reported with its line and column and is never written over. Writes are atomic
 * (temp file in the same folder + rename) and keep the mode of the file they replace.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

export type JsonObject = Record<string, unknown>;

export type JsonRead =
  | { kind: 'missing'; file: string }
  | { kind: 'ok'; file: string; value: JsonObject; text: string; mode: number; indent: string | number }
  | { kind: 'invalid'; file: string; line: number; column: number; reason: string };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Line and column (1-based) of a character offset. */
export function lineOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Offset of the first syntax error in `text` (JSON.parse of Node 20 does not always say where: "Unexpected token ','"
 * comes without a position). A small strict JSON scanner; -1 when the text is valid.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  try {
    value();
    ws();
    return i < text.length ? i : -1;
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : 0;
  }
}

/** Where the text stops being JSON, as line and column (1-based). */
function errorPosition(text: string, message: string): { line: number; column: number } {
  const at = jsonErrorOffset(text);
  if (at >= 0) return lineOf(text, at);
  const pos = /position (\d+)/.exec(message);
  return lineOf(text, pos ? Number(pos[1]) : text.trimEnd().length);
}

function detectIndent(text: string): string | number {
  const m = /^\{\s*\n([ \t]+)"/.exec(text);
  return m ? m[1] : 2;
}

export function readJson(file: string): JsonRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing', file };
    throw error;
  }
  const mode = statSync(file).mode & 0o777;
  if (!text.trim()) return { kind: 'ok', file, value: {}, text, mode, indent: 2 };
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const { line, column } = errorPosition(body, (error as Error).message);
    // V8's message quotes the whole tail of the file: keep its first sentence
    return { kind: 'invalid', file, line, column, reason: (error as Error).message.split(/,? \.\.\.|\n/)[0] };
  }
  if (!isObject(value)) {
    return { kind: 'invalid', file, line: 1, column: 1, reason: `expected a JSON object, found ${Array.isArray(value) ? 'an array' : typeof value}` };
  }
  return { kind: 'ok', file, value, text, mode, indent: detectIndent(text) };
}

export function formatJson(value: unknown, indent: string | number = 2): string {
  return `${JSON.stringify(value, null, indent)}\n`;
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export function fileHash(file: string): string | undefined {
  try {
    return sha256(readFileSync(file));
  } catch {
    return undefined;
  }
}

/** Temp file beside the target, fsync, rename over it; the mode of the file replaced (or `mode`) is kept. */
export function writeFileAtomic(file: string, data: string | Buffer, mode?: number): void {
  let keep = mode;
  try {
    keep = statSync(file).mode & 0o777;
  } catch {
    // new file
  }
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.gsd-tmp-${process.pid}-${Date.now()}`);
  try {
    const fd = openSync(tmp, 'w', keep ?? 0o644);
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (keep !== undefined) chmodSync(tmp, keep);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Copies `file` to `<file>.gsd-backup-<stamp>` (mode kept) and returns the backup's path. */
export function backupFile(file: string, stamp: string): string {
  const backup = `${file}.gsd-backup-${stamp}`;
  copyFileSync(file, backup);
  return backup;
}

export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
