// Small statistics helpers.

export function sorted(xs) {
  return xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
}

/** Median (mean of the two middle values for an even count). NaN for an empty list. */
export function median(xs) {
  const s = sorted(xs);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(xs, p) {
  const s = sorted(xs);
  if (!s.length) return NaN;
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

export function min(xs) {
  const s = sorted(xs);
  return s.length ? s[0] : NaN;
}

export function max(xs) {
  const s = sorted(xs);
  return s.length ? s[s.length - 1] : NaN;
}

export function mean(xs) {
  const s = sorted(xs);
  return s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN;
}

/** Formats a number with `d` decimals, or '—' for NaN/undefined. */
export function fmt(x, d = 0) {
  return Number.isFinite(x) ? x.toFixed(d) : '—';
}

export function fmtRatio(x, d = 2) {
  return Number.isFinite(x) ? `${x.toFixed(d)}×` : '—';
}
