import { logError } from '../log.js';
import { gsdHome } from './home.js';
import { runShim } from './shim.js';

/**
 * The stdio shim: relays to the daemon (started with `node <this script> --daemon` when none runs). Node built-ins
 * only until it falls back in-process (`../stdio.js`, loaded then).
 */
export async function shimMain(script: string): Promise<void> {
  const shim = await runShim({
    home: gsdHome(),
    folder: process.env.CLAUDE_PROJECT_DIR || process.cwd(),
    session: process.env.CLAUDE_CODE_SESSION_ID || undefined,
    daemon: { command: process.execPath, args: [script, '--daemon'] },
    inProcess: async () => (await import('../stdio.js')).inProcessTransport(),
  });
  // Claude Code closes stdin when the session ends: end the daemon session, then exit
  void shim.closed.then(() => process.exit(0));
  for (const event of ['end', 'close']) process.stdin.once(event, () => setTimeout(() => process.exit(0), 2000).unref());
  process.on('SIGINT', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  process.on('uncaughtException', (error) => logError('uncaught exception (shim keeps running)', error));
  process.on('unhandledRejection', (error) => logError('unhandled rejection (shim keeps running)', error));
}
