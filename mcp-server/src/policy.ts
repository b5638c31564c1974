/**
 * Tool policy as configuration, seed-style: the user's `<GSD home>/config.json` and the project's
 * `.planning/config.json`, both with an `mcp` section:
 *
 *   "mcp": {
 *     "allowedTools": ["query_intel", "file_context"],   // when set, only these answer
 *     "disabledTools": ["verify_behavior"],              // denylist (wins over the allowlist)
 *     "deniedPaths": ["secrets/**", "**\/*.sql"],          // path arguments matching a glob are refused
 *     "rateLimitPerMinute": 60 | {"blast_radius": 10, "*": 120},   // per session and tool
 *     "audit": {"maxBytes": 524288, "keep": 3}           // mcp-audit.jsonl rotation
 *   }
 *
 * Both files count: denials add up (union), allowlists narrow (intersection), the stricter rate limit wins.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { globMatcher } from '../../engine/src/index.js';
import { gsdHome } from './daemon/home.js';
import { logError } from './log.js';
import { ToolInputError } from './result.js';

export interface McpConfig {
  disabledTools: string[];
  /** null = every tool; otherwise only these */
  allowedTools: string[] | null;
  /** globs (root-relative, `/` separators) no path argument may match */
  deniedPaths: string[];
  /** calls per minute for every tool, or per tool name (`"*"` for the rest); null = unlimited */
  rateLimitPerMinute: number | Record<string, number> | null;
  audit: { maxBytes: number; keep: number };
}

export const DEFAULT_MCP_CONFIG: McpConfig = {
  disabledTools: [],
  allowedTools: null,
  deniedPaths: [],
  rateLimitPerMinute: null,
  audit: { maxBytes: 512 * 1024, keep: 3 },
};

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string' && t.length > 0) : undefined);

/** The `mcp` section of one config file; unknown or malformed keys are ignored (defaults apply). */
export function parseMcpSection(mcp: unknown): Partial<McpConfig> {
  if (!mcp || typeof mcp !== 'object') return {};
  const m = mcp as Record<string, unknown>;
  const out: Partial<McpConfig> = {};
  const disabled = strings(m.disabledTools);
  if (disabled) out.disabledTools = disabled;
  const allowed = strings(m.allowedTools);
  if (allowed) out.allowedTools = allowed;
  const denied = strings(m.deniedPaths);
  if (denied) out.deniedPaths = denied;
  const rl = m.rateLimitPerMinute;
  if (typeof rl === 'number' && rl > 0) out.rateLimitPerMinute = rl;
  else if (rl && typeof rl === 'object') {
    out.rateLimitPerMinute = Object.fromEntries(Object.entries(rl).filter(([, v]) => typeof v === 'number' && v > 0)) as Record<string, number>;
  }
  const audit = m.audit as Record<string, unknown> | undefined;
  if (audit && typeof audit === 'object') {
    out.audit = { ...DEFAULT_MCP_CONFIG.audit };
    if (typeof audit.maxBytes === 'number' && audit.maxBytes >= 4096) out.audit.maxBytes = audit.maxBytes;
    if (typeof audit.keep === 'number' && audit.keep >= 1 && audit.keep <= 20) out.audit.keep = Math.floor(audit.keep);
  }
  return out;
}

function limitOf(rl: McpConfig['rateLimitPerMinute'], tool: string): number | null {
  return rl === null ? null : typeof rl === 'number' ? rl : rl[tool] ?? rl['*'] ?? null;
}

/** The stricter of two rate limits, per tool. */
function mergeRateLimits(a: McpConfig['rateLimitPerMinute'], b: McpConfig['rateLimitPerMinute']): McpConfig['rateLimitPerMinute'] {
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'number' && typeof b === 'number') return Math.min(a, b);
  const names = new Set(['*', ...(typeof a === 'object' ? Object.keys(a) : []), ...(typeof b === 'object' ? Object.keys(b) : [])]);
  const out: Record<string, number> = {};
  for (const n of names) {
    const x = limitOf(a, n);
    const y = limitOf(b, n);
    const v = x === null ? y : y === null ? x : Math.min(x, y);
    if (v !== null) out[n] = v;
  }
  return out;
}

