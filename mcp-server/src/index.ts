#!/usr/bin/env node
/**
 * stdio entry of the gsd MCP server: `node dist/mcp-server/src/index.js`. Stdout carries only the protocol;
 * diagnostics go to stderr.
 *
 *   (default)                 a thin shim to the shared daemon (daemon/shim.ts), which it starts when none runs;
 *                             it serves in-process when no daemon can be started
 *   GSD_MCP_MODE=in-process   the whole server in this process (stdio.ts)
 *   --daemon                  the shared daemon itself (daemon/daemon.ts; `get-shit-done-cc serve` runs the same)
 */
import { fileURLToPath } from 'node:url';

process.env.NO_COLOR = '1';
if (process.argv.includes('--daemon')) {
  const { daemonMain } = await import('./daemon/main.js');
  process.exit(await daemonMain());
} else if (process.env.GSD_MCP_MODE === 'in-process' || process.argv.includes('--in-process')) {
  const { serveStdio } = await import('./stdio.js');
  await serveStdio();
} else {
  const { shimMain } = await import('./daemon/shim-main.js');
  await shimMain(process.argv[1] ?? fileURLToPath(import.meta.url));
}
