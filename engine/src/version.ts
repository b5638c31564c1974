/** Bumped whenever the shape of index.json or graph.db changes: a different version means rebuild, never migrate. */
export const STORE_FORMAT_VERSION = 4;

/** The package version, written into every artefact so that all parts of one install can be checked against each other. */
export const TOOL_VERSION = '0.1.0';
