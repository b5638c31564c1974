/** The shared server in tests: a temporary GSD home, SDK Clients through the stdio shim or straight over HTTP. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { gsdHome, type GsdHome } from '../../mcp-server/src/daemon/home.js';
import { readDaemonInfo, stopDaemon, type DaemonInfo } from '../../mcp-server/src/daemon/info.js';
import { SERVER_ENTRY, toolCalls, type Session } from './mcp.js';

export interface TempHome {
  /** HOME for child processes */
  dir: string;
  home: GsdHome;
  env: Record<string, string>;
  info(): DaemonInfo | null;
  token(): string;
  cleanup(): Promise<void>;
}

export function tempHome(): TempHome {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
  const env = { PATH: process.env.PATH ?? '', HOME: dir };
  const home = gsdHome(env);
  return {
    dir,
    home,
    env,
    info: () => readDaemonInfo(home),
    token: () => readFileSync(home.token, 'utf8').trim(),
    async cleanup() {
      await stopDaemon(home).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type McpSession = Pick<Session, 'client' | 'stderr' | 'call' | 'ok' | 'fails' | 'close'>;

async function wrap(client: Client, stderr: () => string): Promise<McpSession> {
  const { tools } = await client.listTools();
  return { client, stderr, ...toolCalls(client, tools), close: () => client.close() };
}

/** A Claude Code-like session: the stdio entry (the shim by default) started in `cwd` with the temp home. */
export function shimSession(cwd: string, h: TempHome, env: Record<string, string> = {}, roots?: string[]): Promise<McpSession> {
  return shimSessionWith(process.execPath, [SERVER_ENTRY], cwd, { ...h.env, ...env }, roots);
}

/** The same with a given command (e.g. an installed runtime's mcp-server.js). */
export async function shimSessionWith(command: string, args: string[], cwd: string, env: Record<string, string>, roots?: string[]): Promise<McpSession> {
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'gsd-shim-test', version: '0' }, roots ? { capabilities: { roots: {} } } : {});
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href })) }));
  await client.connect(transport);
  return wrap(client, () => err);
}

/** A client straight to the daemon over HTTP (the `install --shared` registration), bound by roots or X-GSD-Root. */
export async function httpSession(info: DaemonInfo, token: string, options: { roots?: string[]; folder?: string } = {}): Promise<McpSession> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.folder) headers['x-gsd-root'] = encodeURIComponent(options.folder);
  const client = new Client({ name: 'gsd-http-test', version: '0' }, options.roots ? { capabilities: { roots: {} } } : {});
  if (options.roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: options.roots!.map((r) => ({ uri: pathToFileURL(r).href })) }));
  await client.connect(new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers } }));
  return wrap(client, () => '');
}

export const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: 'pipe',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for `cond` (a cap turns a hang into a failure; not a timing assertion). */
export async function until(cond: () => boolean | Promise<boolean>, what: string, capMs = 60_000): Promise<void> {
  const end = Date.now() + capMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export const structured = <T = Record<string, any>>(r: CallToolResult): T => r.structuredContent as T;
export const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
