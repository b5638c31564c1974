/**
 * `get-shit-done-cc install`: copies the runtime (bundled hooks, worker, MCP server, sql.js wasm, templates) into
 * <config>/gsdcc/, commands into <config>/commands/gsd/ and agents into <config>/agents/ (or, beside upstream GSD,
 * commands/gsdcc/ and agents/gsdcc-*.md), merges our hooks into settings.json and registers the MCP server where
 * Claude Code reads it (../shared/claude-code.md §1, §2, §7). Nothing that is not ours is changed or deleted
 * (docs/coexistence.md). Every step can be undone: a failure rolls back to the state before the install. A manifest
 * records what was added.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { checkFlags, parseArgs, stringFlag } from '../args.js';
import { ProblemError, UsageError } from '../errors.js';
import { findOurHooks, mergeOurHooks, removeOurHooks, validateHooks } from '../settings/hooks.js';
import { backupFile, fileHash, formatJson, isObject, readJson, sha256, timestamp, writeFileAtomic, type JsonObject, type JsonRead } from '../settings/json.js';
import { Journal, copyTree, findOnPath, listFiles, mkdirs, moveAside, removeEmptyDirs, removeTree, run } from '../install/fsops.js';
import { readManifest, type JsonFileRecord, type Manifest } from '../install/manifest.js';
import { LOCATION_FLAGS, describeTarget, targetFromFlags } from '../install/options.js';
import { LEGACY_RUNTIME_FOLDER, MCP_NAME, globalTarget, homeDir, isOurMcpEntry, localTarget, ourHooks, ourMcpEntry, packageRoot, type Target } from '../install/target.js';
import { detectUpstream, oursInLegacyFolder } from '../install/upstream.js';
import { ourAssets, shippedRuntime, type Names } from '../install/assets.js';
import { SWITCH_PLUGIN, enabledPlugin, oldPluginProblem, pluginSettingsFiles } from '../install/plugin.js';

const HELP = `Usage: get-shit-done-cc install [--global | --local | --config-dir DIR] [options]

Installs the gsd hooks, MCP server, /gsd: commands, agents and templates for Claude Code.

Where (interactive on a terminal when none is given):
  --global            into $CLAUDE_CONFIG_DIR or ~/.claude (all projects)
  --local             into ./.claude of this project; the MCP server goes in ./.mcp.json
  --config-dir DIR    into DIR as the Claude config folder (global install)
Options:
  --yes               do not ask anything
  --no-hooks          do not register the hooks
  --no-mcp            do not register the MCP server
  --shared            register the shared server as an http MCP server (token in its headers; global only;
                      docs/shared-server.md). Without it the stdio entry is a shim that starts the shared
                      server on demand.
  --names gsd|gsdcc   the names of our commands and agents: gsd (/gsd:plan-phase, gsd-planner) or gsdcc
                      (/gsdcc:plan-phase, gsdcc-planner). Default: gsd, or gsdcc when upstream GSD is found
                      (its files are never replaced: docs/coexistence.md)
  --dry-run           print every file and setting it would touch, change nothing
  --ignore-plugin     install even when our plugin (gsdcc, or gsd before) is enabled`;

const FLAGS = [...LOCATION_FLAGS, 'names', 'yes', 'no-hooks', 'no-mcp', 'dry-run', 'ignore-plugin', 'shared', 'help'];
const BOOLEANS = new Set(['global', 'local', 'yes', 'no-hooks', 'no-mcp', 'dry-run', 'ignore-plugin', 'shared', 'help']);

interface Choices {
  target: Target;
  hooks: boolean;
  mcp: boolean;
  dryRun: boolean;
  ignorePlugin: boolean;
  shared?: boolean;
  names?: Names;
}

const out = (line = '') => process.stdout.write(`${line}\n`);

/** The entry as printed and kept in the manifest: the shared server's token stays in its 0600 file. */
function masked(entry: object): object {
  const headers = (entry as { headers?: Record<string, string> }).headers;
  return headers?.Authorization ? { ...entry, headers: { ...headers, Authorization: 'Bearer <token from the GSD config folder>' } } : entry;
}

