/**
 * `get-shit-done-cc doctor`: checks an install the way Claude Code will use it — files present, hooks registered
 * and pointing at files that exist, the MCP server registered where Claude Code reads it and answering tools/list,
 * every part of one version, node reachable by absolute path. Exit 1 with a fix for each problem.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkFlags, parseArgs } from '../args.js';
import { UsageError } from '../errors.js';
import { commandParts, findOurHooks } from '../settings/hooks.js';
import { fileHash, isObject, readJson } from '../settings/json.js';
import { listFiles } from '../install/fsops.js';
import { readManifest } from '../install/manifest.js';
import { LOCATION_FLAGS, describeTarget, targetFromFlags } from '../install/options.js';
import { LEGACY_RUNTIME_FOLDER, MCP_NAME, globalTarget, isOurMcpEntry, packageRoot, repairCommand, type Target } from '../install/target.js';
import { detectUpstream } from '../install/upstream.js';
import { PLUGIN_NAME, SWITCH_PLUGIN, enabledPlugin, oldPluginProblem, pluginSettingsFiles } from '../install/plugin.js';
import { sharedServerFindings } from '../install/shared.js';

const HELP = `Usage: get-shit-done-cc doctor [--global | --local | --config-dir DIR] [--no-spawn]

Checks an install and prints what is wrong and how to fix it; exit code 1 when something is wrong.
  --no-spawn   do not start the MCP server to ask it for tools/list`;

const out = (line = '') => process.stdout.write(`${line}\n`);
const REINSTALL = (t: Target) => `run: ${repairCommand(t)}`;
/** Another product's installer that removes folders and names we used: said when upstream GSD is there. */
const UPSTREAM_CAUSE = 'upstream GSD\'s installer deletes commands/gsd/, agents/gsd-*.md and get-shit-done/ on every install and update';

interface Finding {
  ok: boolean;
  what: string;
  fix?: string;
}

