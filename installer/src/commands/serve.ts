/**
 * `get-shit-done-cc serve`: the shared GSD server (docs/shared-server.md). A thin adapter over
 * mcp-server/src/daemon/: runs the daemon in the foreground, starts it in the background (--detach), reports on
 * it (--status) or stops it (--stop).
 */
import { checkFlags, intFlag, parseArgs } from '../args.js';
import { ProblemError, UsageError } from '../errors.js';
import { gsdHome } from '../../../mcp-server/src/daemon/home.js';
import { daemonHealth, ensureDaemon, readDaemonInfo, stopDaemon } from '../../../mcp-server/src/daemon/info.js';

const HELP = `Usage: get-shit-done-cc serve [--port N] [--idle-minutes N] [--detach | --status | --stop] [--json]

The shared GSD MCP server: one process for every Claude Code session and worktree, on 127.0.0.1 only, with a
bearer token (mode 0600) in the GSD config folder ($GSD_HOME, else $XDG_CONFIG_HOME/get-shit-done, else
~/.config/get-shit-done). Stdio registrations start it by themselves; "install --shared" registers it directly.
  (no flag)          run in the foreground (Ctrl-C stops it)
  --detach           start it in the background unless one runs
  --status           is one running, on which port, how many sessions and projects (exit 1 when none)
  --stop             stop the running one
  --port N           listen on this port (default: "server.port" of config.json, else a free one)
  --idle-minutes N   exit after N minutes without a request (0 = never; default 30)
  --json             --status as JSON`;

const out = (line = '') => process.stdout.write(`${line}\n`);

export async function runServe(argv: string[]): Promise<number> {
  const args = parseArgs(argv, new Set(['detach', 'status', 'stop', 'json', 'help']));
  if (args.flags.has('help')) {
    out(HELP);
    return 0;
  }
  checkFlags(args, ['detach', 'status', 'stop', 'json', 'help', 'port', 'idle-minutes']);
  if (args.positional.length) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
  const modes = ['detach', 'status', 'stop'].filter((f) => args.flags.has(f));
  if (modes.length > 1) throw new UsageError(`--${modes[0]} and --${modes[1]} exclude each other`);
  const home = gsdHome();

  if (args.flags.has('status')) {
    const info = readDaemonInfo(home);
    if (!info) {
      if (args.flags.has('json')) out(JSON.stringify({ running: false, home: home.dir }));
      else out(`no gsd server is running (${home.dir})`);
      return 1;
    }
    const h = await daemonHealth(home, info);
    if (args.flags.has('json')) out(JSON.stringify({ running: true, healthy: h.ok, home: home.dir, ...info, ...(h.ok ? { health: h } : { reason: h.reason }) }));
    else if (!h.ok) out(`gsd server pid ${info.pid} on port ${info.port} does not answer: ${h.reason}`);
    else {
      out(`gsd server ${h.version} running: pid ${h.pid}, ${info.url}`);
      out(`  up ${h.uptimeSeconds} s, ${h.sessions} session(s), ${h.requests} request(s), ${Math.round(h.rssBytes / 1e6)} MB resident`);
      out(`  projects loaded: ${h.projects.length ? h.projects.join(', ') : 'none'}`);
      out(`  edits applied here for: ${h.following?.length ? h.following.join(', ') : 'none'}`);
      out(`  idle exit: ${h.idleMinutes ? `${h.idleMinutes} min` : 'off'}; log: ${home.log}`);
    }
    return h.ok ? 0 : 1;
  }
  if (args.flags.has('stop')) {
    const was = await stopDaemon(home);
    out(was ? 'gsd server stopped.' : 'no gsd server was running.');
    return 0;
  }
  const settings: { port?: number; idleMs?: number } = {};
  if (args.flags.has('port')) settings.port = intFlag(args, 'port', 0, 0, 65535);
  if (args.flags.has('idle-minutes')) settings.idleMs = intFlag(args, 'idle-minutes', 30, 0, 10080) * 60_000;
  if (args.flags.has('detach')) {
    const extra = [...(settings.port !== undefined ? ['--port', String(settings.port)] : []), ...(settings.idleMs !== undefined ? ['--idle-minutes', String(settings.idleMs / 60_000)] : [])];
    const r = await ensureDaemon(home, { command: process.execPath, args: [process.argv[1], 'serve', ...extra] });
    if (!r.info) throw new ProblemError(`the gsd server did not start: ${r.reason}`, `run "get-shit-done-cc serve" in a terminal to see why`);
    out(`${r.started ? 'started' : 'already running'}: pid ${r.info.pid}, ${r.info.url}`);
    return 0;
  }
  const { daemonMain } = await import('../../../mcp-server/src/daemon/main.js');
  return daemonMain({ echo: true, settings });
}
