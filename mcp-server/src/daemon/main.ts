/** The process entries of the shared server: the daemon (`--daemon`, `serve`) and the stdio shim (the default). */
import { logError } from '../log.js';
import { AlreadyRunningError, startDaemon } from './daemon.js';
import { gsdHome } from './home.js';
import type { DaemonSettings } from './settings.js';

/** Runs the daemon until it stops (request, signal, idle); exit code 0 also when another daemon already runs. */
export async function daemonMain(options: { echo?: boolean; settings?: Partial<DaemonSettings> } = {}): Promise<number> {
  const home = gsdHome();
  let daemon;
  try {
    daemon = await startDaemon({ home, echo: options.echo, settings: options.settings });
  } catch (error) {
    if (error instanceof AlreadyRunningError) {
      process.stderr.write(`${error.message}; nothing to do\n`);
      return 0;
    }
    throw error;
  }
  process.on('SIGINT', () => void daemon.stop('SIGINT'));
  process.on('SIGTERM', () => void daemon.stop('SIGTERM'));
  process.on('SIGHUP', () => undefined);
  process.on('uncaughtException', (error) => logError('uncaught exception (server keeps running)', error));
  process.on('unhandledRejection', (error) => logError('unhandled rejection (server keeps running)', error));
  if (options.echo) process.stderr.write(`gsd server listening on ${daemon.info.url} (pid ${process.pid}); log: ${home.log}\n`);
  await daemon.stopped;
  return 0;
}
