import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { logError } from '../log.js';
import { gsdHome } from './home.js';
import { runShim } from './shim.js';

/** The stdio shim: relays to the daemon (started with `node <this script> --daemon` when none runs). */
export async function shimMain(script: string): Promise<void> {
  const home = gsdHome();
  const client = new StdioServerTransport();
  const shim = await runShim({
    client,
    home,
    folder: process.env.CLAUDE_PROJECT_DIR || process.cwd(),
    daemon: { command: process.execPath, args: [script, '--daemon'] },
    inProcess: async () => (await import('../stdio.js')).inProcessTransport(),
  });
  // Claude Code closes stdin when the session ends: end the daemon session, then exit
  let ending = false;
  const end = () => {
    if (ending) return;
    ending = true;
    void client.close();
    void shim.closed.then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.stdin.on('end', end);
  process.stdin.on('close', end);
  process.on('SIGINT', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  process.on('uncaughtException', (error) => logError('uncaught exception (shim keeps running)', error));
  process.on('unhandledRejection', (error) => logError('unhandled rejection (shim keeps running)', error));
}
