import type { Clock } from '@kcm-bus/runtime/workqueue/clock.ts';
import { type CoreEvent, getSpamKey } from './core-event.ts';
import { LruCache } from './lru-cache.ts';

/**
 * PassiveBucket is flowcontrol's token-bucket PassiveRateLimiter: full at start, refilled at qps up to burst, and
 * tryAccept takes a token only if one is there (no debt, unlike the request budget's TokenBucket.reserve).
 */
class PassiveBucket {
  readonly #qps: number;
  readonly #burst: number;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, now: number) {
    this.#qps = qps;
    this.#burst = burst;
    this.#tokens = burst;
    this.#last = now;
  }

  /** tryAccept takes a token if one is available at now (ms). Mirrors rate.Limiter.AllowN(now, 1). */
  tryAccept(now: number): boolean {
    this.#tokens = Math.min(this.#burst, this.#tokens + (Math.max(now - this.#last, 0) / 1000) * this.#qps);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/**
 * EventSourceObjectSpamFilter throttles what one source may say about one object: a token bucket per spam key
 * (burst, refilled at qps), the buckets held in an LRU. Mirrors client-go EventSourceObjectSpamFilter.Filter.
 */
export class EventSourceObjectSpamFilter {
  readonly #cache: LruCache<string, PassiveBucket>;
  readonly #burst: number;
  readonly #qps: number;
  readonly #clock: Clock;

  constructor(lruCacheSize: number, burst: number, qps: number, clock: Clock) {
    this.#cache = new LruCache(lruCacheSize);
    this.#burst = burst;
    this.#qps = qps;
    this.#clock = clock;
  }

  /** filter is true when the event must be dropped: its source and object have no token left. */
  filter(event: CoreEvent): boolean {
    const key = getSpamKey(event);
    const now = this.#clock.now();
    const bucket = this.#cache.get(key) ?? new PassiveBucket(this.#qps, this.#burst, now);
    const drop = !bucket.tryAccept(now);
    this.#cache.add(key, bucket);
    return drop;
  }
}
