/** Diagnostics go to stderr only: stdout carries the MCP protocol. */
export function logError(message: string, error?: unknown): void {
  const detail = error instanceof Error ? `: ${error.stack ?? error.message}` : error === undefined ? '' : `: ${String(error)}`;
  process.stderr.write(`[gsd-mcp] ${message}${detail}\n`);
}
