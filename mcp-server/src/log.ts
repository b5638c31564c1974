/** Diagnostics go to stderr only (stdout carries the MCP protocol), or to the sink a daemon sets (its log file). */
let sink: ((line: string) => void) | null = null;

export function setLogSink(fn: ((line: string) => void) | null): void {
  sink = fn;
}

export function logError(message: string, error?: unknown): void {
  const detail = error instanceof Error ? `: ${error.stack ?? error.message}` : error === undefined ? '' : `: ${String(error)}`;
  if (sink) sink(`${message}${detail}`);
  else process.stderr.write(`[gsd-mcp] ${message}${detail}\n`);
}
