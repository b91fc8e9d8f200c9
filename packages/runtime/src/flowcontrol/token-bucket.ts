import type { Clock, Scheduler } from '../workqueue/clock.ts';

/**
 * TokenBucket is client-go's flowcontrol token bucket rate limiter (NewTokenBucketRateLimiterWithClock) over
 * golang.org/x/time/rate's Limiter: it starts full with burst tokens and refills qps tokens per second up to burst.
 * A caller takes n tokens at a time and either waits its turn (reserve, wait: a reservation goes into debt, so callers
 * queue fairly behind each other), is told no (tryAccept: never into debt), or is told when n would be there (delay).
 * Every call reads the clock unless given its time (rate's AllowN(t, n), ReserveN(t, n): node lifecycle passes the
 * time of its pass). A time before the last one refills nothing and does not move the last one back, where rate's
 * advance would (only a wall clock steps back). qps may be Infinity (no limit, any burst).
 */
export class TokenBucket {
  /** qps is the refill rate, tokens per second (Limit). */
  readonly qps: number;
  /** burst is the most tokens the bucket holds (Burst). */
  readonly burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, clock: Clock) {
    if (!(qps > 0)) throw new RangeError(`TokenBucket qps must be > 0 (or Infinity), got ${qps}`);
    if (!(burst >= 1) && qps !== Infinity) throw new RangeError(`TokenBucket burst must be >= 1, got ${burst}`);
    this.qps = qps;
    this.burst = burst;
    this.#clock = clock;
    this.#tokens = burst;
    this.#last = clock.now();
  }

  /**
   * tryAccept takes n tokens if they are there at nowMs and says whether it did; a refusal takes nothing (flowcontrol's
   * TryAccept, rate.Limiter.AllowN): for callers that drop or look again rather than wait.
   */
  tryAccept(n = 1, nowMs: number = this.#clock.now()): boolean {
    if (this.qps === Infinity) return true;
    const tokens = this.#advance(nowMs);
    if (tokens < n) return false;
    this.#tokens -= n;
    return true;
  }

  /**
   * reserve takes n tokens at nowMs, going into debt when they are not there, and returns how many ms the caller must
   * wait before acting on them: 0 while the bucket holds them, then 1000/qps ms per token of debt
   * (rate.Limiter.ReserveN(t, n).Delay()). n above burst could never be served: a RangeError, as rate refuses it.
   */
  reserve(n = 1, nowMs: number = this.#clock.now()): number {
    if (this.qps === Infinity) return 0;
    if (n > this.burst) throw new RangeError(`cannot reserve ${n} tokens of a bucket of burst ${this.burst}`);
    this.#tokens = this.#advance(nowMs) - n;
    return this.#tokens >= 0 ? 0 : this.#msFor(-this.#tokens);
  }

  /** delay is how many ms from nowMs until n tokens are there, taking none (0: now); Infinity when n exceeds burst. */
  delay(n = 1, nowMs: number = this.#clock.now()): number {
    if (this.qps === Infinity) return 0;
    if (n > this.burst) return Infinity;
    const tokens = this.#tokensAt(nowMs);
    return tokens >= n ? 0 : this.#msFor(n - tokens);
  }

  /** wait resolves once the caller may act on n tokens, reserved now (flowcontrol's Wait, rate.Limiter.WaitN). */
  wait(scheduler: Scheduler, n = 1): Promise<void> {
    const waitMs = this.reserve(n);
    if (waitMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      scheduler.setTimeout(resolve, waitMs);
    });
  }

  /** #advance refills the bucket up to nowMs and returns the tokens it then holds. */
  #advance(nowMs: number): number {
    this.#tokens = this.#tokensAt(nowMs);
    this.#last = Math.max(this.#last, nowMs);
    return this.#tokens;
  }

  /** #tokensAt is what the bucket holds at nowMs: refilled since the last update, capped at burst (rate.Limiter.advance). */
  #tokensAt(nowMs: number): number {
    const elapsedMs = Math.max(nowMs - this.#last, 0);
    return Math.min(this.#tokens + (elapsedMs / 1000) * this.qps, this.burst);
  }

  /** #msFor is how long the bucket takes to refill `tokens` (rate's durationFromTokens). */
  #msFor(tokens: number): number {
    return (tokens / this.qps) * 1000;
  }
}
