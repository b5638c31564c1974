import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { blastRadius, buildIntel, intelStatus, openIntel, updateIntel, type IntelReader } from '../../../engine/src/index.js';
import { HOOKS, payload, runHookProcess, waitForWorkers } from '../../helpers/hooks.js';
import { builtFixture, indexFiles, resolvedOf } from '../../helpers/language-records.js';
import { cleanupProjects, copyProject, tempProject } from '../../helpers/project.js';
import { assertSameAsRebuild } from '../../helpers/random-sequence.js';

const indexOf = indexFiles;

describe('C#: usings bound to the files that declare the types a file uses, scoped by ProjectReference (fixture csharp-rules)', () => {
  const f = builtFixture('csharp-rules');

  it('.cs and .csproj files are C#; a *.Tests project is tests; obj/ is never indexed', () => {
    const cs = Object.values(f.files).filter((f) => f.language === 'csharp').map((f) => f.path);
    assert.equal(cs.length, 15);
    assert.ok(!cs.some((p) => p.includes('/obj/')));
    assert.equal(f.files['tests/Shop.Tests/PricingTests.cs'].type, 'test');
    assert.equal(f.files['src/Shop.Web/Shop.Web.csproj'].type, 'config');
  });

  it('using N reaches only the files of N that declare a type the file uses, exact, named by those types', () => {
    assert.deepEqual(resolvedOf(f.files['src/Shop.Core/Services/Pricing.cs'], 'Shop.Core.Models'), ['file:src/Shop.Core/Models/Order.cs', 'file:src/Shop.Core/Models/OrderExtensions.cs'], 'LineItem.cs declares nothing Pricing uses; it calls the extension method `order.Total()`');
    const entry = f.files['src/Shop.Core/Services/Pricing.cs'].imports.find((i) => i.specifier === 'Shop.Core.Models')!;
    assert.deepEqual(entry.targetNames, ['Order']);
    assert.deepEqual(resolvedOf(f.files['tests/Shop.Tests/PricingTests.cs'], 'Shop.Core.Services'), ['file:src/Shop.Core/Services/Pricing.cs'], 'through the test project\'s references, transitively');
  });

  it('a using reaches the static classes of its namespace whose extension methods the file calls: exact when one class in scope declares the name, else inferred', () => {
    assert.deepEqual(resolvedOf(f.files['src/Shop.Core/Services/Pricing.cs'], 'Shop.Core.Models').slice(1), ['file:src/Shop.Core/Models/OrderExtensions.cs'], '`order.Total()`: one Total in scope');
    assert.deepEqual(resolvedOf(f.files['src/Shop.Web/Extensions/Totals.cs'], 'Shop.Core.Models'), ['file:src/Shop.Core/Models/OrderExtensions.cs (inferred)'], 'Totals.cs declares a Total of its own');
    assert.deepEqual(f.files['src/Shop.Web/Extensions/Totals.cs'].imports.find((i) => i.specifier === 'Shop.Core.Models')?.targetNames, ['Total']);
    assert.deepEqual(f.files['src/Shop.Core/Models/OrderExtensions.cs'].symbols.find((s) => s.name === 'OrderExtensions')?.extensions, ['Total']);
    assert.deepEqual(resolvedOf(f.files['src/Shop.Web/GlobalUsings.cs'], 'Shop.Core.Models'), ['builtin:Shop.Core.Models'], 'a global using binds through every file\'s own scope, not its own file');
  });

  it('the own namespace, its parents and the project\'s global usings bind without a using; block and nested namespaces', () => {
    assert.deepEqual(resolvedOf(f.files['src/Shop.Core/Services/Pricing.cs'], 'Shop.Core.Services'), ['file:src/Shop.Core/Services/IPricing.cs']);
    assert.deepEqual(resolvedOf(f.files['src/Shop.Core/Models/Order.cs'], 'Shop.Core.Models'), ['file:src/Shop.Core/Models/LineItem.cs'], 'LineItem is declared in a block namespace');
    assert.deepEqual(resolvedOf(f.files['src/Shop.Web/Controllers/OrdersController.cs'], 'Shop.Web.Controllers'), ['file:src/Shop.Core/Models/Order.cs'], 'Order through `global using Shop.Core.Models` in GlobalUsings.cs');
    assert.deepEqual(resolvedOf(f.files['src/Shop.Core/Models/LineItem.cs'], 'Shop.Core.Models'), ['builtin:Shop.Core.Models'], 'nothing bound: no edge');
  });

  it('using static and aliases name one type: exact; framework namespaces are builtin, packages external', () => {
    const c = f.files['src/Shop.Web/Controllers/OrdersController.cs'];
    assert.deepEqual(resolvedOf(c, 'Shop.Core.Util.Calc'), ['file:src/Shop.Core/Util/Calc.cs'], 'Calc sits in nested namespace blocks');
    assert.deepEqual(resolvedOf(c, 'Shop.Core.Services.Pricing'), ['file:src/Shop.Core/Services/Pricing.cs']);
    assert.deepEqual(c.imports.find((i) => i.specifier === 'Shop.Core.Services.Pricing')?.names, ['P']);
    assert.deepEqual(resolvedOf(c, 'System.Linq'), ['builtin:System.Linq']);
    assert.deepEqual(resolvedOf(c, 'Newtonsoft.Json'), ['external:Newtonsoft.Json']);
  });

  it('ProjectReference scopes: a project that does not reference Shop.Core does not see its namespaces', () => {
    assert.deepEqual(resolvedOf(f.files['src/Shop.Other/Report.cs'], 'Shop.Core.Models'), ['unresolved:Shop.Core.Models: no file of the namespace is visible from this project (ProjectReference)']);
  });

  it('exports: public types with kind and line (internal ones are symbols only); purpose from the XML doc summary', () => {
    assert.deepEqual(f.files['src/Shop.Core/Models/Order.cs'].exports.map((e) => `${e.name}:${e.kind}:${e.line}`), ['Order:class:8', 'Status:enum:14']);
    assert.ok(f.files['src/Shop.Core/Models/Order.cs'].symbols.some((s) => s.name === 'Hidden' && !s.exported));
    assert.deepEqual(f.files['src/Shop.Core/Services/Pricing.cs'].exports.map((e) => e.name), ['Pricing', 'Rule'], 'a public nested type of a public type');
    assert.deepEqual(f.files['src/Shop.Core/Services/IPricing.cs'].exports.map((e) => `${e.name}:${e.kind}`), ['IPricing:interface']);
    assert.equal(f.files['src/Shop.Core/Models/Order.cs'].docComment, 'An order a customer places, made of LineItems.');
    assert.equal(f.files['src/Shop.Core/Models/LineItem.cs'].docComment, 'One line of an order.');
  });

  it('blast radius across projects; intel status counts C#', async () => {
    const r = blastRadius(f.reader, 'src/Shop.Core/Services/Pricing.cs');
    assert.deepEqual(Object.fromEntries(r.byDepth.map((l) => [l.depth, l.files.map((f) => f.path).sort()])), { 1: ['src/Shop.Web/Controllers/OrdersController.cs', 'tests/Shop.Tests/PricingTests.cs'] });
    assert.deepEqual((await intelStatus(f.root)).languages, { csharp: 15 });
  });
});