function refuseInvalid(read: JsonRead & { kind: 'invalid' }): never {
  throw new ProblemError(
    `${read.file} line ${read.line}, column ${read.column} is not valid JSON (${read.reason}). Nothing was changed.`,
    `fix that line (or move the file away), then run the install again`,
  );
}

async function ask(args: ReturnType<typeof parseArgs>): Promise<Choices | undefined> {
  const { default: prompts } = await import('prompts');
  let cancelled = false;
  const answers = await prompts(
    [
      {
        type: 'select',
        name: 'where',
        message: 'Where should get-shit-done-cc be installed?',
        choices: [
          { title: `Global: ${globalTarget().configDir} (all projects)`, value: 'global' },
          { title: `This project: ${path.join(process.cwd(), '.claude')}`, value: 'local' },
        ],
      },
      {
        type: 'multiselect',
        name: 'parts',
        message: 'What should be installed?',
        choices: [
          { title: 'hooks (keep the codebase intel fresh as Claude edits)', value: 'hooks', selected: !args.flags.has('no-hooks') },
          { title: 'MCP server (gsd tools for Claude)', value: 'mcp', selected: !args.flags.has('no-mcp') },
        ],
        hint: 'commands, agents and templates are always installed',
      },
    ],
    { onCancel: () => ((cancelled = true), false) },
  );
  if (cancelled) return undefined;
  const parts = (answers.parts as string[]) ?? [];
  return {
    target: answers.where === 'local' ? localTarget(process.cwd()) : globalTarget(),
    hooks: parts.includes('hooks'),
    mcp: parts.includes('mcp'),
    dryRun: args.flags.has('dry-run'),
    ignorePlugin: args.flags.has('ignore-plugin'),
  };
}

export async function runInstall(argv: string[]): Promise<number> {
  const args = parseArgs(argv, BOOLEANS);
  if (args.flags.has('help')) {
    out(HELP);
    return 0;
  }
  checkFlags(args, FLAGS);
  if (args.positional.length > (args.flags.has('local') ? 1 : 0)) throw new UsageError(`unexpected argument "${args.positional.at(-1)}"`);
  let target = targetFromFlags(args);
  let choices: Choices | undefined;
  if (!target && process.stdin.isTTY && process.stdout.isTTY && !args.flags.has('yes')) {
    choices = await ask(args);
    if (!choices) {
      out('Cancelled; nothing was changed.');
      return 1;
    }
  } else {
    if (!target) {
      target = globalTarget();
      out(`No location given: ${describeTarget(target)} (use --local for this project only).`);
    }
    choices = { target, hooks: !args.flags.has('no-hooks'), mcp: !args.flags.has('no-mcp'), dryRun: args.flags.has('dry-run'), ignorePlugin: args.flags.has('ignore-plugin') };
  }
  choices.shared = args.flags.has('shared');
  const names = stringFlag(args, 'names');
  if (names !== undefined && names !== 'gsd' && names !== 'gsdcc') throw new UsageError('--names takes gsd or gsdcc');
  choices.names = names as Names | undefined;
  if (choices.shared && choices.target.scope === 'local') throw new UsageError('--shared puts the server\'s token into the MCP registration: use it with a global install (.mcp.json is often committed)');
  if (choices.shared && !choices.mcp) throw new UsageError('--shared and --no-mcp exclude each other');
  return install(choices);
}

function nextRecord(old: JsonFileRecord | undefined, before: JsonRead, backup: string | undefined, hadOurs: boolean, afterText: string): JsonFileRecord {
  const file = before.file;
  const currentHash = before.kind === 'ok' ? sha256(before.text) : undefined;
  const created = old ? old.created && (currentHash === undefined || currentHash === old.hashAfter) : before.kind === 'missing';
  let restore: string | undefined;
  if (old && currentHash === old.hashAfter) restore = old.restore;
  else if (!hadOurs) restore = backup;
  return { file, created, restore, hashAfter: sha256(afterText) };
}

