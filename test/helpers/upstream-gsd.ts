/**
 * Upstream GSD layouts in a Claude config folder, written from the names and shapes its releases install (the
 * published get-shit-done-cc 1.28 with commands/gsd/, 1.42 with skills/gsd-*, and @opengsd/gsd-core 1.14 with
 * gsd-core/), never from its content; and the rules its installers apply to that folder on install, update and
 * uninstall (from their bin/install.js and legacy-cleanup.cjs). scripts/upstream-check.mjs runs the real packages.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type Layout = 'commands-1.28' | 'skills-1.42' | 'gsd-core-1.14';
export const LAYOUTS: Layout[] = ['commands-1.28', 'skills-1.42', 'gsd-core-1.14'];

/** upstream's agents and commands include every name of ours, and more */
const AGENTS = ['gsd-planner', 'gsd-executor', 'gsd-verifier', 'gsd-plan-checker', 'gsd-codebase-mapper', 'gsd-debugger', 'gsd-roadmapper'];
const COMMANDS = ['plan-phase', 'execute-phase', 'new-project', 'help', 'progress', 'discuss-phase', 'verify-work', 'debug', 'add-phase'];
const HOOKS = ['gsd-check-update.js', 'gsd-statusline.js', 'gsd-context-monitor.js', 'gsd-prompt-guard.js'];

const runtimeOf = (layout: Layout) => (layout === 'gsd-core-1.14' ? 'gsd-core' : 'get-shit-done');

