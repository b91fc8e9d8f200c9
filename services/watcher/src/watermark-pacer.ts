/** WatermarkPacing are the pacer's tunables, in ms. */
export type WatermarkPacing = {
  /** intervalMs: the least time between two watermarks of a kind while the watched kinds change. */
  readonly intervalMs: number;
  /** idleIntervalMs: how often a kind's watermark goes out while none of the watched kinds changes. */
  readonly idleIntervalMs: number;
};

/**
 * WatermarkPacer decides when each kind of one watcher publishes its next watermark. While the watched kinds change
 * (a change within the last idleIntervalMs), every kind marks once per intervalMs, as a fixed clock did, and a change
 * after a quiet spell makes every kind due at once: a consumer holding a key at a cut (an RC just created, waiting
 * until the pods are known complete up to the time the RC was seen) waits one hop, not for the next poll. With
 * nothing changing, a kind marks once per idleIntervalMs: the freshness an idle consumer needs (node lifecycle's
 * stall guard, --max-input-staleness, judges no node on inputs older than 20 s) at a fifth of a 1 s clock's
 * transactions. Every kind is paced by the changes of all (the watcher does not know which kinds a consumer reads
 * together), except the changes of kinds that no controller reads at a cut, which the caller does not report. The
 * creation of an object that a controller syncs at a cut (an RC, a Service: `created`) makes every kind due at once
 * while changes go on too, so such a cut waits one poll, not up to intervalMs.
 */
export class WatermarkPacer {
  readonly #pacing: WatermarkPacing;
  #changedAt = -Infinity;
  #createdAt = -Infinity;
  readonly #markedAt = new Map<string, number>();
  readonly #polls = new Set<(nowMs: number) => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastPollMs: number | undefined;
  readonly #now: () => number;

  /** now is the clock (ms) the polls read: the one the kinds stamp their changes with. */
  constructor(pacing: WatermarkPacing, now: () => number = () => Date.now()) {
    if (!(pacing.intervalMs > 0) || !(pacing.idleIntervalMs >= pacing.intervalMs)) {
      throw new Error(
        `watermark pacing needs 0 < interval (${pacing.intervalMs} ms) ≤ idle interval (${pacing.idleIntervalMs} ms)`,
      );
    }
    this.#pacing = pacing;
    this.#now = now;
  }

  /** changed records that a kind published a change (a record other than a watermark) at nowMs. */
  changed(nowMs: number): void {
    this.#changedAt = Math.max(this.#changedAt, nowMs);
  }

  /** created records that a kind published the creation of an object a controller syncs at a cut, at nowMs. */
  created(nowMs: number): void {
    this.changed(nowMs);
    this.#createdAt = Math.max(this.#createdAt, nowMs);
  }

  /** due tells whether the kind's watermark should go out at nowMs. */
  due(kind: string, nowMs: number): boolean {
    const last = this.#markedAt.get(kind);
    if (last === undefined || this.#createdAt > last) return true;
    const age = nowMs - last;
    const busy = this.#changedAt >= last || nowMs - this.#changedAt < this.#pacing.idleIntervalMs;
    return age >= this.#pacing.idleIntervalMs || (busy && age >= this.#pacing.intervalMs);
  }

  /** marked records that the kind's watermark went out at nowMs. */
  marked(kind: string, nowMs: number): void {
    this.#markedAt.set(kind, nowMs);
  }

  /** pollMs is how often the kinds are polled, asking whether they are due: a tenth of the interval, at most 100 ms. */
  get pollMs(): number {
    return Math.min(100, Math.max(1, Math.floor(this.#pacing.intervalMs / 10)));
  }

  /**
   * onPoll calls poll with the clock (ms) every pollMs, every kind's from one timer, and returns poll's removal;
   * the timer runs while any poll is registered. A timer per kind woke an idle watcher eight times as often: in a
   * --cpu-prof of a watcher idle for 240 s, the polls and their timers were about a fifth of its CPU.
   */
  onPoll(poll: (nowMs: number) => void): () => void {
    this.#polls.add(poll);
    this.#timer ??= setInterval(() => {
      const nowMs = this.#now();
      if (this.#stalled(nowMs)) return;
      for (const t of this.#polls) t(nowMs);
    }, this.pollMs);
    return () => {
      this.#polls.delete(poll);
      if (this.#polls.size > 0) return;
      clearInterval(this.#timer);
      this.#timer = undefined;
      this.#lastPollMs = undefined;
    };
  }

  /**
   * #stalled tells a poll that comes over STALL_MS after the last one: the watcher's event loop was held (SIGSTOP, a
   * long GC pause, a saturated CPU), and its watch streams may hold events it has not read yet. A watermark now would
   * say the kinds are complete up to now while those unread events are older: node lifecycle would count a Lease
   * renewal still in the socket as silence. That poll is skipped; the next comes one pollMs later, after the event
   * loop read what the sockets held.
   */
  #stalled(nowMs: number): boolean {
    const last = this.#lastPollMs;
    this.#lastPollMs = nowMs;
    return last !== undefined && nowMs - last > STALL_MS;
  }
}

/** STALL_MS is how late a poll may come before the pacer takes it for a stall of the event loop (ten polls missed). */
const STALL_MS = 1000;
