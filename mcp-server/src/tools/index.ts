/** Wires every tool into the server. One file per tool, each exporting `registerXTool(server, ctx)`. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../context.js';
import { registerBlastRadiusTool } from './blast-radius.js';
import { registerCodebasePatternsTool } from './codebase-patterns.js';
import { registerDashTool } from './dash.js';
import { registerDiscussTool } from './discuss.js';
import { registerEvolveTool } from './evolve.js';
import { registerFileContextTool } from './file-context.js';
import { registerGuidanceLoadTool } from './guidance-load.js';
import { registerGraphViewTool } from './graph-view.js';
import { registerHotspotsTool } from './hotspots.js';
import { registerPhaseRelevantFilesTool } from './phase-relevant-files.js';
import { registerPhaseStatusTool } from './phase-status.js';
import { registerPlanTool } from './plan.js';
import { registerQueryIntelTool } from './query-intel.js';
import { registerRequirementStatusTool } from './requirement-status.js';
import { registerRouteTool } from './route.js';
import { registerSimilarPastWorkTool } from './similar-past-work.js';
import { registerValidateTool } from './validate.js';
import { registerVerifyArtifactTool } from './verify-artifact.js';
import { registerVerifyBehaviorTool } from './verify-behavior.js';
import { registerVitalsTool } from './vitals.js';
import { registerStateTool } from './state.js';
import { registerLeaseTool } from './lease.js';
import { registerAgentTool } from './agent.js';
import { registerSkillTool } from './skill.js';

export function registerTools(server: McpServer, ctx: ServerContext) {
  return [
    registerRouteTool(server, ctx),
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
    // planning documents and workflow (docs/planning.md)
    registerVitalsTool(server, ctx),
    registerPlanTool(server, ctx),
    registerDiscussTool(server, ctx),
    registerValidateTool(server, ctx),
    registerDashTool(server, ctx),
    registerEvolveTool(server, ctx),
    registerStateTool(server, ctx),
    registerLeaseTool(server, ctx),
    registerAgentTool(server, ctx),
    registerSkillTool(server, ctx),
    registerGuidanceLoadTool(server, ctx),
    registerGraphViewTool(server, ctx),
  ];
}
