/** Every model-facing sentence of the server: tool descriptions, hints, recommendations. Keep them short. */

import { installedCommand } from './adapters/assets.js';

export const SERVER_INSTRUCTIONS =
  'GSD codebase intelligence and planning state for this project. Call route first with your question in plain words ' +
  '(who imports X, impact of changing X, explain X, where is X defined, what X imports, hotspots, architecture, ' +
  'conventions of an area, files for phase N, status, similar past work): one call plans and runs the right tools. ' +
  'Call a specific tool when you know the answer you need (blast_radius before editing a shared file, verify_* to check a plan). ' +
  'state, lease, agent, skill, plan and evolve write the planning state under .planning/; the others only read. ' +
  'Every tool takes optional root (another checkout or worktree) and max_tokens (answer budget; cut lists say truncated and total).';

/** `_meta["anthropic/searchHint"]` of each tool: the words Claude Code's tool search should find it by (default: its title) */
export const SEARCH_HINTS: Record<string, string> = {
  route: 'ask any code or plan question',
  query_intel: 'keyword file search',
  blast_radius: 'change impact, dependents',
  hotspots: 'most depended-on files',
  file_context: 'explain a file',
  phase_relevant_files: 'files for a phase',
  codebase_patterns: 'code conventions',
  similar_past_work: 'similar past work',
  verify_artifact: 'does it exist',
  verify_behavior: 'behaviour evidence',
  requirement_status: 'requirement status',
  phase_status: 'phase status',
  vitals: 'project health, command sections',
  plan: 'write a phase plan',
  discuss: 'phase discussion context',
  validate: 'check a plan or doc',
  dash: 'progress dashboard',
  evolve: 'planning refinements',
  state: 'key-value planning state',
  lease: 'file leases, who holds a task',
  agent: 'spawn plan, agent queue',
  skill: 'agent skills',
  guidance_load: 'team guidance, how we plan/test',
  graph_view: 'show the user a code map',
};

export const TOOL_TEXT = {
  route: {
    title: 'Ask a question (call first)',
    description: 'One call answers a question about the code or the GSD plan: it picks and runs the right tools.',
  },
  query_intel: {
    title: 'Search the codebase intel',
    description: 'Files ranked for keywords (path, exports, purpose), with purpose and dependent counts.',
  },
  blast_radius: {
    title: 'Blast radius of a change',
    description: 'Files affected by changing a file or one export: dependents by depth, tests, risk, recommendation.',
  },
  hotspots: { title: 'Hotspots', description: 'The most depended-on files.' },
  graph_view: { title: 'Graph view', description: "Writes an HTML code map for the user (a file's blast radius); returns its path." },
  file_context: {
    title: 'File context',
    description: 'One file: purpose, exports, dependencies, dependents, folder conventions.',
  },
  phase_relevant_files: {
    title: 'Files relevant to a phase',
    description: 'Files that matter for a phase goal or ROADMAP phase, and files similar past phases touched.',
  },
  codebase_patterns: {
    title: 'Codebase patterns',
    description: 'Conventions of an area (naming, exports, modules, tests) with example excerpts.',
  },
  similar_past_work: {
    title: 'Similar past work',
    description: 'Past phases, plans and summaries like a goal, with decisions, lessons and files.',
  },
  verify_artifact: {
    title: 'Verify an artifact exists',
    description: 'Whether a file, definition, export, function, component, endpoint or test exists, and where.',
  },
  verify_behavior: {
    title: 'Evidence for a behaviour',
    description: 'Tests and code naming a behaviour (file:line): evidence_found|partial|no_evidence; runs nothing.',
  },
  requirement_status: {
    title: 'Requirement status',
    description: 'REQUIREMENTS.md ids with state, checkbox, traceability, plans, verification.',
  },
  phase_status: {
    title: 'Phase status',
    description: 'ROADMAP phases: goal, plans done, verification, success criteria; default: current phase.',
  },
  vitals: { title: 'Vitals', description: 'Health, current phase, active leases; with command, its command file\'s sections.' },
  plan: { title: 'Plan', description: 'Writes a phase\'s NN-01-PLAN.md from the template, roadmap and intel. Never overwrites unless overwrite.' },
  discuss: { title: 'Discuss', description: 'Goal, requirements, open questions, decisions so far and relevant files of a phase.' },
  validate: { title: 'Validate', description: 'What a plan, PROJECT.md or REQUIREMENTS.md lacks against its template.' },
  dash: { title: 'Dashboard', description: 'Phase, progress, requirements, leases, spawn queue, skills, intel freshness.' },
  evolve: { title: 'Evolve', description: 'detect: refinement candidates; apply: one, with a rollback; rollback: undo; report: applied ones.' },
  state: { title: 'Planning state', description: 'Key-value state by dot path.\nget|list|delete keyPath\nset keyPath value' },
  lease: {
    title: 'Leases',
    description: 'Timed leases on files; overlap refused.\nissue taskId scope\nrenew|return leaseId\nlist',
  },
  agent: {
    title: 'Spawn rules',
    description: 'Agents to spawn per intent.\nrules\nset_rule intent rule\nplan|enqueue intent options\nqueue status\ncomplete spawnId completionStatus\nhistory limit',
  },
  skill: { title: 'Skills', description: 'Skill registry.\nlist\nregister skillId title\nbind|unbind skillId agentId\nrecommend intent options' },
  guidance_load: {
    title: 'Guidance',
    description: 'Team guidance for a task by focus level; query "1,3" loads listed matches.',
  },
} as const;

