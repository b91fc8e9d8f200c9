import type { TopicPartition } from '../bus/bus.ts';

/**
 * Watermarks keep, per input partition, the newest time up to which the watcher had published everything it had read
 * of it: a watermark record's time, or any record's own observedAt (a record read at t comes after all that was read
 * before t). An input is known complete up to the oldest of its partitions' newest times; a partition without one yet
 * leaves the input's time unknown. The pipeline's own clock: a stall anywhere between the API and this member stops
 * it, where wall time goes on.
 *
 * A record's own time counts once the batch that brought it is applied whole (hold, then settle): what the watcher
 * read in one turn (a watch's backlog after a stall) goes out in one publication, and a periodic pass that ran between
 * two of its records would judge the second's object by the first's time (node lifecycle: a renewal of the same turn,
 * not yet applied, taken for the whole stall's silence).
 */
export class Watermarks {
  readonly #newest = new Map<string, Map<number, number>>();
  readonly #held = new Map<string, Map<number, number>>();

  /** observe records a time one partition is known complete up to; an older one read late (a restore) never moves time back. */
  observe(tp: TopicPartition, observedAt: Date): void {
    newer(this.#newest, tp, observedAt.getTime());
  }

  /** hold keeps a record's own time until its batch is applied (settle). */
  hold(tp: TopicPartition, observedAt: Date): void {
    newer(this.#held, tp, observedAt.getTime());
  }

  /** settle observes the newest time held for the partition: its batch is applied. */
  settle(tp: TopicPartition): void {
    const held = this.#held.get(tp.topic)?.get(tp.partition);
    if (held === undefined) return;
    this.#held.get(tp.topic)!.delete(tp.partition);
    newer(this.#newest, tp, held);
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

/** newer sets a partition's time in `times` to `at` unless it holds a newer one. */
function newer(times: Map<string, Map<number, number>>, tp: TopicPartition, at: number): void {
  const partitions = times.get(tp.topic) ?? new Map<number, number>();
  partitions.set(tp.partition, Math.max(partitions.get(tp.partition) ?? -Infinity, at));
  times.set(tp.topic, partitions);
}
