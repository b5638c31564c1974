// Renders bench/.work/results/hooks.json (written by bench/hooks.mjs) into bench/RESULTS.md, only between the
// markers <!-- hooks:start --> and <!-- hooks:end --> (the other sections belong to the other benches).
import { loadResult, writeResultsSection } from './write-results.mjs';

export const START = '<!-- hooks:start -->';
export const END = '<!-- hooks:end -->';

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const f2 = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');

export function renderHooksSection(r) {
  const L = [START, '', '### PostToolUse and SessionStart against `node -e 0` (bench/hooks.mjs)', ''];
  if (!r) return [...L, 'No results yet: `npm run build && node bench/hooks.mjs`.', '', END].join('\n');
  const m = r.machine;
  L.push(
    `- Date: ${r.date}; machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}; Node ${m.node}; load average at start ${m.loadavg}, at the end ${r.loadavgEnd}`,
    `- Command: \`${r.command}\` (from the repository root, after \`npm run build\`)`,
    `- Corpus: ${r.corpus.name} (${r.corpus.pkg}), ${r.corpus.files ?? '?'} files, intel built before measuring (${Math.round(r.corpus.buildMs)} ms).`,
    `- Method: per round, \`node -e 0\` and the built hook (\`node dist/hooks/src/<hook>.cjs\`, the one-file bundle \`npm run build\` makes, the JSON payload on a stdin pipe as Claude Code sends it) are each spawned with spawnSync and timed start → exit with process.hrtime; the order alternates every round; ${r.warmup} warm-up rounds discarded, N = ${r.runs}. Right after each hook, untimed, the detached background worker it started is awaited, so the worker never overlaps a measurement (the "catch-up" column: hook start → worker gone and journal empty, i.e. how long until the intel includes the change without a reader draining it).`,
    `- What the hooks do while Claude Code waits: PostToolUse appends one journal line and starts the worker if none is alive; SessionStart appends a refresh request, starts the worker and prints the summary (${r.contextChars} characters of additionalContext). The parsing, the stat-based refresh and the sql.js writes happen in the worker.`,
    '',
    '| bar | measured | target | verdict |',
    '| --- | --- | --- | --- |',
  );
  for (const b of r.bars) {
    const extra = b.strict !== undefined ? ` (p95 of the hook / median of node -e 0: ${f2(b.strict)})` : '';
    L.push(`| ${b.name} | ${f2(b.value)}${extra} | ≤ ${b.target}× | ${b.pass ? '**PASS**' : '**FAIL**'} |`);
  }
  L.push('', '| case | node -e 0 median / p95 ms | hook median / p95 ms | hook min–max ms | median ratio | p95 ratio | background catch-up median / max ms |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const names = { postEdit: 'PostToolUse, edited file', sessionUnchanged: 'SessionStart, nothing changed', session20: 'SessionStart, 20 files changed' };
  for (const [k, c] of Object.entries(r.cases)) {
    L.push(`| ${names[k]} | ${f1(c.base.median)} / ${f1(c.base.p95)} | ${f1(c.hook.median)} / ${f1(c.hook.p95)} | ${f1(c.hook.min)}–${f1(c.hook.max)} | ${f2(c.ratioMedian)} | ${f2(c.ratioP95)} | ${f1(c.catchUp.median)} / ${f1(c.catchUp.max)} |`);
  }
  L.push('', 'p95 ratio = p95 of the hook / p95 of `node -e 0` in the same run.', '', END);
  return L.join('\n');
}

export function updateHooksResultsMd() {
  writeResultsSection(START, END, renderHooksSection(loadResult('hooks')), 'hooks');
}
