import type { StackConfig } from '@kcm-bus/stack/config.ts';
import { locateAll } from '@kcm-bus/stack/obtain-all.ts';
import { controlParts, dataParts } from '@kcm-bus/stack/parts.ts';
import { stopProcess } from '@kcm-bus/stack/procs.ts';
import { assertPortsFree } from '@kcm-bus/stack/ports.ts';
import { startPart } from '@kcm-bus/stack/start.ts';
import { waitFor } from './wait.ts';

/** RestartOptions: how long the part gets to stop on SIGTERM before SIGKILL (0: killed at once), and what to do while it is down. */
export type RestartOptions = { readonly graceMs?: number; readonly whileDown?: () => void | Promise<void> };

/** restartPart stops one part of a stack by its pid and starts it again, waiting for its readiness probe. */
export async function restartPart(c: StackConfig, name: string, o: RestartOptions = {}): Promise<void> {
  const binaries = locateAll();
  const part = [...dataParts(c, binaries), ...controlParts(c, binaries)].find((p) => p.name === name);
  if (!part) throw new Error(`no stack part ${name}`);
  await stopProcess(c.dir, part.name, o.graceMs);
  await o.whileDown?.();
  // A killed process's sockets can hold its ports for a while after it is gone (FIN_WAIT): wait, do not fail.
  const ports = part.ports.map((port) => ({ name: `${part.name} ${port}`, port: c.ports[port] }));
  await waitFor(
    `the ports of ${part.name} to be free`,
    () =>
      assertPortsFree(ports).then(
        () => true,
        () => undefined,
      ),
    { timeoutMs: 180_000, intervalMs: 500 },
  );
  await startPart(c, part, () => undefined);
}
