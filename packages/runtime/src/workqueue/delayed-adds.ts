import type { Clock, Scheduler, TimerHandle } from './clock.ts';

type Waiting = { readonly readyAt: number; readonly timer: TimerHandle };

/**
 * DelayedAdds holds items waiting to be added to a workqueue and hands each to onReady once its time comes. An item
 * waits at most once: adding it again keeps whichever readyAt is sooner. Mirrors client-go delayingType's
 * waitingLoop and insert, with one timer per item instead of a heap and a single timer.
 */
export class DelayedAdds<T> {
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  readonly #onReady: (item: T) => void;
  readonly #waiting = new Map<T, Waiting>();

  constructor(clock: Clock, scheduler: Scheduler, onReady: (item: T) => void) {
    this.#clock = clock;
    this.#scheduler = scheduler;
    this.#onReady = onReady;
  }

  /** add makes item ready in delayMs, unless it is already waiting to be ready sooner. */
  add(item: T, delayMs: number): void {
    const readyAt = this.#clock.now() + delayMs;
    const existing = this.#waiting.get(item);
    if (existing && existing.readyAt <= readyAt) return;
    if (existing) this.#scheduler.clearTimeout(existing.timer);
    this.#schedule(item, readyAt);
  }

  /** dropWhere cancels every waiting item matching pred and returns them. */
  dropWhere(pred: (item: T) => boolean): T[] {
    const dropped = [...this.#waiting.keys()].filter(pred);
    for (const item of dropped) this.#cancel(item);
    return dropped;
  }

  /** clear cancels every waiting item (on shutdown). */
  clear(): void {
    for (const item of [...this.#waiting.keys()]) this.#cancel(item);
  }

  /** size is how many items are waiting. */
  get size(): number {
    return this.#waiting.size;
  }

  #schedule(item: T, readyAt: number): void {
    const timer = this.#scheduler.setTimeout(() => this.#fire(item), readyAt - this.#clock.now());
    this.#waiting.set(item, { readyAt, timer });
  }

  /** fire hands the item over, or waits the remainder when the timer was capped or ran early. */
  #fire(item: T): void {
    const entry = this.#waiting.get(item);
    if (!entry) return;
    if (entry.readyAt > this.#clock.now()) return this.#schedule(item, entry.readyAt);
    this.#waiting.delete(item);
    this.#onReady(item);
  }

  #cancel(item: T): void {
    const entry = this.#waiting.get(item);
    if (entry) this.#scheduler.clearTimeout(entry.timer);
    this.#waiting.delete(item);
  }
}