/** Starts the server, sends initialize + tools/list, and returns the tool names (or why not) within `timeoutMs`. */
export function probeMcp(command: string, args: string[], cwd: string, timeoutMs = 15_000): Promise<{ ok: true; tools: string[] } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    // the server itself, in the probe's process: the shared daemon is checked on its own (sharedServerFindings) and never started by doctor
    const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, CLAUDE_PROJECT_DIR: cwd, GSD_MCP_MODE: 'in-process' } });
    let buffer = '';
    let stderr = '';
    let done = false;
    const finish = (r: { ok: true; tools: string[] } | { ok: false; reason: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `no answer to tools/list within ${timeoutMs / 1000} s${stderr ? `: ${stderr.trim().slice(-300)}` : ''}` }), timeoutMs);
    child.on('error', (e) => finish({ ok: false, reason: e.message }));
    child.on('exit', (code) => finish({ ok: false, reason: `the server exited (code ${code})${stderr ? `: ${stderr.trim().slice(-300)}` : ''}` }));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      buffer += d;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let msg: { id?: number; result?: { tools?: { name: string }[] }; error?: { message: string } };
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.id === 1) {
          if (msg.error) return finish({ ok: false, reason: `initialize failed: ${msg.error.message}` });
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
        } else if (msg.id === 2) {
          if (msg.error || !msg.result?.tools) return finish({ ok: false, reason: `tools/list failed: ${msg.error?.message ?? 'no tools'}` });
          return finish({ ok: true, tools: msg.result.tools.map((t) => t.name) });
        }
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'get-shit-done-cc-doctor', version: '1' } } })}\n`);
  });
}

export async function runDoctor(argv: string[]): Promise<number> {
  const args = parseArgs(argv, new Set(['global', 'local', 'no-spawn', 'help']));
  if (args.flags.has('help')) {
    out(HELP);
    return 0;
  }
  checkFlags(args, [...LOCATION_FLAGS, 'no-spawn', 'help']);
  if (args.positional.length > (args.flags.has('local') ? 1 : 0)) throw new UsageError(`unexpected argument "${args.positional.at(-1)}"`);
  const target = targetFromFlags(args) ?? globalTarget();
  const findings: Finding[] = [];
  const check = (ok: boolean, what: string, fix?: string) => findings.push({ ok, what, fix });
  out(`get-shit-done-cc doctor: ${describeTarget(target)}`);

  const settingsRead = readJson(target.settingsFile);
  let read = readManifest(target.manifestFile);
  if (read.kind === 'missing') read = readManifest(path.join(target.configDir, LEGACY_RUNTIME_FOLDER, 'manifest.json'));
  const upstream = detectUpstream(target.configDir, new Set(read.kind === 'ok' ? read.manifest.files.map((f) => f.path) : []), settingsRead.kind === 'ok' ? settingsRead.value : undefined);
  if (upstream.found.length) out(`  upstream GSD${upstream.version ? ` ${upstream.version}` : ''} is installed beside: ${upstream.found.join('; ')}`);
  const plugin = enabledPlugin(pluginSettingsFiles(target));
  if (plugin?.old) check(false, oldPluginProblem(plugin, upstream.found.length > 0), `run: ${SWITCH_PLUGIN}`);
  else if (plugin) out(`  our plugin is enabled: ${plugin.id} (${plugin.file}), /${PLUGIN_NAME}: commands and ${PLUGIN_NAME}-* agents`);
  if (read.kind !== 'ok') {
    // the runtime folder (which holds the manifest) is gone while our hooks or MCP entry are still registered
    const hooks = settingsRead.kind === 'ok' ? findOurHooks(settingsRead.value) : [];
    const mcpRead = readJson(target.mcpFile);
    const entry = mcpRead.kind === 'ok' && isObject(mcpRead.value.mcpServers) ? mcpRead.value.mcpServers[MCP_NAME] : undefined;
    if (read.kind === 'missing' && (hooks.length || isOurMcpEntry(entry))) {
      const what = [hooks.length ? `${hooks.length} hook(s) in ${target.settingsFile}` : '', isOurMcpEntry(entry) ? `the MCP server "${MCP_NAME}" in ${target.mcpFile}` : ''].filter(Boolean).join(' and ');
      check(false, `the runtime folder ${target.runtimeDir} is gone (removed by another installer${upstream.found.length ? `: ${UPSTREAM_CAUSE}` : ''}, or by an uninstall that did not finish); ${what} are still registered: the hooks stay silent and the MCP server only reports this`, `${REINSTALL(target)} (or, to remove those entries: npx get-shit-done-cc uninstall${target.scope === 'local' ? ' --local' : ''})`);
    } else if (read.kind === 'missing' && plugin) {
      check(true, `no file install in ${target.configDir}: the plugin ${plugin.id} provides the commands, agents, hooks and MCP server`);
    } else check(false, read.kind === 'missing' ? `not installed: no ${target.manifestFile}` : `the manifest is unreadable: ${read.reason}`, REINSTALL(target));
    return report(findings);
  }
  const m = read.manifest;
  if (path.basename(m.runtimeDir) === LEGACY_RUNTIME_FOLDER) check(false, `installed by an older release in ${m.runtimeDir}, upstream GSD's folder name`, `${REINSTALL(target)} (moves our files to ${target.runtimeDir}; nothing else in ${m.runtimeDir} is touched)`);
  const projectDir = target.projectDir ?? process.cwd();

  // files
  // every file this package ships in its runtime (the server's chunks load lazily, so a missing one would only show
  // when a journal is applied); the essential ones when the package has no built runtime to compare with
  const shipped = listFiles(path.join(packageRoot(), 'dist', 'runtime'));
  const runtimeFiles = shipped.length ? shipped : ['hooks/post-tool-use.cjs', 'hooks/session-start.cjs', 'hooks/worker.js', 'mcp-server.js', 'parse-worker.js', 'sql-wasm.wasm', 'VERSION', 'package.json'];
  const missing = [...runtimeFiles.map((f) => path.join(m.runtimeDir, f)), ...m.files.map((f) => f.path)].filter((f) => !existsSync(f));
  const cause = missing.length && upstream.found.length && missing.some((f) => !f.startsWith(m.runtimeDir)) ? ` (${UPSTREAM_CAUSE}; the install then gives ours the gsdcc names)` : '';
  check(!missing.length, missing.length ? `${missing.length} installed file(s) missing${cause}: ${missing.slice(0, 5).join(', ')}` : `${runtimeFiles.length + m.files.length} installed files present`, missing.length ? REINSTALL(target) : undefined);
  const replaced = m.files.filter((f) => f.hash && existsSync(f.path) && fileHash(f.path) !== f.hash).map((f) => f.path);
  if (replaced.length) check(false, `${replaced.length} of our command/agent file(s) now hold someone else's content${upstream.found.length ? ` (${UPSTREAM_CAUSE})` : ''}: ${replaced.slice(0, 3).join(', ')}`, `${REINSTALL(target)} (theirs stay; ours take the gsdcc names)`);

  // versions
  const versions = new Map<string, string>([['manifest', m.version]]);
  if (existsSync(path.join(m.runtimeDir, 'VERSION'))) versions.set('runtime VERSION', readFileSync(path.join(m.runtimeDir, 'VERSION'), 'utf8').trim());
  try {
    versions.set('this CLI', JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')).version);
  } catch {
    // not fatal
  }
  const distinct = new Set(versions.values());
  check(distinct.size === 1, distinct.size === 1 ? `one version everywhere: ${m.version}` : `versions differ: ${[...versions].map(([k, v]) => `${k} ${v}`).join(', ')}`, distinct.size === 1 ? undefined : REINSTALL(target));

  // node
  check(path.isAbsolute(m.node) && existsSync(m.node), existsSync(m.node) ? `node at ${m.node}` : `node is gone from ${m.node} (hooks and the server use that path)`, existsSync(m.node) ? undefined : `${REINSTALL(target)} (with the node you use now)`);

  // hooks
  if (m.settings) {
    const settings = readJson(target.settingsFile);
    if (settings.kind !== 'ok') {
      check(false, settings.kind === 'missing' ? `${target.settingsFile} is missing: no hooks registered` : `${target.settingsFile} line ${settings.line} is not valid JSON: Claude Code cannot load the hooks`, settings.kind === 'missing' ? REINSTALL(target) : 'fix the JSON, then run doctor again');
    } else {
      const ours = findOurHooks(settings.value);
      for (const event of ['PostToolUse', 'SessionStart']) {
        const hook = ours.find((h) => h.event === event);
        if (!hook) {
          check(false, `${event} hook not registered in ${target.settingsFile}`, REINSTALL(target));
          continue;
        }
        const { node, script } = commandParts(hook.command, projectDir);
        const bad = [node, script].filter((p) => !p || !existsSync(p));
        check(!bad.length, bad.length ? `${event} hook points at missing ${bad.join(', ')}` : `${event} hook → ${script}`, bad.length ? REINSTALL(target) : undefined);
      }
      if (ours.length > 2) check(false, `${ours.length} gsd hook entries in ${target.settingsFile} (expected 2)`, REINSTALL(target));
      if (settings.value.disableAllHooks === true) check(false, `"disableAllHooks": true in ${target.settingsFile} turns every hook off`, 'remove that key');
    }
  }

  // MCP server
  if (m.mcp) {
    const file = target.mcpFile;
    const read = readJson(file);
    const entry = read.kind === 'ok' && isObject(read.value.mcpServers) ? read.value.mcpServers[MCP_NAME] : undefined;
    if (!isObject(entry)) {
      check(false, `MCP server "${MCP_NAME}" not registered in ${file}${read.kind === 'invalid' ? ` (line ${read.line} is not valid JSON)` : ''}`, REINSTALL(target));
    } else {
      check(true, `MCP server "${MCP_NAME}" registered in ${file}`);
      for (const f of await sharedServerFindings(entry)) check(f.ok, f.what, f.fix);
      if (entry.type === 'http') {
        // nothing to spawn: the daemon's health above is the check
      } else {
      const command = String(entry.command ?? '');
      const cmdArgs = Array.isArray(entry.args) ? entry.args.map((a) => String(a).replace(/\$\{CLAUDE_PROJECT_DIR(:-[^}]*)?\}/g, projectDir)) : [];
      if (args.flags.has('no-spawn')) {
        out('  (MCP server not started: --no-spawn)');
      } else {
        const probe = await probeMcp(command, cmdArgs, projectDir);
        check(probe.ok, probe.ok ? `MCP server answers tools/list: ${probe.tools.length} tools (${probe.tools.slice(0, 4).join(', ')}${probe.tools.length > 4 ? ', …' : ''})` : `MCP server does not answer: ${probe.reason}`, probe.ok ? undefined : REINSTALL(target));
      }
      }
    }
    if (target.scope === 'local') out('  note: Claude Code asks once to approve the servers of .mcp.json (or set "enabledMcpjsonServers": ["gsd"] in ~/.claude/settings.json)');
  }
  return report(findings);
}

function report(findings: Finding[]): number {
  for (const f of findings) {
    out(`${f.ok ? '  ok  ' : '  FAIL'} ${f.what}`);
    if (!f.ok && f.fix) out(`        fix: ${f.fix}`);
  }
  const bad = findings.filter((f) => !f.ok).length;
  out(bad ? `${bad} problem${bad === 1 ? '' : 's'} found.` : 'Everything is in order.');
  return bad ? 1 : 0;
}
