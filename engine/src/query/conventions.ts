import path from 'node:path';
import { baseStem } from '../graph/classify.js';
import { bump, dominant, exportStyleOf, folderRole, namingStyle } from '../graph/conventions.js';
import { LANGUAGES } from '../languages/registry.js';
import type { IntelReader } from './reader.js';

export interface FolderConventions {
  folder: string;
  /** from the folder's name, else from what most files at or below it are (the rule summary.md uses) */
  role: string;
  /** files directly in the folder */
  files: number;
  /** dominant file naming and export style of those files, with their share, or 'unknown' */
  naming: string;
  exports: string;
  tests: string;
  /** the languages of those files, most files first, each with the file naming its own guide asks for: `Python 3 (guide: snake_case)` */
  languages: string;
}

const LANGUAGE_BY_ID = new Map(LANGUAGES.map((l) => [l.id, l]));

function languagesOf(counts: Map<string, number>): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([id, n]) => {
      const l = LANGUAGE_BY_ID.get(id);
      return `${l?.name ?? id} ${n}${l?.namingConvention ? ` (guide: ${l.namingConvention})` : ''}`;
    })
    .join(', ');
}

const withShare = (counts: Map<string, number>): string => {
  const d = dominant(counts, 'unknown');
  return d.share ? `${d.style} (${Math.round(d.share * 100)}%)` : 'unknown';
};

/** The conventions of one folder (root-relative, '.' for the root), by the rules of summary.md's project conventions. */
export function folderConventions(reader: IntelReader, folder: string): FolderConventions {
  return reader.memo(`conventions:${folder}`, () => {
    const counts = { files: 0, tests: 0, types: 0 };
    const naming = new Map<string, number>();
    const exportStyles = new Map<string, number>();
    const languages = new Map<string, number>();
    let files = 0;
    let tests = 0;
    for (const n of reader.nodes.values()) {
      if (folder !== '.' && !n.path.startsWith(`${folder}/`)) continue;
      counts.files++;
      if (n.type === 'test') counts.tests++;
      if (n.type === 'types') counts.types++;
      if (path.posix.dirname(n.path) !== folder) continue;
      files++;
      bump(languages, n.language);
      if (n.type === 'test') tests++;
      const style = n.type === 'config' ? null : namingStyle(baseStem(n.path));
      if (style) bump(naming, style);
      const exportStyle = exportStyleOf(n.exports);
      if (exportStyle) bump(exportStyles, exportStyle);
    }
    return {
      folder,
      role: counts.files ? folderRole(folder, counts) : 'unknown',
      files,
      naming: withShare(naming),
      exports: withShare(exportStyles),
      tests: tests ? `${tests} test file(s) here` : 'tests live elsewhere',
      languages: languagesOf(languages),
    };
  });
}
