/**
 * PHP, Ruby and C# through the built MCP server over stdio with the SDK's real Client: file_context says which of a
 * file's links are inferred (a best guess, not the language's rule), as graph.db's edges have them, and `route`
 * finds their definitions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dependencies } from '../../engine/src/index.js';
import { fixtureServer } from '../helpers/mcp.js';

type Answer = Record<string, any>;

const inferredOf = (d: ReturnType<typeof dependencies>) => [...d.dependencies, ...d.dependents].filter((x) => !x.exact).map((x) => x.path);

describe('mcp server: PHP', () => {
  const f = fixtureServer('php-rules');

  it('file_context marks the class found only by its declaration as inferred, the autoloaded ones exact', async () => {
    const fc = await f.s.ok<Answer>('file_context', { file: 'src/Http/Controller.php' });
    assert.equal(fc.language, 'php');
    assert.equal(fc.purpose, 'Serves the shop\'s pages.');
    assert.deepEqual(fc.inferred.items, ['plugins/Extra/Widget.php']);
    assert.deepEqual(fc.inferred.items, inferredOf(dependencies(f.reader, 'src/Http/Controller.php')));
    assert.ok(fc.dependencies.items.includes('src/Models/User.php'));
  });

  it('route finds where a PHP enum is defined', async () => {
    const a = await f.s.ok<Answer>('route', { query: 'where is Role defined?' });
    const locations = a.results.find((r: Answer) => r.id === 'answer').data.locations;
    assert.ok(locations.some((l: Answer) => l.path === 'src/Models/User.php' && l.line === 19), JSON.stringify(locations));
  });
});

describe('mcp server: Ruby', () => {
  const f = fixtureServer('ruby-rules');

  it('file_context: the constants Rails would autoload are inferred, require_relative exact', async () => {
    const fc = await f.s.ok<Answer>('file_context', { file: 'shop/app/models/user.rb' });
    assert.equal(fc.language, 'ruby');
    assert.deepEqual(fc.inferred.items.sort(), ['shop/app/controllers/admin/users_controller.rb', 'shop/app/models/application_record.rb', 'shop/app/models/concerns/trackable.rb']);
    assert.deepEqual(fc.inferred.items.sort(), inferredOf(dependencies(f.reader, 'shop/app/models/user.rb')).sort());
    const lib = await f.s.ok<Answer>('file_context', { file: 'lib/widget/version.rb' });
    assert.deepEqual(lib.dependents.items, ['lib/widget.rb']);
    assert.deepEqual(lib.inferred.items, []);
  });
});

describe('mcp server: C#', () => {
  const f = fixtureServer('csharp-rules');

  it('file_context: a using bound to the types used is exact, an extension method of a name two classes in scope declare is inferred', async () => {
    const fc = await f.s.ok<Answer>('file_context', { file: 'src/Shop.Web/Extensions/Totals.cs' });
    assert.equal(fc.language, 'csharp');
    assert.deepEqual(fc.inferred.items, ['src/Shop.Core/Models/OrderExtensions.cs']);
    const pricing = await f.s.ok<Answer>('file_context', { file: 'src/Shop.Core/Services/Pricing.cs' });
    assert.deepEqual(pricing.inferred.items, []);
    assert.equal(pricing.purpose, 'Prices orders.');
  });
});
