/**
 * Our /gsd: commands and agents as they are installed. Under the names `gsd` they are the package's files as they
 * are; under `gsdcc` (beside upstream GSD, whose installers delete `commands/gsd/` and `agents/gsd-*.md` on every
 * install and update) the commands go to `commands/gsdcc/` (/gsdcc:plan-phase) and the agents become `gsdcc-*.md`,
 * with every mention of those names inside them rewritten to match, so that the set stays whole.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listFiles } from './fsops.js';

export type Names = 'gsd' | 'gsdcc';

export interface Asset {
  /** path relative to the Claude config folder */
  rel: string;
  /** the same file inside the runtime folder, where the MCP server reads it (commands/gsd/, agents/) */
  runtimeRel: string;
  bytes: Buffer;
}

/** The package's commands and agents, named for `names`. */
export function ourAssets(root: string, names: Names): Asset[] {
  const commands = listFiles(path.join(root, 'commands', 'gsd'));
  const agents = listFiles(path.join(root, 'agents')).filter((f) => f.endsWith('.md'));
  const agentIds = agents.map((f) => f.replace(/\.md$/, '')).filter((id) => id.startsWith('gsd-'));
  const rename = (text: string) => {
    if (names === 'gsd') return text;
    let out = text.replace(/\/gsd:/g, '/gsdcc:').replace(/commands\/gsd\//g, 'commands/gsdcc/');
    if (agentIds.length) out = out.replace(new RegExp(`\\b(${agentIds.map((id) => id.replace(/[-]/g, '\\-')).join('|')})\\b`, 'g'), (id) => `gsdcc-${id.slice(4)}`);
    return out;
  };
  const read = (file: string) => Buffer.from(rename(readFileSync(file, 'utf8')), 'utf8');
  const out: Asset[] = [];
  for (const rel of commands) out.push({ rel: path.join('commands', names, rel), runtimeRel: path.join('commands', 'gsd', rel), bytes: read(path.join(root, 'commands', 'gsd', rel)) });
  for (const rel of agents) {
    const name = names === 'gsd' || !rel.startsWith('gsd-') ? rel : `gsdcc-${rel.slice(4)}`;
    out.push({ rel: path.join('agents', name), runtimeRel: path.join('agents', name), bytes: read(path.join(root, 'agents', rel)) });
  }
  return out;
}

/** The runtime files this package installs, relative to the runtime folder (commands and agents aside). */
export function shippedRuntime(root: string): string[] {
  return [...listFiles(path.join(root, 'dist', 'runtime')), ...listFiles(path.join(root, 'templates')).map((f) => path.join('templates', f))];
}
