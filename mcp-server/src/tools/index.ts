/** Wires every tool into the server. One file per tool, each exporting `registerXTool(server, ctx)`. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../context.js';
import { registerBlastRadiusTool } from './blast-radius.js';
import { registerCodebasePatternsTool } from './codebase-patterns.js';
import { registerFileContextTool } from './file-context.js';
import { registerGraphViewTool } from './graph-view.js';
import { registerHotspotsTool } from './hotspots.js';
import { registerPhaseRelevantFilesTool } from './phase-relevant-files.js';
import { registerPhaseStatusTool } from './phase-status.js';
import { registerQueryIntelTool } from './query-intel.js';
import { registerRequirementStatusTool } from './requirement-status.js';
import { registerSimilarPastWorkTool } from './similar-past-work.js';
import { registerVerifyArtifactTool } from './verify-artifact.js';
import { registerVerifyBehaviorTool } from './verify-behavior.js';

export function registerTools(server: McpServer, ctx: ServerContext) {
  return [
    registerQueryIntelTool(server, ctx),
    registerBlastRadiusTool(server, ctx),
    registerHotspotsTool(server, ctx),
    registerFileContextTool(server, ctx),
    registerPhaseRelevantFilesTool(server, ctx),
    registerCodebasePatternsTool(server, ctx),
    registerSimilarPastWorkTool(server, ctx),
    registerVerifyArtifactTool(server, ctx),
    registerVerifyBehaviorTool(server, ctx),
    registerRequirementStatusTool(server, ctx),
    registerPhaseStatusTool(server, ctx),
    registerGraphViewTool(server, ctx),
  ];
}
