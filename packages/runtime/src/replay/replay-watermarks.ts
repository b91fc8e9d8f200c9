import type { TopicPartition } from '../bus/bus.ts';
import { Watermarks } from '../consumer/watermarks.ts';
import { namespacePartitionKey, partitionFor } from '../partition/murmur2.ts';

/** ReplayTopics are a replayed controller's input topics: each with its partition count, and which are co-partitioned. */
export type ReplayTopics = {
  readonly partitions: ReadonlyMap<string, number>;
  readonly partitioned: readonly string[];
};

/**
 * ReplayWatermarks are the watermarks of a replay, as a member that owns every partition would read them
 * (ControllerGroup's watermark and partitionWatermark): each input partition is known complete up to the newest
 * time a watermark record or any record's own observedAt brought (Watermarks), as the history shows them so far.
 */
export class ReplayWatermarks {
  readonly #topics: ReplayTopics;
  readonly #count: number;
  readonly #watermarks = new Watermarks();

  constructor(topics: ReplayTopics) {
    this.#topics = topics;
    const first = topics.partitioned[0] ?? [...topics.partitions.keys()][0] ?? '';
    this.#count = topics.partitions.get(first) ?? 1;
  }

  /** observe records the time a record or watermark of the topic partition brought. */
  observe(tp: TopicPartition, observedAt: Date): void {
    this.#watermarks.observe(tp, observedAt);
  }

  /** watchPartitionOf is the partition an object's records are on (the watcher's partitioner, by namespace). */
  watchPartitionOf(objectKey: string): number {
    return partitionFor(namespacePartitionKey(objectKey), this.#count);
  }

  /** watermark is the time up to which the topic is complete: over all its partitions, or the key's one. */
  watermark(topic: string, key?: string): Date | undefined {
    const all = Array.from({ length: this.#topics.partitions.get(topic) ?? 1 }, (_, p) => p);
    return this.#watermarks.watermark(topic, key === undefined ? all : [this.watchPartitionOf(key)]);
  }

  /** partitionWatermark is the time up to which every co-partitioned input is complete on partition n. */
  partitionWatermark(n: number): Date | undefined {
    return this.#watermarks.partitionWatermark(this.#topics.partitioned, n);
  }
}
