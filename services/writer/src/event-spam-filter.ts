import type { Clock } from '@kcm-bus/runtime/workqueue/index.ts';
import { TokenBucket } from '@kcm-bus/runtime/flowcontrol/index.ts';
import { type CoreEvent, getSpamKey } from './core-event.ts';
import { LruCache } from './lru-cache.ts';

/**
 * EventSourceObjectSpamFilter throttles what one source may say about one object: a token bucket per spam key
 * (burst, refilled at qps), the buckets held in an LRU. Mirrors client-go EventSourceObjectSpamFilter.Filter.
 */
export class EventSourceObjectSpamFilter {
  readonly #cache: LruCache<string, TokenBucket>;
  readonly #burst: number;
  readonly #qps: number;
  readonly #clock: Clock;

  constructor(lruCacheSize: number, burst: number, qps: number, clock: Clock) {
    this.#cache = new LruCache(lruCacheSize);
    this.#burst = burst;
    this.#qps = qps;
    this.#clock = clock;
  }

  /** size is the number of token buckets held (at most lruCacheSize). */
  get size(): number {
    return this.#cache.size;
  }

  /** filter is true when the event must be dropped: its source and object have no token left. */
  filter(event: CoreEvent): boolean {
    const key = getSpamKey(event);
    const bucket = this.#cache.get(key) ?? new TokenBucket(this.#qps, this.#burst, this.#clock);
    const drop = !bucket.tryAccept();
    this.#cache.add(key, bucket);
    return drop;
  }
}
