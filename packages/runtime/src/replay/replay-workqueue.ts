import type { RetryBackoff } from '../controller/declaration.ts';
import type { FakeClock } from '../workqueue/fake-clock.ts';
import { defaultControllerRateLimiter } from '../workqueue/rate-limiter.ts';
import { Workqueue } from '../workqueue/workqueue.ts';

/**
 * ReplayWorkqueue is the runtime's Workqueue (the live queue's rate limiter) on the replay's FakeClock, with two
 * things a replay needs: a key added while a history record is fed is taken up only once the record was handed over
 * whole, or batchMs later (the records of one consumed batch land in the stores before the key syncs, so a burst is
 * one sync, as in the running controller; adding it again keeps its first time), and `settled` tells when the
 * workers have nothing left to do at the clock's time.
 */
export class ReplayWorkqueue extends Workqueue<string> {
  readonly #batchMs: number;
  /** #held: the keys added while a record is fed, when they are added as soon as it was (batchMs 0). */
  #held: string[] | undefined;
  #busy = 0;

  constructor(clock: FakeClock, batchMs: number, retryBackoff?: RetryBackoff) {
    super({ name: 'replay', clock, scheduler: clock, rateLimiter: defaultControllerRateLimiter(clock, retryBackoff) });
    this.#batchMs = batchMs;
  }

  /** add adds the key now; while a record is fed, once it was, or batchMs later. */
  override add(key: string): void {
    if (this.#held === undefined) super.add(key);
    else if (this.#batchMs > 0) this.addAfter(key, this.#batchMs);
    else this.#held.push(key);
  }

  /** get hands a key to a worker, counting it busy until done. */
  override async get(): Promise<string | undefined> {
    const key = await super.get();
    if (key !== undefined) this.#busy++;
    return key;
  }

  /** done releases the worker's key. */
  override done(key: string): void {
    super.done(key);
    this.#busy--;
  }

  /** feeding runs `feed` (a record handed to the Controller) with its adds held back. */
  async feeding(feed: () => Promise<void>): Promise<void> {
    const held: string[] = [];
    this.#held = held;
    try {
      await feed();
    } finally {
      this.#held = undefined;
      for (const key of held) super.add(key);
    }
  }

  /**
   * settled resolves once no key is queued or being synced. The replay's ports answer within the same turn of the
   * event loop, so what a sync starts is over by the next one.
   */
  async settled(): Promise<void> {
    do await new Promise((resolve) => setImmediate(resolve));
    while (this.#busy > 0 || this.len() > 0);
  }
}
