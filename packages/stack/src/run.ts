import type { StackConfig } from './config.ts';
import { down, up } from './stack.ts';
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
  await stopped;
  say(`stopping: ${(await down(c)).join(', ')}`);
  return 0;
}
