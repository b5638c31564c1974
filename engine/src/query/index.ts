export { openIntel, IntelReader, UnknownFileError, type NodeInfo, type EdgeInfo } from './reader.js';
export { blastRadius, type BlastRadius, type AffectedFile } from './blast-radius.js';
export { hotspots, dependentCounts } from './hotspots.js';
export { entryPoints } from './entry-points.js';
export { folderConventions, type FolderConventions } from './conventions.js';
export { searchIntel, queryTerms, type SearchHit, type SearchResult } from './search.js';
export { dependencies, type Dependencies } from './dependencies.js';
export { importPath, type ImportPath } from './import-path.js';
export { definitions, type Definition, type DefinitionHow } from './definitions.js';
