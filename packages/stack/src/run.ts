import type { StackConfig } from './config.ts';
import { down, recordedParts, up } from './stack.ts';
import { logFile, runningPid } from './procs.ts';
import { formatEndpoints } from './endpoints.ts';
import { metricsUrls, serviceParts } from './services.ts';
import { startPart } from './start.ts';

/**
 * runSystem brings up the local stack and every kcm-bus service that exists, says where everything
 * is, and on Ctrl-C (or SIGTERM) stops everything it started.
 */
export async function runSystem(c: StackConfig, say: (line: string) => void): Promise<number> {
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  try {
    const endpoints = await up(c, say);
    const services = serviceParts(c, endpoints);
    for (const part of services) await startPart(c, part, say);
    console.log(formatEndpoints(endpoints, metricsUrls(c, services)));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    say(`stopping what was started: ${(await down(c)).join(', ') || 'nothing'}`);
    return 1;
  }
  say('running; press Ctrl-C to stop everything');
  const watch = watchParts(c, say);
  await stopped;
  clearInterval(watch);
  say(`stopping: ${(await down(c)).join(', ')}`);
  return 0;
}

/** watchParts says when a part the run started has exited (and keeps this process alive until Ctrl-C). */
function watchParts(c: StackConfig, say: (line: string) => void): NodeJS.Timeout {
  const reported = new Set<string>();
  return setInterval(() => {
    for (const name of recordedParts(c)) {
      if (runningPid(c.dir, name) === undefined && !reported.has(name)) {
        reported.add(name);
        say(`${name} has exited; its log: ${logFile(c.dir, name)}`);
      }
    }
  }, 5000);
}
