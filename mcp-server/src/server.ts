/** The MCP server, independent of its transport: `buildServer(ctx)` registers every tool, resource and prompt. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_VERSION } from '../../engine/src/index.js';
import { fileUriToPath, ServerContext } from './context.js';
import { registerPlanningResources } from './planning-resources.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { SERVER_INSTRUCTIONS } from './texts.js';
import { publishToolList } from './tool-list.js';
import { registerTools } from './tools/index.js';
import { registerWorkflowResources } from './workflow-resources.js';

export const SERVER_NAME = 'gsd';

export function buildServer(ctx: ServerContext = new ServerContext()): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: TOOL_VERSION }, { capabilities: { logging: {} }, instructions: SERVER_INSTRUCTIONS });
  ctx.listRoots ??= async () => {
    if (!server.server.getClientCapabilities()?.roots) return [];
    await ctx.clientReachable;
    const { roots } = await server.server.listRoots();
    return roots.map((r) => fileUriToPath(r.uri)).filter((p): p is string => p !== null);
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => ctx.rootsChanged());
  registerTools(server, ctx);
  publishToolList(server, ctx.tools);
  registerResources(server, ctx);
  registerPlanningResources(server, ctx);
  registerWorkflowResources(server, ctx);
  registerPrompts(server, ctx);
  // hide the tools the session project turned off (calls are refused per project in any case)
  server.server.oninitialized = () => {
    ctx
      .project()
      .then((p) => {
        const { disabledTools, allowedTools } = p.config();
        for (const [name, tool] of ctx.tools) if (disabledTools.includes(name) || (allowedTools && !allowedTools.includes(name))) tool.disable();
      })
      .catch(() => undefined);
  };
  return server;
}
