import type { Clock, Scheduler, TimerHandle } from './clock.ts';

type FakeTimer = { readonly id: number; readonly dueAt: number; readonly fn: () => void };

/**
 * FakeClock is a Clock and a Scheduler whose time only moves when a test calls advance, so specs about delays,
 * backoff and token refills run instantly and deterministically (client-go's testingclock.FakeClock); a replay steps
 * one through the history's times.
 */
export class FakeClock implements Clock, Scheduler {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, FakeTimer>();

  constructor(startMs = 0) {
    this.#now = startMs;
  }

  /** now is the fake time in ms. */
  now(): number {
    return this.#now;
  }

  /** setTimeout registers fn to run when advance reaches now + ms (a negative delay counts as 0). */
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.#nextId++;
    this.#timers.set(id, { id, dueAt: this.#now + Math.max(ms, 0), fn });
    return id;
  }

  /** clearTimeout cancels a timer; unknown or already fired handles are ignored. */
  clearTimeout(handle: TimerHandle): void {
    if (typeof handle === 'number') this.#timers.delete(handle);
  }

  /**
   * advance moves time forward by ms, firing due timers in (due time, creation) order with the clock set to each
   * timer's due time; timers scheduled by those callbacks fire too if they fall due within the window.
   */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (let timer = this.#nextDue(until); timer; timer = this.#nextDue(until)) {
      this.#timers.delete(timer.id);
      this.#now = timer.dueAt;
      timer.fn();
    }
    this.#now = until;
  }

  /** nextTimerAt is when the earliest pending timer is due, undefined when none is. */
  nextTimerAt(): number | undefined {
    return this.#nextDue(Infinity)?.dueAt;
  }

  /** pendingTimers is how many timers are scheduled and not yet fired or cleared. */
  pendingTimers(): number {
    return this.#timers.size;
  }

  #nextDue(until: number): FakeTimer | undefined {
    let next: FakeTimer | undefined;
    for (const timer of this.#timers.values()) {
      if (timer.dueAt <= until && (!next || timer.dueAt < next.dueAt)) next = timer;
    }
    return next;
  }
}
