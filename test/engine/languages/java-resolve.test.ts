import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { blastRadius, dependencies, intelPaths } from '../../../engine/src/index.js';
import { readGraphRows } from '../../../engine/src/store/index.js';
import type { IndexDocument } from '../../../engine/src/types.js';
import { builtFixture, resolvedOf } from '../../helpers/language-records.js';

const CORE = 'core/src/main/java/com/acme/core';
const APP = 'app/src/main/java/com/acme/app';

describe("Java: packages, source roots and imports resolved as javac finds types, through the real pipeline (fixture java-rules)", () => {
  const fixture = builtFixture('java-rules');

  it('every .java file is indexed as Java; src/test and *Test.java are tests, module-info.java is config', () => {
    const java = Object.values(fixture.files).filter((f) => f.language === 'java');
    assert.equal(java.length, 24);
    assert.equal(fixture.files['core/src/test/java/com/acme/core/CircleTest.java'].type, 'test');
    assert.equal(fixture.files['core/src/test/java/com/acme/core/TestShapes.java'].type, 'test');
    assert.equal(fixture.files['core/src/main/java/module-info.java'].type, 'config');
    assert.equal(fixture.files[`${CORE}/Circle.java`].type, 'source');
  });

  it('single-type imports reach the file declaring the type; a nested type or a static member reaches its top-level type\'s file', () => {
    const main = fixture.files[`${APP}/Main.java`];
    assert.deepEqual(resolvedOf(main, 'com.acme.core.Circle'), [`file:${CORE}/Circle.java`]);
    assert.deepEqual(resolvedOf(main, 'com.acme.core.Circle.Builder'), [`file:${CORE}/Circle.java`]);
    assert.deepEqual(resolvedOf(main, 'com.acme.core.Units.square'), [`file:${CORE}/Units.java`]);
    assert.deepEqual(resolvedOf(fixture.files['core/src/main/java/module-info.java'], 'com.acme.core.Shape'), [`file:${CORE}/Shape.java`], 'module-info `uses`');
  });

  it('an on-demand import reaches the files of the package whose types the file uses; one the file takes nothing from makes no edge', () => {
    const main = fixture.files[`${APP}/Main.java`];
    assert.deepEqual(resolvedOf(main, 'com.acme.core.*'), [`file:${CORE}/Kind.java`, `file:${CORE}/Point.java`]);
    const edges = main.imports.filter((i) => i.specifier === 'com.acme.core.*').map((i) => i.targetNames ?? i.names);
    assert.deepEqual(edges, [['Kind'], ['Point']]);
    assert.deepEqual(resolvedOf(fixture.files[`${APP}/Quiet.java`], 'com.acme.core.util.*'), [`asset:${CORE}/util`]);
    assert.deepEqual(dependencies(fixture.reader, `${APP}/Quiet.java`).dependencies, []);
  });

  it('types of the same package are references without an import (kind same-package), across the main and test roots of a module', () => {
    assert.deepEqual(resolvedOf(fixture.files[`${APP}/Main.java`], 'com.acme.app.*', 'same-package'), [`file:${APP}/Helper.java`]);
    assert.deepEqual(resolvedOf(fixture.files[`${CORE}/Circle.java`], 'com.acme.core.*', 'same-package'), [`file:${CORE}/Kind.java`, `file:${CORE}/Shape.java`, `file:${CORE}/Units.java`]);
    assert.deepEqual(resolvedOf(fixture.files['core/src/test/java/com/acme/core/CircleTest.java'], 'com.acme.core.*', 'same-package'), [
      `file:${CORE}/Circle.java`,
      `file:${CORE}/Shape.java`,
      'file:core/src/test/java/com/acme/core/TestShapes.java',
    ]);
    assert.deepEqual(resolvedOf(fixture.files['scripts/Scratch.java'], '*', 'same-package'), ['file:scripts/Other.java'], 'the default package');
    assert.deepEqual(resolvedOf(fixture.files['app/src/main/java/com/acme/core/ShapeNames.java'], 'com.acme.core.*', 'same-package'), [`file:${CORE}/Shape.java`], 'a package split over modules');
    // main code does not see test code: Shape names no test type
    assert.ok(!fixture.files[`${CORE}/Shape.java`].imports.some((i) => 'path' in i.resolved && i.resolved.path.includes('/src/test/')));
  });

  it('a fully-qualified name in the code is a reference to its file', () => {
    assert.deepEqual(resolvedOf(fixture.files[`${APP}/Main.java`], 'com.acme.core.util.Strings'), [`file:${CORE}/util/Strings.java`]);
  });

  it('JDK types are builtins, other libraries external, a type missing from a package the project has unresolved', () => {
    const main = fixture.files[`${APP}/Main.java`];
    assert.deepEqual(resolvedOf(main, 'java.util.List'), ['builtin:java.util']);
    assert.deepEqual(resolvedOf(main, 'com.google.common.collect.ImmutableList'), ['external:com.google.common.collect']);
    assert.deepEqual(resolvedOf(main, 'com.acme.core.Missing'), ['unresolved:com.acme.core.Missing: package com.acme.core has no Missing.java']);
    assert.deepEqual(resolvedOf(fixture.files['core/src/test/java/com/acme/core/CircleTest.java'], 'org.junit.Test'), ['external:org.junit']);
  });

  it('Gradle: settings.gradle.kts modules and a relocated srcDirs root; a file under a declared root is found only by its path inside it', () => {
    assert.deepEqual(resolvedOf(fixture.files['gradle/tools/source/org/demo/tools/Tool.java'], 'org.demo.lib.Greeter'), ['file:gradle/lib/src/main/java/org/demo/lib/Greeter.java']);
  });

  it('without a build file the root is inferred from the package; a type two modules hold is a choice marked inferred', () => {
    const a = fixture.files['plain/src/com/x/A.java'];
    assert.deepEqual(resolvedOf(a, 'com.x.b.B'), ['file:plain/src/com/x/b/B.java']);
    assert.deepEqual(resolvedOf(a, 'd.Same'), ['file:dup1/src/main/java/d/Same.java (inferred)']);
  });

  it('edges carry exact, the build files are config files of the index, and a blast radius crosses modules', async () => {
    const rows = await readGraphRows(intelPaths(fixture.root).graph);
    const pathOf = new Map(rows.nodes.map((n) => [n.id, n.path]));
    const edge = (s: string, t: string) => rows.edges.find((e) => pathOf.get(e.source) === s && pathOf.get(e.target) === t);
    assert.equal(edge(`${APP}/Main.java`, `${CORE}/Circle.java`)?.exact, true);
    assert.equal(edge(`${APP}/Main.java`, `${APP}/Helper.java`)?.kind, 'same-package');
    assert.equal(edge('plain/src/com/x/A.java', 'dup1/src/main/java/d/Same.java')?.exact, false);
    const index = JSON.parse(readFileSync(intelPaths(fixture.root).index, 'utf8')) as IndexDocument;
    for (const f of ['pom.xml', 'core/pom.xml', 'app/pom.xml', 'gradle/settings.gradle.kts', 'gradle/tools/build.gradle']) assert.ok(f in index.configFiles, f);
    const radius = blastRadius(fixture.reader, `${CORE}/Shape.java`);
    const hit = new Set(radius.byDepth.flatMap((l) => l.files.map((f) => f.path)));
    for (const f of [`${CORE}/Circle.java`, 'core/src/test/java/com/acme/core/CircleTest.java', `${APP}/Main.java`]) assert.ok(hit.has(f), f);
  });

  it('exports: public top-level types with kind and line, their public members; symbols: every type and member type; purpose from the Javadoc', () => {
    const circle = fixture.files[`${CORE}/Circle.java`];
    assert.deepEqual(circle.exports, [
      { name: 'Circle', kind: 'class', line: 6 },
      { name: 'Circle.NAME', kind: 'const', line: 7 },
      { name: 'Circle.radius', kind: 'variable', line: 8 },
      { name: 'Circle.area', kind: 'function', line: 16 },
      { name: 'Circle.kind', kind: 'function', line: 21 },
      { name: 'Circle.Builder', kind: 'class', line: 28 },
    ]);
    assert.deepEqual(circle.symbols.map((s) => [s.kind, s.name, s.exported, s.supertypes]), [['namespace', 'com.acme.core', false, undefined], ['class', 'Circle', true, ['Shape']], ['class', 'Circle.Builder', true, undefined], ['class', 'CircleCache', false, undefined]], 'the package, types and their member types, with their supertypes');
    assert.deepEqual(fixture.files[`${CORE}/Point.java`].exports, [{ name: 'Point', kind: 'class', line: 4 }]);
    assert.equal(fixture.files[`${CORE}/Marker.java`].exports[0].kind, 'interface');
    assert.deepEqual(fixture.files[`${CORE}/Kind.java`].exports.map((e) => e.name), ['Kind', 'Kind.ROUND', 'Kind.FLAT']);
    assert.deepEqual(fixture.files[`${CORE}/Shape.java`].exports.map((e) => e.name), ['Shape', 'Shape.area', 'Shape.kind'], "an interface's members are public");
    assert.equal(fixture.files[`${CORE}/Shape.java`].docComment, 'A shape that has an area.');
    assert.equal(fixture.files[`${CORE}/Circle.java`].docComment, 'A circle of a given radius, built with Circle.Builder.');
    assert.match(fixture.files[`${CORE}/package-info.java`].purpose, /Geometry for the acme applications/);
  });
});
