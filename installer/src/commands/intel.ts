import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  blastRadius,
  buildIntel,
  carryStatusFacts,
  dependencies,
  drainJournal,
  findProjectRoot,
  hotspots,
  importPath,
  intelPaths,
  intelStatus,
  openIntel,
  searchIntel,
  UnknownFileError,
  writeGraphView,
  type IntelReader,
} from '../../../engine/src/index.js';
import { checkFlags, intFlag, parseArgs, stringFlag, type ParsedArgs } from '../args.js';
import { ProblemError, UsageError } from '../errors.js';
import * as fmt from '../format.js';
import { createProgress } from '../progress.js';

export const INTEL_HELP = `Usage:
  get-shit-done-cc intel build [dir] [--no-cache] [--json]
  get-shit-done-cc intel status [dir] [--json]
  get-shit-done-cc intel query blast-radius <file|id> [--symbol NAME] [--depth N] [--json]
  get-shit-done-cc intel query hotspots [--limit N] [--json]
  get-shit-done-cc intel query search <words…> [--limit N] [--type source|test|types|config|script] [--json]
  get-shit-done-cc intel query deps <file|id> [--json]
  get-shit-done-cc intel query path <from> <to> [--json]
  get-shit-done-cc intel view [file] [--out PATH] [--open] [--json]

build    scans the source files of dir (default: the current folder; JS/TS, Python …), parses and resolves their
         imports and writes .planning/intel/ (index.json, graph.db, entities/*.md, summary.md). Reuses the facts of
         unchanged files unless --no-cache.
status   what is indexed, when, and what changed on disk since.
query    answers from .planning/intel/graph.db, after applying the edits the Claude Code hooks recorded. The project
         is the nearest folder with .planning/ above the current folder, or --root DIR. Files are given as paths
         (relative to the root or the current folder) or entity ids.
view     writes one self-contained HTML page (no network needed) with the module graph by folder, hotspots sized by
         their transitive dependents, search by path or exported symbol, and the blast radius of the given or clicked
         file. Default --out: .planning/intel/graph-view.html. --open opens it in your browser when one is available.

Exit codes: 0 ok, 1 the query found a problem (unknown file, no intel yet), 2 usage or internal error.`;

const BOOLEANS = new Set(['json', 'no-cache', 'help', 'open']);

function print(args: ParsedArgs, json: unknown, human: () => string): void {
  process.stdout.write(args.flags.has('json') ? `${JSON.stringify(json, null, 2)}\n` : `${human()}\n`);
}

async function build(args: ParsedArgs): Promise<number> {
  checkFlags(args, ['json', 'no-cache', 'help']);
  if (args.positional.length > 1) throw new UsageError('intel build takes at most one folder');
  const root = path.resolve(args.positional[0] ?? '.');
  if (!existsSync(root)) throw new ProblemError(`no such folder: ${root}`);
  const progress = createProgress();
  let report;
  try {
    report = await buildIntel(root, {
      cache: !args.flags.has('no-cache'),
      onProgress: (phase, done, total) => progress.update(phase, done, total),
    });
  } catch (error) {
    progress.done();
    // the artefacts could not be written (a full disk): nothing was replaced
    if ((error as Error)?.name === 'BuildWriteError') throw new ProblemError((error as Error).message, 'free some disk space and run `intel build` again');
    throw error;
  }
  progress.done();
  print(args, report, () => fmt.buildReport(report, intelPaths(root).dir));
  return 0;
}

async function status(args: ParsedArgs): Promise<number> {
  checkFlags(args, ['json', 'help', 'root']);
  const root = path.resolve(args.positional[0] ?? stringFlag(args, 'root') ?? findProjectRoot(process.cwd()) ?? '.');
  if (existsSync(intelPaths(root).index)) {
    await catchUp(root);
    await carryStatusFacts(root); // what the drain changed, carried into index-facts.bin rather than split again
  }
  const s = await intelStatus(root, { ownsProcess: true });
  print(args, s, () => fmt.status(s));
  return s.state === 'fresh' || s.state === 'stale' ? 0 : 1;
}

/**
 * The freshness contract: edits the hooks recorded in the capture journal are applied before any answer. A drain that
 * fails (e.g. the lock stays busy) does not stop the query: it answers from the intel as it is, and says so.
 */
async function catchUp(root: string): Promise<void> {
  try {
    await drainJournal(root);
  } catch (error) {
    process.stderr.write(`warning: pending updates from the hooks could not be applied (${(error as Error).message}); answering from the intel as it is\n`);
  }
}

