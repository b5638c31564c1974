/**
 * The SessionStart context: a compact rendering of `.planning/intel/summary.md` (size, hotspots, entry points,
 * conventions) plus freshness and how to query more. Pure string work on a file of a few KB, so it costs the hook
 * nothing measurable. Aim: < 3,000 characters (Claude Code caps hook output at 10,000).
 */

export const CONTEXT_BUDGET = 3_000;
const HOTSPOTS = 8;
const ENTRY_POINTS = 6;
const FOLDER_ROLES = 6;

export interface ContextState {
  root: string;
  /** the text of summary.md, or null when there is none yet */
  summary: string | null;
  /** when the intel was last written (mtime of index.json) */
  updatedAt: Date | null;
  now: Date;
  /** capture is on: a refresh was requested and a worker is catching up */
  refreshing: boolean;
  /** no intel yet: a build runs in the background */
  building: boolean;
}

function ago(from: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  if (s < 90) return 'just now';
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

/** Splits summary.md into `## ` sections (the part before the first one is keyed ''). */
function sections(summary: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current = '';
  out.set(current, []);
  for (const line of summary.split('\n')) {
    const h = /^##\s+(.*)$/.exec(line);
    if (h) {
      current = h[1].trim().toLowerCase();
      out.set(current, []);
    } else out.get(current)!.push(line);
  }
  return out;
}

/** `[text](link)` → text, so the context carries no entity links (the model can ask for them). */
function unlink(text: string): string {
  return text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
}

function hotspotLines(lines: string[]): string[] {
  const rows: string[] = [];
  for (const line of lines) {
    const m = /^\|\s*(.+?)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|$/.exec(line);
    if (!m) continue;
    let name = unlink(m[1]).replace(/\\\|/g, '|');
    if (!name.startsWith('`')) name = `\`${name}\``;
    rows.push(`- ${name} ${m[2]} direct / ${m[3]} transitive`);
  }
  const shown = rows.slice(0, HOTSPOTS);
  if (rows.length > HOTSPOTS) shown.push(`- … ${rows.length - HOTSPOTS} more`);
  return shown;
}

function bulletList(lines: string[]): string[] {
  return lines.filter((l) => /^\s*-\s/.test(l)).map((l) => unlink(l));
}

function describe(summary: string): string[] {
  const s = sections(summary);
  const out: string[] = [];
  const head = (s.get('') ?? []).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (head.length) out.push(head[0].replace(/\s+—\s+built\s+\S+\s*$/, ''));
  const hot = hotspotLines(s.get('hotspots') ?? []);
  if (hot.length) out.push('', 'Hotspots (most dependents, changes ripple furthest):', ...hot);
  const entries = bulletList(s.get('entry points') ?? []).map((l) => l.replace(/^\s*-\s*/, ''));
  if (entries.length) {
    const shown = entries.filter((e) => !e.startsWith('…')).slice(0, ENTRY_POINTS);
    const more = entries.length - shown.length;
    out.push('', `Entry points: ${shown.join(', ')}${more > 0 ? ', …' : ''}`);
  }
  const conventions = s.get('conventions') ?? [];
  if (conventions.length) {
    const lines: string[] = [];
    let roles = 0;
    for (const line of conventions) {
      if (!line.trim()) continue;
      if (/^\s{2,}-\s/.test(line)) {
        // a folder role
        if (roles++ < FOLDER_ROLES) lines.push(unlink(line));
        else if (roles === FOLDER_ROLES + 1) lines.push('  - …');
      } else if (/^\s*-\s/.test(line)) lines.push(unlink(line));
    }
    if (lines.length) out.push('', 'Conventions:', ...lines);
  }
  return out;
}

function howToQuery(): string[] {
  return [
    'How to query more (answers include every edit made so far: pending updates are applied first):',
    '- MCP tools of the gsd server: `mcp__gsd__query_intel` (files for keywords), `mcp__gsd__blast_radius` (what a change to a file or symbol affects), `mcp__gsd__file_context` (one file), `mcp__gsd__hotspots`, `mcp__gsd__codebase_patterns`',
    '- from Bash: `get-shit-done-cc intel query blast-radius <file> | hotspots | search <words> | deps <file> | path <from> <to>` (add `--json`)',
    '- per-file pages: `.planning/intel/entities/<id>.md` (Purpose, Exports, Dependencies, Used By)',
  ];
}

function clipLines(lines: string[], budget: number): string {
  let text = lines.join('\n');
  if (text.length <= budget) return text;
  // drop conventions' folder roles, then entry points, then hotspots beyond 5, until it fits
  const drop = [/^ {2,}- /, /^Entry points:/];
  for (const re of drop) {
    lines = lines.filter((l) => !re.test(l));
    text = lines.join('\n');
    if (text.length <= budget) return text;
  }
  return `${text.slice(0, budget - 2)} …`;
}

/** The additionalContext text for a SessionStart. */
export function sessionContext(state: ContextState): string {
  const where = `\`${state.root}\``;
  if (!state.summary) {
    return clipLines(
      [
        `get-shit-done-cc codebase intelligence for ${where}: ${
          state.building
            ? 'none yet. It is being built in the background now (`.planning/intel/`); `get-shit-done-cc intel status` shows when it is ready.'
            : 'none yet, and automatic capture is off for this project (`intel.capture: false` in .planning/config.json). Build it with `get-shit-done-cc intel build`.'
        }`,
        '',
        ...howToQuery(),
      ],
      CONTEXT_BUDGET,
    );
  }
  const updated = state.updatedAt ? `${state.updatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC (${ago(state.updatedAt, state.now)})` : 'at an unknown time';
  const freshness = state.refreshing
    ? `Freshness: last updated ${updated}. A background refresh is catching up with changes made outside Claude since then (git checkout, Bash, other editors); Write/Edit changes are captured as they happen.`
    : `Freshness: last updated ${updated}. Automatic capture is off for this project (\`intel.capture: false\`): run \`get-shit-done-cc intel build\` to refresh.`;
  return clipLines(
    [`get-shit-done-cc codebase intelligence for ${where} (\`.planning/intel/\`):`, ...describe(state.summary), '', freshness, '', ...howToQuery()],
    CONTEXT_BUDGET,
  );
}
