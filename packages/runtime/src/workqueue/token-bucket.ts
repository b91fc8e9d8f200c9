import type { Clock } from './clock.ts';

/**
 * TokenBucket is golang.org/x/time/rate's Limiter reduced to Reserve: it holds up to burst tokens, refills qps per
 * second, and reserve() takes one token now, going into debt when empty, so callers queue fairly behind each other.
 * It backs BucketRateLimiter (retry speed) and the writer's --kube-api-qps / --kube-api-burst. qps may be Infinity
 * (no limit).
 */
export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, clock: Clock) {
    if (!(qps > 0)) throw new RangeError(`TokenBucket qps must be > 0 (or Infinity), got ${qps}`);
    if (!(burst >= 1) && qps !== Infinity) throw new RangeError(`TokenBucket burst must be >= 1, got ${burst}`);
    this.#qps = qps;
    this.#burst = burst;
    this.#clock = clock;
    this.#tokens = burst;
    this.#last = clock.now();
  }

  /**
   * reserve takes one token and returns how many ms the caller must wait before acting on it: 0 while the bucket
   * has tokens, then 1000/qps ms more per reservation already in debt. Mirrors rate.Limiter.reserveN (n = 1).
   */
  reserve(): number {
    if (this.#qps === Infinity) return 0;
    const now = this.#clock.now();
    this.#tokens = this.#advance(now) - 1;
    this.#last = now;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.#qps) * 1000;
  }

  /**
   * tryTake takes one token if one is there now and says whether it did; it never goes into debt (flowcontrol's
   * passive TryAccept, rate.Limiter.AllowN(now, 1)): for callers that drop rather than wait, like the event spam filter.
   */
  tryTake(): boolean {
    if (this.#qps === Infinity) return true;
    const now = this.#clock.now();
    const tokens = this.#advance(now);
    this.#last = now;
    this.#tokens = tokens >= 1 ? tokens - 1 : tokens;
    return tokens >= 1;
  }

  /** advance is the token count at now, refilled since the last reservation and capped at burst (rate.Limiter.advance). */
  #advance(now: number): number {
    const elapsedMs = Math.max(now - this.#last, 0);
    return Math.min(this.#tokens + (elapsedMs / 1000) * this.#qps, this.#burst);
  }
}
