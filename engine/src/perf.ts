/**
 * Phase timings that cost nothing when off: set GSD_PERF=1 to print `phase ms` lines to stderr.
 */
const enabled = Boolean(process.env.GSD_PERF);

export function perfMark(): (label: string) => void {
  if (!enabled) return () => {};
  let last = performance.now();
  return (label) => {
    const now = performance.now();
    process.stderr.write(`[gsd perf] ${label} ${(now - last).toFixed(1)} ms\n`);
    last = now;
  };
}
