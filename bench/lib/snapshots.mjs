// Git snapshots of public repositories at pinned commits: the corpora of the benches that need a project's own
// layout (C/C++, PHP, Ruby, C#). Each lives as a bare clone in `<snapshots>/<owner>+<name>/repo`; the default folder,
// bench/.snapshots (gitignored), is filled on first use with `git clone --bare https://github.com/<owner>/<name>`.
// `--snapshots DIR` points at another folder of the same layout (bare clones or mirrors made beforehand).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { BENCH_DIR, log, mkdirp, rmrf } from './common.mjs';

export const SNAPSHOTS_DIR = path.join(BENCH_DIR, '.snapshots');

/** The `--snapshots` option of a bench that reads snapshots. */
export const SNAPSHOTS_OPTION = { type: 'string', default: SNAPSHOTS_DIR, help: 'folder holding <owner>+<name>/repo git directories (the default one is filled by git clone from GitHub on first use)' };

/** The git directory of `repo` holding `commit`: cloned into the default folder when absent there. */
function gitDirOf(snapshots, repo, commit) {
  const gitDir = path.join(snapshots, repo.replace('/', '+'), 'repo');
  const url = `https://github.com/${repo}`;
  const has = () => {
    try {
      execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (fs.existsSync(gitDir) && has()) return gitDir;
  const how = `git clone --bare ${url} ${gitDir} (or --snapshots DIR, a folder of <owner>+<name>/repo git directories that hold commit ${commit})`;
  if (path.resolve(snapshots) !== SNAPSHOTS_DIR) throw new Error(`${gitDir} ${fs.existsSync(gitDir) ? `has no commit ${commit}` : 'is missing'}: ${how}`);
  try {
    if (!fs.existsSync(gitDir)) {
      log(`snapshots: git clone --bare ${url}`);
      mkdirp(path.dirname(gitDir));
      execFileSync('git', ['clone', '--bare', '--quiet', url, gitDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    }
    if (!has()) execFileSync('git', ['--git-dir', gitDir, 'fetch', '--quiet', 'origin', commit], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    if (!has()) rmrf(path.dirname(gitDir));
    throw new Error(`could not fetch ${repo} at ${commit} into ${gitDir} (${String(error.stderr ?? error.message).trim().split('\n')[0]}): ${how}`);
  }
  return gitDir;
}

/** Exports the files of `repo` at `commit` whose paths match `paths` into `dest` (emptied first); returns `dest`. */
export function exportSnapshot(snapshots, { repo, commit }, paths, dest) {
  const gitDir = gitDirOf(snapshots, repo, commit);
  rmrf(dest);
  mkdirp(dest);
  const list = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', commit], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n').filter((f) => paths.test(f));
  // the blobs one by one through `git cat-file --batch` (`git archive` stops at the first blob a partial mirror lacks,
  // even one outside the paths asked for)
  const out = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: list.map((f) => `${commit}:${f}\n`).join(''), maxBuffer: 1 << 30 });
  let at = 0;
  for (const f of list) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString();
    if (!/ blob \d+$/.test(header)) throw new Error(`${repo} ${commit}:${f}: ${header}`);
    const size = Number(header.split(' ')[2]);
    mkdirp(path.dirname(path.join(dest, f)));
    fs.writeFileSync(path.join(dest, f), out.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return dest;
}
