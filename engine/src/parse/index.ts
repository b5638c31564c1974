/** The parse stage: read a source file and extract its imports, exports, symbols and doc comment. */
export { parseSource } from './parse-source.js';
export { loadFile, type LoadFileOptions } from './load-file.js';
export { createParsePool, type ParsePool, type ParsePoolOptions, type ParsePoolStats } from './pool.js';
