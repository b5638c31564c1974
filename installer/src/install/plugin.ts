/**
 * Our native plugin, when it is enabled in the settings Claude Code reads for a target. It is named `gsdcc` (its
 * commands `/gsdcc:<name>`, its agents `gsdcc-*`), so that beside upstream GSD's user-level `commands/gsd/` and
 * `agents/gsd-*.md` both sets stay whole. Releases before it named the plugin `gsd` (`gsd@gsd-marketplace`): Claude Code
 * takes a user-level command over a plugin's of the same name, so that plugin beside upstream gave a mixed set.
 */
import path from 'node:path';
import { isObject, readJson } from '../settings/json.js';
import { globalTarget, type Target } from './target.js';

export const PLUGIN_NAME = 'gsdcc';
/** the marketplace this repository is (.claude-plugin/marketplace.json) */
export const MARKETPLACE = 'gsd-marketplace';
/** the id of our plugin under its old name */
export const OLD_PLUGIN_ID = `gsd@${MARKETPLACE}`;

export interface EnabledPlugin {
  /** `gsdcc@<marketplace>` or the old `gsd@gsd-marketplace` */
  id: string;
  /** the settings file that enables it */
  file: string;
  /** enabled under the old name `gsd` */
  old: boolean;
}

/** The settings files whose `enabledPlugins` apply to a target: its own, and for a project also the local and user ones. */
export function pluginSettingsFiles(target: Target): string[] {
  return [target.settingsFile, ...(target.scope === 'local' ? [path.join(target.configDir, 'settings.local.json'), globalTarget().settingsFile] : [])];
}

/** Our plugin, under either name, switched on in one of `files` (the first found; the new name first within a file). */
export function enabledPlugin(files: string[]): EnabledPlugin | undefined {
  for (const file of files) {
    const read = readJson(file);
    if (read.kind !== 'ok' || !isObject(read.value.enabledPlugins)) continue;
    const on = Object.entries(read.value.enabledPlugins).filter(([, v]) => v === true).map(([id]) => id);
    const id = on.find((x) => x.startsWith(`${PLUGIN_NAME}@`)) ?? on.find((x) => x === OLD_PLUGIN_ID);
    if (id) return { id, file, old: id === OLD_PLUGIN_ID };
  }
  return undefined;
}

/** The commands that replace the plugin under its old name by the same plugin under its new one. */
export const SWITCH_PLUGIN = `claude plugin uninstall ${OLD_PLUGIN_ID} && claude plugin install ${PLUGIN_NAME}@${MARKETPLACE}`;

/** What the old name costs, beside upstream GSD or without it. */
export function oldPluginProblem(plugin: EnabledPlugin, upstream: boolean): string {
  return `our plugin is enabled under its old name gsd (${plugin.id} in ${plugin.file})${
    upstream
      ? ': its /gsd: commands share their names with upstream GSD\'s, and Claude Code takes upstream\'s user-level ones over a plugin\'s, so you get a set half ours, half theirs'
      : '; this release names it gsdcc (/gsdcc: commands, gsdcc-* agents), which no upstream GSD install can shadow'
  }`;
}
