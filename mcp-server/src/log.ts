/** Diagnostics go to stderr only (stdout carries the MCP protocol), or to the sink a daemon sets (its log file). */
let sink: ((line: string) => void) | null = null;

export function setLogSink(fn: ((line: string) => void) | null): void {
  sink = fn;
}

/** `: <stack or message>` of an error for a log line; nothing without one. */
export function errorDetail(error?: unknown): string {
  return error instanceof Error ? `: ${error.stack ?? error.message}` : error === undefined ? '' : `: ${String(error)}`;
}

export function logError(message: string, error?: unknown): void {
  const detail = errorDetail(error);
  if (sink) sink(`${message}${detail}`);
  else process.stderr.write(`[gsd-mcp] ${message}${detail}\n`);
}
