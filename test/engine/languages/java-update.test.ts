import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildIntel, intelPaths, updateIntel } from '../../../engine/src/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { HOOKS, payload, runHookProcess, waitForWorkers } from '../../helpers/hooks.js';
import { cleanupProjects, copyProject, tempProject, writeFile } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

const CORE = 'core/src/main/java/com/acme/core';
const APP = 'app/src/main/java/com/acme/app';

const targetsOf = (root: string, file: string, specifier: string, kind = 'import') =>
  (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files[file].imports
    .filter((i) => i.specifier === specifier && i.kind === kind)
    .map((i) => (i.resolved.kind === 'file' ? i.resolved.path : i.resolved.kind));

describe('Java through incremental updates and the PostToolUse hook', () => {
  after(cleanupProjects);

  it('a file moved to another package is found there by the files that use it; equal to a rebuild', async () => {
    const root = copyProject('java-rules');
    await buildIntel(root);
    assert.deepEqual(targetsOf(root, `${APP}/Main.java`, 'com.acme.app.*', 'same-package'), [`${APP}/Helper.java`]);
    const source = readFileSync(path.join(root, APP, 'Helper.java'), 'utf8');
    rmSync(path.join(root, APP, 'Helper.java'));
    writeFile(root, `${CORE}/Helper.java`, source.replace('package com.acme.app;', 'package com.acme.core;'));
    await updateIntel(root, [`${APP}/Helper.java`, `${CORE}/Helper.java`]);
    // Main no longer has Helper in its own package: `import com.acme.core.*` now provides it
    assert.deepEqual(targetsOf(root, `${APP}/Main.java`, 'com.acme.core.*'), [`${CORE}/Helper.java`, `${CORE}/Kind.java`, `${CORE}/Point.java`]);
    assert.deepEqual(targetsOf(root, `${APP}/Main.java`, 'com.acme.app.*', 'same-package'), ['builtin']);
    await assertSameAsRebuild(root, 'java-rules: Helper moved to com.acme.core');
  });

  it('a new type in the file\'s own package shadows the on-demand import at once; equal to a rebuild', async () => {
    const root = copyProject('java-rules');
    await buildIntel(root);
    assert.deepEqual(targetsOf(root, `${APP}/Main.java`, 'com.acme.core.*'), [`${CORE}/Kind.java`, `${CORE}/Point.java`]);
    writeFile(root, `${APP}/Kind.java`, 'package com.acme.app;\n\npublic enum Kind { A }\n');
    const report = await updateIntel(root, [`${APP}/Kind.java`]);
    assert.ok(report.reresolved.includes(`${APP}/Main.java`));
    assert.deepEqual(targetsOf(root, `${APP}/Main.java`, 'com.acme.core.*'), [`${CORE}/Point.java`]);
    assert.deepEqual(targetsOf(root, `${APP}/Main.java`, 'com.acme.app.*', 'same-package'), [`${APP}/Helper.java`, `${APP}/Kind.java`]);
    await assertSameAsRebuild(root, 'java-rules: a shadowing type');
  });

  it('a member type inherited from a supertype in another file (JLS 8.5) is an edge to that file; a change there re-resolves its users', async () => {
    const root = tempProject({
      'src/p/Base.java': 'package p;\n\nimport q.Api;\n\npublic abstract class Base implements Api {\n  public enum Mode { A }\n  protected static class Part {}\n  private static class Hidden {}\n}\n',
      'src/p/Middle.java': 'package p;\n\npublic abstract class Middle extends Base {}\n',
      'src/p/Leaf.java': 'package p;\n\nclass Leaf extends Middle {\n  Mode mode;\n  Part part;\n  Hidden hidden;\n  Event event;\n  String name;\n}\n',
      'src/q/Api.java': 'package q;\n\n/* class Event {} */\npublic interface Api {\n  interface Event {}\n}\n',
      'src/r/Uses.java': 'package r;\n\nimport p.Leaf.*;\n\nclass Uses { Mode mode; }\n',
    });
    await buildIntel(root);
    const samePackage = () => targetsOf(root, 'src/p/Leaf.java', 'p.*', 'same-package');
    // Mode and Part from Base (through Middle), Event from Base's interface in another package; Hidden is private
    assert.deepEqual(samePackage(), ['src/p/Middle.java', 'src/q/Api.java', 'src/p/Base.java']);
    const index = () => (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files;
    assert.deepEqual(index()['src/p/Leaf.java'].imports.filter((i) => i.kind === 'same-package').map((i) => i.targetNames ?? i.names), [['Middle'], ['Event'], ['Mode', 'Part']]);
    assert.deepEqual(targetsOf(root, 'src/r/Uses.java', 'p.Leaf.*'), ['src/p/Leaf.java'], 'javac imports the member types Leaf declares through `import p.Leaf.*`, not those it inherits');
    // what the resolver reads of other files: their parse records (the package, types, supertypes, private-ness)
    assert.deepEqual(index()['src/p/Base.java'].symbols.map((s) => [s.name, s.supertypes ?? [], s.private ?? false]), [['p', [], false], ['Base', ['Api'], false], ['Base.Mode', [], false], ['Base.Part', [], false], ['Base.Hidden', [], true]]);
    // a member type no longer private is inherited: its users re-resolve (Leaf's own text did not change)
    writeFile(root, 'src/p/Base.java', 'package p;\n\nimport q.Api;\n\npublic abstract class Base implements Api {\n  public enum Mode { A }\n  protected static class Part {}\n  static class Hidden {}\n}\n');
    assert.ok((await updateIntel(root, ['src/p/Base.java'])).reresolved.includes('src/p/Leaf.java'));
    assert.deepEqual(index()['src/p/Leaf.java'].imports.filter((i) => i.kind === 'same-package').map((i) => i.targetNames ?? i.names), [['Middle'], ['Event'], ['Hidden', 'Mode', 'Part']]);
    await assertSameAsRebuild(root, 'java: a member type no longer private');
    writeFile(root, 'src/p/Base.java', 'package p;\n\npublic abstract class Base {\n  protected static class Part {}\n}\n');
    await updateIntel(root, ['src/p/Base.java']);
    assert.deepEqual(samePackage(), ['src/p/Middle.java', 'src/p/Base.java'], 'Mode and Event are gone from Base');
    await assertSameAsRebuild(root, 'java: inherited member types after an edit of the supertype');
    // an edit of a supertype in the middle of the chain: Middle no longer extends Base
    writeFile(root, 'src/p/Middle.java', 'package p;\n\npublic abstract class Middle {}\n');
    assert.ok((await updateIntel(root, ['src/p/Middle.java'])).reresolved.includes('src/p/Leaf.java'));
    assert.deepEqual(samePackage(), ['src/p/Middle.java'], 'nothing is inherited through Middle');
    await assertSameAsRebuild(root, 'java: a supertype dropped');
  });

  it('a supertype is named as javac names it: a single-static import of a member type, not a qualified name written in the code', async () => {
    const root = tempProject({
      'src/p/Leaf.java': 'package p;\n\nimport static q.Outer.Inner;\n\nclass Leaf extends Inner {\n  Nested nested;\n}\n',
      'src/p/Other.java': 'package p;\n\nclass Other extends Base {\n  r.Base unrelated;\n  Kind kind;\n}\n',
      'src/p/Base.java': 'package p;\n\nclass Base {\n  enum Kind { A }\n}\n',
      'src/q/Outer.java': 'package q;\n\npublic class Outer {\n  public static class Inner {\n    public interface Nested {}\n  }\n}\n',
      'src/r/Base.java': 'package r;\n\npublic class Base {\n  public enum Kind { B }\n}\n',
    });
    await buildIntel(root);
    assert.deepEqual(targetsOf(root, 'src/p/Leaf.java', 'p.*', 'same-package'), ['src/q/Outer.java'], 'Nested: a member type of the statically imported Inner');
    const other = (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files['src/p/Other.java'].imports.filter((i) => i.kind === 'same-package');
    assert.deepEqual(
      other.map((i) => [i.resolved.kind === 'file' ? i.resolved.path : i.resolved.kind, i.targetNames ?? i.names]),
      [['src/p/Base.java', ['Base']], ['src/p/Base.java', ['Kind']]],
      "Base is the package's (r.Base is written out, no import); Kind is p.Base's",
    );
    writeFile(root, 'src/q/Outer.java', 'package q;\n\npublic class Outer {\n  public static class Inner {}\n}\n');
    assert.ok((await updateIntel(root, ['src/q/Outer.java'])).reresolved.includes('src/p/Leaf.java'));
    assert.deepEqual(targetsOf(root, 'src/p/Leaf.java', 'p.*', 'same-package'), ['builtin'], 'Nested is gone: java.lang is all that is left');
    await assertSameAsRebuild(root, 'java: a statically imported supertype');
  });

  it('a build file that declares a source root re-resolves the project: a guess between two folders becomes exact', async () => {
    const root = tempProject({
      'svc/pom.xml': '<project><artifactId>svc</artifactId></project>\n',
      'app/p/X.java': 'package p;\n\nimport q.Y;\n\nclass X { Y y; }\n',
      'svc/java/q/Y.java': 'package q;\n\npublic class Y {}\n',
      'svc/java/other/q/Y.java': 'package other.q;\n\npublic class Y {}\n',
    });
    await buildIntel(root);
    const entry = () => (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files['app/p/X.java'].imports.find((i) => i.specifier === 'q.Y')!;
    assert.equal(entry().inferred, true, 'no declared root: svc/java/q and svc/java/other/q can both be package q');
    writeFile(root, 'svc/pom.xml', '<project><artifactId>svc</artifactId><build><sourceDirectory>java</sourceDirectory></build></project>\n');
    await updateIntel(root, ['svc/pom.xml']);
    assert.deepEqual(entry().resolved, { kind: 'file', path: 'svc/java/q/Y.java' });
    assert.equal(entry().inferred, undefined);
    await assertSameAsRebuild(root, 'java: a declared sourceDirectory');
  });

  it('the PostToolUse hook, spawned on a .java edit, puts the new import into the graph', async () => {
    const root = copyProject('java-rules');
    await buildIntel(root);
    const file = path.join(root, APP, 'Helper.java');
    const original = readFileSync(file, 'utf8');
    const first = original.split('\n')[0];
    const added = '\nimport com.acme.core.util.Strings;\n';
    writeFileSync(file, original.replace(first, `${first}${added}`));
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, first, `${first}${added}`, original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    await waitForWorkers(root);
    assert.deepEqual(targetsOf(root, `${APP}/Helper.java`, 'com.acme.core.util.Strings'), [`${CORE}/util/Strings.java`]);
    await assertSameAsRebuild(root, 'java-rules: hook edit');
  });
});

describe('Java: bad input', () => {
  after(cleanupProjects);

  it('a file with a syntax error keeps its imports and says where; a malformed pom.xml steers nothing', async () => {
    const root = tempProject({
      'pom.xml': '<project><modules><module>../outside</module><build><sourceDirectory>',
      'src/main/java/a/A.java': 'package a;\n\nimport b.B;\n\npublic class A {\n  void f( {\n}\n',
      'src/main/java/b/B.java': 'package b;\n\npublic class B {}\n',
    });
    await buildIntel(root);
    const files = (JSON.parse(readFileSync(intelPaths(root).index, 'utf8')) as IndexDocument).files;
    assert.match(files['src/main/java/a/A.java'].syntaxError?.message ?? '', /syntax error/);
    assert.deepEqual(targetsOf(root, 'src/main/java/a/A.java', 'b.B'), ['src/main/java/b/B.java']);
  });
});
