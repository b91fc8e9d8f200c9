import { Counter, exponentialBuckets, Gauge, Histogram, type Registry } from 'prom-client';
import type { WorkqueueMetricsProvider } from './metrics.ts';

/** WORKQUEUE_DURATION_BUCKETS are client-go's workqueue duration buckets in seconds: ExponentialBuckets(10e-9, 10, 12). */
export const WORKQUEUE_DURATION_BUCKETS: readonly number[] = exponentialBuckets(10e-9, 10, 12);

/**
 * PromWorkqueueMetricsProvider registers client-go's workqueue series (label `name`) on a prom-client Registry, so
 * dashboards built for kube-controller-manager read kcm-bus queues unchanged. Mirrors component-base's
 * workqueue prometheus provider (workqueueMetricsProvider). One instance per registry: series register once.
 */
export class PromWorkqueueMetricsProvider implements WorkqueueMetricsProvider {
  readonly #depth: Gauge<'name'>;
  readonly #adds: Counter<'name'>;
  readonly #latency: Histogram<'name'>;
  readonly #workDuration: Histogram<'name'>;
  readonly #unfinished: Gauge<'name'>;
  readonly #longestRunning: Gauge<'name'>;
  readonly #retries: Counter<'name'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const labelNames = ['name'] as const;
    const buckets = [...WORKQUEUE_DURATION_BUCKETS];
    this.#depth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames, registers });
    this.#adds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames,
      registers,
    });
    this.#latency = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames,
      buckets,
      registers,
    });
    this.#workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames,
      buckets,
      registers,
    });
    this.#unfinished = new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      labelNames,
      registers,
      help:
        "How many seconds of work has been done that is in progress and hasn't been observed by " +
        'work_duration. Large values indicate stuck threads.',
    });
    this.#longestRunning = new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      labelNames,
      registers,
      help: 'How many seconds has the longest running processor for workqueue been running.',
    });
    this.#retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames,
      registers,
    });
  }

  /** newDepthMetric is workqueue_depth{name}. */
  newDepthMetric(name: string) {
    return { inc: () => this.#depth.inc({ name }), dec: () => this.#depth.dec({ name }) };
  }

  /** newAddsMetric is workqueue_adds_total{name}. */
  newAddsMetric(name: string) {
    return { inc: () => this.#adds.inc({ name }) };
  }

  /** newLatencyMetric is workqueue_queue_duration_seconds{name}. */
  newLatencyMetric(name: string) {
    return { observe: (seconds: number) => this.#latency.observe({ name }, seconds) };
  }

  /** newWorkDurationMetric is workqueue_work_duration_seconds{name}. */
  newWorkDurationMetric(name: string) {
    return { observe: (seconds: number) => this.#workDuration.observe({ name }, seconds) };
  }

  /** newUnfinishedWorkSecondsMetric is workqueue_unfinished_work_seconds{name}. */
  newUnfinishedWorkSecondsMetric(name: string) {
    return { set: (seconds: number) => this.#unfinished.set({ name }, seconds) };
  }

  /** newLongestRunningProcessorSecondsMetric is workqueue_longest_running_processor_seconds{name}. */
  newLongestRunningProcessorSecondsMetric(name: string) {
    return { set: (seconds: number) => this.#longestRunning.set({ name }, seconds) };
  }

  /** newRetriesMetric is workqueue_retries_total{name}. */
  newRetriesMetric(name: string) {
    return { inc: () => this.#retries.inc({ name }) };
  }
}
