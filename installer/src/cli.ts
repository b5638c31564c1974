#!/usr/bin/env node
import { TOOL_VERSION } from '../../engine/src/version.js';
import { EXIT_PROBLEM, EXIT_USAGE, ProblemError, UsageError } from './errors.js';

const HELP = `get-shit-done-cc ${TOOL_VERSION}: codebase intelligence and GSD planning state for Claude Code

Usage:
  get-shit-done-cc install [--global | --local | --config-dir DIR] [--yes] [--no-hooks] [--no-mcp] [--dry-run]
                                            install the hooks, MCP server, /gsd: commands and agents
  get-shit-done-cc uninstall [--global | --local | --config-dir DIR] [--dry-run]
                                            remove exactly what install added
  get-shit-done-cc doctor [--global | --local | --config-dir DIR]
                                            check an install; exit 1 with fixes when something is wrong
  get-shit-done-cc serve [--detach | --status | --stop]
                                            the shared MCP server for every session and worktree
  get-shit-done-cc intel build [dir]        build .planning/intel/ for a project
  get-shit-done-cc intel status [dir]       what is indexed and what changed since
  get-shit-done-cc intel query <question>   blast-radius | hotspots | search | deps | path
  get-shit-done-cc intel view [file] [--open]
                                            write (and open) an interactive map: graph, hotspots, blast radius
  get-shit-done-cc --version | --help

Run "get-shit-done-cc <command> --help" for the options of each command.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return command ? 0 : EXIT_USAGE;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${TOOL_VERSION}\n`);
    return 0;
  }
  switch (command) {
    case 'intel': {
      // a full build is short and cold: smaller optimizing-compiler jobs (v8-tuning.ts)
      if (rest[0] === 'build') (await import('./v8-tuning.js')).tuneV8ForBuild();
      const { runIntel } = await import('./commands/intel.js');
      return runIntel(rest);
    }
    case 'install': {
      const { runInstall } = await import('./commands/install.js');
      return runInstall(rest);
    }
    case 'uninstall': {
      const { runUninstall } = await import('./commands/uninstall.js');
      return runUninstall(rest);
    }
    case 'serve': {
      const { runServe } = await import('./commands/serve.js');
      return runServe(rest);
    }
    case 'doctor': {
      const { runDoctor } = await import('./commands/doctor.js');
      return runDoctor(rest);
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function rootCause(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  while (e instanceof Error && parts.length < 5) {
    parts.push(e.message);
    e = e.cause;
  }
  return parts.join(': ') || String(error);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\nRun "get-shit-done-cc --help" for usage.\n`);
      process.exitCode = EXIT_USAGE;
    } else if (error instanceof ProblemError) {
      process.stderr.write(`error: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`);
      process.exitCode = EXIT_PROBLEM;
    } else if (error && typeof error === 'object' && (error as Error).name === 'ConfigError') {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`internal error: ${rootCause(error)}\nThis is a bug in get-shit-done-cc; please report it with the command you ran.\n`);
      if (process.env.GSD_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
      process.exitCode = EXIT_USAGE;
    }
  },
);
