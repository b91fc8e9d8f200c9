import type { Logger } from './log.ts';

/** Running is a started service: stop() must finish in-flight work, flush and release what it holds. */
export type Running = { readonly stop: () => Promise<void> };

/**
 * runUntilSignal starts a service and stops it gracefully on SIGTERM or SIGINT; a second signal exits at
 * once, and so does a stop that takes longer than graceMs (a publish the broker never answers must not keep a
 * stopped member alive, holding its partitions). A failure to start, or an error raised while running, ends the
 * process with status 1.
 */
export async function runUntilSignal(log: Logger, graceMs: number, start: () => Promise<Running>): Promise<void> {
  let running: Running | undefined;
  let stopping = false;
  const stop = async (signal: string, code = 0): Promise<void> => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info('stopping', { signal });
    const overdue = setTimeout(() => {
      log.error('the stop took longer than --graceful-shutdown-timeout: exiting without finishing it', { graceMs });
      process.exit(1);
    }, graceMs);
    overdue.unref();
    try {
      await running?.stop();
      log.info('stopped');
      process.exit(code || Number(process.exitCode ?? 0));
    } catch (err) {
      log.error('stop failed', { err });
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('unhandledRejection', (err) => {
    log.error('unhandled rejection', { err });
    void stop('error', 1);
  });
  try {
    running = await start();
  } catch (err) {
    log.error('failed to start', { err });
    process.exit(1);
  }
}
