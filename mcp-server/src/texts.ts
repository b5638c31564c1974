/** Every model-facing sentence of the server: tool descriptions, hints, recommendations. Keep them short. */

export const SERVER_INSTRUCTIONS =
  'GSD codebase intelligence and planning state for the current project. Before editing a shared file call blast_radius; ' +
  'to find code call query_intel or phase_relevant_files; for plan state call phase_status and requirement_status. ' +
  'Read-only. Every tool takes an optional root (another checkout or worktree of the project).';

export const ROOT_ARG = 'another project root';

export const TOOL_TEXT = {
  query_intel: {
    title: 'Search the codebase intel',
    description: 'Find files by keywords: ranked by path, exported symbols and purpose, with purpose and dependent counts.',
  },
  blast_radius: {
    title: 'Blast radius of a change',
    description:
      'Files affected by changing a file (or one exported symbol): dependents by depth, affected tests, critical files, risk and a recommendation. Call before editing shared code.',
  },
  hotspots: { title: 'Hotspots', description: 'The most depended-on files: changes there ripple furthest.' },
  graph_view: { title: 'Graph view', description: "Writes an HTML code map for the user (a file's blast radius); returns its path." },
  file_context: {
    title: 'File context',
    description: 'One file: purpose, exports, dependencies, dependents and the conventions of its folder.',
  },
  phase_relevant_files: {
    title: 'Files relevant to a phase',
    description: 'Files that matter for a phase goal (text, or a ROADMAP phase number), ranked, plus files that similar past phases touched.',
  },
  codebase_patterns: {
    title: 'Codebase patterns',
    description: 'Conventions of an area (naming, exports, module system, tests) with 1-3 example files and excerpts.',
  },
  similar_past_work: {
    title: 'Similar past work',
    description: 'Past phases, plans and summaries ranked by similarity to a goal, with decisions, lessons and files touched.',
  },
  verify_artifact: {
    title: 'Verify an artifact exists',
    description: 'Whether a file, export, function, component, endpoint or test exists, and where (file:line).',
  },
  verify_behavior: {
    title: 'Evidence for a behaviour',
    description:
      'Lexical evidence for a behaviour: tests that name it and code that implements it (file:line). Status evidence_found|partial|no_evidence; it never runs tests.',
  },
  requirement_status: {
    title: 'Requirement status',
    description: 'Requirements from REQUIREMENTS.md (e.g. AUTH-03) with checkbox, traceability phase and status, plans and verification.',
  },
  phase_status: {
    title: 'Phase status',
    description: 'Roadmap phases with goal, plans done/total, verification and success criteria; default: the current phase from STATE.md.',
  },
} as const;

export const HINTS = {
  noPlanning: (dir: string) =>
    `No .planning/ folder at or above ${dir}. Start a GSD project with /gsd:new-project, or pass root (a folder holding .planning/).`,
  noIntel: 'No codebase intel yet (.planning/intel/graph.db). Build it with /gsd:analyze-codebase or `get-shit-done-cc intel build`.',
  noProject: 'No .planning/PROJECT.md. Create it with /gsd:new-project.',
  noRequirements: 'No .planning/REQUIREMENTS.md. Create it with /gsd:new-project (it writes REQUIREMENTS.md and ROADMAP.md).',
  noRoadmap: 'No .planning/ROADMAP.md. Create it with /gsd:new-project.',
  noState: 'No .planning/STATE.md; the current phase is unknown. /gsd:new-project creates it.',
  noPhases: 'No .planning/phases/ folders yet. /gsd:plan-phase creates them.',
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
};

export const PROMPT_TEXT = {
  planner: 'Context for a GSD planner agent: phase goal, requirements, relevant files, similar past work.',
  executor: 'Context for a GSD executor agent: the phase plans, files they modify and their blast radius.',
  verifier: 'Context for a GSD verifier agent: must-haves, artifacts and how to gather evidence.',
  phaseArg: 'phase number, e.g. 2 or 2.1',
};
