/**
 * `get-shit-done-cc uninstall`: removes exactly what the manifest says install added — our hook entries, our MCP
 * entry, the commands/agents we copied, the runtime folder — and nothing else. A settings file nobody else changed
 * since the install is put back byte for byte from the backup taken before it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { checkFlags, parseArgs } from '../args.js';
import { ProblemError, UsageError } from '../errors.js';
import { findOurHooks, removeOurHooks } from '../settings/hooks.js';
import { backupFile, fileHash, formatJson, isObject, readJson, timestamp, writeFileAtomic, type JsonObject } from '../settings/json.js';
import { Journal, findOnPath, listFiles, removeEmptyDirs, removeTree, run } from '../install/fsops.js';
import { readManifest, type JsonFileRecord, type ManifestRead } from '../install/manifest.js';
import { LOCATION_FLAGS, describeTarget, targetFromFlags } from '../install/options.js';
import { LEGACY_RUNTIME_FOLDER, MCP_NAME, globalTarget, homeDir, isOurMcpEntry, packageRoot, type Target } from '../install/target.js';
import { oursInLegacyFolder } from '../install/upstream.js';
import { shippedRuntime } from '../install/assets.js';

const HELP = `Usage: get-shit-done-cc uninstall [--global | --local | --config-dir DIR] [--dry-run]

Removes what "install" added there (as listed in gsdcc/manifest.json) and nothing else: your own hooks,
settings, commands, agents, MCP servers, every .planning/ folder and every file of upstream GSD stay; the files of
others that install backed up are put back.`;

const out = (line = '') => process.stdout.write(`${line}\n`);

function putBack(file: string, backup: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, readFileSync(backup));
}

/**
 * With the runtime folder (and the manifest in it) gone, our hook entries and MCP entry may still be registered: a
 * manifest naming only those, so that uninstall removes them and nothing else.
 */
function orphanEntries(target: Target): ManifestRead {
  const settings = readJson(target.settingsFile);
  const hooks = settings.kind === 'ok' ? findOurHooks(settings.value) : [];
  const mcp = readJson(target.mcpFile);
  const entry = mcp.kind === 'ok' && isObject(mcp.value.mcpServers) ? mcp.value.mcpServers[MCP_NAME] : undefined;
  if (!hooks.length && !isOurMcpEntry(entry)) return { kind: 'missing' };
  out(`No manifest in ${target.runtimeDir} (the runtime folder is gone): removing the entries of ours still registered, and nothing else.`);
  const record = (file: string) => ({ file, created: false, hashAfter: '' });
  return {
    kind: 'ok',
    manifest: {
      name: 'get-shit-done-cc', version: 'unknown', installedAt: '', scope: target.scope, configDir: target.configDir, projectDir: target.projectDir, node: '', runtimeDir: target.runtimeDir,
      files: [], runtimeFiles: [], backups: [],
      settings: hooks.length ? { ...record(target.settingsFile), hooks } : undefined,
      mcp: isOurMcpEntry(entry) ? { method: target.scope === 'global' ? 'claude-json' : 'mcp-json', name: MCP_NAME, file: target.mcpFile, entry, record: record(target.mcpFile) } : undefined,
    },
  };
}