function write(config: string, rel: string, text: string, files: Record<string, string>): void {
  const file = path.join(config, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  files[rel] = createHash('sha256').update(text).digest('hex');
}

/** The command line upstream registers for one of its hooks. */
const hookCommand = (config: string, script: string) => `node "${path.join(config, 'hooks', script)}"`;

/** Writes `layout` as its installer would (files, gsd-file-manifest.json, hooks and statusLine in settings.json). */
export function installUpstream(config: string, layout: Layout, round = 1): void {
  const files: Record<string, string> = {};
  const rt = runtimeOf(layout);
  write(config, `${rt}/VERSION`, `${layout.split('-').pop()}\n`, files);
  for (const w of ['plan-phase', 'execute-phase', 'new-project']) write(config, `${rt}/workflows/${w}.md`, `# ${w} workflow (${layout}, round ${round})\n`, files);
  write(config, `${rt}/references/questioning.md`, `# questioning (${layout})\n`, files);
  write(config, `${rt}/templates/summary.md`, `# summary template (${layout})\n`, files);
  write(config, `${rt}/bin/gsd-tools.cjs`, `// gsd-tools (${layout})\nmodule.exports = {};\n`, files);
  for (const a of AGENTS) write(config, `agents/${a}.md`, `---\nname: ${a}\ndescription: upstream ${a}\n---\nupstream ${a} (${layout})\n`, files);
  if (layout === 'commands-1.28') {
    for (const c of COMMANDS) write(config, `commands/gsd/${c}.md`, `---\nname: gsd:${c}\n---\n@~/.claude/${rt}/workflows/${c}.md\n`, files);
    writeFileSync(path.join(config, 'package.json'), '{"type":"commonjs"}');
  } else {
    for (const c of COMMANDS) write(config, `skills/gsd-${c}/SKILL.md`, `---\nname: gsd-${c}\n---\n@$HOME/.claude/${rt}/workflows/${c}.md\n`, files);
    writeFileSync(path.join(config, 'gsd-install-state.json'), JSON.stringify({ layout, round }));
  }
  for (const h of HOOKS) write(config, `hooks/${h}`, `// ${h} (${layout})\n`, files);
  writeFileSync(path.join(config, 'gsd-file-manifest.json'), JSON.stringify({ version: layout.split('-').pop(), files }, null, 2));
  // settings.json: its hooks and statusLine merged into whatever is there (its own earlier entries replaced)
  const settingsFile = path.join(config, 'settings.json');
  const settings = existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {};
  const hooks = stripUpstreamHooks(settings.hooks ?? {});
  (hooks.SessionStart ??= []).push({ hooks: [{ type: 'command', command: hookCommand(config, 'gsd-check-update.js') }] });
  (hooks.PostToolUse ??= []).push({ matcher: 'Bash|Edit|Write|MultiEdit|Agent|Task', hooks: [{ type: 'command', command: hookCommand(config, 'gsd-context-monitor.js'), timeout: 10 }] });
  (hooks.PreToolUse ??= []).push({ matcher: 'Write|Edit', hooks: [{ type: 'command', command: hookCommand(config, 'gsd-prompt-guard.js'), timeout: 5 }] });
  settings.hooks = hooks;
  settings.statusLine = { type: 'command', command: hookCommand(config, 'gsd-statusline.js') };
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
}

type Groups = Record<string, { matcher?: string; hooks?: { type?: string; command?: string; timeout?: number }[] }[]>;

function stripUpstreamHooks(hooks: Groups): Groups {
  const out: Groups = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const kept = groups.filter((g) => !(g.hooks ?? []).some((h) => /hooks[\\/]gsd-/.test(String(h.command))));
    if (kept.length) out[event] = kept;
  }
  return out;
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/**
 * What its installer deletes before it writes, on install and update: `get-shit-done/` (or `gsd-core/`) whole,
 * `commands/gsd/` whole, every `agents/gsd-*.md`, its `hooks/gsd-*`; gsd-core also runs its legacy cleanup.
 */
export function upstreamWipe(config: string, layout: Layout, home: string): void {
  rmSync(path.join(config, runtimeOf(layout)), { recursive: true, force: true });
  rmSync(path.join(config, 'commands', 'gsd'), { recursive: true, force: true });
  for (const dir of ['agents', 'hooks']) {
    for (const f of existsSync(path.join(config, dir)) ? readdirSync(path.join(config, dir)) : []) if (f.startsWith('gsd-')) rmSync(path.join(config, dir, f), { force: true });
  }
  if (layout === 'gsd-core-1.14') for (const f of legacyCleanupCandidates(config, home)) rmSync(f, { force: true });
}

/** Reinstall (its update): the wipe, then a fresh layout. */
export function reinstallUpstream(config: string, layout: Layout, home: string, round = 2): void {
  upstreamWipe(config, layout, home);
  installUpstream(config, layout, round);
}

/** Its uninstall: the wipe, its manifest, and its hooks and statusLine out of settings.json. */
export function uninstallUpstream(config: string, layout: Layout, home: string): void {
  upstreamWipe(config, layout, home);
  for (const f of ['gsd-file-manifest.json', 'gsd-install-state.json', 'package.json']) rmSync(path.join(config, f), { force: true });
  rmSync(path.join(config, 'skills'), { recursive: true, force: true });
  const settingsFile = path.join(config, 'settings.json');
  if (!existsSync(settingsFile)) return;
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  settings.hooks = stripUpstreamHooks(settings.hooks ?? {});
  if (!Object.keys(settings.hooks).length) delete settings.hooks;
  delete settings.statusLine;
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * gsd-core's legacy cleanup: code files (.js .cjs .mjs .sh) under hooks/ and commands/ that carry the old package's
 * marker, `.md` files under skills/gsd-* that mention `/get-shit-done/`, and ~/.cache/gsd/gsd-update-check.json.
 */
export function legacyCleanupCandidates(config: string, home: string): string[] {
  const out: string[] = [];
  for (const sub of ['hooks', 'commands']) {
    for (const f of files(path.join(config, sub))) {
      if (!/\.(js|cjs|mjs|sh)$/.test(f)) continue;
      const text = readFileSync(f, 'utf8');
      if (text.includes('get-shit-done-cc') || text.includes('gsd-core-cc')) out.push(f);
    }
  }
  for (const f of files(path.join(config, 'skills'))) {
    if (!path.relative(path.join(config, 'skills'), f).startsWith('gsd-') || !f.endsWith('.md')) continue;
    if (readFileSync(f, 'utf8').includes('/get-shit-done/')) out.push(f);
  }
  const cache = path.join(home, '.cache', 'gsd', 'gsd-update-check.json');
  if (existsSync(cache)) out.push(cache);
  return out;
}
