import { setTimeout as sleep } from 'node:timers/promises';

/**
 * waitFor polls a condition until it returns a value other than undefined/false, or fails after the
 * deadline with what it was waiting for and the last error seen. Tests against the real stack wait for
 * conditions like this, never for fixed sleeps: the machine is 2 shared cores running a control plane.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { readonly timeoutMs?: number; readonly intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    await sleep(opts.intervalMs ?? 250);
  }
  throw new Error(
    `timed out after ${opts.timeoutMs ?? 120_000} ms waiting for ${what}` +
      (last ? `; last error: ${String(last)}` : ''),
  );
}

/**
 * waitForSteady polls a snapshot until `done` holds and three polls in a row (a second apart by default) return
 * the same JSON, and returns it: the end state of a script, once the controllers stopped changing it.
 */
export async function waitForSteady<T>(
  what: string,
  snapshot: () => Promise<T>,
  done: (value: T) => boolean,
  opts: { readonly timeoutMs?: number; readonly intervalMs?: number } = {},
): Promise<T> {
  let last = '';
  let same = 0;
  let held = false;
  return waitFor(
    `${what} steady`,
    async () => {
      const value = await snapshot();
      held = done(value);
      same = held && JSON.stringify(value) === last ? same + 1 : 0;
      last = JSON.stringify(value);
      return same >= 2 ? value : undefined;
    },
    { timeoutMs: opts.timeoutMs ?? 120_000, intervalMs: opts.intervalMs ?? 1000 },
  ).catch((err: unknown) => {
    // A timeout says what the last poll saw, so a run that never settles can be read afterwards.
    throw new Error(
      `${(err as Error).message}; last snapshot (${held ? 'done, but still changing' : 'not done'}): ${last}`,
      { cause: err },
    );
  });
}
