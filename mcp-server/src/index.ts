#!/usr/bin/env node
/**
 * stdio entry of the gsd MCP server: `node dist/mcp-server/src/index.js`. Stdout carries only the protocol;
 * diagnostics go to stderr. SIGINT/SIGTERM close the server.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ServerContext } from './context.js';
import { logError } from './log.js';
import { buildServer } from './server.js';

process.env.NO_COLOR = '1';
const ctx = new ServerContext();
const server = buildServer(ctx);
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
  process.exit(code);
};
process.on('SIGINT', () => void close(0));
process.on('SIGTERM', () => void close(0));
process.stdin.on('end', () => void close(0));
process.on('uncaughtException', (error) => logError('uncaught exception (server keeps running)', error));
process.on('unhandledRejection', (error) => logError('unhandled rejection (server keeps running)', error));
await server.connect(new StdioServerTransport());
