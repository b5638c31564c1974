/**
 * What the server knows about its projects: which root a call is about (client roots, CLAUDE_PROJECT_DIR, cwd, or
 * a validated `root` argument), a small LRU of open projects, each project's `mcp` config, the rate limiter and
 * the audit log.
 */
import { appendFileSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findProjectRoot } from '../../engine/src/index.js';
import { IntelAdapter } from './adapters/intel.js';
import { PhaseAdapter } from './adapters/phase.js';
import { ProjectAdapter } from './adapters/project.js';
import { RequirementsAdapter } from './adapters/requirements.js';
import { RoadmapAdapter } from './adapters/roadmap.js';
import { logError } from './log.js';
import { ToolInputError } from './result.js';
import { redact } from './security.js';
import { HINTS } from './texts.js';

export interface McpConfig {
  disabledTools: string[];
  /** calls per minute for every tool, or per tool name (`"*"` for the rest); null = unlimited */
  rateLimitPerMinute: number | Record<string, number> | null;
}

const AUDIT_MAX_BYTES = 512 * 1024;

export class Project {
  readonly intel: IntelAdapter;
  readonly project: ProjectAdapter;
  readonly requirements: RequirementsAdapter;
  readonly roadmap: RoadmapAdapter;
  readonly phases: PhaseAdapter;
  private configCache: { sig: string; value: McpConfig } | null = null;

  constructor(readonly root: string) {
    this.intel = new IntelAdapter(root);
    this.project = new ProjectAdapter(root);
    this.requirements = new RequirementsAdapter(root);
    this.roadmap = new RoadmapAdapter(root);
    this.phases = new PhaseAdapter(root);
  }

  /** The `mcp` section of `.planning/config.json`; a missing or malformed file means defaults. */
  config(): McpConfig {
    const file = path.join(this.root, '.planning', 'config.json');
    let sig = 'none';
    try {
      const st = statSync(file);
      sig = `${st.size}:${st.mtimeMs}`;
    } catch {
      // defaults
    }
    if (this.configCache?.sig === sig) return this.configCache.value;
    const value: McpConfig = { disabledTools: [], rateLimitPerMinute: null };
    if (sig !== 'none') {
      try {
        const mcp = JSON.parse(readFileSync(file, 'utf8'))?.mcp;
        if (Array.isArray(mcp?.disabledTools)) value.disabledTools = mcp.disabledTools.filter((t: unknown) => typeof t === 'string');
        const rl = mcp?.rateLimitPerMinute;
        if (typeof rl === 'number' && rl > 0) value.rateLimitPerMinute = rl;
        else if (rl && typeof rl === 'object') {
          value.rateLimitPerMinute = Object.fromEntries(Object.entries(rl).filter(([, v]) => typeof v === 'number' && v > 0)) as Record<string, number>;
        }
      } catch (error) {
        logError(`${file}: ignored (${(error as Error).message})`);
      }
    }
    this.configCache = { sig, value };
    return value;
  }

  /** One JSON line per call in `.planning/intel/mcp-audit.jsonl`, rotated to `.1` past 512 KB, secrets redacted. */
  audit(entry: Record<string, unknown>): void {
    const file = path.join(this.root, '.planning', 'intel', 'mcp-audit.jsonl');
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      try {
        if (statSync(file).size > AUDIT_MAX_BYTES) renameSync(file, `${file}.1`);
      } catch {
        // no log yet
      }
      appendFileSync(file, `${JSON.stringify(redact({ at: new Date().toISOString(), ...entry }))}\n`);
    } catch (error) {
      logError('audit log write failed', error);
    }
  }

  close(): void {
    this.intel.close();
  }
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The git common dir of a checkout (the same for every worktree of one repository), or null. */
export function gitCommonDir(dir: string): string | null {
  for (let d = dir; ; d = path.dirname(d)) {
    const dotgit = path.join(d, '.git');
    try {
      const st = statSync(dotgit);
      if (st.isDirectory()) return real(dotgit);
      const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotgit, 'utf8'))?.[1]?.trim();
      if (!gitdir) return null;
      const abs = path.resolve(d, gitdir);
      try {
        return real(path.resolve(abs, readFileSync(path.join(abs, 'commondir'), 'utf8').trim()));
      } catch {
        return real(abs);
      }
    } catch {
      // keep walking
    }
    if (path.dirname(d) === d) return null;
  }
}

export interface ContextOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  maxProjects?: number;
  /** asks the client for its roots (set by buildServer once connected) */
  listRoots?: () => Promise<string[]>;
}

/** A tool's call path (validated arguments, then what a client's call runs); `project` skips the root resolution. */
export type ToolHandler = (args: Record<string, unknown>, project?: Project) => Promise<CallToolResult>;

export class ServerContext {
  private readonly projects = new Map<string, Project>();
  private readonly calls = new Map<string, number[]>();
  private clientRoots: string[] | null = null;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly maxProjects: number;
  listRoots: (() => Promise<string[]>) | undefined;
  /** every registered tool by name (to hide the ones a project disabled) */
  readonly tools = new Map<string, RegisteredTool>();
  /** every registered tool's handler by name (defineTool fills it; `route` calls tools through it) */
  readonly handlers = new Map<string, ToolHandler>();
  /** add `_meta["gsd/timing"]` to results (bench) */
  readonly timing: boolean;

