/**
 * Whether a process exists, for pid files, lock owners and temp files named after their writer. Node built-ins only
 * (none at all): the hooks and the stdio shim load it without the engine.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
