import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import path from 'node:path';
import { z } from 'zod';
import { dependencies, dependentCounts, folderConventions } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { cap, cappedSchema, clip } from '../result.js';
import { lookupFile } from '../views.js';
import { defineTool } from './define.js';

export function registerFileContextTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'file_context',
    input: { file: z.string().min(1).max(4096).describe('path or entity id') },
    output: {
      path: z.string().describe('file'),
      id: z.string().describe('entity id (resource gsd://intel/entity/{id})'),
      type: z.string().describe('file type'),
      language: z.string().describe('language'),
      purpose: z.string().describe('what it does'),
      exports: cappedSchema(z.object({ name: z.string().describe('name'), kind: z.string().describe('kind'), line: z.number().describe('line') }), 'exports'),
      dependencies: cappedSchema(z.string(), 'project files it imports'),
      dependents: cappedSchema(z.string(), 'files importing it'),
      dependent_counts: z.object({ direct: z.number().describe('direct'), transitive: z.number().describe('transitive') }).describe('dependent counts'),
      packages: cappedSchema(z.string(), 'external packages'),
      unresolved: cappedSchema(z.string(), 'unresolved imports (specifier: reason)'),
      inferred: cappedSchema(z.string(), 'dependencies and dependents linked only by inferred edges (a best guess, not the language’s rule)'),
      conventions: z
        .object({
          folder: z.string().describe('folder'),
          role: z.string().describe('folder role'),
          files: z.number().describe('files in folder'),
          naming: z.string().describe('file naming'),
          exports: z.string().describe('export style'),
          tests: z.string().describe('tests'),
        })
        .describe('conventions of its folder'),
    },
    async run(project, args) {
      const reader = await project.intel.open();
      const node = lookupFile(project, reader, args.file);
      const d = dependencies(reader, node.id);
      return {
        path: node.path,
        id: node.id,
        type: node.type,
        language: node.language,
        purpose: clip(node.purpose, 400),
        exports: cap(node.exports.map((e) => ({ name: e.name, kind: e.kind, line: e.line }))),
        dependencies: cap(d.dependencies.map((x) => x.path)),
        dependents: cap(d.dependents.map((x) => x.path)),
        dependent_counts: dependentCounts(reader, node.id),
        packages: cap(d.externals.map((x) => x.package)),
        unresolved: cap(d.unresolved.map((u) => `${u.specifier}: ${u.reason}`)),
        inferred: cap([...d.dependencies, ...d.dependents].filter((x) => !x.exact).map((x) => x.path)),
        conventions: folderConventions(reader, path.posix.dirname(node.path)),
      };
    },
  });
}
