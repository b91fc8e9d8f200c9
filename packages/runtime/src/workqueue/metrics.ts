import type { Clock } from './clock.ts';

/** GaugeMetric is a value that goes up and down by one (client-go workqueue.GaugeMetric). */
export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

/** SettableGaugeMetric is a gauge set to an absolute value (client-go workqueue.SettableGaugeMetric). */
export interface SettableGaugeMetric {
  set(value: number): void;
}

/** CounterMetric only goes up (client-go workqueue.CounterMetric). */
export interface CounterMetric {
  inc(): void;
}

/** HistogramMetric records observations, here always in seconds (client-go workqueue.HistogramMetric). */
export interface HistogramMetric {
  observe(value: number): void;
}

/**
 * WorkqueueMetricsProvider creates one queue's instruments, given the queue's name (the `name` label); it mirrors
 * client-go workqueue.MetricsProvider so adapters (metrics.prom.ts) stay dumb and this package imports no
 * metrics library. Expected series: workqueue_depth, workqueue_adds_total, workqueue_queue_duration_seconds,
 * workqueue_work_duration_seconds, workqueue_unfinished_work_seconds,
 * workqueue_longest_running_processor_seconds, workqueue_retries_total.
 */
export interface WorkqueueMetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  newRetriesMetric(name: string): CounterMetric;
}

/**
 * QueueMetrics turns workqueue events (add, get, done, retry, drop) into the provider's instruments, timing how long
 * each item waited and was worked on. Mirrors client-go's defaultQueueMetrics (plus drop, for keys removed by
 * dropWhere, which client-go has no way to do).
 */
export class QueueMetrics<T = string> {
  readonly #clock: Clock;
  readonly #depth: GaugeMetric;
  readonly #adds: CounterMetric;
  readonly #latency: HistogramMetric;
  readonly #workDuration: HistogramMetric;
  readonly #unfinishedWorkSeconds: SettableGaugeMetric;
  readonly #longestRunningProcessor: SettableGaugeMetric;
  readonly #retries: CounterMetric;
  readonly #addTimes = new Map<T, number>();
  readonly #processingStartTimes = new Map<T, number>();

  constructor(provider: WorkqueueMetricsProvider, name: string, clock: Clock) {
    this.#clock = clock;
    this.#depth = provider.newDepthMetric(name);
    this.#adds = provider.newAddsMetric(name);
    this.#latency = provider.newLatencyMetric(name);
    this.#workDuration = provider.newWorkDurationMetric(name);
    this.#unfinishedWorkSeconds = provider.newUnfinishedWorkSecondsMetric(name);
    this.#longestRunningProcessor = provider.newLongestRunningProcessorSecondsMetric(name);
    this.#retries = provider.newRetriesMetric(name);
  }

  /** add counts an item newly marked dirty and starts its queue-duration timer. */
  add(item: T): void {
    this.#adds.inc();
    this.#depth.inc();
    if (!this.#addTimes.has(item)) this.#addTimes.set(item, this.#clock.now());
  }

  /** get records how long the item waited and starts its work-duration timer. */
  get(item: T): void {
    this.#depth.dec();
    this.#processingStartTimes.set(item, this.#clock.now());
    const addedAt = this.#addTimes.get(item);
    if (addedAt === undefined) return;
    this.#latency.observe(this.#secondsSince(addedAt));
    this.#addTimes.delete(item);
  }

  /** done records how long the item was worked on. */
  done(item: T): void {
    const startedAt = this.#processingStartTimes.get(item);
    if (startedAt === undefined) return;
    this.#workDuration.observe(this.#secondsSince(startedAt));
    this.#processingStartTimes.delete(item);
  }

  /** drop forgets a dirty item removed without being handed out, so depth and queue duration stay true. */
  drop(item: T): void {
    this.#depth.dec();
    this.#addTimes.delete(item);
  }

  /** retry counts one addAfter / addRateLimited. */
  retry(): void {
    this.#retries.inc();
  }

  /** updateUnfinishedWork sets the total and the longest age of the work in progress; called periodically. */
  updateUnfinishedWork(): void {
    let total = 0;
    let oldest = 0;
    for (const startedAt of this.#processingStartTimes.values()) {
      const age = this.#secondsSince(startedAt);
      total += age;
      oldest = Math.max(oldest, age);
    }
    this.#unfinishedWorkSeconds.set(total);
    this.#longestRunningProcessor.set(oldest);
  }

  #secondsSince(startMs: number): number {
    return (this.#clock.now() - startMs) / 1000;
  }
}
