/**
 * MAX_POLL_INTERVAL_MS is how long one batch may keep its member in the group by background heartbeats: the Java
 * consumer's max.poll.interval.ms default, after which a member whose handler is stuck leaves and its partitions go
 * to the others.
 */
export const MAX_POLL_INTERVAL_MS = 300_000;

/** BeatOptions are the heartbeat.interval.ms of the member's group and the longest a batch is kept alive by it. */
export type BeatOptions = { readonly intervalMs: number; readonly maxMs?: number };

/**
 * beatWhile runs a batch's work while heartbeating in the background every half heartbeat interval (kafkajs sends
 * one only when the interval has passed since the last), as the Java consumer's heartbeat thread does. kafkajs 2.2.4
 * heartbeats only between fetches and between the records a handler passes, so a handler waiting on one record longer
 * than the session (a publish whose partition leader died, until the controller fences the broker: 9 s against the
 * group's 6 s session) lost its member: the group rebalanced and every member restored its partitions. A background
 * heartbeat that fails is dropped: the next one between records sends again and meets the same answer, which kafkajs
 * handles there (a rebalance rejoins). Past o.maxMs (MAX_POLL_INTERVAL_MS) the batch is no longer kept alive.
 */
export async function beatWhile<T>(heartbeat: () => Promise<void>, o: BeatOptions, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const maxMs = o.maxMs ?? MAX_POLL_INTERVAL_MS;
  const timer = setInterval(
    () => {
      if (Date.now() - started > maxMs) clearInterval(timer);
      else heartbeat().catch(() => undefined);
    },
    Math.max(1, o.intervalMs / 2),
  );
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
