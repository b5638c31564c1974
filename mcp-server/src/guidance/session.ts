/**
 * What guidance_load needs before its first search: the focus levels and limits its schema names, and the memory of
 * each MCP session's last search (for `query: "1,3"`). Nothing here parses, so the server starts without loading the
 * yaml library; the search itself (`load.ts`) is imported on the first call.
 */

export const FOCUS_LEVELS = ['strategic', 'design', 'implementation'] as const;
export type FocusLevel = (typeof FOCUS_LEVELS)[number];
export type GuidanceSource = 'project' | 'user' | 'package';

export const DEFAULT_AUTO_LOAD = 2;
export const MAX_AUTO_LOAD = 5;
const SESSIONS = 64;

export interface Remembered {
  abs: string;
  score: number;
  why: string[];
}

/** The last keyword search of each MCP session (HTTP: `extra.sessionId`; stdio: one session per server, key ''). */
export class GuidanceSessions {
  private readonly last = new Map<string, Remembered[]>();

  get(session: string): Remembered[] | undefined {
    return this.last.get(session);
  }

  set(session: string, list: Remembered[]): void {
    this.last.delete(session);
    this.last.set(session, list);
    while (this.last.size > SESSIONS) this.last.delete(this.last.keys().next().value as string);
  }
}