async function projectRoot(args: ParsedArgs): Promise<string> {
  const given = stringFlag(args, 'root');
  const root = given ? path.resolve(given) : findProjectRoot(process.cwd());
  if (root && existsSync(intelPaths(root).planning)) await catchUp(root);
  if (!root || !existsSync(intelPaths(root).graph)) {
    throw new ProblemError(
      `no codebase intelligence found${root ? ` in ${intelPaths(root).dir}` : ' (no .planning/ folder above the current one)'}`,
      'build it first: get-shit-done-cc intel build <dir>',
    );
  }
  return root;
}

/** Files on the command line are relative to the current folder (as a shell user types them) or to the root. */
function fileArg(root: string, value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  const fromCwd = path.resolve(process.cwd(), value);
  return existsSync(fromCwd) && !path.relative(root, fromCwd).startsWith('..') ? fromCwd : value;
}

async function query(args: ParsedArgs): Promise<number> {
  const [name, ...rest] = args.positional;
  const allowed: Record<string, string[]> = {
    'blast-radius': ['symbol', 'depth'],
    hotspots: ['limit'],
    search: ['limit', 'type'],
    deps: [],
    path: [],
  };
  if (!name || !(name in allowed)) throw new UsageError(`intel query needs one of: ${Object.keys(allowed).join(', ')}`);
  checkFlags(args, ['json', 'root', 'help', ...allowed[name]]);
  const root = await projectRoot(args);
  let reader: IntelReader;
  reader = await openIntel(root);
  try {
    switch (name) {
      case 'blast-radius': {
        if (rest.length !== 1) throw new UsageError('intel query blast-radius takes one file');
        const result = blastRadius(reader, fileArg(root, rest[0], 'file'), { maxDepth: intFlag(args, 'depth', 10, 1, 50), symbol: stringFlag(args, 'symbol') });
        print(args, result, () => fmt.blastRadius(result));
        return 0;
      }
      case 'hotspots': {
        if (rest.length) throw new UsageError('intel query hotspots takes no arguments');
        const result = hotspots(reader, { limit: intFlag(args, 'limit', 10, 1, 500) });
        print(args, result, () => fmt.hotspots(result));
        return 0;
      }
      case 'search': {
        if (!rest.length) throw new UsageError('intel query search needs words to search for');
        const type = stringFlag(args, 'type');
        if (type && !['source', 'test', 'types', 'config', 'script'].includes(type)) throw new UsageError('--type takes source, test, types, config or script');
        const result = searchIntel(reader, rest.join(' '), { limit: intFlag(args, 'limit', 10, 1, 200), type: (type as never) ?? null });
        print(args, result, () => fmt.search(result));
        return 0;
      }
      case 'deps': {
        if (rest.length !== 1) throw new UsageError('intel query deps takes one file');
        const result = dependencies(reader, fileArg(root, rest[0], 'file'));
        print(args, result, () => fmt.dependencies(result));
        return 0;
      }
      case 'path': {
        if (rest.length !== 2) throw new UsageError('intel query path takes two files: <from> <to>');
        const result = importPath(reader, fileArg(root, rest[0], 'from'), fileArg(root, rest[1], 'to'));
        print(args, result, () => fmt.importPath(result));
        return result.steps ? 0 : 1;
      }
    }
    return 2;
  } catch (error) {
    if (error instanceof UnknownFileError) throw new ProblemError(error.message, 'paths are relative to the project root; `intel query search <words>` finds files');
    throw error;
  } finally {
    reader.close();
  }
}

async function view(args: ParsedArgs): Promise<number> {
  checkFlags(args, ['json', 'root', 'help', 'out', 'open']);
  if (args.positional.length > 1) throw new UsageError('intel view takes at most one file');
  const root = await projectRoot(args);
  const out = stringFlag(args, 'out');
  const reader = await openIntel(root);
  let report;
  try {
    const file = args.positional.length ? fileArg(root, args.positional[0], 'file') : null;
    report = await writeGraphView(reader, { file, out: out ? path.resolve(process.cwd(), out) : null });
  } catch (error) {
    if (error instanceof UnknownFileError) throw new ProblemError(error.message, 'paths are relative to the project root; `intel query search <words>` finds files');
    throw error;
  } finally {
    reader.close();
  }
  const opened = args.flags.has('open') ? await (await import('../open-browser.js')).openInBrowser(report.path) : null;
  print(args, { ...report, opened }, () => fmt.graphView(report, opened));
  return 0;
}

export async function runIntel(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const args = parseArgs(rest, BOOLEANS);
  if (!sub || sub === 'help' || sub === '--help' || args.flags.has('help')) {
    process.stdout.write(`${INTEL_HELP}\n`);
    return sub ? 0 : 2;
  }
  switch (sub) {
    case 'build':
      return build(args);
    case 'status':
      return status(args);
    case 'query':
      return query(args);
    case 'view':
      return view(args);
    default:
      throw new UsageError(`unknown intel command "${sub}"`);
  }
}
