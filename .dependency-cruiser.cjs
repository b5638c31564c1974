/**
 * The module boundaries of get-shit-done-cc, checked by `npm run lint:deps` (part of `npm test`).
 * See ARCHITECTURE.md for the pipeline these rules protect.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Stages depend one way; a cycle means two modules should be one, or a type belongs in types.ts.',
      from: { path: '^(engine|installer|hooks|mcp-server)/src' },
      to: { circular: true, viaOnly: { pathNot: '^engine/src/types\\.ts$' } },
    },
    {
      name: 'adapters-use-engine-entry-only',
      severity: 'error',
      comment:
        'The CLI, hooks and MCP server are thin adapters: they import the engine only through engine/src/index.ts, ' +
        'or through the light modules a hook process may load without the engine (journal.ts, root.ts, process-alive.ts, worker-role.ts, planning/lease-check.ts: node built-ins only).',
      from: { path: '^(installer|hooks|mcp-server)/src' },
      to: { path: '^engine/src/', pathNot: '^engine/src/(index|version|journal|root|process-alive|worker-role|planning/lease-check)\\.ts$' },
    },
    {
      name: 'engine-stays-below-adapters',
      severity: 'error',
      from: { path: '^engine/src' },
      to: { path: '^(installer|hooks|mcp-server)/' },
    },
    {
      name: 'hooks-never-load-the-mcp-sdk',
      severity: 'error',
      from: { path: '^(hooks|engine)/src' },
      to: { path: '@modelcontextprotocol|node_modules/zod/' },
    },
    {
      name: 'only-store-touches-sqljs',
      severity: 'error',
      from: { path: '^(engine|installer|hooks|mcp-server)/src', pathNot: '^engine/src/store/' },
      to: { path: 'node_modules/sql\\.js/' },
    },
    {
      name: 'only-parse-touches-babel',
      severity: 'error',
      from: { path: '^(engine|installer|hooks|mcp-server)/src', pathNot: '^engine/src/parse/' },
      to: { path: 'node_modules/@babel/' },
    },
    {
      name: 'only-scan-globs',
      severity: 'error',
      from: { path: '^(engine|installer|hooks|mcp-server)/src', pathNot: '^engine/src/(scan|planning)/' },
      to: { path: 'node_modules/(picomatch|ignore)/' },
    },
    {
      name: 'lease-check-built-ins-only',
      severity: 'error',
      comment: 'The PostToolUse hook loads planning/lease-check.ts: node built-ins only, like journal.ts and root.ts.',
      from: { path: '^engine/src/planning/lease-check\\.ts$' },
      to: { dependencyTypesNot: ['core'] },
    },
    {
      name: 'planning-globs-with-picomatch-only',
      severity: 'error',
      comment: 'The planning domain matches lease scopes with picomatch (the same glob semantics as the scan), nothing else.',
      from: { path: '^engine/src/planning/' },
      to: { path: 'node_modules/ignore/' },
    },
    {
      name: 'parse-does-not-know-the-store',
      severity: 'error',
      from: { path: '^engine/src/parse/' },
      to: { path: '^engine/src/(store|graph|pipeline|query)/' },
    },
    {
      name: 'query-reads-only',
      severity: 'error',
      comment: 'Queries read graph.db; they never run the pipeline.',
      from: { path: '^engine/src/query/' },
      to: { path: '^engine/src/(pipeline|parse|scan)/' },
    },
    {
      name: 'view-reads-through-query',
      severity: 'error',
      comment: 'The graph page is a report over the query layer: it reads graph.db through IntelReader and never re-derives the graph.',
      from: { path: '^engine/src/view/' },
      to: { path: '^engine/src/(pipeline|parse|scan|resolve|graph)/|^engine/src/store/(?!atomic-write)' },
    },
    {
      name: 'stdio-shim-stays-light',
      severity: 'error',
      comment:
        'Every Claude Code session runs a stdio shim (docs/shared-server.md): it relays to the daemon with node built-ins ' +
        'only (no MCP SDK, zod or fetch); the in-process server is a dynamic import, loaded only for the fallback.',
      from: { path: '^mcp-server/src/daemon/(shim|shim-main|link|handshake|home|info)\\.ts$' },
      to: {
        pathNot: '^(mcp-server/src/(daemon/(shim|link|handshake|home|info)|log)|engine/src/process-alive)\\.ts$',
        dependencyTypesNot: ['core', 'type-only', 'dynamic-import'],
      },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A source module that imports nothing and that nothing imports is dead code (two generated WebAssembly modules ' +
        'outlived the AssemblyScript ports they served this way): delete it, or import it where it is used.',
      from: { orphan: true, path: '^(engine|installer|hooks|mcp-server)/src', pathNot: '\\.d\\.ts$' },
      to: {},
    },
    {
      name: 'src-never-imports-tests',
      severity: 'error',
      from: { path: '^(engine|installer|hooks|mcp-server)/src' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    exclude: { path: '^(dist|test/fixtures|bench/\\.)' },
  },
};
