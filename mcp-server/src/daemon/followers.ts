/**
 * The shared server applies the hooks' journal of the projects its sessions work in, so that an edit reaches the
 * graph without a process start: while at least one session is bound to a folder inside a project, the server holds
 * the project's worker role (engine/src/worker-role.ts) and follows its journal warm (engine/src/pipeline/follow.ts),
 * and hooks only append. A worker the hooks started before keeps the role until its idle window ends; the server
 * takes it then. When the last session of the project closes (or the server stops), what is in the journal is
 * applied and the role released: the next edit starts a worker as without a server. Only projects that have
 * `.planning/intel/` already are followed: the server never creates a project's intel.
 */
import { claimForSelf, findProjectRoot, followJournal } from '../../../engine/src/index.js';
import { errorDetail } from '../log.js';

/** how often a project whose role another process holds (or that has no intel yet) is looked at again */
const RETRY_MS = 5_000;

interface Follower {
  sessions: number;
  stop: AbortController;
  done: Promise<void>;
}

export class JournalFollowers {
  private readonly followers = new Map<string, Follower>();

  /** `problem`: a line for a problem; `info`: one for each project taken over (the daemon's log has both) */
  constructor(
    private readonly problem: (line: string) => void,
    private readonly info: (line: string) => void = () => undefined,
  ) {}

  /** A session bound to `folder` opened: its project is followed until the returned function is called. */
  attach(folder: string): () => void {
    const root = findProjectRoot(folder);
    if (!root) return () => undefined;
    let f = this.followers.get(root);
    if (!f) {
      const stop = new AbortController();
      f = { sessions: 0, stop, done: Promise.resolve() };
      f.done = this.run(root, stop.signal);
      this.followers.set(root, f);
    }
    f.sessions++;
    let detached = false;
    return () => {
      if (detached) return;
      detached = true;
      const g = this.followers.get(root);
      if (!g || --g.sessions > 0) return;
      this.followers.delete(root);
      g.stop.abort();
    };
  }

  /** The projects it follows: it holds their worker role, or takes it once a worker's idle window ends. */
  get roots(): string[] {
    return [...this.followers.keys()];
  }

  /** Stops following every project: their journals applied, their roles released. */
  async close(): Promise<void> {
    const all = [...this.followers.values()];
    this.followers.clear();
    for (const f of all) f.stop.abort();
    await Promise.all(all.map((f) => f.done));
  }

  private async run(root: string, stop: AbortSignal): Promise<void> {
    const note = (message: string, error?: unknown) => this.problem(`journal of ${root}: ${message}${errorDetail(error)}`);
    while (!stop.aborted) {
      if (claimForSelf(root, true)) {
        this.info(`following the journal of ${root}`);
        try {
          await followJournal(root, { idleMs: null, stop, note });
        } catch (error) {
          note('follow failed', error);
        }
        if (stop.aborted) break;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, RETRY_MS);
        timer.unref();
        function done() {
          clearTimeout(timer);
          stop.removeEventListener('abort', done);
          resolve();
        }
        stop.addEventListener('abort', done);
      });
    }
  }
}
