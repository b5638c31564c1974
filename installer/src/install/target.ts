/** Where an install goes: the Claude config folder, our runtime folder inside it, and the files Claude Code reads. */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EDIT_MATCHER, type OurHook } from '../settings/hooks.js';

/**
 * Our runtime folder. No GSD release writes it and no upstream cleanup rule matches it (upstream GSD owns
 * `get-shit-done/`, `gsd-core/`, `hooks/gsd-*`, `commands/gsd/`, `agents/gsd-*.md`, `skills/gsd-*`): docs/coexistence.md.
 */
export const RUNTIME_FOLDER = 'gsdcc';
/** Where releases of ours before that one kept the runtime: upstream GSD's own folder name. */
export const LEGACY_RUNTIME_FOLDER = 'get-shit-done';
export const MCP_NAME = 'gsd';

export interface Target {
  scope: 'global' | 'local';
  /** ~/.claude, $CLAUDE_CONFIG_DIR, --config-dir, or <project>/.claude */
  configDir: string;
  runtimeDir: string;
  settingsFile: string;
  manifestFile: string;
  /** local installs: the project root (the folder holding .claude/ and .mcp.json) */
  projectDir?: string;
  /** where the MCP server entry goes: ~/.claude.json (global) or <project>/.mcp.json (local) */
  mcpFile: string;
}

export function homeDir(): string {
  return process.env.HOME || os.homedir();
}

export function globalTarget(configDirFlag?: string): Target {
  const home = homeDir();
  const configDir = path.resolve(configDirFlag ?? (process.env.CLAUDE_CONFIG_DIR || path.join(home, '.claude')));
  // Claude Code keeps its global config beside ~/.claude, or inside $CLAUDE_CONFIG_DIR when that is set
  const mcpFile = configDir === path.join(home, '.claude') ? path.join(home, '.claude.json') : path.join(configDir, '.claude.json');
  const runtimeDir = path.join(configDir, RUNTIME_FOLDER);
  return { scope: 'global', configDir, runtimeDir, settingsFile: path.join(configDir, 'settings.json'), manifestFile: path.join(runtimeDir, 'manifest.json'), mcpFile };
}

export function localTarget(projectDir: string): Target {
  const configDir = path.join(projectDir, '.claude');
  const runtimeDir = path.join(configDir, RUNTIME_FOLDER);
  return {
    scope: 'local',
    configDir,
    runtimeDir,
    settingsFile: path.join(configDir, 'settings.json'),
    manifestFile: path.join(runtimeDir, 'manifest.json'),
    projectDir,
    mcpFile: path.join(projectDir, '.mcp.json'),
  };
}

/** The path a hook or the server uses for a runtime file: absolute (global) or "$CLAUDE_PROJECT_DIR"-based (local). */
function runtimeRef(target: Target, rel: string, projectVar: string): string {
  if (target.scope === 'global') return path.join(target.runtimeDir, rel);
  return `${projectVar}/.claude/${RUNTIME_FOLDER}/${rel}`;
}

/**
 * The hook command's launcher: runs the script only while it exists, so a removed runtime folder leaves the
 * registered hooks silent (exit 0, no output) instead of failing every edit. No quote inside: the command line is
 * the same under sh, bash and cmd.exe.
 */
export const HOOK_LAUNCHER = 'require(process.argv[1]).existsSync(process.argv[2])&&require(process.argv[2])';

/** The command line `"<node>" -e "<launcher>" fs "<script>"` of a hook. */
export function hookCommand(node: string, script: string): string {
  return `"${node}" -e "${HOOK_LAUNCHER}" fs "${script}"`;
}

/** The command that repairs the install at `target`, as doctor and the MCP entry say it. */
export function repairCommand(target: Target): string {
  if (target.scope === 'local') return 'npx get-shit-done-cc install --local --yes';
  return target.configDir === path.join(homeDir(), '.claude') && !process.env.CLAUDE_CONFIG_DIR ? 'npx get-shit-done-cc install --global --yes' : `npx get-shit-done-cc install --config-dir "${target.configDir}" --yes`;
}

/**
 * The MCP entry's launcher: imports the server while it exists; when the runtime folder is gone it answers the MCP
 * handshake itself with an error naming the cause and the repair, instead of failing to spawn.
 */
export function mcpLauncher(repair: string): string {
  const msg = `get-shit-done-cc: its runtime folder is gone (removed by another installer, or an uninstall that did not finish). Repair: ${repair}`;
  return [
    `const f=process.argv[1];`,
    `if(require('fs').existsSync(f))import(require('url').pathToFileURL(f).href);`,
    `else{const m=${JSON.stringify(msg)}+' ('+f+' is missing)';process.stderr.write(m+'\\n');let b='';`,
    `process.stdin.on('data',d=>{b+=d;let i;while((i=b.indexOf('\\n'))>=0){const l=b.slice(0,i);b=b.slice(i+1);let q;try{q=JSON.parse(l)}catch{continue}`,
    `if(q&&q.id!==undefined&&q.id!==null)process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:q.id,error:{code:-32000,message:m}})+'\\n')}})}`,
  ].join('');
}

export function ourHooks(target: Target, node: string): OurHook[] {
  const cmd = (script: string) => hookCommand(node, runtimeRef(target, `hooks/${script}`, '$CLAUDE_PROJECT_DIR'));
  return [
    { event: 'PostToolUse', matcher: EDIT_MATCHER, command: cmd('post-tool-use.cjs'), timeout: 10 },
    { event: 'SessionStart', command: cmd('session-start.cjs'), timeout: 10 },
  ];
}

export function ourMcpEntry(target: Target, node: string): { type: 'stdio'; command: string; args: string[] } {
  return { type: 'stdio', command: node, args: ['-e', mcpLauncher(repairCommand(target)), runtimeRef(target, 'mcp-server.js', '${CLAUDE_PROJECT_DIR:-.}')] };
}

export function isOurMcpEntry(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  // install --shared: our daemon's loopback url (install/shared.ts)
  if ((entry as { type?: unknown }).type === 'http') return /^http:\/\/127\.0\.0\.1:\d+\/gsd\/mcp$/.test(String((entry as { url?: unknown }).url));
  const args = (entry as { args?: unknown }).args;
  return Array.isArray(args) && args.some((a) => typeof a === 'string' && /(get-shit-done|gsdcc)[\\/]mcp-server\.js$/.test(a));
}

/** The package root (holding package.json, dist/, commands/, agents/, templates/) this CLI runs from. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'dist'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the get-shit-done-cc package root');
    dir = parent;
  }
}
