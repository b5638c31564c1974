/** The server in this process over stdio (`GSD_MCP_MODE=in-process`, and the shim's fallback builds the same server). */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ServerContext } from './context.js';
import { JournalFollowers } from './daemon/followers.js';
import { logError } from './log.js';
import { buildServer } from './server.js';

/**
 * This session's project, followed as the shared server follows its sessions' (daemon/followers.ts): while this
 * server runs it applies the hooks' journal warm and hooks start no worker. Problems only are logged.
 */
function followSessionProject(): JournalFollowers {
  const followers = new JournalFollowers((line) => logError(line));
  followers.attach(process.env.CLAUDE_PROJECT_DIR || process.cwd());
  return followers;
}

export async function serveStdio(): Promise<void> {
  const ctx = new ServerContext();
  const server = buildServer(ctx);
  const followers = followSessionProject();
  let closing = false;
  const close = async (code: number) => {
    if (closing) return;
    closing = true;
    try {
      await server.close();
    } catch (error) {
      logError('close failed', error);
    }
    ctx.close();
    // what the journal holds is applied and the worker role released before this process ends
    await followers.close().catch((error: unknown) => logError('releasing the journal failed', error));
    process.exit(code);
  };
  process.on('SIGINT', () => void close(0));
  process.on('SIGTERM', () => void close(0));
  process.stdin.on('end', () => void close(0));
  process.on('uncaughtException', (error) => logError('uncaught exception (server keeps running)', error));
  process.on('unhandledRejection', (error) => logError('unhandled rejection (server keeps running)', error));
  await server.connect(new StdioServerTransport());
}

/** A full server in this process behind an in-memory transport pair; returns the client end (the shim's fallback). */
export async function inProcessTransport() {
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const ctx = new ServerContext();
  const server = buildServer(ctx);
  const followers = followSessionProject();
  server.server.onclose = () => void followers.close();
  await server.connect(serverEnd);
  return clientEnd;
}
