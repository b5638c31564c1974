/**
 * What the server knows about its projects: which root a call is about (client roots, CLAUDE_PROJECT_DIR, cwd, or
 * a validated `root` argument), a small LRU of open projects, each project's `mcp` config, the rate limiter and
 * the audit log.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
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
import { ConfigFile, mergePolicies, parseMcpSection, rateLimitFor, userConfig, type McpConfig } from './policy.js';
import { AccessDeniedError, ToolInputError } from './result.js';
import { appendRotated } from './rotate.js';
import { redact } from './security.js';
import { HINTS } from './texts.js';

export type { McpConfig } from './policy.js';

export class Project {
  readonly intel: IntelAdapter;
  readonly project: ProjectAdapter;
  readonly requirements: RequirementsAdapter;
  readonly roadmap: RoadmapAdapter;
  readonly phases: PhaseAdapter;
  private readonly configFile: ConfigFile;
  /** Date.now() of the last call that used this project (the daemon frees idle ones) */
  lastUsed = Date.now();

  constructor(readonly root: string) {
    this.intel = new IntelAdapter(root);
    this.project = new ProjectAdapter(root);
    this.requirements = new RequirementsAdapter(root);
    this.roadmap = new RoadmapAdapter(root);
    this.phases = new PhaseAdapter(root);
    this.configFile = new ConfigFile(path.join(root, '.planning', 'config.json'));
  }

  /** The policy for this project: the user's `mcp` section merged with `.planning/config.json`'s (policy.ts). */
  config(): McpConfig {
    return mergePolicies(parseMcpSection(userConfig().read().mcp), parseMcpSection(this.configFile.read().mcp));
  }

  /** One JSON line per call in `.planning/intel/mcp-audit.jsonl`, rotated (`mcp.audit`), secrets redacted. */
  audit(entry: Record<string, unknown>): void {
    const file = path.join(this.root, '.planning', 'intel', 'mcp-audit.jsonl');
    try {
      appendRotated(file, `${JSON.stringify(redact({ at: new Date().toISOString(), ...entry }))}\n`, this.config().audit);
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
  /** the projects, shared by every session of a daemon; one per context by default */
  pool?: ProjectPool;
  /**
   * Daemon sessions: the session is bound to its client's roots, else to these folders (the shim's working folder);
   * the daemon's own cwd and environment never count, and a `root` argument must lie inside the session's project
   * (no other worktree of the same repository).
   */
  bound?: string[];
  /**
   * How long a call waits for the client's answer to roots/list. Over a pipe (stdio, a shim's socket) the client
   * always answers, so the wait is long (30 s); over http the request needs the session's GET event stream, which a
   * client may not have opened yet, so the daemon's http sessions wait 2 s and ask again at the next call.
   */
  rootsWaitMs?: number;
  /** resolves once a request to the client can reach it (an http session: once its GET event stream is open) */
  clientReachable?: Promise<void>;
}

/** Open projects by root: an LRU of `max` (stdio), or shared by the sessions of a daemon and freed when idle. */
export class ProjectPool {
  private readonly projects = new Map<string, Project>();
  constructor(readonly max = 4) {}

  get(root: string): Project {
    let p = this.projects.get(root);
    if (p) this.projects.delete(root);
    else p = new Project(root);
    this.projects.set(root, p);
    p.lastUsed = Date.now();
    while (this.projects.size > this.max) {
      const [oldest, evicted] = this.projects.entries().next().value as [string, Project];
      this.projects.delete(oldest);
      evicted.close();
    }
    return p;
  }

  /** Closes the projects nobody used for `idleMs`; returns their roots. */
  sweep(idleMs: number, now = Date.now()): string[] {
    const freed: string[] = [];
    for (const [root, p] of this.projects) {
      if (now - p.lastUsed < idleMs) continue;
      this.projects.delete(root);
      p.close();
      freed.push(root);
    }
    return freed;
  }

  get size(): number {
    return this.projects.size;
  }

  roots(): string[] {
    return [...this.projects.keys()];
  }

  close(): void {
    for (const p of this.projects.values()) p.close();
    this.projects.clear();
  }
}

/** A tool's call path (validated arguments, then what a client's call runs); `project` skips the root resolution. */
export type ToolHandler = (args: Record<string, unknown>, project?: Project) => Promise<CallToolResult>;

export class ServerContext {
  private readonly pool: ProjectPool;
  private readonly ownsPool: boolean;
  private readonly calls = new Map<string, number[]>();
  private clientRoots: string[] | null = null;
  /** the roots/list request in flight: every call that needs the roots meanwhile waits for this one answer */
  private rootsRequest: Promise<string[] | null> | null = null;
  /** bumped by roots/list_changed: an answer to an older request is not kept */
  private rootsGen = 0;
  private readonly rootsWaitMs: number;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly maxProjects: number;
  readonly bound: string[] | undefined;
  listRoots: (() => Promise<string[]>) | undefined;
  readonly clientReachable: Promise<void> | undefined;
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
    this.bound = options.bound;
    this.rootsWaitMs = options.rootsWaitMs ?? 30_000;
    this.clientReachable = options.clientReachable;
    this.timing = this.env.GSD_MCP_TIMING === '1';
    this.ownsPool = !options.pool;
    this.pool = options.pool ?? new ProjectPool(this.maxProjects);
  }

  /** Forget the client's roots (on notifications/roots/list_changed). */
  rootsChanged(): void {
    this.clientRoots = null;
    this.rootsRequest = null;
    this.rootsGen++;
  }

  /**
   * The client's roots, asked once and kept. Calls that arrive while the client is answering wait for that one
   * request (asking again would start their wait over: under load a second request could miss its wait as the first
   * did, and the call would be answered for the wrong folder); an answer that comes after a call stopped waiting is
   * kept for the next calls. A client that refuses the request has no roots.
   */
  private async roots(): Promise<string[]> {
    if (this.clientRoots) return this.clientRoots;
    if (!this.listRoots) return [];
    if (!this.rootsRequest) {
      const gen = this.rootsGen;
      const request: Promise<string[] | null> = this.listRoots().then(
        (roots) => {
          if (gen === this.rootsGen) this.clientRoots = roots;
          return roots;
        },
        () => {
          // refused while still awaited: no roots; a request given up on (an http stream never opened) is asked again
          if (gen === this.rootsGen && this.rootsRequest === request) this.clientRoots = [];
          return [];
        },
      );
      this.rootsRequest = request;
      void request.then(() => {
        if (this.rootsRequest === request) this.rootsRequest = null;
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.rootsWaitMs);
      timer.unref();
    });
    const roots = await Promise.race([this.rootsRequest, waited]);
    clearTimeout(timer);
    if (roots !== null) return roots;
    // not answered in time: this call goes on without roots, the next one asks again
    this.rootsRequest = null;
    return [];
  }

  /** Candidate start folders, best first: the client's roots, CLAUDE_PROJECT_DIR, cwd (a daemon session: its bound folders). */
  async startFolders(): Promise<string[]> {
    if (this.bound) {
      const roots = await this.roots();
      return roots.length ? roots : this.bound;
    }
    return [...(await this.roots()), ...(this.env.CLAUDE_PROJECT_DIR ? [this.env.CLAUDE_PROJECT_DIR] : []), this.cwd];
  }

  async defaultRoot(): Promise<string> {
    const starts = await this.startFolders();
    for (const s of starts) {
      const found = findProjectRoot(s);
      if (found) return real(found);
    }
    if (this.bound && !starts.length) {
      throw new ToolInputError('this session declared no project folder', 'The client declared no MCP roots; use the stdio registration (it passes the working folder) or a client that declares roots.');
    }
    throw new ToolInputError('no GSD project found', HINTS.noPlanning(starts[0] ?? this.cwd));
  }

  /**
   * The project a call is about. A `root` argument must be an existing folder with `.planning/` (at or above it)
   * that lies inside one of the session's folders or, outside a daemon, is a git worktree of the same repository.
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
      if (this.bound) {
        // a daemon session: its own project and the sub-projects inside it, nothing else
        const mine = starts.map((x) => findProjectRoot(x)).filter((x): x is string => x !== null).map(real);
        if (!mine.some((a) => root === a || root.startsWith(a + path.sep))) {
          throw new AccessDeniedError(`root "${rootArg}" is outside this session's project`, "A shared-server session answers for its own project or worktree only; open a session in the other folder.");
        }
      } else {
        // explicit grants: the client's roots, and the projects found from CLAUDE_PROJECT_DIR / cwd (never a bare cwd such as /)
        const allowed = [...(await this.roots()), ...starts.map((x) => findProjectRoot(x)).filter((x): x is string => x !== null)].map(real);
        const inside = allowed.some((a) => root === a || root.startsWith(a + path.sep) || a.startsWith(root + path.sep));
        if (!inside) {
          const mine = allowed.map(gitCommonDir).filter((x): x is string => x !== null);
          const theirs = gitCommonDir(root);
          if (!theirs || !mine.includes(theirs)) {
            throw new AccessDeniedError(`root "${rootArg}" is not part of this session's project`, 'Only the session project, its sub-projects and git worktrees of the same repository are served.');
          }
        }
      }
    }
    return this.pool.get(root);
  }

  /** Sliding one-minute window per session, project and tool; returns the wait in seconds when over the limit. */
  rateLimited(project: Project, tool: string): number | null {
    const limit = rateLimitFor(project.config(), tool);
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
    if (this.ownsPool) this.pool.close();
  }
}

export function fileUriToPath(uri: string): string | null {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : null;
  } catch {
    return null;
  }
}