/** Hints naming our commands as they are installed (`/gsd:new-project`, or `/gsdcc:new-project` beside upstream GSD). */
export const HINTS = {
  noPlanning: (dir: string) =>
    `No .planning/ folder at or above ${dir}. Start a GSD project with ${installedCommand('new-project')}, or pass root (a folder holding .planning/).`,
  get noIntel() {
    return `No codebase intel yet (.planning/intel/graph.db). Build it with ${installedCommand('analyze-codebase')} or \`get-shit-done-cc intel build\`.`;
  },
  get noProject() {
    return `No .planning/PROJECT.md. Create it with ${installedCommand('new-project')}.`;
  },
  get noRequirements() {
    return `No .planning/REQUIREMENTS.md. Create it with ${installedCommand('new-project')} (it writes REQUIREMENTS.md and ROADMAP.md).`;
  },
  get noRoadmap() {
    return `No .planning/ROADMAP.md. Create it with ${installedCommand('new-project')}.`;
  },
  get noState() {
    return `No .planning/STATE.md; the current phase is unknown. ${installedCommand('new-project')} creates it.`;
  },
  get noPhases() {
    return `No .planning/phases/ folders yet. ${installedCommand('plan-phase')} creates them.`;
  },
  unknownFile: 'Pass a path relative to the project root (see query_intel) or an entity id.',
};

export const RECOMMENDATIONS: Record<string, string> = {
  any: 'Review the direct dependents first; run the affected tests after the change.',
  signature_change: 'Update every direct dependent that calls the changed signature, keep the old one as an overload if many depend on it, then run the affected tests.',
  behavior_change: 'Callers compile unchanged but may rely on the old behaviour: read the direct dependents and run the affected tests.',
  deletion: 'Every direct dependent breaks: move or replace each import first, then delete; run the affected tests.',
};

export const RISK_TEXT = {
  none: 'Nothing depends on it in the import graph and it is a test/script: no ripple expected.',
  unknown:
    'No dependents found in the import graph. Code can still reach it dynamically (string paths, other languages, runtime config): check by hand before assuming it is safe.',
};

export const RESOURCE_TEXT = {
  vision: 'Project vision and core value (PROJECT.md)',
  pending: 'Requirements not yet complete (REQUIREMENTS.md)',
  decisions: 'Key decisions (PROJECT.md and phase summaries)',
  summary: 'Codebase intel summary: size, hotspots, entry points, conventions',
  hotspots: 'Most depended-on files (JSON)',
  conventions: 'Codebase conventions (from the intel summary)',
  entity: 'Intel page of one file: purpose, exports, dependencies, used by',
  command: 'A GSD command file (the workflow step it runs)',
  agent: 'A gsd-* agent prompt',
  phase: 'A phase: goal, success criteria, plans, summaries and verification',
  skill: 'A registered skill and the agents carrying it',
  spawnRule: "An intent's spawn rule and its ordered plan",
};

export const PROMPT_TEXT = {
  planner: 'Context for a GSD planner agent: phase goal, requirements, relevant files, similar past work.',
  executor: 'Context for a GSD executor agent: the phase plans, files they modify and their blast radius.',
  verifier: 'Context for a GSD verifier agent: must-haves, artifacts and how to gather evidence.',
  phaseArg: 'phase number, e.g. 2 or 2.1',
};
