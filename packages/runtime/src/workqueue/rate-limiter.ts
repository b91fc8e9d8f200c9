import { type Backoff, backoffDelay } from '../flowcontrol/backoff.ts';
import { TokenBucket } from '../flowcontrol/token-bucket.ts';
import { type Clock, realClock } from './clock.ts';

/**
 * RateLimiter decides how long an item waits before it is retried (client-go workqueue.RateLimiter). when records
 * a failure and returns the delay in ms; forget clears an item's history once it succeeded or was given up;
 * numRequeues is how many failures the item has had.
 */
export interface RateLimiter<T = string> {
  when(item: T): number;
  forget(item: T): void;
  numRequeues(item: T): number;
}

/**
 * ItemExponentialFailureRateLimiter delays an item baseDelay * 2^failures ms, capped at maxDelay, without jitter (the
 * runtime's Backoff); each item backs off on its own. Mirrors client-go ItemExponentialFailureRateLimiter.When.
 */
export class ItemExponentialFailureRateLimiter<T = string> implements RateLimiter<T> {
  readonly #failures = new Map<T, number>();
  readonly #backoff: Backoff;

  constructor(baseDelayMs: number, maxDelayMs: number) {
    this.#backoff = { durationMs: baseDelayMs, factor: 2, jitter: 0, capMs: maxDelayMs };
  }

  /** when returns the item's next backoff and counts one more failure. */
  when(item: T): number {
    const exp = this.#failures.get(item) ?? 0;
    this.#failures.set(item, exp + 1);
    return backoffDelay(this.#backoff, exp);
  }

  /** forget resets the item's backoff to baseDelay. */
  forget(item: T): void {
    this.#failures.delete(item);
  }

  /** numRequeues is how many times when was called for the item since it was last forgotten. */
  numRequeues(item: T): number {
    return this.#failures.get(item) ?? 0;
  }
}

/**
 * BucketRateLimiter bounds the overall retry rate, whatever the item, with a token bucket (client-go
 * BucketRateLimiter over golang.org/x/time/rate). It keeps no per-item history: numRequeues is always 0.
 */
export class BucketRateLimiter<T = string> implements RateLimiter<T> {
  readonly #bucket: TokenBucket;

  constructor(bucket: TokenBucket) {
    this.#bucket = bucket;
  }

  /** when reserves one token and returns how long to wait for it (Limiter.Reserve().Delay()). */
  when(_item: T): number {
    return this.#bucket.reserve();
  }

  /** forget does nothing: the bucket is shared by all items. */
  forget(_item: T): void {}

  /** numRequeues is always 0: the bucket does not track items. */
  numRequeues(_item: T): number {
    return 0;
  }
}

/**
 * MaxOfRateLimiter asks every limiter and returns the worst (longest) delay; forget reaches all of them
 * (client-go MaxOfRateLimiter). With a token bucket inside, burst can look exceeded when some items were
 * separately delayed longer.
 */
export class MaxOfRateLimiter<T = string> implements RateLimiter<T> {
  readonly #limiters: readonly RateLimiter<T>[];

  constructor(...limiters: readonly RateLimiter<T>[]) {
    this.#limiters = limiters;
  }

  /** when calls every limiter (each records the failure) and returns the longest delay. */
  when(item: T): number {
    return this.#limiters.reduce((max, limiter) => Math.max(max, limiter.when(item)), 0);
  }

  /** forget forgets the item in every limiter. */
  forget(item: T): void {
    for (const limiter of this.#limiters) limiter.forget(item);
  }

  /** numRequeues is the largest count any limiter reports. */
  numRequeues(item: T): number {
    return this.#limiters.reduce((max, limiter) => Math.max(max, limiter.numRequeues(item)), 0);
  }
}

/** DEFAULT_BASE_DELAY_MS is the first per-item backoff of defaultControllerRateLimiter (5 ms), doubled per failure. */
export const DEFAULT_BASE_DELAY_MS = 5;
/** DEFAULT_MAX_DELAY_MS caps the per-item backoff of defaultControllerRateLimiter at 1000 s. */
export const DEFAULT_MAX_DELAY_MS = 1_000_000;
/** DEFAULT_RETRY_QPS is the overall retry rate of defaultControllerRateLimiter (10 per second). */
export const DEFAULT_RETRY_QPS = 10;
/** DEFAULT_RETRY_BURST is the overall retry burst of defaultControllerRateLimiter (100). */
export const DEFAULT_RETRY_BURST = 100;

/**
 * defaultControllerRateLimiter is the limiter every controller's queue uses unless told otherwise: per-item
 * exponential backoff (5 ms → 1000 s, or `backoff`'s) and an overall 10 qps / 100 burst bucket, whichever waits
 * longer. Mirrors client-go DefaultControllerRateLimiter, and with a backoff the MaxOf limiters upstream's
 * endpointslice controller builds the same way.
 */
export function defaultControllerRateLimiter<T = string>(
  clock: Clock = realClock,
  backoff: { readonly baseDelayMs: number; readonly maxDelayMs: number } = {
    baseDelayMs: DEFAULT_BASE_DELAY_MS,
    maxDelayMs: DEFAULT_MAX_DELAY_MS,
  },
): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(backoff.baseDelayMs, backoff.maxDelayMs),
    new BucketRateLimiter<T>(new TokenBucket(DEFAULT_RETRY_QPS, DEFAULT_RETRY_BURST, clock)),
  );
}
