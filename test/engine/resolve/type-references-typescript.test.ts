/**
 * `/// <reference types="…" />` checked against TypeScript itself: every type reference in every resolve fixture is
 * resolved by our resolver and by `ts.resolveTypeReferenceDirective` (with the options of the file's nearest
 * tsconfig.json, as TypeScript's language service would take them), on a copy of the fixture whose workspace
 * packages are linked into node_modules the way npm links them.
 *
 * Agreement means: where TypeScript finds a project file, we name the same file; where it finds an installed
 * package (node_modules), we say external; where it finds nothing, we name no project file. Which directives a file
 * has (path, types; lib and no-default-lib being none) is checked against TypeScript's own parse of the file.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import picomatch from 'picomatch';
import ts from 'typescript';
import { parseSource } from '../../../engine/src/parse/index.js';
import { createResolver } from '../../../engine/src/resolve/index.js';
import type { Resolution } from '../../../engine/src/types.js';
import { fixture } from '../../helpers/paths.js';
import { hostFromDir } from '../../helpers/resolver-host.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'gsd-type-refs-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Directories below `root` (node_modules left out), project-relative. */
function dirsBelow(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules') continue;
    const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
    out.push(child, ...dirsBelow(root, child));
  }
  return out;
}

/** What `npm install` does for workspaces: node_modules/<name> → the package folder, for every workspace package. */
function linkWorkspaces(root: string): void {
  const pkgFile = path.join(root, 'package.json');
  if (!existsSync(pkgFile)) return;
  const workspaces = (JSON.parse(readFileSync(pkgFile, 'utf8')) as { workspaces?: unknown }).workspaces;
  if (!Array.isArray(workspaces)) return;
  const isWorkspace = picomatch(workspaces as string[]);
  for (const dir of dirsBelow(root)) {
    const manifest = path.join(root, dir, 'package.json');
    if (!isWorkspace(dir) || !existsSync(manifest)) continue;
    const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
    if (!name) continue;
    const link = path.join(root, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.relative(path.dirname(link), path.join(root, dir)), link, 'dir');
  }
}

/** The compiler options of the nearest tsconfig.json above `file` inside `root`, else none. */
function optionsFor(root: string, file: string): ts.CompilerOptions {
  const config = ts.findConfigFile(path.dirname(file), ts.sys.fileExists);
  if (config === undefined || !config.startsWith(root + path.sep)) return {};
  const host: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  return ts.getParsedCommandLineOfConfigFile(config, {}, host)?.options ?? {};
}

/** The triple-slash records TypeScript's parser sees in a file, as ours are written. */
function typescriptDirectives(from: string, text: string): Array<[string, string]> {
  const sf = ts.createSourceFile(from, text, ts.ScriptTarget.Latest, false);
  const refs = [
    ...sf.referencedFiles.map((r) => ({ pos: r.pos, record: ['triple-slash', r.fileName] as [string, string] })),
    ...sf.typeReferenceDirectives.map((r) => ({ pos: r.pos, record: ['triple-slash-types', r.fileName] as [string, string] })),
  ];
  return refs.sort((a, b) => a.pos - b.pos).map((r) => r.record);
}

interface Checked {
  fixture: string;
  from: string;
  specifier: string;
  ours: Resolution;
  typescript: string | null;
}

function checkFixture(name: string): Checked[] {
  cpSync(fixture('resolve', name), path.join(tmp, name), { recursive: true });
  const root = realpathSync(path.join(tmp, name));
  linkWorkspaces(root);
  const host = hostFromDir(root);
  const resolver = createResolver(host);
  const tsHost: ts.ModuleResolutionHost = { ...ts.sys, getCurrentDirectory: () => root };
  const checked: Checked[] = [];
  for (const from of [...host.files].sort()) {
    const abs = path.join(root, from);
    const text = readFileSync(abs, 'utf8');
    const parsed = parseSource(from, text);
    const ours = parsed.imports.filter((i) => i.kind === 'triple-slash' || i.kind === 'triple-slash-types').map((i) => [i.kind, i.specifier]);
    directives.push({ where: `${name}: ${from}`, ours, typescript: typescriptDirectives(from, text) });
    for (const ref of parsed.imports) {
      if (ref.kind !== 'triple-slash-types') continue;
      const options = optionsFor(root, abs);
      const r = ts.resolveTypeReferenceDirective(ref.specifier, abs, options, tsHost).resolvedTypeReferenceDirective;
      checked.push({ fixture: name, from, specifier: ref.specifier, ours: resolver.resolve(ref.specifier, from, ref.kind), typescript: r?.resolvedFileName ? path.relative(root, realpathSync(r.resolvedFileName)).split(path.sep).join('/') : null });
    }
  }
  return checked;
}

const directives: Array<{ where: string; ours: string[][]; typescript: string[][] }> = [];
const fixtures = readdirSync(fixture('resolve'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const all = fixtures.flatMap(checkFixture);

test('every `reference types` of the resolve fixtures resolves as TypeScript resolves it', () => {
  const disagreements: string[] = [];
  for (const c of all) {
    const where = `${c.fixture}: ${c.from} → ${c.specifier}`;
    const installed = c.typescript !== null && c.typescript.split('/').includes('node_modules');
    if (c.typescript !== null && !installed) {
      if (c.ours.kind !== 'file' || c.ours.path !== c.typescript) disagreements.push(`${where}: TypeScript ${c.typescript}, ours ${JSON.stringify(c.ours)}`);
    } else if (installed) {
      if (c.ours.kind !== 'external') disagreements.push(`${where}: TypeScript ${c.typescript} (installed), ours ${JSON.stringify(c.ours)}`);
    } else if (c.ours.kind === 'file') {
      disagreements.push(`${where}: TypeScript finds nothing, ours ${c.ours.path}`);
    }
  }
  assert.deepEqual(disagreements, []);
  // the check covers what it should: project files found in typeRoots, workspace packages, @types/ packages, relative names
  const toFiles = all.filter((c) => c.typescript !== null && c.ours.kind === 'file');
  assert.ok(toFiles.length >= 15, `${toFiles.length} references to project files checked`);
  for (const expected of ['types/flat.d.ts', 'types/withpkg/main.d.ts', 'packages/exported/types/env.d.ts', 'packages/scoped-types/index.d.ts', 'src/local.d.ts', 'packages/tsconfig/process-env.d.ts']) {
    assert.ok(toFiles.some((c) => c.typescript === expected), expected);
  }
});

test('the triple-slash directives of every resolve fixture file are those TypeScript reads', () => {
  for (const d of directives) assert.deepEqual(d.ours, d.typescript, d.where);
  const kinds = new Set(directives.flatMap((d) => d.ours.map(([kind]) => kind)));
  assert.deepEqual([...kinds].sort(), ['triple-slash', 'triple-slash-types']);
});
