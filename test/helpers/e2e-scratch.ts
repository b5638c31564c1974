import { rmSync } from 'node:fs';
import { gsdHome } from '../../mcp-server/src/daemon/home.js';
import { stopDaemon } from '../../mcp-server/src/daemon/info.js';
import type { MessagesMock } from './messages-mock.js';
import { cleanupProjects } from './project.js';

/**
 * What an end-to-end run of the real claude CLI leaves behind: its temporary homes (a shared daemon started in one is
 * stopped first), the loopback Messages API mock and the temporary projects. Use: `after(() => scratch.clear())`.
 */
export class E2eScratch {
  readonly homes: string[] = [];
  mock: MessagesMock | undefined;

  async clear(): Promise<void> {
    await this.mock?.close();
    for (const home of this.homes) {
      await stopDaemon(gsdHome({ HOME: home })).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    }
    cleanupProjects();
  }
}