async function install(c: Choices): Promise<number> {
  const { target } = c;
  const node = process.execPath;
  const root = packageRoot();
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version as string;
  const runtimeSrc = path.join(root, 'dist', 'runtime');
  if (!existsSync(path.join(runtimeSrc, 'mcp-server.js'))) {
    throw new ProblemError(`the runtime bundle is missing (${runtimeSrc})`, 'this package is incomplete: reinstall it, or in a checkout run "npm run build"');
  }
  if (node.includes('"')) throw new ProblemError(`the path of node contains a double quote: ${node}`);

  // ---------------------------------------------------------------- preflight: read everything, change nothing
  const settings = readJson(target.settingsFile);
  if (settings.kind === 'invalid') refuseInvalid(settings);
  if (settings.kind === 'ok') {
    const check = validateHooks(settings.value, ['PostToolUse', 'SessionStart']);
    if (check.kind === 'invalid') throw new ProblemError(`${target.settingsFile}: ${check.reason}. Nothing was changed.`, 'fix the "hooks" key, then run the install again');
  }
  const plugin = c.ignorePlugin ? undefined : enabledPlugin(pluginSettingsFiles(target));
  if (plugin) {
    out(`Our plugin is enabled: ${plugin.id} (${plugin.file}).`);
    out('It already provides the commands, agents, hooks and MCP server; installing them again would run every hook twice.');
    if (plugin.old) {
      const upstream = detectUpstream(target.configDir, new Set(), settings.kind === 'ok' ? settings.value : undefined).found.length > 0;
      out(`${oldPluginProblem(plugin, upstream)}. To switch it to its new name: ${SWITCH_PLUGIN}`);
    }
    out('Nothing was changed. Disable the plugin first, or pass --ignore-plugin to install anyway.');
    return 0;
  }
  const claude = target.scope === 'global' ? findOnPath('claude') : undefined;
  const mcpRead = c.mcp && !claude ? readJson(target.mcpFile) : undefined;
  if (mcpRead?.kind === 'invalid') refuseInvalid(mcpRead);
  const oldRead = readManifest(target.manifestFile);
  if (oldRead.kind === 'invalid') out(`warning: ignoring an unreadable manifest (${oldRead.reason})`);
  // an older release of ours kept its runtime (and manifest) in upstream GSD's folder name
  const legacyDir = path.join(target.configDir, LEGACY_RUNTIME_FOLDER);
  const legacyRead = oldRead.kind === 'ok' ? undefined : readManifest(path.join(legacyDir, 'manifest.json'));
  const old = oldRead.kind === 'ok' ? oldRead.manifest : legacyRead?.kind === 'ok' ? legacyRead.manifest : undefined;
  if (old && old.scope !== target.scope) throw new ProblemError(`${target.manifestFile} belongs to a ${old.scope} install`);
  const runtimeFiles = shippedRuntime(root);
  const legacyOurs = legacyRead?.kind === 'ok' ? oursInLegacyFolder(target.configDir, runtimeFiles) : [];

  // upstream GSD: found, said, and left as it is; our commands and agents take names of their own beside it
  const oldFiles = new Map((old?.files ?? []).map((f) => [f.path, f]));
  const upstream = detectUpstream(target.configDir, new Set(oldFiles.keys()), settings.kind === 'ok' ? settings.value : undefined);
  const names: Names = c.names ?? (upstream.found.length ? 'gsdcc' : old?.names && old.names !== 'gsd' ? old.names : 'gsd');
  if (upstream.found.length) {
    out(`Upstream GSD${upstream.version ? ` ${upstream.version}` : ''} is installed in ${target.configDir}:`);
    for (const line of upstream.found) out(`  - ${line}`);
    out(`  It stays as it is: none of its files, hooks or statusLine is changed. ${names === 'gsdcc' ? 'Our commands install as /gsdcc:… (commands/gsdcc/) and our agents as gsdcc-*' : 'Our commands take the /gsd: names (--names gsd): its /gsd: commands and its agents with our names are backed up and set aside, whole, and uninstall puts them back'}; our hooks and MCP server run beside its own.`);
  }
  const assets = ourAssets(root, names);

  // the shared server: a running one is stopped (its sessions reconnect to one started from the new runtime);
  // --shared settles the token and the port it will listen on
  const shared = c.mcp && !c.dryRun ? await import('../install/shared.js') : undefined;
  if (shared && (await shared.stopDaemon(shared.gsdHome()))) out('  stopped the running shared gsd server; sessions reconnect to the new one');
  const sharedSetup = c.shared && shared ? await shared.prepareShared() : undefined;

  const stamp = timestamp();
  const journal = new Journal(c.dryRun, out);
  const backups: string[] = [];
  const manifest: Manifest = {
    name: 'get-shit-done-cc',
    version,
    installedAt: new Date().toISOString(),
    scope: target.scope,
    configDir: target.configDir,
    projectDir: target.projectDir,
    node,
    runtimeDir: target.runtimeDir,
    files: [],
    backups: old?.backups ?? [],
  };
  out(`${c.dryRun ? 'Would install' : 'Installing'} get-shit-done-cc ${version}${old ? ` over ${old.version}` : ''}: ${describeTarget(target)}`);

  // The steps below run synchronously: with a handler installed, Ctrl-C or SIGTERM waits until they finished or were
  // rolled back instead of killing the process halfway through.
  let interrupted = false;
  const defer = () => {
    interrupted = true;
  };
  process.on('SIGINT', defer);
  process.on('SIGTERM', defer);
  try {
    // ---------------------------------------------------------------- runtime folder, staged then swapped in
    const staging = `${target.runtimeDir}.tmp-${process.pid}`;
    let made: string[] = [];
    const templates = path.join(root, 'templates');
    journal.step(
      `copy ${listFiles(runtimeSrc).length} runtime files (hooks, workers, MCP server, sql-wasm.wasm, guidance, VERSION) → ${target.runtimeDir}/`,
      () => {
        removeTree(staging);
        made = mkdirs(path.dirname(staging));
        copyTree(runtimeSrc, staging);
        if (listFiles(templates).length) copyTree(templates, path.join(staging, 'templates'));
        // the MCP server reads commands and agents beside itself, never a folder another product owns
        for (const a of assets) {
          mkdirSync(path.dirname(path.join(staging, a.runtimeRel)), { recursive: true });
          writeFileAtomic(path.join(staging, a.runtimeRel), a.bytes);
        }
      },
      () => {
        removeTree(staging);
        for (const dir of made.reverse()) removeEmptyDirs(dir, path.dirname(dir));
      },
    );
    if (listFiles(templates).length) journal.step(`copy ${listFiles(templates).length} templates → ${target.runtimeDir}/templates/`, () => {});
    manifest.runtimeFiles = [...new Set([...runtimeFiles, ...assets.map((a) => a.runtimeRel)])].sort();
    let aside: string | undefined;
    const foreign = existsSync(target.runtimeDir) && oldRead.kind !== 'ok';
    if (foreign) {
      // a folder of that name that is not ours: kept whole beside ours, and put back by uninstall
      manifest.runtimeBackup = `${target.runtimeDir}.backup-${stamp}`;
      out(`  note: ${target.runtimeDir} exists and is not ours; it is moved to ${manifest.runtimeBackup} and put back by uninstall`);
    } else if (old?.runtimeBackup) manifest.runtimeBackup = old.runtimeBackup;
    journal.step(
      `${oldRead.kind === 'ok' ? 'replace' : 'create'} ${target.runtimeDir}`,
      () => {
        if (foreign) renameSync(target.runtimeDir, manifest.runtimeBackup!);
        else aside = moveAside(target.runtimeDir);
        renameSync(staging, target.runtimeDir);
      },
      () => {
        removeTree(target.runtimeDir);
        if (foreign) renameSync(manifest.runtimeBackup!, target.runtimeDir);
        else if (aside) renameSync(aside, target.runtimeDir);
      },
    );

    // ---------------------------------------------------------------- our files out of the old runtime folder
    if (legacyOurs.length) {
      const kept = new Map<string, Buffer>();
      journal.step(
        `move our ${legacyOurs.length} file(s) out of ${legacyDir}/ (everything else in it stays)`,
        () => {
          for (const rel of legacyOurs) {
            const file = path.join(legacyDir, rel);
            kept.set(rel, readFileSync(file));
            rmSync(file);
            removeEmptyDirs(path.dirname(file), target.configDir);
          }
        },
        () => {
          for (const [rel, bytes] of kept) {
            mkdirSync(path.dirname(path.join(legacyDir, rel)), { recursive: true });
            writeFileAtomic(path.join(legacyDir, rel), bytes);
          }
        },
      );
      if (!c.dryRun) out(`  moved our ${legacyOurs.length} file(s) out of ${legacyDir}/ into ${target.runtimeDir}/; everything else in ${legacyDir}/ stays`);
    }

    // ---------------------------------------------------------------- commands and agents
    manifest.names = names;
    const wanted = new Map(assets.map((a) => [path.join(target.configDir, a.rel), a]));
    /** a file our manifest lists is still ours while its bytes are the ones we wrote (older manifests kept no hash) */
    const stillOurs = (f: { path: string; hash?: string }) => !f.hash || fileHash(f.path) === f.hash;
    for (const [dest, asset] of wanted) {
      const existed = existsSync(dest);
      const previous = oldFiles.get(dest) && (!existed || stillOurs(oldFiles.get(dest)!)) ? oldFiles.get(dest) : undefined;
      let backup = previous?.backup;
      const before = existed ? readFileSync(dest) : undefined;
      journal.step(`copy ${asset.rel} → ${dest}`, () => {
        if (existed && !previous) {
          backup = backupFile(dest, stamp); // someone else's file with our name: kept to put back on uninstall
          backups.push(backup);
        }
        mkdirSync(path.dirname(dest), { recursive: true });
        writeFileAtomic(dest, asset.bytes);
      }, () => {
        if (before) writeFileAtomic(dest, before);
        else rmSync(dest, { force: true });
        if (backup && !previous) rmSync(backup, { force: true });
      });
      manifest.files.push({ path: dest, backup, hash: sha256(asset.bytes) });
    }
    // --names gsd beside upstream: the rest of its /gsd: commands are set aside too (never a half-replaced set)
    if (names === 'gsd') {
      const dir = path.join(target.configDir, 'commands', 'gsd');
      for (const rel of listFiles(dir)) {
        const dest = path.join(dir, rel);
        if (wanted.has(dest) || oldFiles.has(dest) || rel.includes('.gsd-backup-')) continue;
        const before = readFileSync(dest);
        const entry: Manifest['files'][number] = { path: dest, aside: true };
        journal.step(`set aside ${dest} (upstream's /gsd: command; put back by uninstall)`, () => {
          backups.push((entry.backup = backupFile(dest, stamp)));
          rmSync(dest);
        }, () => {
          writeFileAtomic(dest, before);
          if (entry.backup) rmSync(entry.backup, { force: true });
        });
        manifest.files.push(entry);
      }
    }
    for (const [dest, f] of oldFiles) {
      if (wanted.has(dest)) continue;
      if (f.aside) {
        if (names === 'gsd') manifest.files.push(f);
        else if (!existsSync(dest) && f.backup && existsSync(f.backup)) journal.step(`put back ${dest} from ${f.backup}`, () => writeFileAtomic(dest, readFileSync(f.backup!)), () => rmSync(dest, { force: true }));
        continue;
      }
      if (!existsSync(dest)) continue;
      if (!stillOurs(f)) {
        out(`  ${dest} changed since we installed it: it is someone else's now and stays`);
        continue;
      }
      const before = readFileSync(dest);
      journal.step(`remove ${dest} (no longer installed under that name)`, () => {
        if (f.backup && existsSync(f.backup)) writeFileAtomic(dest, readFileSync(f.backup));
        else {
          rmSync(dest, { force: true });
          removeEmptyDirs(path.dirname(dest), target.configDir);
        }
      }, () => {
        mkdirSync(path.dirname(dest), { recursive: true });
        writeFileAtomic(dest, before);
      });
    }

    // ---------------------------------------------------------------- hooks in settings.json
    const base: JsonObject = settings.kind === 'ok' ? settings.value : {};
    const hadOurs = findOurHooks(base).length > 0;
    const hooks = ourHooks(target, node);
    const next = c.hooks ? mergeOurHooks(base, hooks) : removeOurHooks(base).settings;
    const nextText = formatJson(next, settings.kind === 'ok' ? settings.indent : 2);
    const unchanged = settings.kind === 'ok' ? settings.text === nextText || (!c.hooks && !hadOurs) : !c.hooks;
    if (!unchanged) {
      let backup: string | undefined;
      const label = c.hooks
        ? `${settings.kind === 'missing' ? 'create' : 'update'} ${target.settingsFile}: ${hooks.map((h) => `${h.event}${h.matcher ? ` [${h.matcher}]` : ''} → ${h.command}`).join('; ')}`
        : `update ${target.settingsFile}: remove the gsd hooks (--no-hooks)`;
      journal.step(label, () => {
        mkdirs(target.configDir);
        if (settings.kind === 'ok') backups.push((backup = backupFile(target.settingsFile, stamp)));
        writeFileAtomic(target.settingsFile, nextText, 0o644);
      }, () => {
        if (settings.kind === 'ok') writeFileAtomic(target.settingsFile, settings.text);
        else rmSync(target.settingsFile, { force: true });
        if (backup) rmSync(backup, { force: true });
      });
      if (c.hooks) manifest.settings = { ...nextRecord(old?.settings, settings, backup, hadOurs, nextText), hooks: hooks.map(({ event, command }) => ({ event, command })) };
    } else if (c.hooks) {
      manifest.settings = old?.settings ?? { file: target.settingsFile, created: false, hashAfter: sha256(nextText), hooks: hooks.map(({ event, command }) => ({ event, command })) };
      if (!c.dryRun) out(`  ${target.settingsFile}: hooks already in place`);
    }

    // ---------------------------------------------------------------- MCP server
    if (c.mcp) {
      const entry = sharedSetup && shared ? shared.httpEntry(sharedSetup.port, sharedSetup.token) : c.shared ? { type: 'http', url: 'http://127.0.0.1:<port>/gsd/mcp', headers: { Authorization: 'Bearer <token>' } } : ourMcpEntry(target, node);
      if (claude) {
        const env = { ...process.env, ...(target.configDir !== path.join(homeDir(), '.claude') ? { CLAUDE_CONFIG_DIR: target.configDir } : {}) };
        const json = JSON.stringify(entry);
        journal.step(`claude mcp add-json --scope user ${MCP_NAME} '${JSON.stringify(masked(entry))}'`, () => {
          const current = readJson(target.mcpFile);
          const existing = current.kind === 'ok' && isObject(current.value.mcpServers) ? current.value.mcpServers[MCP_NAME] : undefined;
          if (existing !== undefined && !isOurMcpEntry(existing)) throw new ProblemError(`an MCP server named "${MCP_NAME}" that is not ours is registered in ${target.mcpFile}`, `remove it (claude mcp remove ${MCP_NAME} -s user) or rename it, then run the install again`);
          if (existing !== undefined) run(claude, ['mcp', 'remove', MCP_NAME, '-s', 'user'], env);
          const r = run(claude, ['mcp', 'add-json', '--scope', 'user', MCP_NAME, json], env);
          if (!r.ok) throw new Error(`claude mcp add-json failed: ${r.output}`);
        }, () => void run(claude, ['mcp', 'remove', MCP_NAME, '-s', 'user'], env));
        manifest.mcp = { method: 'claude-cli', name: MCP_NAME, file: target.mcpFile, entry: masked(entry) };
      } else {
        const read = mcpRead!;
        const value: JsonObject = read.kind === 'ok' ? read.value : {};
        const servers = isObject(value.mcpServers) ? value.mcpServers : {};
        if (servers[MCP_NAME] !== undefined && !isOurMcpEntry(servers[MCP_NAME])) {
          throw new ProblemError(`an MCP server named "${MCP_NAME}" that is not ours is registered in ${target.mcpFile}`, 'remove or rename it, then run the install again');
        }
        const nextValue = { ...value, mcpServers: { ...servers, [MCP_NAME]: entry } };
        const text = formatJson(nextValue, read.kind === 'ok' ? read.indent : 2);
        let backup: string | undefined;
        if (read.kind !== 'ok' || read.text !== text) {
          journal.step(`${read.kind === 'missing' ? 'create' : 'update'} ${target.mcpFile}: mcpServers.${MCP_NAME} = ${JSON.stringify(masked(entry))}`, () => {
            if (read.kind === 'ok') backups.push((backup = backupFile(target.mcpFile, stamp)));
            // ~/.claude.json holds credentials and history: a new one is private
            writeFileAtomic(target.mcpFile, text, target.scope === 'global' ? 0o600 : 0o644);
          }, () => {
            if (read.kind === 'ok') writeFileAtomic(target.mcpFile, read.text);
            else rmSync(target.mcpFile, { force: true });
            if (backup) rmSync(backup, { force: true });
          });
        }
        const record = nextRecord(old?.mcp?.record, read, backup, read.kind === 'ok' && isOurMcpEntry(servers[MCP_NAME]), text);
        manifest.mcp = { method: target.scope === 'global' ? 'claude-json' : 'mcp-json', name: MCP_NAME, file: target.mcpFile, entry: masked(entry), record };
      }
    } else if (old?.mcp) {
      out(`  note: --no-mcp leaves the MCP entry of the earlier install in ${old.mcp.file}; "uninstall" removes it`);
      manifest.mcp = old.mcp;
    }

    if (sharedSetup) manifest.shared = { ...sharedSetup.record, ...(old?.shared ? { configCreated: old.shared.configCreated, keysAdded: [...new Set([...old.shared.keysAdded, ...sharedSetup.record.keysAdded])], tokenCreated: old.shared.tokenCreated || sharedSetup.record.tokenCreated } : {}) };
    else if (old?.shared) manifest.shared = old.shared;
    // ---------------------------------------------------------------- manifest, then drop the old runtime
    manifest.backups = [...manifest.backups, ...backups];
    journal.step(`write ${target.manifestFile}`, () => writeFileAtomic(target.manifestFile, formatJson({ ...manifest, backups: manifest.backups })));
    if (!c.dryRun) {
      if (aside) removeTree(aside);
    }
  } catch (error) {
    const failures = journal.rollback();
    const code = (error as NodeJS.ErrnoException).code;
    const what = error instanceof ProblemError ? error.message : `${(error as Error).message}`;
    const permission = code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
    throw new ProblemError(
      `install failed: ${what}\n${failures.length ? `rollback was incomplete:\n  ${failures.join('\n  ')}` : 'Everything was rolled back; nothing was changed.'}`,
      permission ? `get-shit-done-cc cannot write into ${target.configDir}: fix its permissions, or choose another place with --config-dir or --local` : error instanceof ProblemError ? error.hint : undefined,
    );
  } finally {
    setImmediate(() => {
      process.off('SIGINT', defer);
      process.off('SIGTERM', defer);
      if (interrupted) process.exit(130);
    });
  }

  if (c.dryRun) {
    out('Dry run: nothing was changed.');
    return 0;
  }
  out(`Installed get-shit-done-cc ${version}: ${describeTarget(target)}`);
  if (sharedSetup && shared) {
    const started = await shared.startSharedDaemon(target.runtimeDir, node);
    out(started.info ? `  shared server: ${started.info.url} (pid ${started.info.pid}); token in ${shared.gsdHome().token}` : `  warning: the shared server did not start (${started.reason}); run: get-shit-done-cc serve --detach`);
  }
  if (c.hooks) out('  hooks: PostToolUse (Write|Edit|MultiEdit|NotebookEdit) and SessionStart. Interactive sessions run them in trusted folders only.');
  if (c.mcp && target.scope === 'local') {
    out(`  MCP server "gsd" in ${target.mcpFile}: Claude Code asks once to approve project servers.`);
    out('  To skip the question, add  "enabledMcpjsonServers": ["gsd"]  to ~/.claude/settings.json.');
  } else if (c.mcp) out(`  MCP server "gsd" registered at user scope (${manifest.mcp?.method === 'claude-cli' ? 'claude mcp add-json' : target.mcpFile}).`);
  out('  Check it any time: get-shit-done-cc doctor' + (target.scope === 'local' ? ' --local' : target.configDir !== globalTarget().configDir ? ` --config-dir "${target.configDir}"` : ''));
  return 0;
}