export function mergePolicies(...parts: Partial<McpConfig>[]): McpConfig {
  const out: McpConfig = { ...DEFAULT_MCP_CONFIG, audit: { ...DEFAULT_MCP_CONFIG.audit } };
  for (const p of parts) {
    if (p.disabledTools) out.disabledTools = [...new Set([...out.disabledTools, ...p.disabledTools])];
    if (p.allowedTools) out.allowedTools = out.allowedTools === null ? [...p.allowedTools] : out.allowedTools.filter((t) => p.allowedTools!.includes(t));
    if (p.deniedPaths) out.deniedPaths = [...new Set([...out.deniedPaths, ...p.deniedPaths])];
    if (p.rateLimitPerMinute !== undefined) out.rateLimitPerMinute = mergeRateLimits(out.rateLimitPerMinute, p.rateLimitPerMinute);
    if (p.audit) out.audit = p.audit;
  }
  return out;
}

/** Reads a JSON config file's `section`, cached by size+mtime; a missing or malformed file gives `{}`. */
export class ConfigFile {
  private cache: { sig: string; value: Record<string, unknown> } | null = null;
  constructor(readonly file: string) {}

  read(): Record<string, unknown> {
    let sig = 'none';
    try {
      const st = statSync(this.file);
      sig = `${st.size}:${st.mtimeMs}`;
    } catch {
      // defaults
    }
    if (this.cache?.sig === sig) return this.cache.value;
    let value: Record<string, unknown> = {};
    if (sig !== 'none') {
      try {
        const parsed = JSON.parse(readFileSync(this.file, 'utf8'));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) value = parsed;
      } catch (error) {
        logError(`${this.file}: ignored (${(error as Error).message})`);
      }
    }
    this.cache = { sig, value };
    return value;
  }
}

let userFile: ConfigFile | null = null;
/** The user's config file in the GSD home (`mcp` and `server` sections). */
export function userConfig(env: NodeJS.ProcessEnv = process.env): ConfigFile {
  const file = gsdHome(env).config;
  if (userFile?.file !== file) userFile = new ConfigFile(file);
  return userFile;
}

export function rateLimitFor(config: McpConfig, tool: string): number | null {
  return limitOf(config.rateLimitPerMinute, tool);
}

/** Argument names that carry paths: `file`, `files`, `path`, `paths`, `dir`, `folder`, `target`, `*_path`, `*_file`. */
const PATH_ARG = /^(files?|paths?|dirs?|folders?|targets?|.*_(path|file|dir)s?)$/i;

function pathArgs(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (!PATH_ARG.test(k)) continue;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/** A call the policy refuses: audited with `denied`. */
export class PolicyError extends ToolInputError {
  override name = 'PolicyError';
  constructor(message: string, hint: string, readonly denied: 'tool' | 'path' | 'rate', readonly retryAfterSeconds?: number) {
    super(message, hint);
  }
}

const WHERE = 'See the "mcp" section of .planning/config.json or of the GSD config.json (docs/shared-server.md).';

/** Allow/deny lists and denied path globs; throws a PolicyError. */
export function enforcePolicy(config: McpConfig, root: string, tool: string, args: Record<string, unknown>): void {
  if (config.disabledTools.includes(tool) || (config.allowedTools !== null && !config.allowedTools.includes(tool))) {
    throw new PolicyError(`${tool} is disabled for this project`, WHERE, 'tool');
  }
  if (!config.deniedPaths.length) return;
  const denied = globMatcher(config.deniedPaths);
  for (const p of pathArgs(args)) {
    const rel = path.relative(root, path.resolve(root, p)).split(path.sep).join('/');
    if (denied(rel)) throw new PolicyError(`path "${p}" is denied by policy`, WHERE, 'path');
  }
}