  constructor(options: ContextOptions = {}) {
    this.cwd = options.cwd ?? process.cwd();
    this.env = options.env ?? process.env;
    this.maxProjects = options.maxProjects ?? 4;
    this.listRoots = options.listRoots;
    this.timing = this.env.GSD_MCP_TIMING === '1';
  }

  /** Forget the client's roots (on notifications/roots/list_changed). */
  rootsChanged(): void {
    this.clientRoots = null;
  }

  private async roots(): Promise<string[]> {
    if (this.clientRoots) return this.clientRoots;
    let roots: string[] = [];
    if (this.listRoots) {
      try {
        roots = await Promise.race([this.listRoots(), new Promise<string[]>((resolve) => setTimeout(() => resolve([]), 2000).unref())]);
      } catch {
        roots = [];
      }
    }
    this.clientRoots = roots;
    return roots;
  }

  /** Candidate start folders, best first: the client's roots, CLAUDE_PROJECT_DIR, cwd. */
  async startFolders(): Promise<string[]> {
    return [...(await this.roots()), ...(this.env.CLAUDE_PROJECT_DIR ? [this.env.CLAUDE_PROJECT_DIR] : []), this.cwd];
  }

  async defaultRoot(): Promise<string> {
    const starts = await this.startFolders();
    for (const s of starts) {
      const found = findProjectRoot(s);
      if (found) return real(found);
    }
    throw new ToolInputError('no GSD project found', HINTS.noPlanning(starts[0] ?? this.cwd));
  }

  /**
   * The project a call is about. A `root` argument must be an existing folder with `.planning/` (at or above it)
   * that lies inside one of the session's folders or is a git worktree of the same repository.
   */
  async project(rootArg?: string): Promise<Project> {
    let root: string;
    if (rootArg === undefined || rootArg === '') root = await this.defaultRoot();
    else {
      if (rootArg.includes('\0')) throw new ToolInputError('root contains a NUL byte');
      const starts = await this.startFolders();
      const base = starts.map((s) => findProjectRoot(s)).find((x): x is string => x !== null) ?? this.cwd;
      const abs = path.resolve(base, rootArg);
      let st;
      try {
        st = statSync(abs);
      } catch {
        throw new ToolInputError(`root "${rootArg}" does not exist`, 'Pass the absolute path of a project folder (one holding .planning/).');
      }
      if (!st.isDirectory()) throw new ToolInputError(`root "${rootArg}" is not a folder`);
      const found = findProjectRoot(abs);
      if (!found) throw new ToolInputError(`root "${rootArg}" has no .planning/ folder`, HINTS.noPlanning(abs));
      root = real(found);
      // explicit grants: the client's roots, and the projects found from CLAUDE_PROJECT_DIR / cwd (never a bare cwd such as /)
      const allowed = [...(await this.roots()), ...starts.map((x) => findProjectRoot(x)).filter((x): x is string => x !== null)].map(real);
      const inside = allowed.some((a) => root === a || root.startsWith(a + path.sep) || a.startsWith(root + path.sep));
      if (!inside) {
        const mine = allowed.map(gitCommonDir).filter((x): x is string => x !== null);
        const theirs = gitCommonDir(root);
        if (!theirs || !mine.includes(theirs)) {
          throw new ToolInputError(`root "${rootArg}" is not part of this session's project`, 'Only the session project, its sub-projects and git worktrees of the same repository are served.');
        }
      }
    }
    let p = this.projects.get(root);
    if (p) {
      this.projects.delete(root);
      this.projects.set(root, p);
      return p;
    }
    p = new Project(root);
    this.projects.set(root, p);
    while (this.projects.size > this.maxProjects) {
      const [oldest, evicted] = this.projects.entries().next().value as [string, Project];
      this.projects.delete(oldest);
      evicted.close();
    }
    return p;
  }

  /** Sliding one-minute window per project and tool; returns the wait in seconds when over the limit. */
  rateLimited(project: Project, tool: string): number | null {
    const rl = project.config().rateLimitPerMinute;
    const limit = rl === null ? null : typeof rl === 'number' ? rl : rl[tool] ?? rl['*'] ?? null;
    if (!limit) return null;
    const key = `${project.root}\u0000${tool}`;
    const now = Date.now();
    const list = (this.calls.get(key) ?? []).filter((t) => now - t < 60_000);
    if (list.length >= limit) {
      this.calls.set(key, list);
      return Math.ceil((60_000 - (now - list[0])) / 1000);
    }
    list.push(now);
    this.calls.set(key, list);
    return null;
  }

  close(): void {
    for (const p of this.projects.values()) p.close();
    this.projects.clear();
  }
}

export function fileUriToPath(uri: string): string | null {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : null;
  } catch {
    return null;
  }
}
