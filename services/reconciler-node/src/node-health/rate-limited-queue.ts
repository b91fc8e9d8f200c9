/*
 * scheduler/rate_limited_queue.go as pure code: times are epoch milliseconds passed in by the caller (the injected
 * clock), so a test steps time by hand and a reconcile uses its ReconcileInput.now.
 */
import { TokenBucket } from '@kcm-bus/runtime/flowcontrol/index.ts';

/** EVICTION_RATE_LIMITER_BURST is scheduler.EvictionRateLimiterBurst: the burst of every zone's limiter. */
export const EVICTION_RATE_LIMITER_BURST = 1;

/** NODE_EVICTION_PERIOD_MS is scheduler.NodeEvictionPeriod: how often upstream runs doNoExecuteTaintingPass. */
export const NODE_EVICTION_PERIOD_MS = 100;

/** RateLimiter is the part of flowcontrol.RateLimiter a queue uses, on an injected clock. */
export interface RateLimiter {
  /** tryAccept takes a token if one is available at `nowMs` (TryAccept). */
  tryAccept(nowMs: number): boolean;
  /** qps is the limiter's rate (QPS); the never limiter says 1, as flowcontrol's fakeNeverRateLimiter does. */
  qps(): number;
  /** nextAcceptMs is when a token will be available (Infinity: never). */
  nextAcceptMs(nowMs: number): number;
}

/**
 * tokenBucketRateLimiter mirrors flowcontrol.NewTokenBucketRateLimiter(qps, burst): the runtime's TokenBucket, full
 * at startMs and told the time of every call (its clock only dates the start: the queue's time is its caller's).
 */
export function tokenBucketRateLimiter(qps: number, burst: number, startMs: number): RateLimiter {
  const bucket = new TokenBucket(qps, burst, { now: () => startMs });
  return {
    tryAccept: (nowMs) => bucket.tryAccept(1, nowMs),
    qps: () => qps,
    nextAcceptMs: (nowMs) => nowMs + bucket.delay(1, nowMs),
  };
}

/** neverRateLimiter mirrors flowcontrol.NewFakeNeverRateLimiter: it accepts nothing and reports qps 1. */
export function neverRateLimiter(): RateLimiter {
  return { tryAccept: () => false, qps: () => 1, nextAcceptMs: () => Infinity };
}

/** TimedValue mirrors scheduler.TimedValue: a value (a node name) with its uid, when it was added and when it is due. */
export type TimedValue = {
  readonly value: string;
  readonly uid: string;
  readonly addedAt: number;
  readonly processAt: number;
};

/** ActionResult is what an ActionFunc answers: done, or retry no sooner than waitMs from now. */
export type ActionResult = { readonly done: boolean; readonly waitMs: number };

/**
 * RateLimitedTimedQueue mirrors scheduler.RateLimitedTimedQueue: a UniqueQueue (a value is queued at most once
 * until Remove; processed values stay in the set) ordered by processAt, drained by Try under a rate limiter.
 */
export class RateLimitedTimedQueue {
  #queue: TimedValue[] = [];
  readonly #set = new Set<string>();
  #limiter: RateLimiter;

  constructor(limiter: RateLimiter) {
    this.#limiter = limiter;
  }

  /** add mirrors Add: queues the value due now unless it is in the set; true when added. */
  add(value: string, uid: string, nowMs: number): boolean {
    if (this.#set.has(value)) return false;
    this.#set.add(value);
    this.#push({ value, uid, addedAt: nowMs, processAt: nowMs });
    return true;
  }

  /** remove mirrors Remove: drops the value from the queue and the set (it may be added again); false if not in the set. */
  remove(value: string): boolean {
    if (!this.#set.delete(value)) return false;
    this.#queue = this.#queue.filter((v) => v.value !== value);
    return true;
  }

  /** clear mirrors Clear. */
  clear(): void {
    this.#queue = [];
    this.#set.clear();
  }

  /** size is the number of values waiting to be processed. */
  size(): number {
    return this.#queue.length;
  }

  /**
   * try mirrors Try: while the head is due and the limiter gives a token, run fn on it; done leaves it in the set
   * only (RemoveFromQueue), not done puts it back due at now + waitMs (+1 ns, as upstream). A head `blocked`
   * says is not ready (not upstream: kcm-bus's unobserved status write) stops the pass before taking a token.
   */
  try(
    nowMs: number,
    fn: (value: TimedValue) => ActionResult,
    blocked: (value: TimedValue) => boolean = () => false,
  ): void {
    for (let head = this.#queue[0]; head !== undefined; head = this.#queue[0]) {
      if (blocked(head) || !this.#limiter.tryAccept(nowMs) || nowMs < head.processAt) return;
      const { done, waitMs } = fn(head);
      this.#queue = this.#queue.filter((v) => v !== head);
      if (!done && this.#set.has(head.value)) this.#push({ ...head, processAt: nowMs + waitMs + 1e-6 });
    }
  }

  /** nextDueMs is when try can next process something: the head's processAt or the next token, whichever is later. */
  nextDueMs(nowMs: number): number | undefined {
    const head = this.#queue[0];
    if (head === undefined) return undefined;
    const at = Math.max(head.processAt, this.#limiter.nextAcceptMs(nowMs));
    return Number.isFinite(at) ? at : undefined;
  }

  /** qps is the current limiter's rate (for tests and logs). */
  qps(): number {
    return this.#limiter.qps();
  }

  /**
   * swapLimiter mirrors SwapLimiter: nothing when the rate is the same; qps <= 0 stops the queue (the never
   * limiter); otherwise a new token bucket, drained once when the old limiter had no token left.
   */
  swapLimiter(qps: number, nowMs: number): void {
    if (this.#limiter.qps() === qps) return;
    if (qps <= 0) {
      this.#limiter = neverRateLimiter();
      return;
    }
    const next = tokenBucketRateLimiter(qps, EVICTION_RATE_LIMITER_BURST, nowMs);
    if (!this.#limiter.tryAccept(nowMs)) next.tryAccept(nowMs);
    this.#limiter = next;
  }

  #push(v: TimedValue): void {
    const i = this.#queue.findIndex((q) => q.processAt > v.processAt);
    this.#queue.splice(i < 0 ? this.#queue.length : i, 0, v);
  }
}