export async function runUninstall(argv: string[]): Promise<number> {
  const args = parseArgs(argv, new Set(['global', 'local', 'yes', 'dry-run', 'help']));
  if (args.flags.has('help')) {
    out(HELP);
    return 0;
  }
  checkFlags(args, [...LOCATION_FLAGS, 'yes', 'dry-run', 'help']);
  if (args.positional.length > (args.flags.has('local') ? 1 : 0)) throw new UsageError(`unexpected argument "${args.positional.at(-1)}"`);
  const target = targetFromFlags(args) ?? globalTarget();
  const dryRun = args.flags.has('dry-run');
  let read = readManifest(target.manifestFile);
  // an install by an older release of ours: its manifest sits in upstream GSD's folder name
  if (read.kind === 'missing') read = readManifest(path.join(target.configDir, LEGACY_RUNTIME_FOLDER, 'manifest.json'));
  if (read.kind === 'missing') read = orphanEntries(target);
  if (read.kind === 'missing') throw new ProblemError(`get-shit-done-cc is not installed there: no ${target.manifestFile}`, 'pass --local, --global or --config-dir DIR to name the install');
  if (read.kind === 'invalid') throw new ProblemError(`cannot read the install manifest: ${read.reason}`);
  const m = read.manifest;
  const stamp = timestamp();
  const journal = new Journal(dryRun, out);
  out(`${dryRun ? 'Would remove' : 'Removing'} get-shit-done-cc ${m.version}: ${describeTarget(target)}`);

  /** Puts back the pre-install bytes when nobody changed the file since, else removes our part only. */
  const undoJson = (record: JsonFileRecord, strip: (v: JsonObject) => JsonObject, what: string) => {
    const current = readJson(record.file);
    if (current.kind === 'missing') return;
    if (current.kind === 'invalid') {
      out(`  warning: ${record.file} line ${current.line} is not valid JSON; left alone (remove ${what} by hand)`);
      return;
    }
    const untouched = fileHash(record.file) === record.hashAfter;
    if (untouched && record.created) {
      journal.step(`delete ${record.file} (created by install, unchanged since)`, () => rmSync(record.file));
      return;
    }
    if (untouched && record.restore && existsSync(record.restore)) {
      journal.step(`restore ${record.file} from ${record.restore}`, () => writeFileAtomic(record.file, readFileSync(record.restore!)));
      return;
    }
    const next = strip(current.value);
    const text = formatJson(next, current.indent);
    if (text === current.text) return;
    if (record.created && !Object.keys(next).length) {
      journal.step(`delete ${record.file} (created by install, now empty)`, () => rmSync(record.file));
      return;
    }
    journal.step(`update ${record.file}: remove ${what}`, () => {
      backupFile(record.file, stamp);
      writeFileAtomic(record.file, text);
    });
  };

  if (m.settings) undoJson(m.settings, (v) => removeOurHooks(v).settings, 'the gsd hooks');
  if (m.mcp) {
    const strip = (v: JsonObject): JsonObject => {
      if (!isObject(v.mcpServers) || !isOurMcpEntry(v.mcpServers[MCP_NAME])) return v;
      const servers = { ...v.mcpServers };
      delete servers[MCP_NAME];
      return { ...v, mcpServers: servers };
    };
    const claude = m.mcp.method === 'claude-cli' ? findOnPath('claude') : undefined;
    if (claude) {
      const env = { ...process.env, ...(m.configDir !== path.join(homeDir(), '.claude') ? { CLAUDE_CONFIG_DIR: m.configDir } : {}) };
      const current = readJson(m.mcp.file);
      const entry = current.kind === 'ok' && isObject(current.value.mcpServers) ? current.value.mcpServers[MCP_NAME] : undefined;
      if (isOurMcpEntry(entry)) journal.step(`claude mcp remove ${MCP_NAME} -s user`, () => void run(claude, ['mcp', 'remove', MCP_NAME, '-s', 'user'], env));
    } else {
      undoJson(m.mcp.record ?? { file: m.mcp.file, created: false, hashAfter: '' }, strip, `the "${MCP_NAME}" MCP server`);
    }
  }
  for (const f of m.files) {
    // a file whose bytes are no longer the ones we wrote belongs to someone else now (e.g. upstream GSD's installer)
    if (f.aside) {
      if (f.backup && existsSync(f.backup) && !existsSync(f.path)) journal.step(`put back ${f.path} from ${f.backup}`, () => putBack(f.path, f.backup!));
    } else if (existsSync(f.path) && f.hash && fileHash(f.path) !== f.hash) out(`  ${f.path} changed since install: not ours any more, left as it is`);
    else if (f.backup && existsSync(f.backup)) journal.step(`restore ${f.path} from ${f.backup}`, () => putBack(f.path, f.backup!));
    else if (existsSync(f.path)) journal.step(`delete ${f.path}`, () => {
      rmSync(f.path);
      removeEmptyDirs(path.dirname(f.path), m.configDir);
    });
  }
  if (m.mcp) {
    // the shared server this install's sessions started (or --shared registered): stopped, its files removed
    const shared = await import('../install/shared.js');
    if (dryRun) out(`  would stop the shared gsd server and remove its files in ${shared.gsdHome().dir} (your config.json stays)`);
    else for (const line of await shared.removeShared(m.shared)) out(`  ${line}`);
  }
  if (path.basename(m.runtimeDir) === LEGACY_RUNTIME_FOLDER) {
    // an older release's runtime shares its folder with upstream GSD: only the files of ours go
    const ours = oursInLegacyFolder(m.configDir, shippedRuntime(packageRoot()));
    journal.step(`delete our ${ours.length} file(s) in ${m.runtimeDir}/ (everything else in it stays)`, () => {
      for (const rel of ours) {
        rmSync(path.join(m.runtimeDir, rel), { force: true });
        removeEmptyDirs(path.dirname(path.join(m.runtimeDir, rel)), m.configDir);
      }
    });
  } else if (m.runtimeFiles) {
    journal.step(`delete ${m.runtimeDir}`, () => {
      for (const rel of [...m.runtimeFiles!, 'manifest.json']) {
        rmSync(path.join(m.runtimeDir, rel), { force: true });
        removeEmptyDirs(path.dirname(path.join(m.runtimeDir, rel)), m.configDir);
      }
      const left = listFiles(m.runtimeDir);
      if (left.length) out(`  ${left.length} file(s) that install did not put in ${m.runtimeDir} stay there`);
    });
  } else journal.step(`delete ${m.runtimeDir}`, () => removeTree(m.runtimeDir));
  if (m.runtimeBackup && existsSync(m.runtimeBackup) && !existsSync(m.runtimeDir)) journal.step(`put back ${m.runtimeDir} from ${m.runtimeBackup}`, () => renameSync(m.runtimeBackup!, m.runtimeDir));
  for (const b of m.backups) if (existsSync(b)) journal.step(`delete install backup ${b}`, () => rmSync(b));
  out(dryRun ? 'Dry run: nothing was changed.' : 'Uninstalled. Your own settings, hooks, MCP servers and .planning/ folders were left as they were.');
  return 0;
}