describe('C# through the hook and updates', () => {
  after(cleanupProjects);

  it('the PostToolUse hook, spawned on a .cs edit, binds a newly used type', async () => {
    const root = copyProject('csharp-rules');
    await buildIntel(root);
    const file = path.join(root, 'src', 'Shop.Core', 'Models', 'LineItem.cs');
    const original = readFileSync(file, 'utf8');
    const edited = original.replace('decimal Price);', 'decimal Price, Status State);');
    writeFileSync(file, edited);
    const run = await runHookProcess(HOOKS.postToolUse, payload.edit(root, file, 'decimal Price);', 'decimal Price, Status State);', original), { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    await waitForWorkers(root);
    assert.deepEqual(resolvedOf(indexOf(root)['src/Shop.Core/Models/LineItem.cs'], 'Shop.Core.Models'), ['file:src/Shop.Core/Models/Order.cs']);
    await assertSameAsRebuild(root, 'csharp-rules');
  });

  it('an edit that leaves a file\'s usings and used names as they were keeps their targets; one that moves a line, a used name or another file\'s usings resolves again: each equal to a rebuild', async () => {
    const root = copyProject('csharp-rules');
    await buildIntel(root);
    const rel = 'src/Shop.Web/Controllers/OrdersController.cs';
    const file = path.join(root, rel);
    const original = readFileSync(file, 'utf8');
    const targets = () => indexOf(root)[rel].imports.map((i) => [i.kind, i.specifier, i.line, i.resolved.kind === 'file' ? i.resolved.path : i.resolved.kind]);
    const before = targets();
    writeFileSync(file, `${original}\n// a comment\n`);
    await updateIntel(root, [rel]);
    assert.deepEqual(targets(), before);
    await assertSameAsRebuild(root, 'a comment appended');
    writeFileSync(file, `// a line above the usings\n${original}`);
    await updateIntel(root, [rel]);
    // the own-namespace entry stands on line 1 whatever the file holds
    assert.deepEqual(targets(), before.map(([kind, specifier, line, target]) => [kind, specifier, kind === 'same-package' ? line : Number(line) + 1, target]));
    await assertSameAsRebuild(root, 'every using a line lower');
    writeFileSync(file, original.replace('    private readonly IPricing', '    private Coupon? _coupon;\n    private LineItem? _item;\n    private readonly IPricing'));
    const other = path.join(root, 'src/Shop.Other/Report.cs');
    writeFileSync(other, `using Shop.Core.Services;\n${readFileSync(other, 'utf8')}`);
    await updateIntel(root, [rel, 'src/Shop.Other/Report.cs']);
    assert.ok(resolvedOf(indexOf(root)[rel], 'Shop.Web.Controllers', 'same-package').includes('file:src/Shop.Core/Models/LineItem.cs'));
    await assertSameAsRebuild(root, 'a used name and another file\'s using');
  });

  it('a type declared in an edited file binds the files that use it: a declaration change re-resolves the project', async () => {
    const root = copyProject('csharp-rules');
    await buildIntel(root);
    const controller = path.join(root, 'src/Shop.Web/Controllers/OrdersController.cs');
    writeFileSync(controller, readFileSync(controller, 'utf8').replace('    private readonly IPricing', '    private Coupon? _coupon;\n    private readonly IPricing'));
    await updateIntel(root, ['src/Shop.Web/Controllers/OrdersController.cs']);
    assert.deepEqual(resolvedOf(indexOf(root)['src/Shop.Web/Controllers/OrdersController.cs'], 'Shop.Web.Controllers'), ['file:src/Shop.Core/Models/Order.cs']);
    const extensions = path.join(root, 'src/Shop.Core/Models/OrderExtensions.cs');
    writeFileSync(extensions, `${readFileSync(extensions, 'utf8')}\npublic class Coupon\n{\n}\n`);
    const report = await updateIntel(root, ['src/Shop.Core/Models/OrderExtensions.cs']);
    assert.ok(report.reresolved.includes('src/Shop.Web/Controllers/OrdersController.cs'));
    assert.deepEqual(resolvedOf(indexOf(root)['src/Shop.Web/Controllers/OrdersController.cs'], 'Shop.Web.Controllers'), ['file:src/Shop.Core/Models/Order.cs', 'file:src/Shop.Core/Models/OrderExtensions.cs']);
    await assertSameAsRebuild(root, 'csharp-rules');
  });

  it('a file edited into a syntax error keeps its statements once each, however many files they reach', async () => {
    const root = tempProject({
      'N/A.cs': 'namespace N;\npublic partial class P {}\n',
      'N/B.cs': 'namespace N;\npublic partial class P {}\n',
      'C.cs': 'using N;\nnamespace M;\nclass C { P p; }\n',
    });
    await buildIntel(root);
    assert.deepEqual(resolvedOf(indexOf(root)['C.cs'], 'N'), ['file:N/A.cs', 'file:N/B.cs'], 'a partial class: one using, two files');
    for (let i = 0; i < 3; i++) {
      writeFileSync(path.join(root, 'C.cs'), `using N;\nnamespace M;\nclass C { P p; ${'{'.repeat(i + 1)}\n`);
      await updateIntel(root, ['C.cs']);
      assert.match(indexOf(root)['C.cs'].syntaxError?.message ?? '', /syntax error/);
      assert.deepEqual(resolvedOf(indexOf(root)['C.cs'], 'N'), ['file:N/A.cs', 'file:N/B.cs']);
    }
  });

  it('usings and namespaces inside #if are read in every branch; a partial type\'s parts reach each other; a call is no type', async () => {
    const root = tempProject({
      'Lib/Models.cs': 'namespace Lib.Models {\n  public class Order {}\n  public class Refund {}\n  public class Send {}\n}\n',
      'Lib/Legacy.cs': 'namespace Lib.Legacy {\n  public class Old {}\n}\n',
      'App/Wrapped.cs': '#if HAVE_LIB\nusing Lib.Models;\n#elif LEGACY\nusing Lib.Legacy;\n#else\nusing System;\n#endif\n\n#if HAVE_LIB || LEGACY\nnamespace App\n{\n    public class Wrapped { Order o; }\n#if LEGACY\n    public class Older { Old x; }\n#endif\n}\n#endif\n',
      'App/Reader.cs': 'namespace App;\npublic partial class Reader { int _pos; }\n',
      'App/Reader.Async.cs': 'using Lib.Models;\nnamespace App;\npublic partial class Reader { void Next() { _pos++; Send(); } void Send() {} }\n',
    });
    await buildIntel(root);
    const files = indexOf(root);
    assert.deepEqual(resolvedOf(files['App/Wrapped.cs'], 'Lib.Models'), ['file:Lib/Models.cs']);
    assert.deepEqual(resolvedOf(files['App/Wrapped.cs'], 'Lib.Legacy'), ['file:Lib/Legacy.cs']);
    assert.deepEqual(files['App/Wrapped.cs'].symbols.filter((s) => s.kind !== 'namespace').map((s) => s.name), ['Wrapped', 'Older']);
    assert.ok(!files['App/Wrapped.cs'].imports.some((i) => i.names.includes('HAVE_LIB')), 'a preprocessor symbol is no type');
    assert.deepEqual(resolvedOf(files['App/Reader.Async.cs'], 'App'), ['file:App/Reader.cs'], 'the other part of the partial class');
    assert.deepEqual(resolvedOf(files['App/Reader.cs'], 'App'), ['file:App/Reader.Async.cs']);
    assert.ok(!files['App/Reader.Async.cs'].imports.find((i) => i.specifier === 'Lib.Models')?.names.includes('Send'), '`Send()` calls a method: not the type Send');
    assert.ok(!resolvedOf(files['App/Reader.Async.cs'], 'Lib.Models').includes('file:Lib/Models.cs'));
  });

  it('a ProjectReference added to a .csproj re-resolves the project', async () => {
    const root = copyProject('csharp-rules');
    await buildIntel(root);
    writeFileSync(path.join(root, 'src/Shop.Other/Shop.Other.csproj'), '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <ProjectReference Include="../Shop.Core/Shop.Core.csproj" />\n  </ItemGroup>\n</Project>\n');
    await updateIntel(root, ['src/Shop.Other/Shop.Other.csproj']);
    assert.deepEqual(resolvedOf(indexOf(root)['src/Shop.Other/Report.cs'], 'Shop.Core.Models'), ['file:src/Shop.Core/Models/Order.cs']);
    await assertSameAsRebuild(root, 'csharp-rules');
  });

  it('declarations and usings inside #if blocks are read, and a class header a directive splits', async () => {
    const root = tempProject({
      'Lib/Async.cs': '#if HAVE_ASYNC\nusing System.Threading.Tasks;\n\nnamespace Lib\n{\n    internal static class AsyncUtils\n    {\n#if NET\n        public static Task Run(this Task t) => t;\n#endif\n    }\n}\n#endif\n',
      'Lib/Reader.cs': 'namespace Lib\n{\n    public partial class Reader\n#if HAVE_DISPOSABLE\n        : System.IDisposable\n#endif\n    {\n    }\n}\n',
      'App/Program.cs': 'namespace App\n{\n#if NET\n    using Lib;\n#endif\n    class Program { Reader r; }\n}\n',
      'App/Ext.cs': 'using Lib;\nnamespace App { class Ext { void F(System.Threading.Tasks.Task t) { t?.Run(); } } }\n',
      'App/Unused.cs': 'using Lib;\nnamespace App { class Unused { void F(object o) { o.ToString(); } } }\n',
    });
    await buildIntel(root);
    const files = indexOf(root);
    assert.deepEqual(files['Lib/Reader.cs'].symbols.filter((s) => s.kind !== 'namespace').map((s) => `${s.namespace}.${s.name}`), ['Lib.Reader']);
    assert.equal(files['Lib/Reader.cs'].syntaxError, null, 'read with the first branch of the #if');
    assert.deepEqual(files['Lib/Async.cs'].symbols.find((s) => s.name === 'AsyncUtils'), { name: 'AsyncUtils', kind: 'class', line: 6, exported: false, namespace: 'Lib', static: true, extensions: ['Run'] });
    assert.deepEqual(resolvedOf(files['App/Program.cs'], 'Lib'), ['file:Lib/Reader.cs']);
    assert.deepEqual(resolvedOf(files['App/Ext.cs'], 'Lib'), ['file:Lib/Async.cs'], 'no type used: the static class whose extension method (in an #if) `t?.Run()` calls');
    assert.deepEqual(resolvedOf(files['App/Unused.cs'], 'Lib'), ['unresolved:Lib: the file uses no type of it and calls none of its extension methods (an unused using?)']);
  });

  it('extension methods bind by the names a file calls: exact for one candidate in scope, inferred among several; a static class whose methods are not called is no edge', async () => {
    const root = tempProject({
      'Util/Strings.cs': 'namespace Lib.Util\n{\n    public static class Strings\n    {\n        public static string FormatWith(this string s, object a) => s;\n        public static string Plain(string s) => s;\n    }\n}\n',
      'Util/Misc.cs': 'namespace Lib.Util\n{\n    public static class Misc\n    {\n        public static bool IsEmpty(this string s) => s.Length == 0;\n    }\n    public class Buffer { }\n}\n',
      'Util/More.cs': 'namespace Lib.More\n{\n    public static class More\n    {\n        public static bool IsEmpty(this object o) => o == null;\n    }\n}\n',
      'Lib/Reader.cs': 'using Lib.Util;\nusing Lib.More;\nnamespace Lib\n{\n    class Reader\n    {\n        Buffer b;\n        string F(string x) => x.FormatWith(1) + x.IsEmpty();\n    }\n}\n',
      'Lib/Util/Own.cs': 'namespace Lib.Util\n{\n    class Own\n    {\n        string G(string x) => x.FormatWith(2);\n    }\n}\n',
      'Lib/Writer.cs': 'using Lib.Util;\nnamespace Lib\n{\n    class Writer\n    {\n        Buffer b;\n    }\n}\n',
    });
    await buildIntel(root);
    const files = indexOf(root);
    assert.deepEqual(resolvedOf(files['Lib/Reader.cs'], 'Lib.Util'), ['file:Util/Misc.cs', 'file:Util/Strings.cs'], 'Buffer (a type: exact) and IsEmpty in Misc.cs; FormatWith (one candidate) in Strings.cs');
    assert.deepEqual(resolvedOf(files['Lib/Reader.cs'], 'Lib.More'), ['file:Util/More.cs (inferred)'], 'IsEmpty is declared in Misc.cs too: either may bind');
    assert.deepEqual(resolvedOf(files['Lib/Util/Own.cs'], 'Lib.Util', 'same-package'), ['file:Util/Strings.cs'], 'its own namespace\'s extension methods, without a using');
    assert.deepEqual(resolvedOf(files['Lib/Writer.cs'], 'Lib.Util'), ['file:Util/Misc.cs'], 'no call of an extension method: no edge to Strings.cs');

    // an extension method removed, then added: the callers are re-resolved
    writeFileSync(path.join(root, 'Util/Strings.cs'), 'namespace Lib.Util\n{\n    public static class Strings\n    {\n        public static string Plain(string s) => s;\n    }\n}\n');
    const removed = await updateIntel(root, ['Util/Strings.cs']);
    assert.ok(removed.reresolved.includes('Lib/Reader.cs'));
    assert.deepEqual(resolvedOf(indexOf(root)['Lib/Reader.cs'], 'Lib.Util'), ['file:Util/Misc.cs']);
    assert.deepEqual(resolvedOf(indexOf(root)['Lib/Util/Own.cs'], 'Lib.Util', 'same-package'), ['builtin:Lib.Util']);
    await assertSameAsRebuild(root, 'an extension method removed');
    writeFileSync(path.join(root, 'Util/More.cs'), 'namespace Lib.More\n{\n    public static class More\n    {\n        public static bool IsEmpty(this object o) => o == null;\n        public static string FormatWith(this string s, object a) => s;\n    }\n}\n');
    await updateIntel(root, ['Util/More.cs']);
    assert.deepEqual(resolvedOf(indexOf(root)['Lib/Reader.cs'], 'Lib.More'), ['file:Util/More.cs'], 'FormatWith now has one candidate: More.cs');
    await assertSameAsRebuild(root, 'an extension method added');
  });

  it('a nested type binds only through its container: a simple name never reaches a type nested in another file\'s type', async () => {
    const root = tempProject({
      'Json/Reader.cs': 'namespace Json\n{\n    public class Reader\n    {\n        protected internal enum State { Start }\n        public class Inner { public class Deeper { } }\n    }\n}\n',
      'Json/Writer.cs': 'namespace Json\n{\n    public class Writer\n    {\n        internal enum State { Start }\n    }\n}\n',
      'Json/TextReader.cs': 'namespace Json\n{\n    public class TextReader : Reader\n    {\n        State s;\n    }\n}\n',
      'Json/Other.cs': 'namespace Json\n{\n    class Other\n    {\n        State s;\n    }\n}\n',
    });
    await buildIntel(root);
    const files = indexOf(root);
    assert.deepEqual(resolvedOf(files['Json/TextReader.cs'], 'Json', 'same-package'), ['file:Json/Reader.cs'], 'Reader (its base), not Writer for Writer.State');
    assert.deepEqual(resolvedOf(files['Json/Other.cs'], 'Json', 'same-package'), ['builtin:Json']);
    assert.deepEqual(files['Json/Reader.cs'].symbols.filter((s) => s.kind !== 'namespace').map((s) => `${s.container ?? ''}/${s.name}`), ['/Reader', 'Reader/State', 'Reader/Inner', 'Reader.Inner/Deeper']);
  });

  it('a name standing as a value (an argument, a value assigned or returned) is a member, not a type: `Color Color`', async () => {
    const root = tempProject({
      'Paint/Color.cs': 'namespace Paint\n{\n    public enum Color { Red }\n    public class Shade { }\n}\n',
      'Paint/Base.cs': 'namespace Paint\n{\n    public class Base { public int Color { get; set; } }\n}\n',
      'Paint/Brush.cs': 'namespace Paint\n{\n    class Brush : Base\n    {\n        int F() { G(Color); var c = Color; return Color; }\n        void G(int c) { }\n    }\n}\n',
      'Paint/Pen.cs': 'namespace Paint\n{\n    class Pen\n    {\n        bool F(object o) => o is Shade || o is Color;\n    }\n}\n',
    });
    await buildIntel(root);
    const files = indexOf(root);
    assert.deepEqual(resolvedOf(files['Paint/Brush.cs'], 'Paint', 'same-package'), ['file:Paint/Base.cs'], 'Color is the inherited property here');
    assert.deepEqual(resolvedOf(files['Paint/Pen.cs'], 'Paint', 'same-package'), ['file:Paint/Color.cs'], 'types in patterns still count');
  });

  it('an alias of a type its own file declares: the others using it reach that file, the file itself no edge to itself, whichever file is resolved first', async () => {
    const files = {
      'Tests/Base.cs': 'using Assert = Tests.XAssert;\nnamespace Tests\n{\n    public class Base { }\n    public class XAssert { }\n}\n',
      'Tests/ATests.cs': 'using Assert = Tests.XAssert;\nnamespace Tests\n{\n    public class ATests : Base { }\n}\n',
      'Tests/Tests.csproj': '<Project Sdk="Microsoft.NET.Sdk"></Project>\n',
    };
    const root = tempProject(files);
    await buildIntel(root);
    const alias = (rel: string) => indexOf(root)[rel].imports.filter((i) => i.specifier === 'Tests.XAssert').map((i) => (i.resolved.kind === 'file' ? `file:${i.resolved.path}` : i.resolved.kind));
    assert.deepEqual(alias('Tests/ATests.cs'), ['file:Tests/Base.cs']);
    assert.deepEqual(alias('Tests/Base.cs'), ['unresolved']);
    // a declaration change in Base.cs resolves it first, then every other file
    writeFileSync(path.join(root, 'Tests/Base.cs'), `${files['Tests/Base.cs']}namespace Added { public class A0 { } }\n`);
    await updateIntel(root, ['Tests/Base.cs']);
    assert.deepEqual(alias('Tests/ATests.cs'), ['file:Tests/Base.cs']);
    assert.deepEqual(alias('Tests/Base.cs'), ['unresolved']);
    await assertSameAsRebuild(root, 'an alias of an own type');
  });

  it('in one process: a kept resolver sees the edited file\'s new names; a type moved to another namespace, a global using and a type removed re-resolve the files using them', async () => {
    const root = tempProject({
      'Core/Core.cs': 'namespace Core\n{\n    public class Money { }\n    public class Price { }\n}\n',
      'Other/Other.cs': 'namespace Other;\npublic class Tax { }\n',
      'App/Usings.cs': 'namespace App;\n',
      'App/App.cs': 'using Core;\nnamespace App;\nclass A { Money m; Tax t; }\n',
    });
    await buildIntel(root);
    const coreNames = (): string[] => indexOf(root)['App/App.cs'].imports.filter((i) => i.specifier === 'Core').map((i) => `${i.resolved.kind === 'file' ? i.resolved.path : i.resolved.kind} ${(i.targetNames ?? i.names).join(',')}`);
    assert.deepEqual(coreNames(), ['Core/Core.cs Money']);
    // a first update makes the resolver the next one keeps (no declaration of App.cs moves)
    writeFileSync(path.join(root, 'App/App.cs'), 'using Core;\nnamespace App;\nclass A { Money m; Tax t; }\n// edited\n');
    await updateIntel(root, ['App/App.cs']);
    writeFileSync(path.join(root, 'App/App.cs'), 'using Core;\nnamespace App;\nclass A { Money m; Price p; Tax t; }\n');
    await updateIntel(root, ['App/App.cs']);
    assert.deepEqual(coreNames(), ['Core/Core.cs Money,Price']);
    await assertSameAsRebuild(root, 'a newly used type');

    writeFileSync(path.join(root, 'Core/Core.cs'), 'namespace Core\n{\n    public class Price { }\n}\nnamespace Other\n{\n    public class Money { }\n}\n');
    await updateIntel(root, ['Core/Core.cs']);
    assert.deepEqual(coreNames(), ['Core/Core.cs Price'], 'Money is no longer in Core');
    await assertSameAsRebuild(root, 'a type moved to another namespace');

    assert.deepEqual(resolvedOf(indexOf(root)['App/App.cs'], 'App', 'same-package'), ['builtin:App']);
    writeFileSync(path.join(root, 'App/Usings.cs'), 'global using Other;\nnamespace App;\n');
    const report = await updateIntel(root, ['App/Usings.cs']);
    assert.ok(report.reresolved.includes('App/App.cs'));
    assert.deepEqual(resolvedOf(indexOf(root)['App/App.cs'], 'App', 'same-package'), ['file:Core/Core.cs', 'file:Other/Other.cs'], 'Money and Tax through the global using');
    await assertSameAsRebuild(root, 'a global using added');

    writeFileSync(path.join(root, 'Other/Other.cs'), 'namespace Other;\n');
    await updateIntel(root, ['Other/Other.cs']);
    assert.deepEqual(resolvedOf(indexOf(root)['App/App.cs'], 'App', 'same-package'), ['file:Core/Core.cs']);
    await assertSameAsRebuild(root, 'a type removed');
  });
});
