import { setTimeout as sleep } from 'node:timers/promises';
import { assertPortsFree } from './ports.ts';
import { isAlive, logFile, logTail, runningPid, startProcess } from './procs.ts';
import type { StackConfig } from './config.ts';
import type { Part } from './parts.ts';

/** PartFailedError says which part did not come up, where its log is and what it last said. */
export class PartFailedError extends Error {}

/**
 * startPart starts a part unless it already runs, waits until its readiness probe passes, and then configures it
 * (every time: configure is idempotent). A part that exits, or is not ready in time, fails with its log's path and
 * last lines.
 */
export async function startPart(c: StackConfig, part: Part, say: (line: string) => void): Promise<void> {
  await startedPart(c, part, say);
  await part.configure?.();
}

async function startedPart(c: StackConfig, part: Part, say: (line: string) => void): Promise<void> {
  const running = runningPid(c.dir, part.name);
  if (running !== undefined) {
    if (await part.ready()) return;
    say(`${part.name}: running as pid ${running}, waiting until ready`);
    return waitReady(c, part, running);
  }
  await assertPortsFree(part.ports.map((name) => ({ name: `${part.name} ${name}`, port: c.ports[name] })));
  await part.prepare?.();
  const started = Date.now();
  const pid = startProcess(c.dir, part.launch);
  await waitReady(c, part, pid);
  say(`${part.name}: ready in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${pid})`);
}

async function waitReady(c: StackConfig, part: Part, pid: number): Promise<void> {
  const deadline = Date.now() + part.readyTimeoutMs;
  while (Date.now() < deadline) {
    if (await part.ready()) return;
    if (!isAlive(pid)) throw failure(c, part, 'exited before it was ready');
    await sleep(200);
  }
  throw failure(c, part, `was not ready within ${part.readyTimeoutMs / 1000} s`);
}

function failure(c: StackConfig, part: Part, what: string): PartFailedError {
  return new PartFailedError(
    `${part.name} ${what}\nlog: ${logFile(c.dir, part.name)}\n--- last lines ---\n${logTail(c.dir, part.name)}`,
  );
}
