/** Public API of the store: atomic files, the intel lock, graph.db and the Markdown pages. Only this folder imports sql.js. */
export { writeFileAtomic, writeFileAtomicSync, stageFile, stageCopy, readFully, writeFully, type AtomicWriteOptions, type StagedFile } from './atomic-write.js';
export { writePagesSync, PageStage } from './page-writer.js';
export { withLock, tryLock, acquireLock, LockTimeoutError } from './lock.js';
export type { LockOptions, LockOwner, LockHandle } from './lock.js';
export { DDL, DDL_STATEMENTS, TABLES, META_KEYS } from './schema.js';
export type { TableName } from './schema.js';
export {
  writeGraphDb,
  stageGraphDb,
  encodeGraphDbWithSqlJs,
  patchGraphDb,
  warmPatchPath,
  openGraphDb,
  readGraphRows,
  verifyGraphDb,
  loadSqlJs,
  sqlWasmPath,
  StoreError,
  CorruptStoreError,
  FormatMismatchError,
} from './sqlite.js';
export type { GraphDb, GraphPatch } from './sqlite.js';
export { encodeGraphFile } from './sqlite-file.js';
export { renderEntity, readEntityPurpose, renderSummary, purposeHash, normalizePurpose, yamlString, LIST_CAP } from './markdown.js';
export type { EntityView, EntityLink, ManualPurpose, SummaryView, SummaryHotspot, Conventions } from './markdown.js';
