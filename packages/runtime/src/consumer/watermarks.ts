import type { TopicPartition } from '../bus/bus.ts';

/**
 * Watermarks keep, per input partition, the newest time up to which the watcher had published everything it had read
 * of it: a watermark record's time, or any record's own observedAt (a record read at t comes after all that was read
 * before t). An input is known complete up to the oldest of its partitions' newest times; a partition without one yet
 * leaves the input's time unknown. The pipeline's own clock: a stall anywhere between the API and this member stops
 * it, where wall time goes on.
 */
export class Watermarks {
  readonly #newest = new Map<string, Map<number, number>>();

  /** observe records a time one partition is known complete up to; an older one read late (a restore) never moves time back. */
  observe(tp: TopicPartition, observedAt: Date): void {
    const partitions = this.#newest.get(tp.topic) ?? new Map<number, number>();
    partitions.set(tp.partition, Math.max(partitions.get(tp.partition) ?? -Infinity, observedAt.getTime()));
    this.#newest.set(tp.topic, partitions);
  }

  /** watermark is the oldest newest time of these partitions of the topic, undefined if one has none yet. */
  watermark(topic: string, partitions: readonly number[]): Date | undefined {
    const newest = this.#newest.get(topic);
    if (partitions.length === 0 || newest === undefined) return undefined;
    let oldest = Infinity;
    for (const p of partitions) oldest = Math.min(oldest, newest.get(p) ?? -Infinity);
    return oldest === -Infinity ? undefined : new Date(oldest);
  }

  /** partitionWatermark is the oldest newest time of partition n over the topics (co-partitioned inputs), undefined if one has none yet. */
  partitionWatermark(topics: readonly string[], n: number): Date | undefined {
    const times = topics.map((topic) => this.watermark(topic, [n])?.getTime());
    if (times.length === 0 || times.some((at) => at === undefined)) return undefined;
    return new Date(Math.min(...(times as number[])));
  }
}
