/** The `server` section of the user's config.json in the GSD home: port, idle exit, project idle time, log rotation. */
import { userConfig } from '../policy.js';

export interface DaemonSettings {
  /** 0 = a free port chosen at start (stdio shims find it in daemon.json); `install --shared` fixes one */
  port: number;
  /** exit after this long without a request; 0 = never */
  idleMs: number;
  /** close a project's loaded intelligence after this long without a call */
  projectIdleMs: number;
  log: { maxBytes: number; keep: number };
}

export const DEFAULT_SETTINGS: DaemonSettings = {
  port: 0,
  idleMs: 30 * 60_000,
  projectIdleMs: 10 * 60_000,
  log: { maxBytes: 1024 * 1024, keep: 3 },
};

const num = (v: unknown, min: number, max: number): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : undefined);

export function readDaemonSettings(env: NodeJS.ProcessEnv = process.env): DaemonSettings {
  const server = userConfig(env).read().server as Record<string, unknown> | undefined;
  const s: DaemonSettings = { ...DEFAULT_SETTINGS, log: { ...DEFAULT_SETTINGS.log } };
  if (!server || typeof server !== 'object') return s;
  s.port = num(server.port, 0, 65535) ?? s.port;
  const idle = num(server.idleMinutes, 0, 7 * 24 * 60);
  if (idle !== undefined) s.idleMs = idle * 60_000;
  const projectIdle = num(server.projectIdleMinutes, 0.01, 7 * 24 * 60);
  if (projectIdle !== undefined) s.projectIdleMs = projectIdle * 60_000;
  const log = server.log as Record<string, unknown> | undefined;
  if (log && typeof log === 'object') {
    s.log.maxBytes = num(log.maxBytes, 4096, 1 << 30) ?? s.log.maxBytes;
    s.log.keep = Math.floor(num(log.keep, 1, 20) ?? s.log.keep);
  }
  return s;
}
