/**
 * `vitals`: the project's health (documents, intel, planning state), its current phase, the active lease count and,
 * for a `/gsd:` command, the sections of its command file (adapters/command-doc.ts). When no command folder can be
 * found (adapters/assets.ts), the sections are synthesised from the current phase and marked `synthetic: true`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import path from 'node:path';
import { z } from 'zod';
import { activeLeases } from '../../../engine/src/index.js';
import { assetDirs, assetId, installedCommand, listAssetIds, readAsset } from '../adapters/assets.js';
import { parseCommandDoc, type CommandSections } from '../adapters/command-doc.js';
import type { Project, ServerContext } from '../context.js';
import { currentPhase, intelFreshness, missingDocuments, roadmapOrEmpty, stateOrProblem } from '../planning-views.js';
import { ToolInputError } from '../result.js';
import { defineTool } from './define.js';

const list = (what: string) => z.array(z.string()).describe(what);

function synthetic(project: Project, id: string): CommandSections {
  const phases = roadmapOrEmpty(project);
  const cur = currentPhase(project, phases);
  const p = phases.find((x) => x.number === cur.number);
  return {
    objective: `${installedCommand(id)}${p ? ` for phase ${p.number} (${p.name})${p.goal ? `: ${p.goal}` : ''}` : ''}`,
    context: ['PROJECT.md', 'REQUIREMENTS.md', 'ROADMAP.md', 'STATE.md'].filter((d) => !missingDocuments(project).includes(d as never)).map((d) => `.planning/${d}`),
    process: [],
    constraints: [],
    tasks: p ? p.requirements : [],
    success: p ? p.successCriteria : [],
  };
}

export function registerVitalsTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'vitals',
    input: { command: z.string().max(80).optional().describe('one of our commands, e.g. plan-phase') },
    output: {
      problems: list('what is wrong; empty = healthy'),
      phase: z.object({ number: z.string().nullable().describe('number'), name: z.string().describe('name'), source: z.string().describe('state|roadmap|none') }).describe('current phase'),
      leases: z.number().describe('active leases'),
      command: z
        .object({
          id: z.string().describe('command'),
          file: z.string().nullable().describe('command file'),
          description: z.string().describe('description'),
          synthetic: z.boolean().describe('true: no command file, sections synthesised'),
          sections: z.object({ objective: z.string().describe('objective'), context: list('context'), process: list('steps'), constraints: list('constraints'), tasks: list('tasks'), success: list('success checks') }).describe('parsed sections'),
        })
        .nullable()
        .describe('the command, or null'),
    },
    async run(project, args) {
      const problems: string[] = missingDocuments(project).map((d) => `.planning/${d} is missing`);
      const intel = await intelFreshness(project);
      if (!intel.present) problems.push('no codebase intel (.planning/intel/graph.db): run get-shit-done-cc intel build');
      else if (intel.problem) problems.push(`intel update failed: ${intel.problem}`);
      else if (intel.pending) problems.push('edits are waiting in the intel journal');
      const { state, problem } = await stateOrProblem(project);
      if (problem) problems.push(problem);
      const leases = activeLeases(state, Date.now()).length;
      let command = null;
      if (args.command !== undefined) {
        const id = assetId(args.command);
        if (!id) throw new ToolInputError(`"${args.command.slice(0, 40)}" is not a command name`, `Pass one of our commands, such as ${installedCommand('plan-phase')}.`);
        const dirs = assetDirs();
        const text = readAsset(dirs.commands, id);
        if (text !== null) {
          const doc = parseCommandDoc(text);
          command = { id, file: path.join(dirs.commands!, `${id}.md`), description: doc.description, synthetic: false, sections: doc.sections };
        } else if (dirs.commands) {
          throw new ToolInputError(`no ${installedCommand(id)} command`, `Commands: ${listAssetIds(dirs.commands).join(', ')}.`);
        } else {
          problems.push(`no commands/gsd/ folder found above ${dirs.searched[0] ?? 'the server'}`);
          command = { id, file: null, description: '', synthetic: true, sections: synthetic(project, id) };
        }
      }
      return { problems, phase: currentPhase(project), leases, command };
    },
  });
}
