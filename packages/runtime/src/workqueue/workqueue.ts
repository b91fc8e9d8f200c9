import { type Clock, realClock, realScheduler, type Scheduler, type TimerHandle } from './clock.ts';
import { DelayedAdds } from './delayed-adds.ts';
import { QueueMetrics, type WorkqueueMetricsProvider } from './metrics.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.ts';

/**
 * WorkqueueOptions configures a Workqueue. name labels its metrics; rateLimiter defaults to
 * defaultControllerRateLimiter; clock and scheduler (which must share a time base) default to the real ones;
 * metricsProvider is optional; unfinishedWorkUpdatePeriodMs is client-go's 500 ms.
 */
export type WorkqueueOptions<T> = {
  readonly name: string;
  readonly rateLimiter?: RateLimiter<T>;
  readonly clock?: Clock;
  readonly scheduler?: Scheduler;
  readonly metricsProvider?: WorkqueueMetricsProvider;
  readonly unfinishedWorkUpdatePeriodMs?: number;
};

/**
 * Workqueue is client-go's rate-limiting delaying workqueue (queue.go, delaying_queue.go, rate_limiting_queue.go):
 * a key added while queued collapses into one (the dirty set); a key being processed is never handed to a second
 * worker, and if re-added meanwhile it is queued again on done; otherwise FIFO. Unlike client-go, once shut down
 * get() resolves undefined even if keys are still queued: they are re-derived from Kafka by whoever owns them next.
 * Timers (delays, metrics) stop on shutDown.
 */
export class Workqueue<T = string> {
  readonly #queue = new Set<T>();
  readonly #dirty = new Set<T>();
  readonly #processing = new Set<T>();
  readonly #rateLimited = new Set<T>();
  readonly #getters: ((key: T | undefined) => void)[] = [];
  readonly #drainers: (() => void)[] = [];
  readonly #rateLimiter: RateLimiter<T>;
  readonly #scheduler: Scheduler;
  readonly #delayed: DelayedAdds<T>;
  readonly #metrics: QueueMetrics<T> | undefined;
  #shuttingDown = false;
  #metricsTimer: TimerHandle | undefined;

  constructor(options: WorkqueueOptions<T>) {
    const clock = options.clock ?? realClock;
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(clock);
    this.#delayed = new DelayedAdds<T>(clock, this.#scheduler, (key) => this.add(key));
    const provider = options.metricsProvider;
    this.#metrics = provider && new QueueMetrics<T>(provider, options.name, clock);
    if (this.#metrics) this.#updateUnfinishedWorkLoop(this.#metrics, options.unfinishedWorkUpdatePeriodMs ?? 500);
  }

  /** add marks key as needing processing; a no-op if it already is, or once shut down. Mirrors Type.Add. */
  add(key: T): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#metrics?.add(key);
    this.#dirty.add(key);
    if (!this.#processing.has(key)) this.#enqueue(key);
  }

  /**
   * get resolves the next key to process, waiting for one if none is queued, or undefined once shut down (the
   * worker should exit). The key is the caller's until it calls done(key). Mirrors Type.Get.
   */
  get(): Promise<T | undefined> {
    if (this.#shuttingDown) return Promise.resolve(undefined);
    const next = this.#queue.values().next();
    if (next.done) return new Promise((resolve) => this.#getters.push(resolve));
    this.#queue.delete(next.value);
    this.#handOut(next.value);
    return Promise.resolve(next.value);
  }

  /** done releases a key got from get; if it was re-added meanwhile, it is queued again. Mirrors Type.Done. */
  done(key: T): void {
    if (!this.#processing.delete(key)) return;
    this.#metrics?.done(key);
    if (this.#dirty.has(key)) this.#enqueue(key);
    if (this.#processing.size === 0) this.#drainers.splice(0).forEach((resolve) => resolve());
  }

  /** addAfter adds key once delayMs have passed (at once if delayMs <= 0). Mirrors delayingType.AddAfter. */
  addAfter(key: T, delayMs: number): void {
    if (this.#shuttingDown) return;
    this.#metrics?.retry();
    if (delayMs <= 0) return this.add(key);
    this.#delayed.add(key, delayMs);
  }

  /** addRateLimited adds key when the rate limiter says so. Mirrors rateLimitingType.AddRateLimited. */
  addRateLimited(key: T): void {
    this.#rateLimited.add(key);
    this.addAfter(key, this.#rateLimiter.when(key));
  }

  /** forget ends the key's retry history (after success or giving up); done must still be called. */
  forget(key: T): void {
    this.#rateLimited.delete(key);
    this.#rateLimiter.forget(key);
  }

  /** numRequeues is how many times the key was rate-limited since it was last forgotten. */
  numRequeues(key: T): number {
    return this.#rateLimiter.numRequeues(key);
  }

  /** forgetWhere forgets the retry history of every matching key (e.g. keys of a revoked partition); returns how many. */
  forgetWhere(pred: (key: T) => boolean): number {
    const matching = [...this.#rateLimited].filter(pred);
    for (const key of matching) this.forget(key);
    return matching.length;
  }

  /**
   * dropWhere removes every matching key from the queue and from the delayed adds (e.g. keys of a revoked
   * partition) and returns how many distinct keys it dropped. Keys being processed stay with their worker but are
   * not queued again on done.
   */
  dropWhere(pred: (key: T) => boolean): number {
    const dropped = new Set<T>(this.#delayed.dropWhere(pred));
    for (const key of [...this.#dirty].filter(pred)) {
      this.#dirty.delete(key);
      this.#queue.delete(key);
      this.#metrics?.drop(key);
      dropped.add(key);
    }
    return dropped.size;
  }

  /** len is how many keys wait in the queue (not counting those being processed or delayed). */
  len(): number {
    return this.#queue.size;
  }

  /** shuttingDown tells whether shutDown or shutDownWithDrain was called. */
  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /**
   * shutDown stops the queue at once: adds are ignored, delayed adds are cancelled, waiting and future get()s
   * resolve undefined, and a pending shutDownWithDrain stops waiting. Mirrors Type.ShutDown.
   */
  shutDown(): void {
    this.#shutDown();
    this.#drainers.splice(0).forEach((resolve) => resolve());
  }

  /**
   * shutDownWithDrain shuts down like shutDown, then resolves once every key handed out has been done (resolves
   * at once if none is in flight). Workers must call done for it to resolve. Mirrors Type.ShutDownWithDrain.
   */
  shutDownWithDrain(): Promise<void> {
    this.#shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainers.push(resolve));
  }

  #shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#delayed.clear();
    if (this.#metricsTimer !== undefined) this.#scheduler.clearTimeout(this.#metricsTimer);
    this.#getters.splice(0).forEach((resolve) => resolve(undefined));
  }

  /** enqueue gives a dirty, idle key to a waiting worker, or queues it when no worker waits. */
  #enqueue(key: T): void {
    const getter = this.#shuttingDown ? undefined : this.#getters.shift();
    if (!getter) return void this.#queue.add(key);
    this.#handOut(key);
    getter(key);
  }

  #handOut(key: T): void {
    this.#metrics?.get(key);
    this.#processing.add(key);
    this.#dirty.delete(key);
  }

  /** #updateUnfinishedWorkLoop refreshes the unfinished-work gauges every periodMs until shutdown (upstream's name). */
  #updateUnfinishedWorkLoop(metrics: QueueMetrics<T>, periodMs: number): void {
    this.#metricsTimer = this.#scheduler.setTimeout(() => {
      metrics.updateUnfinishedWork();
      this.#updateUnfinishedWorkLoop(metrics, periodMs);
    }, periodMs);
  }
}
