/** `state`: the project's key-value planning state, addressed by dot paths (engine/src/planning/kv.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { deletePath, getPath, listPaths, setPath } from '../../../engine/src/index.js';
import type { ServerContext } from '../context.js';
import { answer, planning, PLANNING_OUTPUT, stateStore, WRITES_DESTRUCTIVE } from '../planning.js';
import { ToolInputError } from '../result.js';
import { defineTool } from './define.js';

export function registerStateTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'state',
    annotations: WRITES_DESTRUCTIVE,
    input: {
      action: z.enum(['get', 'set', 'list', 'delete']).describe('action'),
      keyPath: z.string().max(4096).optional().describe('dot path'),
      value: z.unknown().optional().describe('JSON'),
    },
    output: PLANNING_OUTPUT,
    run: (project, args) =>
      planning(async () => {
        const store = stateStore(project);
        const need = () => {
          if (!args.keyPath) throw new ToolInputError(`${args.action} needs keyPath`, 'A dot path such as "phase.3.owner".');
          return args.keyPath;
        };
        switch (args.action) {
          case 'get': {
            const keyPath = need();
            const { state, notice } = await store.read();
            const got = getPath(state.kv, keyPath);
            return answer({ keyPath, found: got.found, ...(got.found ? { value: got.value } : {}) }, notice);
          }
          case 'list': {
            const { state, notice } = await store.read();
            const { total, keys } = listPaths(state.kv, args.keyPath || undefined);
            return answer({ ...(args.keyPath ? { keyPath: args.keyPath } : {}), total, truncated: total > keys.length, keys }, notice);
          }
          case 'set': {
            const keyPath = need();
            if (args.value === undefined) throw new ToolInputError('set needs value', 'Any JSON value: a string, number, boolean, null, list or object.');
            const { result, notice } = await store.update((s) => setPath(s.kv, keyPath, args.value));
            return answer({ keyPath, value: result }, notice);
          }
          case 'delete': {
            const keyPath = need();
            const { result, notice } = await store.update((s) => deletePath(s.kv, keyPath));
            return answer({ keyPath, deleted: result }, notice);
          }
        }
      }),
  });
}
