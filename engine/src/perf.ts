/**
 * Phase timings that cost nothing when off: set GSD_PERF=1 to print `phase ms` lines to stderr, with the process's
 * RSS and V8 heap in use after the phase (where memory goes in a large build).
 */
const enabled = Boolean(process.env.GSD_PERF);

export function perfMark(): (label: string) => void {
  if (!enabled) return () => {};
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let last = performance.now();
  let lastCpu = cpu();
  return (label) => {
    const now = performance.now();
    const nowCpu = cpu();
    const m = process.memoryUsage();
    const mb = (b: number) => Math.round(b / 1048576);
    process.stderr.write(`[gsd perf] ${label} ${(now - last).toFixed(1)} ms, cpu ${(nowCpu - lastCpu).toFixed(0)} ms (rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB, external ${mb(m.external + m.arrayBuffers)} MB)\n`);
    last = now;
    lastCpu = nowCpu;
  };
}
