// One-file edits of a language's most depended-on file against zod's, in one process: the engine's own time of each
// `updateIntel` (UpdateReport.engineMs), interleaved, medians; the first edit of each is a warm-up.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, WORK_DIR, rmrf } from './common.mjs';
import { corpusDir, ensureCorpus, getCorpus } from '../corpora.mjs';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * `language`: { name, tree, own(path) → true for the language's files, comment(i) → a line to append }. The JS/TS
 * side is a copy of zod in `workDir`. Returns { [name]: { file, direct, medianMs }, 'js/ts': { … } }.
 */
export async function editPath(language, edits, workDir) {
  const engine = await import(path.join(ROOT, 'dist', 'engine', 'src', 'index.js'));
  const zod = getCorpus('zod');
  ensureCorpus(zod);
  const jsTree = path.join(workDir ?? WORK_DIR, 'zod');
  rmrf(jsTree);
  fs.cpSync(corpusDir('zod'), jsTree, { recursive: true, filter: (f) => !f.includes(`${path.sep}.planning`) && !f.includes(`${path.sep}.codegraph`) });
  const sides = [
    language,
    { name: 'js/ts', tree: jsTree, own: (p) => /\.[cm]?tsx?$/.test(p) && !/\.d\.[cm]?ts$/.test(p), comment: (i) => `\n// bench ${i}\n` },
  ];
  const picked = {};
  for (const side of sides) {
    await engine.buildIntel(side.tree, { cache: false });
    const reader = await engine.openIntel(side.tree);
    const top = engine.hotspots(reader, { limit: 100000 }).hotspots.filter((h) => side.own(h.path)).sort((a, b) => b.direct - a.direct || (a.path < b.path ? -1 : 1))[0];
    reader.close();
    picked[side.name] = { file: top.path, direct: top.direct, times: [] };
  }
  for (let i = 0; i <= edits; i++) {
    for (const side of sides) {
      fs.appendFileSync(path.join(side.tree, picked[side.name].file), side.comment(i));
      const r = await engine.updateIntel(side.tree, [picked[side.name].file]);
      if (i > 0) picked[side.name].times.push(r.engineMs);
    }
  }
  return Object.fromEntries(Object.entries(picked).map(([name, p]) => [name, { file: p.file, direct: p.direct, medianMs: median(p.times) }]));
}
